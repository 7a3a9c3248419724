/** Lookups of staging configs and of egress providers and gateways. */
import { z } from "zod";
import { EgressGateway, EgressProvider, type EgressGatewayFilter, type EgressProviderFilter } from "../api/schemas/egress";
import { StagingConfig } from "../api/schemas/staging";
import { definedOnly, NO_SECRETS, recordList } from "./common";
import { EGRESS_GATEWAY_SECRETS } from "./secrets";

/** Arguments of the getEgressProviders lookup: exact matches, all optional. */
export interface GetEgressProvidersArgs {
  readonly name?: string;
  readonly egressProviderType?: string;
  readonly enabled?: boolean;
}

/** Arguments of the getEgressGateways lookup: exact matches, all optional. */
export interface GetEgressGatewaysArgs {
  readonly egressProviderId?: string;
  readonly name?: string;
  readonly country?: string;
  readonly city?: string;
  readonly enabled?: boolean;
}

/** The lookups of staging configs and egress. */
export const EGRESS_LOOKUPS = {
  getStagingConfigs: recordList({
    description: "Every staging config.",
    args: z.strictObject({}),
    record: { schema: StagingConfig, name: "StagingConfig", secrets: NO_SECRETS },
    list: "stagingConfigs",
    fetch: async (client) => client.staging.getStagingConfigs(),
  }),

  getEgressProviders: recordList({
    description: "Egress providers, optionally filtered (exact matches).",
    args: z.strictObject({
      name: z.string().optional().describe("The provider's name."),
      egressProviderType: z.string().optional().describe("The provider's type, such as wireguard."),
      enabled: z.boolean().optional().describe("Only enabled (true) or disabled (false) providers."),
    }),
    record: { schema: EgressProvider, name: "EgressProvider", secrets: NO_SECRETS },
    list: "egressProviders",
    async fetch(client, args: GetEgressProvidersArgs = {}) {
      const filter = { name: args.name, egress_provider_type: args.egressProviderType, enabled: args.enabled };
      return client.egress.getEgressProviders(definedOnly(filter) as EgressProviderFilter);
    },
  }),

  getEgressGateways: recordList({
    description: "Egress gateways, optionally filtered (exact matches).",
    args: z.strictObject({
      egressProviderId: z.string().optional().describe("The id of the gateways' egress provider."),
      name: z.string().optional().describe("The gateway's name."),
      country: z.string().optional().describe("The gateway's country."),
      city: z.string().optional().describe("The gateway's city."),
      enabled: z.boolean().optional().describe("Only enabled (true) or disabled (false) gateways."),
    }),
    record: { schema: EgressGateway, name: "EgressGateway", secrets: EGRESS_GATEWAY_SECRETS },
    list: "egressGateways",
    async fetch(client, args: GetEgressGatewaysArgs = {}) {
      const filter = {
        egress_provider_id: args.egressProviderId,
        name: args.name,
        country: args.country,
        city: args.city,
        enabled: args.enabled,
      };
      return client.egress.getEgressGateways(definedOnly(filter) as EgressGatewayFilter);
    },
  }),
};
