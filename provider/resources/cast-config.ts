/**
 * `CastConfig`: a casting config, which exposes session access through `{base_url}/#/cast/<key>`.
 *
 * API: create_cast_config, update_cast_config, delete_cast_config. Every field updates in place,
 * the key and the name included; nothing replaces. Each update sends every declared field, so an
 * update also reverts changes made in the Kasm UI to declared fields, with one exception:
 * `sessionRemaining` is a counter. Kasm counts it down as the link starts sessions (with
 * `limitSessions`), and setting it resets it. So it is sent on create, and on update only when the
 * program changes `sessionRemaining`: editing any other field keeps the sessions already used.
 *
 * Reading depends on the installation's vocabulary (`kasm:apiNames`):
 * - `product` (a released Kasm): `get_cast_config` and `get_cast_configs` exist. Refresh reads the
 *   config and shows drift (a config deleted in the UI is gone), and `adopt: true` takes over the
 *   config with the declared key. `sessionRemaining` is not read back: Kasm counts it down as the
 *   link starts sessions, and a refreshed count would make the next update reset it.
 * - `spec` (the API documentation): it lists NO operation that reads casting configs. So `read`
 *   keeps the last known state, drift is invisible, a config deleted in the UI stays in the state
 *   until an update fails (with advice) or a destroy removes it, and an existing config cannot be
 *   adopted (its id cannot be found): a create that clashes with an existing key or name fails,
 *   with advice. A create whose outcome the client could not confirm (an attempt failed in
 *   transit and the repeat found the key taken) fails with advice rather than guessing whose
 *   config it is.
 */
import { z } from "zod";
import { CAST_GROUP_CHANGING } from "../../permissions/kinds";
import { canonicalId, UNKNOWN } from "../../permissions/planned-calls";
import { CAST_CONFIG_SHOWN_FIELDS, castConfigShown } from "../api/schemas/casting";
import { KasmUnknownCastConfigError } from "../api/errors/answers";
import type { KasmClient } from "../api/client";
import type { CastConfig as KasmCastConfig, CastConfigUpdate, CreateCastConfigResult, NewCastConfig } from "../api/schemas/casting";
import { setTo, settingRef } from "../api/config";
import { alreadyExistsError, GONE, isAlreadyExists, keepingWhatWasCreated, unlessGone, defineKind, type KindOutputs } from "./framework/define-kind";
import { ADOPT, declared, inputNames, isAsDeclared, keepSpelling, refreshedInputs, same, declareFields } from "./framework/fields";
import { hasState, isUnknown, KasmId, previewNote } from "./framework/check-wording";
import { KasmNotAdoptedError, KasmObjectMissingError, KasmOutcomeUnknownError } from "./framework/errors";
import { castConfigCalls } from "./cast-config.calls";
import { interruptedCreateOf, type InterruptedCreate } from "./framework/interrupted-create";
import type { KindContext, KindTexts, Props, RefreshedInputs } from "./framework/types";
import { SESSION_PERMISSION_FIELDS } from "./session-permissions";

// --- types ---------------------------------------------------------------------------------------

/** The casting URL's key: URL-safe characters only (RFC 3986 unreserved). */
const CastKey = z
  .string()
  .min(1, "key is required")
  .regex(/^[A-Za-z0-9._~-]+$/, "key may only contain letters, digits, '-', '_', '.' and '~' (it is part of the casting URL)");

/** A domain (optionally `*.`-prefixed, optionally with a port), as Kasm matches referrers. */
const Referrer = z
  .string()
  .min(1, "a referrer must not be empty")
  .regex(
    /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(:\d{1,5})?$/,
    "a referrer is a domain such as 'app.example.com' (no scheme, path or spaces)",
  );

/** An absolute URL with one of `schemes`, or "" for none. */
function urlOrEmpty(schemes: readonly string[], what: string) {
  return z.string().refine(
    (value) => {
      if (value === "") return true;
      try {
        const url = new URL(value);
        return schemes.includes(url.protocol) && url.host !== "";
      } catch {
        return false;
      }
    },
    `${what} must be an absolute ${schemes.map((s) => s.replace(":", "")).join(" or ")} URL (or "" for none)`,
  );
}

/** `YYYY-MM-DD HH:MM:SS`, a real date and time (UTC). */
const ValidUntil = z.string().refine((value) => {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}, "validUntil must be a real UTC time written 'YYYY-MM-DD HH:MM:SS'");

const Count = (name: string) => z.number().int(`${name} must be a whole number`).min(0, `${name} must be 0 or more`);

/** Each input of a CastConfig, declared once: its type, role, rule, doc and how it is sent. Nothing forces replacement. */
const CAST_CONFIG_FIELDS = declareFields(
  {
    castingConfigName: { type: z.string().trim().min(1, "castingConfigName is required"), role: "sent", doc: "The config's name; unique in Kasm." },
    imageId: { type: KasmId, role: "sent", equal: same.id, refersTo: "Workspace", doc: "The image the link launches (32 hex digits or a hyphenated UUID)." },
    key: { type: CastKey, role: "sent", doc: "The casting URL's key, unique in Kasm: letters, digits, `-`, `_`, `.` and `~` only." },
    allowedReferrers: {
      type: z.array(Referrer).optional(),
      role: "sent",
      equal: same.set,
      doc: "Domains allowed to refer to the link, such as `app.example.com` (order does not matter).",
    },
    limitSessions: { type: z.boolean().optional(), role: "sent", doc: "Limit the number of sessions the link may still start (see `sessionRemaining`)." },
    sessionRemaining: {
      type: Count("sessionRemaining").optional(),
      role: "sent",
      doc:
        "Sessions the link may still start (0 or more); required when `limitSessions` is true. Kasm " +
        "counts it down as the link starts sessions; setting it resets the count. It is sent when the " +
        "config is created and when this value changes; an update of other fields leaves the count " +
        "alone.",
    },
    limitIps: {
      type: z.boolean().optional(),
      role: "sent",
      doc: "Limit sessions per source IP: `ipRequestLimit` per `ipRequestSeconds`, both then required and " + "positive.",
    },
    ipRequestLimit: { type: Count("ipRequestLimit").optional(), role: "sent", doc: "Sessions allowed per source IP in `ipRequestSeconds`." },
    ipRequestSeconds: { type: Count("ipRequestSeconds").optional(), role: "sent", doc: "The window of `ipRequestLimit`, in seconds." },
    errorUrl: {
      type: urlOrEmpty(["http:", "https:"], "errorUrl").optional(),
      role: "sent",
      doc: 'Where to send the user on error (such as an IP rate limit); an http(s) URL, or "" for Kasm\'s ' + "own error page.",
    },
    enableSharing: { type: z.boolean().optional(), role: "sent", doc: "Activate sharing automatically." },
    disableControlPanel: { type: z.boolean().optional(), role: "sent", doc: "Hide the control panel." },
    disableTips: { type: z.boolean().optional(), role: "sent", doc: "Hide the tips dialogue." },
    disableFixedRes: { type: z.boolean().optional(), role: "sent", doc: "Allow dynamic resolution in sharing mode." },
    allowAnonymous: { type: z.boolean().optional(), role: "sent", doc: "Let the link work without authentication, creating an anonymous user per request." },
    groupId: {
      type: KasmId.optional(),
      role: "sent",
      equal: same.id,
      refersTo: "Group",
      doc: "An extra group for anonymous users (who are also put in All Users).",
    },
    requireRecaptcha: {
      type: z.boolean().optional(),
      role: "sent",
      doc: "Require a captcha for anonymous requests (needs captcha keys in the server settings).",
    },
    wsUrl: {
      type: urlOrEmpty(["http:", "https:", "ws:", "wss:"], "wsUrl").optional(),
      role: "sent",
      doc: 'Becomes the WS_URL environment variable of the sessions; an absolute URL, or "" for none.',
    },
    dynamicWsUrl: { type: z.boolean().optional(), role: "sent", doc: "Allow a `ws_url` query argument on the casting URL." },
    dynamicCtrNetwork: { type: z.boolean().optional(), role: "sent", doc: "Allow a `ctr_network` query argument (the image must allow network selection)." },
    allowResume: { type: z.boolean().optional(), role: "sent", doc: "An authenticated user with a running session resumes it instead of getting a new one." },
    enforceClientSettings: { type: z.boolean().optional(), role: "sent", doc: "The `allowWs*` flags below override the client settings of the user's groups." },
    ...SESSION_PERMISSION_FIELDS,
    allowWsSharing: { type: z.boolean().optional(), role: "sent", doc: "Allow sharing (with `enforceClientSettings`)." },
    wsAudioDefaultOn: { type: z.boolean().optional(), role: "sent", doc: "Start with audio on; false starts muted." },
    wsImeModeDefaultOn: { type: z.boolean().optional(), role: "sent", doc: "IME mode on by default when the user has no local preference." },
    validUntil: {
      type: ValidUntil.optional(),
      role: "sent",
      doc:
        "After this UTC time, written `YYYY-MM-DD HH:MM:SS`, the link answers with an error. Left out later, Kasm keeps the expiry it has: " +
        "Kasm 1.15's update leaves a field sent as null as it is (a public decompile of its API server), so an expiry cannot be taken away " +
        "through the API there; declare a later time instead.",
    },
    adopt: {
      ...ADOPT,
      doc:
        "Not supported: Kasm cannot read casting configs, so an existing one cannot be taken over. " +
        "With `adopt: true`, a clash with an existing key or name fails with an explanation.",
    },
  },
  // A rule across fields: what one input requires of others.
  (inputs, ctx) => {
    if (inputs.limitIps === true) {
      for (const name of ["ipRequestLimit", "ipRequestSeconds"] as const) {
        const value = inputs[name];
        if (value === undefined || value < 1)
          ctx.addIssue({ code: "custom", path: [name], message: `${name} must be a positive whole number when limitIps is true` });
      }
    }
    if (inputs.limitSessions === true && inputs.sessionRemaining === undefined)
      ctx.addIssue({ code: "custom", path: ["sessionRemaining"], message: "sessionRemaining (0 or more) is required when limitSessions is true" });
  },
);

/** The inputs of a CastConfig. */
export const CastConfigInputs = CAST_CONFIG_FIELDS.schema;
export type CastConfigInputs = z.infer<typeof CastConfigInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const CastConfigOutputs = z.strictObject({
  castConfigId: z.string().describe("The casting config's id (32 hex digits)."),
  imageFriendlyName: z.string().nullable().describe("The image's friendly name, as of the last create or update."),
  groupName: z.string().nullable().describe("The name of the group `groupId` names, as of the last create or update."),
});
export type CastConfigOutputs = z.infer<typeof CastConfigOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the CastConfig kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "A Kasm casting config. Every field updates in place, and each update sends every declared field " +
    "except `sessionRemaining`, a counter that Kasm counts down as the link starts sessions: it is " +
    "sent only when its declared value changes, since setting it resets the count.\n\nThe API " +
    "documentation has no operation to read casting configs. So with `kasm:apiNames` `spec` (the " +
    "default) refresh keeps the last known state (changes and deletions made in the Kasm UI are not " +
    "seen), and an existing casting config cannot be adopted: a clash with an existing key or name is " +
    "an error. With `product`, a released Kasm's reads let refresh see drift and `adopt: true` take " +
    "over a config by its key.\n\nAn update that moves the config to another group, " +
    "or no longer declares its `groupId`, needs Groups Modify on both groups (Groups Modify System " +
    "for a system group): a released Kasm checks them.",
  arguments:
    "The arguments of a CastConfig. Inputs left out are not managed: Kasm keeps whatever they are. " +
    "The session permissions (`allowWsAudio`, ...) are those of SessionPermissionArgs; they apply " +
    "with `enforceClientSettings`.",
  example: [
    'const demo = new kasm.CastConfig("demo", {',
    '  castingConfigName: "Public demo", imageId: chrome.imageId, key: "demo",',
    "  allowAnonymous: true, limitIps: true, ipRequestLimit: 5, ipRequestSeconds: 3600,",
    '  allowedReferrers: ["www.example.com"], validUntil: "2030-01-01 00:00:00",',
    "});",
  ].join("\n"),
  limits:
    "with `kasm:apiNames spec` no read: refresh keeps the last known state and cannot see drift, and " +
    "an existing config cannot be adopted (with `product` both work, by key). `sessionRemaining` is " +
    "a counter Kasm counts down as the link starts sessions, and setting it resets it: it is sent on " +
    "create and when its value changes; an update of other fields leaves it alone; the permissions " +
    "pack can tell whether an update moves the config between groups only on the native provider, " +
    "whose preview says so (see [policy/README.md](policy/README.md))",
};

// --- helpers -------------------------------------------------------------------------------------

/** The `target_cast_config` body for the declared fields. */
function targetCastConfig(inputs: CastConfigInputs): NewCastConfig {
  const body = CAST_CONFIG_FIELDS.body<NewCastConfig>(inputs);
  body.casting_config_name = body.casting_config_name.trim();
  // In 32 hex digits: 1.15.0's update compares the config's group in that spelling, and checks
  // Groups Modify on both groups when the one sent is spelled otherwise.
  if (body.group_id) body.group_id = canonicalId(body.group_id);
  return body;
}

/**
 * Whether an update moves the config between groups, as 1.15.0's update_cast_config sees it: the
 * group sent (declared) is not the config's, or none is sent while it has one (the config keeps
 * it, but the product checks it). It then needs Groups Modify on both groups.
 */
function movesGroup(configGroup: unknown, sentGroup: unknown): boolean {
  const named = (group: unknown) => group !== undefined && group !== null && group !== "";
  if (!named(configGroup)) return named(sentGroup);
  return !named(sentGroup) || !same.id(configGroup, sentGroup);
}

/**
 * What the preview of an update tells the permissions pack about a casting config (`groupChanging`, see
 * the permission catalogue's `CAST_GROUP_CHANGING`): whether `update` moves it between groups (the state's
 * group and the declared one, see {@link movesGroup}); the unknown placeholder while the declared
 * group is not known (preview); undefined on a create, which has no state to compare with.
 */
export function castGroupChanging(olds: Props, news: Props): boolean | typeof UNKNOWN | undefined {
  if (!hasState(olds)) return undefined;
  if (isUnknown(news.groupId)) return UNKNOWN;
  return movesGroup(olds.groupId, news.groupId);
}

function outputs(inputs: RefreshedInputs<CastConfigInputs>, config: KasmCastConfig): KindOutputs<CastConfigInputs, CastConfigOutputs> {
  return {
    ...declared(inputs, inputNames(CastConfigInputs)),
    castConfigId: config.cast_config_id,
    imageFriendlyName: config.image_friendly_name ?? null,
    groupName: config.group_name ?? null,
  };
}

/** Whether an error says the casting config itself (not its image or group) does not exist. */
function isCastConfigGone(error: unknown): boolean {
  return error instanceof KasmUnknownCastConfigError;
}

/** Whether the installation can read casting configs: a released Kasm can (`kasm:apiNames` `product`). */
function canRead(client: KasmClient): boolean {
  return client.transport.supports("get_cast_config");
}

// What a refresh reads back as the record holds it (the client's list, which kasm-import writes too) are API fields.
void (CAST_CONFIG_SHOWN_FIELDS satisfies readonly (keyof typeof CAST_CONFIG_FIELDS.apiFields)[]);

/** The declared inputs as Kasm has them now, for refresh. */
function currentInputs(props: RefreshedInputs<CastConfigInputs>, config: KasmCastConfig): RefreshedInputs<CastConfigInputs> {
  const declaredValues: Readonly<Record<string, unknown>> = props;
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too).
  const { imageId, groupId, sessionRemaining, ...shown } = castConfigShown(config);
  const current: Record<string, unknown> = {
    ...shown,
    imageId: keepSpelling(props.imageId, imageId),
    groupId: keepSpelling(props.groupId, groupId),
  };
  // The declared order of referrers when Kasm holds the same set; "" declared for what Kasm keeps as null.
  if (same.set(props.allowedReferrers, current.allowedReferrers)) current.allowedReferrers = props.allowedReferrers;
  for (const [key, value] of Object.entries(current)) if (value === null && declaredValues[key] === "") current[key] = "";
  if (typeof current.castingConfigName === "string" && current.castingConfigName === String(props.castingConfigName ?? "").trim())
    current.castingConfigName = props.castingConfigName;
  // An import asks for every input (null, the native provider's Read with no state): the count
  // Kasm has now is the value to declare, which the next update keeps unless the program changes it.
  if (declaredValues.sessionRemaining === null && sessionRemaining !== undefined) current.sessionRemaining = sessionRemaining;
  // Kasm's record under the inputs' names (fromApiFields), field by field as the schema types them.
  return current as RefreshedInputs<CastConfigInputs>;
}

/**
 * The fields adoption compares: those a refresh reads back, so all but the remaining-sessions
 * counter. Kasm counts it down as the link starts sessions: a config otherwise as declared is
 * taken over as it is, keeping the count of sessions used (sending the declared value would
 * reset it, which an update does only when the program changes it).
 */
const { sessionRemaining: _counter, ...ADOPTION_COMPARED } = CAST_CONFIG_FIELDS.apiFields;

function label(inputs: CastConfigInputs): string {
  return `with key '${inputs.key}' or name '${inputs.castingConfigName.trim()}'`;
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of CastConfig; only `adopt` changing sends no request. */
/**
 * For kasm-recover (see framework/interrupted-create.ts): the config a killed run's create made, found by
 * its key and compared as adoption compares it. With the documentation's vocabulary Kasm cannot
 * list casting configs, so whether the create committed cannot be told.
 */
async function interruptedCreate(props: Props, context: KindContext): Promise<InterruptedCreate> {
  const inputs = props as CastConfigInputs;
  const client = context.client();
  if (!canRead(client))
    return {
      outcome: "unknown",
      why:
        `with ${settingRef(context.settingNames, "apiNames")} "spec" Kasm has no operation to list casting configs. Look for the config ${label(inputs)} ` +
        "on the Casting page of the Kasm UI: delete it if it is there, then run `pulumi refresh --yes --clear-pending-creates`",
    };
  return interruptedCreateOf({
    find: () => client.casting.findCastConfig(targetCastConfig(inputs)),
    id: (config) => config.cast_config_id,
    asInputs: (config) => currentInputs(inputs, config),
    wanted: inputs,
    apiFields: ADOPTION_COMPARED,
  });
}

export const castConfigProvider = {
  ...defineKind<CastConfigInputs, CastConfigOutputs>({
    fields: CAST_CONFIG_FIELDS,
    outputs: CastConfigOutputs,
    docs: DOCS,
    // The preview of an update says whether it moves the config between groups.
    previewNotes: (state, news) => previewNote(CAST_GROUP_CHANGING, castGroupChanging(state, news)),
    calls: castConfigCalls,

    async create(inputs, context) {
      const client = context.client();
      const body = targetCastConfig(inputs);
      // A released Kasm can list the configs: the key is looked up first, with adopt or without. After
      // a server error the client's recovery looks it up to learn whether its create committed, and
      // would take a config made outside Pulumi for its own (see Adoption.findFirst in framework/define-kind.ts).
      // Without adopt, from the listing the creates of a deployment share (`KeyLookups` in provider/api/client.ts):
      // N creates, one lookup; adopt reads the config afresh.
      const existing = canRead(client) ? await (inputs.adopt ? client.casting.findCastConfig(body) : client.keys.castConfig(body)) : undefined;
      if (existing && !inputs.adopt)
        throw alreadyExistsError({
          kind: "CastConfig",
          key: label(inputs),
          cause: `casting config ${existing.cast_config_id}`,
          context,
          id: existing.cast_config_id,
        });
      if (existing) {
        // A config already as declared is taken over without a request.
        if (isAsDeclared(inputs, currentInputs(inputs, existing), ADOPTION_COMPARED)) return { id: existing.cast_config_id, outs: outputs(inputs, existing) };
        const config = await client.casting.updateCastConfig(
          { ...body, cast_config_id: existing.cast_config_id },
          { changesCastGroup: movesGroup(existing.group_id, body.group_id) },
        );
        return { id: config.cast_config_id, outs: outputs(inputs, config) };
      }
      let result: CreateCastConfigResult;
      try {
        // An answer in the other vocabulary: the config exists, without the settings named the other way.
        result = await keepingWhatWasCreated(
          () => client.casting.createCastConfig(body),
          (answer) => {
            const created = (answer as { cast_config?: KasmCastConfig }).cast_config;
            return created && { id: created.cast_config_id, properties: outputs(inputs, created) };
          },
        );
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
        if (inputs.adopt && canRead(client))
          throw new KasmNotAdoptedError(
            `A casting config ${label(inputs)} already exists in Kasm, but none has the key '${inputs.key}': another config ` +
              `holds the name '${inputs.castingConfigName.trim()}'. \`adopt: true\` takes over the config with the declared key; ` +
              `rename one of them, or declare the other config's key.`,
            error,
          );
        if (inputs.adopt)
          throw new KasmNotAdoptedError(
            `A casting config ${label(inputs)} already exists in Kasm, and \`adopt: true\` cannot take it over: the API ` +
              `documentation's vocabulary (${settingRef(context.settingNames, "apiNames")} "spec") has no operation to read or list casting configs, so its id ` +
              `cannot be found. If this installation is a released Kasm (1.15 or later), set ${setTo(context.settingNames, "apiNames", "product")}, which can; otherwise delete it in the Kasm UI (the Casting page of ` +
              `the administration) and run the update again, or choose another key and name.`,
            error,
          );
        throw alreadyExistsError({ kind: "CastConfig", key: label(inputs), cause: error, context, adoptable: canRead(client) });
      }
      if (!result.confirmed)
        throw new KasmOutcomeUnknownError(
          `create_cast_config failed in transit and its repeat found a casting config ${label(inputs)} already there. ` +
            `It is probably the one this update created, but Kasm cannot read casting configs, so its id is unknown and ` +
            `Pulumi does not track it. Check the Casting page of the Kasm UI: delete it there and run the update again.`,
        );
      return { id: result.cast_config.cast_config_id, outs: outputs(inputs, result.cast_config) };
    },

    /** A released Kasm reads the config back; with the documentation's vocabulary the last known state is kept. */
    async read(id, props, context) {
      const client = context.client();
      if (!canRead(client)) return { id, props, inputs: declared(props, inputNames(CastConfigInputs)) };
      const config = await unlessGone(() => client.casting.getCastConfig({ cast_config_id: id }));
      if (!config) return GONE;
      const inputs = refreshedInputs(props, inputNames(CastConfigInputs), currentInputs(props, config));
      return { id: config.cast_config_id, props: outputs(inputs, config), inputs };
    },

    async update(id, olds, news, _changedFields, context) {
      // Every declared field is sent: with no read, this is the only way to undo changes made in the UI.
      const update: CastConfigUpdate = { ...targetCastConfig(news), cast_config_id: id };
      // But not the remaining-sessions counter unless the program changed it: Kasm counts it down as
      // sessions start, and sending the declared value again would reset the count.
      if (same.value(olds.sessionRemaining, news.sessionRemaining)) delete update.session_remaining;
      try {
        const config = await context.client().casting.updateCastConfig(update, { changesCastGroup: movesGroup(olds.groupId, news.groupId) });
        return { outs: outputs(news, config) };
      } catch (error) {
        if (isCastConfigGone(error))
          throw new KasmObjectMissingError(
            `The casting config ${id} (key '${String(news.key)}') no longer exists in Kasm: it was deleted outside ` +
              `Pulumi. Kasm cannot read casting configs, so a refresh could not notice. Run \`pulumi up --replace <urn>\` ` +
              `for this resource to create it again.`,
            error,
          );
        throw error;
      }
    },

    async delete(id, props, context) {
      // Deleting what is already gone is done.
      await unlessGone(() =>
        context.client().casting.deleteCastConfig({ cast_config_id: id, casting_config_name: String(props.castingConfigName ?? "").trim() }),
      );
    },
  }),
  interruptedCreate,
};
