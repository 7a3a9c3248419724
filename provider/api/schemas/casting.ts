/**
 * Schemas of the casting area: casting configs, which expose session access through a URL
 * `{base_url}/#/cast/<key>`. The API has no operation that reads them back.
 */
import { z } from "zod";
import { fromApiFields } from "../records";
import { Bool, Id, Int, NullableId, NullableString, nullable, SESSION_PERMISSION_NAMES, SessionPermissions } from "./common";

/** The casting config record. */
export const CastConfig = z.object({
  /** Assigned by the server. */
  cast_config_id: Id,
  casting_config_name: z.string(),
  image_id: Id,
  image_friendly_name: NullableString.optional(),
  /** Unique identifier of the casting URL. */
  key: z.string(),
  /** Domains; the server also accepts a newline-separated string and stores a list. */
  allowed_referrers: z
    .preprocess((v) => (typeof v === "string" ? v.split(/\r?\n/).filter(Boolean) : v), z.array(z.string()))
    .nullable()
    .optional(),
  limit_sessions: nullable(Bool).optional(),
  session_remaining: nullable(Int).optional(),
  limit_ips: nullable(Bool).optional(),
  ip_request_limit: nullable(Int).optional(),
  ip_request_seconds: nullable(Int).optional(),
  error_url: NullableString.optional(),
  enable_sharing: nullable(Bool).optional(),
  disable_control_panel: nullable(Bool).optional(),
  disable_tips: nullable(Bool).optional(),
  disable_fixed_res: nullable(Bool).optional(),
  allow_anonymous: nullable(Bool).optional(),
  /** Extra group for anonymous users (who are also put in All Users). */
  group_id: NullableId.optional(),
  group_name: NullableString.optional(),
  require_recaptcha: nullable(Bool).optional(),
  ws_url: NullableString.optional(),
  dynamic_ws_url: nullable(Bool).optional(),
  dynamic_ctr_network: nullable(Bool).optional(),
  allow_resume: nullable(Bool).optional(),
  enforce_client_settings: nullable(Bool).optional(),
  ...SessionPermissions,
  allow_ws_sharing: nullable(Bool).optional(),
  ws_audio_default_on: nullable(Bool).optional(),
  ws_ime_mode_default_on: nullable(Bool).optional(),
  /** `YYYY-MM-DD HH:MM:SS`, UTC; after it the link answers with an error. */
  valid_until: NullableString.optional(),
});
/** The casting config record. */
export type CastConfig = z.infer<typeof CastConfig>;

/**
 * The fields of a casting config that a CastConfig declares as the record holds them: all it
 * declares but the ids (the image's and the group's, which a reader may spell its own way) and the
 * counter of sessions left (see {@link castConfigShown}).
 */
export const CAST_CONFIG_SHOWN_FIELDS = [
  "castingConfigName",
  "key",
  "allowedReferrers",
  "limitSessions",
  "limitIps",
  "ipRequestLimit",
  "ipRequestSeconds",
  "errorUrl",
  "enableSharing",
  "disableControlPanel",
  "disableTips",
  "disableFixedRes",
  "allowAnonymous",
  "requireRecaptcha",
  "wsUrl",
  "dynamicWsUrl",
  "dynamicCtrNetwork",
  "allowResume",
  "enforceClientSettings",
  ...SESSION_PERMISSION_NAMES,
  "allowWsSharing",
  "wsAudioDefaultOn",
  "wsImeModeDefaultOn",
  "validUntil",
] as const;

/**
 * A casting config's settings by the names a program declares them (a CastConfig's inputs), as the
 * record shows them. `sessionRemaining` is a counter Kasm counts down as the link starts sessions:
 * it is there only where the link limits sessions (a CastConfig then requires it), as the count
 * Kasm has now. One mapping for the CastConfig kind, which reports it on refresh and on an import's
 * read, and for `kasm-import`, which writes it.
 */
export function castConfigShown(config: CastConfig) {
  return {
    ...fromApiFields(config, CAST_CONFIG_SHOWN_FIELDS),
    imageId: config.image_id,
    groupId: config.group_id,
    sessionRemaining: config.limit_sessions === true ? (config.session_remaining ?? 0) : undefined,
  };
}

/** The writable fields of a casting config. */
const CastFields = CastConfig.omit({ cast_config_id: true, image_friendly_name: true, group_name: true });

/** `target_cast_config` of `create_cast_config`: name, image and key are required; key and name must be unique. */
export const NewCastConfig = CastFields.partial().required({ casting_config_name: true, image_id: true, key: true });
/** `target_cast_config` of `create_cast_config`. */
export type NewCastConfig = z.infer<typeof NewCastConfig>;

/** `target_cast_config` of `update_cast_config`: the id and the fields to change. */
export const CastConfigUpdate = CastFields.partial().extend({ cast_config_id: Id });
/** `target_cast_config` of `update_cast_config`. */
export type CastConfigUpdate = z.infer<typeof CastConfigUpdate>;

/**
 * Parameters of `delete_cast_config`: the id and the name. Without the id (a create that was not
 * confirmed, see {@link CreateCastConfigResult}) the config is named by `casting_config_name` alone.
 */
export const DeleteCastConfigParams = CastConfig.pick({ cast_config_id: true, casting_config_name: true }).partial({ cast_config_id: true });
/** Parameters of `delete_cast_config`. */
export type DeleteCastConfigParams = z.infer<typeof DeleteCastConfigParams>;

/**
 * The result of `create_cast_config`.
 *
 * `confirmed: false` happens only when the first attempt failed in a way that leaves its outcome
 * unknown and the repeated attempt answered that the key or name already exists: the first
 * attempt committed, but the API has no operation to read the record back, so `cast_config`
 * holds what was sent and no `cast_config_id`.
 */
export type CreateCastConfigResult =
  | { readonly confirmed: true; readonly cast_config: CastConfig }
  | { readonly confirmed: false; readonly cast_config: NewCastConfig };
