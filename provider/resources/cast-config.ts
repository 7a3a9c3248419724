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
 * What the API cannot do: Kasm has NO operation that lists or reads casting configs. So:
 * - `read` (refresh) keeps the last known state: it returns the outputs and the declared inputs
 *   unchanged. Drift is invisible, and a casting config deleted in the Kasm UI stays in the state
 *   until an update fails (with advice) or a destroy (which succeeds) removes it.
 * - An existing casting config cannot be adopted: its id cannot be found. A create that clashes
 *   with an existing key or name fails, with `adopt: true` too; delete the other config in the
 *   Kasm UI or choose another key and name.
 * - A create whose outcome the client could not confirm (an attempt failed in transit and the
 *   repeat found the key taken) fails with advice rather than guessing whose config it is.
 */
import { z } from "zod";
import type { KasmApiError, CastConfig as KasmCastConfig, CastConfigUpdate, CreateCastConfigResult, NewCastConfig } from "../api";
import { kasmClient } from "../runtime";
import {
  alreadyExistsError,
  declared,
  isAlreadyExists,
  isNotFound,
  KasmId,
  same,
  toApi,
  unlessGone,
  type KindProvider,
  type Props,
} from "./kit";
import { defineKind, fieldNames, type FieldRules } from "./kit/define-kind";
import { SESSION_PERMISSION_FIELDS, SESSION_PERMISSION_INPUTS } from "./session-permissions";

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
  return z.string().refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return schemes.includes(url.protocol) && url.host !== "";
    } catch {
      return false;
    }
  }, `${what} must be an absolute ${schemes.map((s) => s.replace(":", "")).join(" or ")} URL (or "" for none)`);
}

/** `YYYY-MM-DD HH:MM:SS`, a real date and time (UTC). */
const ValidUntil = z
  .string()
  .refine((value) => {
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

/** The inputs of a CastConfig. */
export const CastConfigInputs = z
  .strictObject({
    castingConfigName: z.string().trim().min(1, "castingConfigName is required"),
    imageId: KasmId,
    key: CastKey,
    allowedReferrers: z.array(Referrer).optional(),
    limitSessions: z.boolean().optional(),
    sessionRemaining: Count("sessionRemaining").optional(),
    limitIps: z.boolean().optional(),
    ipRequestLimit: Count("ipRequestLimit").optional(),
    ipRequestSeconds: Count("ipRequestSeconds").optional(),
    errorUrl: urlOrEmpty(["http:", "https:"], "errorUrl").optional(),
    enableSharing: z.boolean().optional(),
    disableControlPanel: z.boolean().optional(),
    disableTips: z.boolean().optional(),
    disableFixedRes: z.boolean().optional(),
    allowAnonymous: z.boolean().optional(),
    groupId: KasmId.optional(),
    requireRecaptcha: z.boolean().optional(),
    wsUrl: urlOrEmpty(["http:", "https:", "ws:", "wss:"], "wsUrl").optional(),
    dynamicWsUrl: z.boolean().optional(),
    dynamicCtrNetwork: z.boolean().optional(),
    allowResume: z.boolean().optional(),
    enforceClientSettings: z.boolean().optional(),
    ...SESSION_PERMISSION_INPUTS,
    allowWsSharing: z.boolean().optional(),
    wsAudioDefaultOn: z.boolean().optional(),
    wsImeModeDefaultOn: z.boolean().optional(),
    validUntil: ValidUntil.optional(),
    /** Accepted so that a program gets a clear error: a casting config cannot be adopted (no read). */
    adopt: z.boolean().optional(),
  })
  .superRefine((inputs, ctx) => {
    if (inputs.limitIps === true) {
      for (const name of ["ipRequestLimit", "ipRequestSeconds"] as const) {
        const value = inputs[name];
        if (value === undefined || value < 1)
          ctx.addIssue({ code: "custom", path: [name], message: `${name} must be a positive whole number when limitIps is true` });
      }
    }
    if (inputs.limitSessions === true && inputs.sessionRemaining === undefined)
      ctx.addIssue({ code: "custom", path: ["sessionRemaining"], message: "sessionRemaining (0 or more) is required when limitSessions is true" });
  });
export type CastConfigInputs = z.infer<typeof CastConfigInputs>;

/** What the provider adds to the inputs. */
export interface CastConfigOutputs {
  readonly castConfigId: string;
  readonly imageFriendlyName: string | null;
  readonly groupName: string | null;
}

/** Fields sent to Kasm, and how each compares. Nothing forces replacement. */
const API_FIELDS = {
  castingConfigName: {},
  imageId: { equal: same.id },
  key: {},
  allowedReferrers: { equal: same.set },
  limitSessions: {},
  sessionRemaining: {},
  limitIps: {},
  ipRequestLimit: {},
  ipRequestSeconds: {},
  errorUrl: {},
  enableSharing: {},
  disableControlPanel: {},
  disableTips: {},
  disableFixedRes: {},
  allowAnonymous: {},
  groupId: { equal: same.id },
  requireRecaptcha: {},
  wsUrl: {},
  dynamicWsUrl: {},
  dynamicCtrNetwork: {},
  allowResume: {},
  enforceClientSettings: {},
  ...SESSION_PERMISSION_FIELDS,
  allowWsSharing: {},
  wsAudioDefaultOn: {},
  wsImeModeDefaultOn: {},
  validUntil: {},
} satisfies FieldRules<CastConfigInputs>;

/** Inputs that only steer the provider. */
const PROVIDER_FIELDS = { adopt: {} } satisfies FieldRules<CastConfigInputs>;

const INPUT_FIELDS = { ...API_FIELDS, ...PROVIDER_FIELDS };

// --- helpers -------------------------------------------------------------------------------------

/** The `target_cast_config` body for the declared fields. */
function targetCastConfig(inputs: CastConfigInputs): NewCastConfig {
  const body: NewCastConfig = toApi(inputs, fieldNames(API_FIELDS));
  body.casting_config_name = body.casting_config_name.trim();
  return body;
}

function outputs(inputs: Props, config: KasmCastConfig): Props {
  return {
    ...declared(inputs, Object.keys(INPUT_FIELDS)),
    castConfigId: config.cast_config_id,
    imageFriendlyName: config.image_friendly_name ?? null,
    groupName: config.group_name ?? null,
  };
}

/** Whether an error says the casting config itself (not its image or group) does not exist. */
function isCastConfigGone(error: unknown): boolean {
  return isNotFound(error) && /cast config/i.test((error as KasmApiError).errorMessage ?? "");
}

function label(inputs: CastConfigInputs): string {
  return `with key '${inputs.key}' or name '${inputs.castingConfigName.trim()}'`;
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of CastConfig; only `adopt` changing sends no request. */
export const castConfigProvider: KindProvider = defineKind<CastConfigInputs, CastConfigOutputs>({
  schema: CastConfigInputs,
  apiFields: API_FIELDS,
  providerFields: PROVIDER_FIELDS,

  async create(inputs) {
    const body = targetCastConfig(inputs);
    let result: CreateCastConfigResult;
    try {
      result = await kasmClient().casting.createCastConfig(body);
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      if (inputs.adopt)
        throw new Error(
          `A casting config ${label(inputs)} already exists in Kasm, and \`adopt: true\` cannot take it over: Kasm has no ` +
            `operation to read or list casting configs, so its id cannot be found. Delete it in the Kasm UI (the Casting page of the ` +
            `administration) and run the update again, or choose another key and name.`,
        );
      throw alreadyExistsError("CastConfig", label(inputs), error);
    }
    if (!result.confirmed)
      throw new Error(
        `create_cast_config failed in transit and its repeat found a casting config ${label(inputs)} already there. ` +
          `It is probably the one this update created, but Kasm cannot read casting configs, so its id is unknown and ` +
          `Pulumi does not track it. Check the Casting page of the Kasm UI: delete it there and run the update again.`,
      );
    return { id: result.cast_config.cast_config_id, outs: outputs(inputs, result.cast_config) };
  },

  /** Kasm cannot read casting configs: the last known state is kept as it is. */
  async read(id, props) {
    return { id, props, inputs: declared(props, Object.keys(INPUT_FIELDS)) };
  },

  async update(id, olds, news) {
    // Every declared field is sent: with no read, this is the only way to undo changes made in the UI.
    const update: CastConfigUpdate = { ...targetCastConfig(news), cast_config_id: id };
    // But not the remaining-sessions counter unless the program changed it: Kasm counts it down as
    // sessions start, and sending the declared value again would reset the count.
    if (same.value(olds.sessionRemaining, news.sessionRemaining)) delete update.session_remaining;
    try {
      const config = await kasmClient().casting.updateCastConfig(update);
      return { outs: outputs(news, config) };
    } catch (error) {
      if (isCastConfigGone(error))
        throw new Error(
          `The casting config ${id} (key '${String(news.key)}') no longer exists in Kasm: it was deleted outside ` +
            `Pulumi. Kasm cannot read casting configs, so a refresh could not notice. Run \`pulumi up --replace <urn>\` ` +
            `for this resource to create it again.`,
        );
      throw error;
    }
  },

  async delete(id, props) {
    // Deleting what is already gone is done.
    await unlessGone(() => kasmClient().casting.deleteCastConfig({ cast_config_id: id, casting_config_name: String(props.castingConfigName ?? "").trim() }));
  },
});
