/**
 * `EgressProviderMapping`: routes a user, a group or an image (exactly one) through an egress
 * provider, with all of its gateways or a selection of them.
 *
 * API: create_egress_provider_mapping, get_egress_provider_mapping (filtered by provider, then
 * found by mapping id), update_egress_provider_mapping, delete_egress_provider_mapping. Every
 * field updates in place, the provider and the target included (the update operation takes
 * them). Kasm keeps one mapping per provider and target, and that pair is all that names it: a
 * mapping of the provider and target that exists already is the declared one, whoever made it (a
 * create of an earlier `up` whose answer was lost, or the Kasm UI), taken over and brought to the
 * declared state, with no write when it is in it already; `adopt` has no effect. `allowAllGateways` left out means false (Kasm's default) and is sent so, since
 * the selection only counts with it false. Kasm does not return the selection itself, only the
 * gateways the mapping gives access to: `selectedGateways` is read from them, except when every
 * gateway is allowed as declared (Kasm then lists them all).
 * Creating, changing or deleting a mapping needs the Modify permission of its target (Users
 * Modify, Groups Modify or Images Modify) besides Egress Providers Modify.
 */
import { z } from "zod";
import { egressProviderMappingShown, type EgressProviderMapping as KasmMapping, type NewEgressProviderMapping } from "../api/schemas/egress";
import type { KasmClient } from "../api/client";
import {
  apiId,
  findUnderProvider,
  wholeStateWrites,
  currentGateways,
  currentTarget,
  refineTargetAndGateways,
  targetAndGatewayFields,
  withGatewayDefault,
  EGRESS_PROVIDER_REFERENCE,
} from "./egress-shared";
import { ADOPT, declared, inputNames, keepSpelling, same, declareFields } from "./framework/fields";
import { EVEN_WITH_OTHER_FAILURES } from "./framework/check-wording";
import type { KindTexts, RefreshedInputs } from "./framework/types";
import { defineKind, type KindOutputs, type RecordRules } from "./framework/define-kind";
import { egressProviderMappingCalls } from "./egress-provider-mapping.calls";

// --- types ---------------------------------------------------------------------------------------

/** Each input of an EgressProviderMapping, declared once: its type, role, rule, doc and how it is sent. Nothing forces replacement. */
const EGRESS_PROVIDER_MAPPING_FIELDS = declareFields(
  {
    egressProviderId: {
      ...EGRESS_PROVIDER_REFERENCE,
      doc: "The egress provider (32 hex digits or a hyphenated UUID). Changing it updates the mapping in " + "place.",
    },
    ...targetAndGatewayFields(false),
    enabled: { type: z.boolean().optional(), role: "sent", doc: "Whether the mapping is in effect. Kasm's default: true." },
    adopt: {
      ...ADOPT,
      doc:
        "No effect: a mapping of this provider and target that exists already in Kasm is the declared " +
        "one (Kasm keeps one per provider and target), so the create takes it over and brings it to the " +
        "declared state, with no write when it is in it already, with adopt or without. Kept so that " +
        "programs that set it keep working. Two declarations of one mapping are refused by the " +
        "hardening policy pack's conflicting-declarations policy.",
    },
  },
  refineTargetAndGateways,
  EVEN_WITH_OTHER_FAILURES,
);

/** The inputs of an EgressProviderMapping. */
export const EgressProviderMappingInputs = EGRESS_PROVIDER_MAPPING_FIELDS.schema;
export type EgressProviderMappingInputs = z.infer<typeof EgressProviderMappingInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const EgressProviderMappingOutputs = z.strictObject({
  egressProviderMappingId: z.string().describe("The mapping's id (32 hex digits)."),
  created: z.string().nullable().describe("When Kasm created the mapping; null when its answer does not say."),
});
export type EgressProviderMappingOutputs = z.infer<typeof EgressProviderMappingOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the EgressProviderMapping kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "Routes the sessions of a user, a group or an image through an EgressProvider, with all its " +
    "gateways or a selection. Kasm keeps one mapping per provider and target. Every field updates in " +
    "place. Needs Egress Providers Modify and View, plus the Modify permission of the target: Users " +
    "Modify (Users Modify Admin for a Global Admin user), Groups Modify (Groups Modify System for a " +
    "system group) or Images Modify.",
  arguments:
    "The arguments of an EgressProviderMapping: exactly one of `userId`, `groupId` and `imageId`, " +
    "the user, group or image routed through the provider, and its gateways (see EgressTargetArgs). " +
    "Inputs left out are not managed: Kasm keeps whatever they are. Every input, the target too, " +
    "changes in place.",
  example: [
    'new kasm.EgressProviderMapping("engineering-vpn", {',
    "  egressProviderId: vpn.egressProviderId,",
    "  groupId: engineeringGroupId,",
    "  selectedGateways: [fra.egressGatewayId, ams.egressGatewayId],",
    "});",
  ].join("\n"),
  limits: "create reads the provider's mappings first, and takes over the target's mapping if it has one",
};

// --- helpers -------------------------------------------------------------------------------------

/**
 * The `target_egress_provider_mapping` body: the whole declared state. The target is always sent
 * in full (the other two null), so that changing it moves the mapping.
 */
function targetMapping(inputs: EgressProviderMappingInputs): NewEgressProviderMapping {
  return EGRESS_PROVIDER_MAPPING_FIELDS.body<NewEgressProviderMapping>(inputs);
}

function outputs(
  inputs: RefreshedInputs<EgressProviderMappingInputs>,
  mapping: KasmMapping,
): KindOutputs<EgressProviderMappingInputs, EgressProviderMappingOutputs> {
  return {
    ...declared(inputs, inputNames(EgressProviderMappingInputs)),
    egressProviderMappingId: mapping.egress_provider_mapping_id,
    created: mapping.created ?? null,
  };
}

/** A readable name of the declared target, for errors. */
function describeTarget(body: NewEgressProviderMapping): string {
  if (body.user_id) return `user ${body.user_id}`;
  if (body.group_id) return `group ${body.group_id}`;
  return `image ${body.image_id}`;
}

/**
 * The mapping's fields as inputs: what `read` reports and adoption compares. The selection is
 * read from the gateways Kasm lists (see {@link currentGateways}): with every gateway allowed, as
 * declared, the declared selection stands, since Kasm then ignores it.
 */
function currentInputs(props: RefreshedInputs<EgressProviderMappingInputs>, mapping: KasmMapping): RefreshedInputs<EgressProviderMappingInputs> {
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too).
  const shown = egressProviderMappingShown(mapping);
  return {
    egressProviderId: keepSpelling(props.egressProviderId, shown.egressProviderId),
    ...currentTarget(props, shown),
    enabled: shown.enabled,
    allowAllGateways: shown.allowAllGateways,
    selectedGateways: currentGateways(props.selectedGateways, props.allowAllGateways, shown.allowAllGateways, shown.selectedGateways),
  };
}

/**
 * The mapping with this id: looked for among the provider's mappings, then, in case it was moved
 * to another provider outside Pulumi, among all of them. Undefined when Kasm has none.
 */
async function findMapping(client: KasmClient, id: string, providerId: unknown): Promise<KasmMapping | undefined> {
  const provider = apiId(providerId);
  return findUnderProvider(
    provider ? () => client.egress.getEgressProviderMapping({ egress_provider_id: provider }) : undefined,
    () => client.egress.getEgressProviderMapping({}),
    (m) => same.id(m.egress_provider_mapping_id, id),
  );
}

/** How a mapping is read and shown (see `RecordRules`). */
const RECORD: RecordRules<EgressProviderMappingInputs, EgressProviderMappingOutputs, KasmMapping> = {
  id: (mapping) => mapping.egress_provider_mapping_id,
  fetch: (id, state, context) => findMapping(context.client(), id, state.egressProviderId),
  asInputs: currentInputs,
  outputs,
};

// --- provider ------------------------------------------------------------------------------------

/** The provider of EgressProviderMapping; only `adopt` changing sends no request. */
export const egressProviderMappingProvider = defineKind<EgressProviderMappingInputs, EgressProviderMappingOutputs, KasmMapping>({
  fields: EGRESS_PROVIDER_MAPPING_FIELDS,
  outputs: EgressProviderMappingOutputs,
  docs: DOCS,
  record: RECORD,
  adoption: {
    kind: "EgressProviderMapping",
    noun: "Egress provider mapping",
    key: (inputs) => {
      const body = targetMapping(inputs);
      return `of provider ${body.egress_provider_id} for ${describeTarget(body)}`;
    },
    find: (inputs, context) => context.client().egress.findEgressProviderMapping(targetMapping(inputs)),
    // The checks before N creates share one listing per provider (`KeyLookups` in provider/api/client.ts): N lookups, one request.
    findBeforeCreate: (inputs, context) => context.client().keys.egressProviderMapping(targetMapping(inputs)),
    // Looked up before every create, adopt or not (no source says how Kasm answers a duplicate):
    // the mapping there is the declared one, and the create takes it over.
    alwaysTakesOver: true,
    // As `diff` does, Kasm's mapping is compared with `allowAllGateways` left out as false (it is sent so).
    compared: withGatewayDefault,
  },
  calls: egressProviderMappingCalls,

  ...wholeStateWrites(RECORD, {
    body: targetMapping,
    create: (client, body) => client.egress.createEgressProviderMapping(body),
    update: (client, body, id) => client.egress.updateEgressProviderMapping({ ...body, egress_provider_mapping_id: id }),
    remove: (client, id) => client.egress.deleteEgressProviderMapping({ egress_provider_mapping_id: id }),
  }),
});
