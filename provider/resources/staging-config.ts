/**
 * `StagingConfig`: keeps `numSessions` sessions of an image staged (started and waiting) in a zone.
 *
 * API: create_staging_config, get_staging_config, update_staging_config, delete_staging_config,
 * and get_staging_configs for adoption. Every field updates in place, the zone and the image
 * included (update_staging_config takes them); nothing replaces. Kasm allows one staging config
 * per (zone, image): adoption by that pair (`adopt: true`). Without it an existing config is an
 * error that says first to keep one StagingConfig when another resource declares it (two in one
 * stack: the second create meets the first's config). `numCurrentSessions` (the sessions
 * staged right now) is read only and never causes a diff.
 */
import { z } from "zod";
import type { NewStagingConfig, StagingConfig as KasmStagingConfig, StagingConfigUpdate } from "../api/schemas/staging";
import { stagingConfigShown } from "../api/schemas/staging";
import { ADOPT, declared, inputNames, same, declareFields } from "./framework/fields";
import { KasmId } from "./framework/check-wording";
import { keepingWhatWasCreated, unlessGone, defineKind, type KindOutputs } from "./framework/define-kind";
import type { KindTexts, RefreshedInputs } from "./framework/types";
import { SESSION_PERMISSION_FIELDS } from "./session-permissions";
import { stagingConfigCalls } from "./staging-config.calls";

// --- types ---------------------------------------------------------------------------------------

/** Each input of a StagingConfig, declared once: its type, role, rule, doc and how it is sent. Nothing forces replacement. */
const STAGING_CONFIG_FIELDS = declareFields({
  zoneId: { type: KasmId, role: "sent", equal: same.id, doc: "The zone the sessions are staged in (32 hex digits or a hyphenated UUID). Changes in place." },
  imageId: {
    type: KasmId,
    role: "sent",
    equal: same.id,
    refersTo: "Workspace",
    doc: "The image of the staged sessions (32 hex digits or a hyphenated UUID). Changes in place.",
  },
  numSessions: {
    type: z.number().int("numSessions must be a whole number").min(0, "numSessions must be 0 or more"),
    role: "sent",
    doc: "How many sessions Kasm keeps staged at all times: a whole number, 0 or more.",
  },
  // Hours, fractions included: the record is "number of hours" and the product stores a float.
  // More than 0 is the project's own rule (CONSTRAINTS.md): no source states it.
  expiration: {
    type: z.number().positive("expiration must be more than 0 hours (fractions such as 0.5 are allowed)"),
    role: "sent",
    doc: "Hours after which an unassigned staged session expires and is re-created: more than 0, " + "fractions such as 0.5 included.",
  },
  ...SESSION_PERMISSION_FIELDS,
  adopt: {
    ...ADOPT,
    doc:
      "Take over the existing staging config of this zone and image (Kasm allows one per pair) and " +
      "bring it to the declared state, instead of failing. Default: false.",
  },
});

/** The inputs of a StagingConfig. */
export const StagingConfigInputs = STAGING_CONFIG_FIELDS.schema;
export type StagingConfigInputs = z.infer<typeof StagingConfigInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const StagingConfigOutputs = z.strictObject({
  stagingConfigId: z.string().describe("The staging config's id (32 hex digits)."),
  zoneName: z.string().nullable().describe("The zone's name."),
  imageFriendlyName: z.string().nullable().describe("The image's friendly name."),
  numCurrentSessions: z.number().int().nullable().describe("The sessions staged when Kasm was last read (read only: never an input, so never a diff)."),
});
export type StagingConfigOutputs = z.infer<typeof StagingConfigOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the StagingConfig kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "A Kasm staging config: Kasm keeps `numSessions` sessions of an image started in a zone, so that " +
    "users get one at once. Every field updates in place. One staging config per zone and image: " +
    "create looks the zone and image up first, and fails naming the existing config unless `adopt` " +
    "is set (a released Kasm answers a second one with a server error). " +
    "A released Kasm's update clears the config's server pool and autoscale config unless it is sent them: " +
    "with `kasm:apiNames product` each update reads the config first and sends them as they are.",
  arguments:
    "The arguments of a StagingConfig. Inputs left out are not managed: Kasm keeps whatever they " +
    "are. The session permissions of the staged sessions (`allowWsAudio`, ...) are those of " +
    "SessionPermissionArgs.",
  example: ['const staged = new kasm.StagingConfig("chrome", { zoneId: zone.zoneId, imageId: chrome.imageId, numSessions: 3, expiration: 4 });'].join("\n"),
  limits:
    "a released Kasm's server pool and autoscale config of the config (set in the Kasm UI) are kept through updates; " +
    "create reads the staging configs first (Staging View), to refuse a zone and image that have one",
};

// --- helpers -------------------------------------------------------------------------------------

/** The `target_staging_config` body for the declared fields. */
function targetStagingConfig(inputs: StagingConfigInputs): NewStagingConfig {
  return STAGING_CONFIG_FIELDS.body<NewStagingConfig>(inputs);
}

function outputs(inputs: RefreshedInputs<StagingConfigInputs>, config: KasmStagingConfig): KindOutputs<StagingConfigInputs, StagingConfigOutputs> {
  return {
    ...declared(inputs, inputNames(StagingConfigInputs)),
    stagingConfigId: config.staging_config_id,
    zoneName: config.zone_name ?? null,
    imageFriendlyName: config.image_friendly_name ?? null,
    numCurrentSessions: config.num_current_sessions ?? null,
  };
}

/** The config's fields as inputs, keeping the declared spelling of ids that name the same object: what `read` reports and adoption compares. */
function currentInputs(props: RefreshedInputs<StagingConfigInputs>, config: KasmStagingConfig): RefreshedInputs<StagingConfigInputs> {
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too).
  const { zoneId, imageId, ...shown } = stagingConfigShown(config);
  return {
    // Keep the declared spelling of an id when it names the same object, so refresh shows no change.
    zoneId: same.id(props.zoneId, zoneId) ? props.zoneId : zoneId,
    imageId: same.id(props.imageId, imageId) ? props.imageId : imageId,
    ...shown,
  };
}

/** How the error messages name a staging config. */
function label(inputs: StagingConfigInputs): string {
  return `for zone ${String(inputs.zoneId)} and image ${String(inputs.imageId)}`;
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of StagingConfig; only `adopt` changing sends no request. */
export const stagingConfigProvider = defineKind<StagingConfigInputs, StagingConfigOutputs, KasmStagingConfig>({
  fields: STAGING_CONFIG_FIELDS,
  outputs: StagingConfigOutputs,
  docs: DOCS,
  // `adopt` cannot be read back: it stays as declared.
  record: {
    id: (config) => config.staging_config_id,
    fetch: (id, _state, context) => unlessGone(() => context.client().staging.getStagingConfig({ staging_config_id: id })),
    asInputs: currentInputs,
    outputs,
  },
  adoption: {
    kind: "StagingConfig",
    key: label,
    // Kasm keeps one per zone and image: a second declaration meets the first's config.
    declaredBy: "another StagingConfig of this zone and image, in this stack or another",
    find: (inputs, context) => context.client().staging.findStagingConfig(targetStagingConfig(inputs)),
    // The checks before N creates share one listing (`KeyLookups` in provider/api/client.ts): N lookups, one request.
    findBeforeCreate: (inputs, context) => context.client().keys.stagingConfig(targetStagingConfig(inputs)),
    // Looked up even without adopt: a released Kasm fails a second config of a zone and image with
    // a server error (its unique constraint), which the client's recovery would take for its own create.
    findFirst: (existing) => `staging config ${existing.staging_config_id}`,
  },
  calls: stagingConfigCalls,

  async create(inputs, context, createOrAdopt) {
    const client = context.client();
    const body = targetStagingConfig(inputs);
    const config = await createOrAdopt({
      update: (existing) => client.staging.updateStagingConfig({ ...body, staging_config_id: existing.staging_config_id }),
      // An answer in the other vocabulary: the config exists, without the permissions named the other way.
      create: () =>
        keepingWhatWasCreated(
          () => client.staging.createStagingConfig(body),
          (answer) => {
            const created = (answer as { staging_config?: KasmStagingConfig }).staging_config;
            return created && { id: created.staging_config_id, properties: outputs(inputs, created) };
          },
        ),
    });
    return { id: config.staging_config_id, outs: outputs(inputs, config) };
  },

  async update(id, _olds, news, changedFields, context) {
    const client = context.client();
    // Every declared field is sent (the required ones are always declared): Kasm's update does not
    // say which fields it requires, and a full body leaves nothing to chance. With none changed (an
    // input stopped being declared), Kasm is only read.
    const config =
      changedFields.length > 0
        ? await client.staging.updateStagingConfig({ ...targetStagingConfig(news), staging_config_id: id } satisfies StagingConfigUpdate)
        : await client.staging.getStagingConfig({ staging_config_id: id });
    return { outs: outputs(news, config) };
  },

  async delete(id, _state, context) {
    // Deleting what is already gone is done.
    await unlessGone(() => context.client().staging.deleteStagingConfig({ staging_config_id: id }));
  },
});
