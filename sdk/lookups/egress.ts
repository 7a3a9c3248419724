/** Lookups of staging configs and of egress providers and gateways. */
import type * as pulumi from "@pulumi/pulumi";
import type { EgressGatewayFilter, EgressProviderFilter } from "../../provider/api";
import { definedOnly, named, outputOf, recordSecrets, scrubbed, withoutSecrets, withSecretOutputs } from "./common";
import type { Api, Camelized, InputArgs, LookupOptions, WithoutSecrets, WithSecretOutputs } from "./common";

/** The secret fields of an egress gateway record. */
export interface EgressGatewaySecrets {
  /** The gateway's VPN configuration, which may hold a private key (a WireGuard `PrivateKey` line, OpenVPN keys). */
  readonly config?: string | null;
}

type EgressGatewayRecord = Camelized<Awaited<ReturnType<Api["egress"]["getEgressGateways"]>>[number]>;

const EGRESS_GATEWAY_SECRETS = recordSecrets<EgressGatewayRecord, EgressGatewaySecrets>({ config: true });

/** A staging config (it has no secret fields). */
export type StagingConfig = Camelized<Awaited<ReturnType<Api["staging"]["getStagingConfigs"]>>[number]>;
/** An egress provider (it has no secret fields). */
export type EgressProvider = Camelized<Awaited<ReturnType<Api["egress"]["getEgressProviders"]>>[number]>;
/** An egress gateway, as {@link getEgressGateways} returns it: without {@link EgressGatewaySecrets}. */
export type EgressGateway = WithoutSecrets<EgressGatewayRecord, EgressGatewaySecrets>;
/** An egress gateway, as {@link getEgressGatewaysOutput} returns it: {@link EgressGatewaySecrets} as secret Outputs. */
export type EgressGatewayWithSecrets = WithSecretOutputs<EgressGatewayRecord, EgressGatewaySecrets>;

// --- staging -------------------------------------------------------------------------------------

const fetchStagingConfigs = named("getStagingConfigs", async (_args: object, client) => {
  return client.staging.getStagingConfigs();
});

/** Every staging config. */
export async function getStagingConfigs(options?: LookupOptions): Promise<StagingConfig[]> {
  return (await fetchStagingConfigs({}, options)).map((c) => scrubbed(c));
}

/** {@link getStagingConfigs} as an Output. */
export function getStagingConfigsOutput(options?: LookupOptions): pulumi.Output<StagingConfig[]> {
  return outputOf(fetchStagingConfigs, (configs) => configs.map((c) => scrubbed(c)))({}, options);
}

// --- egress --------------------------------------------------------------------------------------

/** Arguments of {@link getEgressProviders}: exact matches, all optional. */
export interface GetEgressProvidersArgs {
  readonly name?: string;
  readonly egressProviderType?: string;
  readonly enabled?: boolean;
}

const fetchEgressProviders = named("getEgressProviders", async (args: GetEgressProvidersArgs = {}, client) => {
  const filter = { name: args.name, egress_provider_type: args.egressProviderType, enabled: args.enabled };
  return client.egress.getEgressProviders(definedOnly(filter) as EgressProviderFilter);
});

/** Egress providers, optionally filtered (exact matches). */
export async function getEgressProviders(args: GetEgressProvidersArgs = {}, options?: LookupOptions): Promise<EgressProvider[]> {
  return (await fetchEgressProviders(args, options)).map((p) => scrubbed(p));
}

/** {@link getEgressProviders} taking Inputs. */
export function getEgressProvidersOutput(args: InputArgs<GetEgressProvidersArgs> = {}, options?: LookupOptions): pulumi.Output<EgressProvider[]> {
  return outputOf(fetchEgressProviders, (providers) => providers.map((p) => scrubbed(p)))(args, options);
}

/** Arguments of {@link getEgressGateways}: exact matches, all optional. */
export interface GetEgressGatewaysArgs {
  readonly egressProviderId?: string;
  readonly name?: string;
  readonly country?: string;
  readonly city?: string;
  readonly enabled?: boolean;
}

const fetchEgressGateways = named("getEgressGateways", async (args: GetEgressGatewaysArgs = {}, client) => {
  const filter = {
    egress_provider_id: args.egressProviderId,
    name: args.name,
    country: args.country,
    city: args.city,
    enabled: args.enabled,
  };
  return client.egress.getEgressGateways(definedOnly(filter) as EgressGatewayFilter);
});

/**
 * Egress gateways, optionally filtered (exact matches). Leaves out {@link EgressGatewaySecrets}
 * (`config`); {@link getEgressGatewaysOutput} has it as a secret.
 */
export async function getEgressGateways(args: GetEgressGatewaysArgs = {}, options?: LookupOptions): Promise<EgressGateway[]> {
  return (await fetchEgressGateways(args, options)).map((g) => withoutSecrets(g, EGRESS_GATEWAY_SECRETS));
}

/** {@link getEgressGateways} taking Inputs; {@link EgressGatewaySecrets} (`config`) come as secret Outputs. */
export function getEgressGatewaysOutput(args: InputArgs<GetEgressGatewaysArgs> = {}, options?: LookupOptions): pulumi.Output<EgressGatewayWithSecrets[]> {
  return outputOf(fetchEgressGateways, (gateways) => gateways.map((g) => withSecretOutputs(g, EGRESS_GATEWAY_SECRETS)))(args, options);
}
