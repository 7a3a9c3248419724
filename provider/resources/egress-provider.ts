/**
 * `EgressProvider`: an egress (VPN) provider, the parent of gateways, mappings and credentials.
 *
 * API: create_egress_provider, get_egress_providers (filtered by id), update_egress_provider,
 * delete_egress_provider. Every field updates in place, the name and the type included (the
 * update operation takes both). Names are unique in Kasm: adoption by name (`adopt: true`).
 * Deleting a provider makes Kasm delete its gateways, mappings and credentials too.
 */
import { z } from "zod";
import type { EgressProvider as KasmEgressProvider, NewEgressProvider } from "../api/schemas/egress";
import type { KasmClient } from "../api/client";
import { egressProviderShown } from "../api/schemas/egress";
import { wholeStateWrites } from "./egress-shared";
import { ADOPT, declared, inputNames, same, declareFields } from "./framework/fields";
import { requiredText } from "./framework/check-wording";
import type { KindTexts, RefreshedInputs } from "./framework/types";
import { defineKind, type KindOutputs, type RecordRules } from "./framework/define-kind";
import { egressProviderCalls } from "./egress-provider.calls";

// --- types ---------------------------------------------------------------------------------------

/** The provider types Kasm knows. */
export const EGRESS_PROVIDER_TYPES = ["wireguard", "openvpn", "custom"] as const;

/** Each input of an EgressProvider, declared once: its type, role, rule, doc and how it is sent. Nothing forces replacement. */
const EGRESS_PROVIDER_FIELDS = declareFields({
  name: { type: requiredText("name"), role: "sent", doc: "The provider's name, unique in Kasm. Changing it renames the provider in place." },
  egressProviderType: {
    type: z.enum(EGRESS_PROVIDER_TYPES, {
      error: (issue) =>
        issue.input === undefined ? "egressProviderType is required" : `egressProviderType must be one of ${EGRESS_PROVIDER_TYPES.join(", ")}`,
    }),
    role: "sent",
    doc: "`wireguard`, `openvpn` or `custom`. Changing it updates the provider in place.",
  },
  enabled: { type: z.boolean().optional(), role: "sent", doc: "Whether the provider is in use. Kasm's default: true." },
  adopt: {
    ...ADOPT,
    doc: "Take over an existing provider with this name (and bring it to the declared state) instead of " + "failing. Default: false.",
  },
});

/** The inputs of an EgressProvider. */
export const EgressProviderInputs = EGRESS_PROVIDER_FIELDS.schema;
export type EgressProviderInputs = z.infer<typeof EgressProviderInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const EgressProviderOutputs = z.strictObject({
  egressProviderId: z.string().describe("The provider's id (32 hex digits)."),
  created: z.string().nullable().describe("When Kasm created the provider; null when its answer does not say."),
});
export type EgressProviderOutputs = z.infer<typeof EgressProviderOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the EgressProvider kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "An egress (VPN) provider: the parent of EgressGateways, EgressProviderMappings and " +
    "EgressCredentials. Every field updates in place. Destroying it makes Kasm delete its gateways, " +
    "mappings and credentials too. Needs Egress Providers Create, Modify, Delete and View.",
  arguments: "The arguments of an EgressProvider. Inputs left out are not managed: Kasm keeps whatever they are.",
  example: ['const vpn = new kasm.EgressProvider("vpn", { name: "Corporate VPN", egressProviderType: "wireguard" });'].join("\n"),
  limits: "deleting it deletes its gateways, mappings and credentials; create reads the providers first, to refuse a name that exists",
};

// --- helpers -------------------------------------------------------------------------------------

/** The `target_egress_provider` body for the declared fields. */
function targetProvider(inputs: EgressProviderInputs): NewEgressProvider {
  return EGRESS_PROVIDER_FIELDS.body<NewEgressProvider>(inputs);
}

function outputs(inputs: RefreshedInputs<EgressProviderInputs>, provider: KasmEgressProvider): KindOutputs<EgressProviderInputs, EgressProviderOutputs> {
  return {
    ...declared(inputs, inputNames(EgressProviderInputs)),
    egressProviderId: provider.egress_provider_id,
    created: provider.created ?? null,
  };
}

/** The provider's fields as inputs: what `read` reports and adoption compares. */
function currentInputs(provider: KasmEgressProvider): RefreshedInputs<EgressProviderInputs> {
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too).
  const current = egressProviderShown(provider);
  // Typed as the schema's types: any other value Kasm shows is still compared, and shows as a change back.
  return { ...current, egressProviderType: current.egressProviderType as EgressProviderInputs["egressProviderType"] };
}

/** The provider with this id, or undefined when Kasm has none. */
async function findById(client: KasmClient, id: string): Promise<KasmEgressProvider | undefined> {
  const found = await client.egress.getEgressProviders({ egress_provider_id: id });
  return found.find((p) => same.id(p.egress_provider_id, id));
}

/** How a provider is read and shown (see `RecordRules`). */
const RECORD: RecordRules<EgressProviderInputs, EgressProviderOutputs, KasmEgressProvider> = {
  id: (provider) => provider.egress_provider_id,
  fetch: (id, _state, context) => findById(context.client(), id),
  asInputs: (_declared, provider) => currentInputs(provider),
  outputs,
};

// --- provider ------------------------------------------------------------------------------------

/** The provider of EgressProvider; only `adopt` changing sends no request. */
export const egressProviderProvider = defineKind<EgressProviderInputs, EgressProviderOutputs, KasmEgressProvider>({
  fields: EGRESS_PROVIDER_FIELDS,
  outputs: EgressProviderOutputs,
  docs: DOCS,
  record: RECORD,
  adoption: {
    kind: "EgressProvider",
    noun: "Egress provider",
    key: (inputs) => `'${targetProvider(inputs).name}'`,
    find: (inputs, context) => context.client().egress.findEgressProvider(targetProvider(inputs)),
    // The checks before N creates share one listing (`KeyLookups` in provider/api/client.ts): N lookups, one request.
    findBeforeCreate: (inputs, context) => context.client().keys.egressProvider(targetProvider(inputs)),
    // Looked up even without adopt (see Adoption.findFirst): no source says how Kasm answers a duplicate.
    findFirst: (existing) => `egress provider ${existing.egress_provider_id}`,
  },
  calls: egressProviderCalls,

  ...wholeStateWrites(RECORD, {
    body: targetProvider,
    create: (client, body) => client.egress.createEgressProvider(body),
    update: (client, body, id) => client.egress.updateEgressProvider({ ...body, egress_provider_id: id }),
    remove: (client, id) => client.egress.deleteEgressProvider({ egress_provider_id: id }),
  }),
});
