/**
 * `EgressGateway`: a gateway (VPN endpoint) of an egress provider.
 *
 * API: create_egress_gateway, get_egress_gateways (filtered by id), update_egress_gateway,
 * delete_egress_gateway. Every field updates in place, the provider included (the update
 * operation takes `egress_provider_id`). `config` is a secret: the SDK marks it secret, and it
 * never appears in errors or logs; for a WireGuard gateway its `PrivateKey` line may be left out,
 * because the egress credential supplies it. Names are unique within a provider: adoption by
 * provider and name (`adopt: true`). `activeConnections` is reported, never compared.
 */
import { z } from "zod";
import type { EgressGateway as KasmEgressGateway, NewEgressGateway } from "../api/schemas/egress";
import { egressGatewayShown } from "../api/schemas/egress";
import { EGRESS_PROVIDER_REFERENCE, wholeStateWrites } from "./egress-shared";
import { ADOPT, declared, inputNames, keepSpelling, same, declareFields } from "./framework/fields";
import { requiredText } from "./framework/check-wording";
import type { KindTexts, Props, RefreshedInputs } from "./framework/types";
import { defineKind, type KindOutputs, type RecordRules } from "./framework/define-kind";
import { egressGatewayCalls } from "./egress-gateway.calls";

// --- types ---------------------------------------------------------------------------------------

/** Each input of an EgressGateway, declared once: its type, role, rule, doc and how it is sent. Nothing forces replacement. */
const EGRESS_GATEWAY_FIELDS = declareFields({
  egressProviderId: {
    ...EGRESS_PROVIDER_REFERENCE,
    doc: "The egress provider (32 hex digits or a hyphenated UUID). Changing it moves the gateway in place.",
  },
  name: { type: requiredText("name"), role: "sent", doc: "The gateway's name, unique within its provider." },
  enabled: { type: z.boolean().optional(), role: "sent", doc: "Whether the gateway is in use. Kasm's default: true." },
  country: { type: z.string().optional(), role: "sent", doc: "Where the gateway is, as shown to users." },
  city: { type: z.string().optional(), role: "sent", doc: "Where the gateway is, as shown to users." },
  config: {
    type: z.string().optional(),
    role: "sent",
    secret: true,
    doc:
      "The connection configuration (for example a WireGuard or OpenVPN config file); always stored " +
      "as a secret. For a WireGuard gateway the `PrivateKey` line may be left out: the " +
      "EgressCredential of each user supplies it.",
  },
  adopt: {
    ...ADOPT,
    doc: "Take over an existing gateway of the provider with this name (and bring it to the declared " + "state) instead of failing. Default: false.",
  },
});

/** The inputs of an EgressGateway. */
export const EgressGatewayInputs = EGRESS_GATEWAY_FIELDS.schema;
export type EgressGatewayInputs = z.infer<typeof EgressGatewayInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const EgressGatewayOutputs = z.strictObject({
  egressGatewayId: z.string().describe("The gateway's id (32 hex digits)."),
  activeConnections: z
    .number()
    .int()
    .nullable()
    .describe("Connections through the gateway when last read (refreshed by `pulumi refresh`; never causes a diff)."),
});
export type EgressGatewayOutputs = z.infer<typeof EgressGatewayOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the EgressGateway kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "A gateway of an EgressProvider. Every field updates in place. Needs Egress Gateways Create, " + "Modify, Delete and View, and Egress Providers Modify.",
  arguments: "The arguments of an EgressGateway. Inputs left out are not managed: Kasm keeps whatever they are.",
  example: [
    'const fra = new kasm.EgressGateway("fra", {',
    "  egressProviderId: vpn.egressProviderId,",
    '  name: "Frankfurt",',
    '  country: "DE",',
    '  city: "Frankfurt",',
    '  config: cfg.requireSecret("wgFrankfurt"),',
    "});",
  ].join("\n"),
  limits: "create reads the provider's gateways first, to refuse a name that exists",
};

// --- helpers -------------------------------------------------------------------------------------

/** The `target_egress_gateway` body for the declared fields, with the provider id as Kasm writes it. */
function targetGateway(inputs: EgressGatewayInputs): NewEgressGateway {
  return EGRESS_GATEWAY_FIELDS.body<NewEgressGateway>(inputs);
}

function outputs(inputs: RefreshedInputs<EgressGatewayInputs>, gateway: KasmEgressGateway): KindOutputs<EgressGatewayInputs, EgressGatewayOutputs> {
  return {
    ...declared(inputs, inputNames(EgressGatewayInputs)),
    egressGatewayId: gateway.egress_gateway_id,
    activeConnections: gateway.active_connections ?? null,
  };
}

/** The gateway's fields as inputs: what `read` reports and adoption compares. */
function currentInputs(props: RefreshedInputs<EgressGatewayInputs>, gateway: KasmEgressGateway): RefreshedInputs<EgressGatewayInputs> {
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too). A release that
  // leaves the config out of its answer shows no drift in it (and adoption, which cannot compare it
  // then, sends the update).
  const shown = egressGatewayShown(gateway);
  const current: Props = { ...shown, egressProviderId: keepSpelling(props.egressProviderId, shown.egressProviderId) };
  return current;
}

/** How a gateway is read and shown (see `RecordRules`). */
const RECORD: RecordRules<EgressGatewayInputs, EgressGatewayOutputs, KasmEgressGateway> = {
  id: (gateway) => gateway.egress_gateway_id,
  fetch: async (id, _state, context) =>
    (await context.client().egress.getEgressGateways({ egress_gateway_id: id })).find((g) => same.id(g.egress_gateway_id, id)),
  asInputs: currentInputs,
  outputs,
};

// --- provider ------------------------------------------------------------------------------------

/** The provider of EgressGateway; only `adopt` changing sends no request. */
export const egressGatewayProvider = defineKind<EgressGatewayInputs, EgressGatewayOutputs, KasmEgressGateway>({
  fields: EGRESS_GATEWAY_FIELDS,
  outputs: EgressGatewayOutputs,
  docs: DOCS,
  record: RECORD,
  adoption: {
    kind: "EgressGateway",
    noun: "Egress gateway",
    key: (inputs) => {
      const body = targetGateway(inputs);
      return `'${body.name}' of provider ${body.egress_provider_id}`;
    },
    find: (inputs, context) => context.client().egress.findEgressGateway(targetGateway(inputs)),
    // The checks before N creates share one listing per provider (`KeyLookups` in provider/api/client.ts): N lookups, one request.
    findBeforeCreate: (inputs, context) => context.client().keys.egressGateway(targetGateway(inputs)),
    // Looked up even without adopt (see Adoption.findFirst): no source says how Kasm answers a duplicate.
    findFirst: (existing) => `egress gateway ${existing.egress_gateway_id}`,
  },
  calls: egressGatewayCalls,

  ...wholeStateWrites(RECORD, {
    body: targetGateway,
    create: (client, body) => client.egress.createEgressGateway(body),
    update: (client, body, id) => client.egress.updateEgressGateway({ ...body, egress_gateway_id: id }),
    remove: (client, id) => client.egress.deleteEgressGateway({ egress_gateway_id: id }),
  }),
});
