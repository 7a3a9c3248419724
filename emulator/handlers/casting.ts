/**
 * Casting configurations: create, update, delete (the API has no read).
 */
import { z } from "zod";
import { MissingParameters } from "../errors";
import { CAST_CONFIG } from "../fields";
import { databaseId, productClientPermissionsOf } from "../models/common";
import type { Caller } from "../auth";
import type { CastConfigRecord, Store } from "../store";
import type { ApiNames } from "../vocabulary";
import { bool, clientPermissionInputs, id, int, parse, productClientPermissionInputs, text, withProductDefaults, type Handler } from "./common";

/** Referrers arrive as a list or as one newline-separated string, and are kept as a list. */
const referrers = z.union([
  z.array(z.string()),
  z.string().transform((s) =>
    s
      .split(/\r?\n/)
      .map((r) => r.trim())
      .filter(Boolean),
  ),
]);

const CastFields = z.object({
  casting_config_name: z.string().optional(),
  image_id: id.nullable().optional(),
  key: z.string().optional(),
  allowed_referrers: referrers
    .nullable()
    .transform((r) => r ?? [])
    .optional(),
  limit_sessions: bool.optional(),
  session_remaining: int.refine((n) => n >= 0, "must be 0 or more").optional(),
  limit_ips: bool.optional(),
  ip_request_limit: int.optional(),
  ip_request_seconds: int.optional(),
  error_url: text.optional(),
  enable_sharing: bool.optional(),
  disable_control_panel: bool.optional(),
  disable_tips: bool.optional(),
  disable_fixed_res: bool.optional(),
  allow_anonymous: bool.optional(),
  group_id: id.nullable().optional(),
  require_recaptcha: bool.optional(),
  ws_url: text.optional(),
  dynamic_ws_url: bool.optional(),
  dynamic_ctr_network: bool.optional(),
  allow_resume: bool.optional(),
  enforce_client_settings: bool.optional(),
  ...clientPermissionInputs,
  allow_ws_sharing: bool.optional(),
  ws_audio_default_on: bool.optional(),
  ws_ime_mode_default_on: bool.optional(),
  valid_until: text.optional(),
});

const ProductCastFields = CastFields.extend(productClientPermissionInputs);

/** The fields a request may set, in the emulator's vocabulary. */
const castFields = (apiNames: ApiNames) => (apiNames === "product" ? ProductCastFields : CastFields);

/** A casting config with the names of its image and group (and in product mode the product's extra permissions). */
function castJson(store: Store, c: CastConfigRecord, observedFields: boolean, apiNames: ApiNames) {
  const json = castRecord(store, c, observedFields);
  return apiNames === "product" ? { ...json, ...productClientPermissionsOf(c) } : json;
}

function castRecord(store: Store, c: CastConfigRecord, observedFields: boolean) {
  return CAST_CONFIG.form(
    {
      ...c,
      image_friendly_name: c.image_id ? (store.images.image(c.image_id)?.friendly_name ?? null) : null,
      allowed_referrers: [...c.allowed_referrers],
      group_name: c.group_id ? (store.groups.group(c.group_id)?.name ?? null) : null,
    },
    observedFields,
  );
}

/**
 * The check 1.15's update_cast_config makes of the groups an update moves a config between (its
 * compiled code): unless the group sent is the config's, in the spelling the product compares (32
 * hex digits), Groups Modify on the group sent and on the config's own, with Groups Modify System
 * for a system group. A group that does not exist is left to the update, which refuses it. The
 * documentation is silent; the emulator checks it with both vocabularies.
 */
function requireGroupChange(store: Store, caller: Caller, config: CastConfigRecord, sent: string | null | undefined): void {
  if (config.group_id !== null && sent === config.group_id) return;
  for (const groupId of [sent, config.group_id]) {
    const group = groupId ? store.groups.group(groupId) : undefined;
    if (group) caller.require("update_cast_config", { changesCastGroup: true, targetGroupIsSystem: group.is_system });
  }
}

/**
 * `target_cast_config` without the fields sent as null: 1.15's update_cast_config sets only the
 * fields whose value is not None (`data/access_postgres.py` update_cast_config), so null clears
 * nothing, `valid_until` included (its admin API hands every field of the request on with
 * `.get()`). Product mode only; spec mode's null clears, as the spec's update takes the fields sent.
 */
function withoutNulls(target: unknown): unknown {
  if (typeof target !== "object" || target === null || Array.isArray(target)) return target;
  return Object.fromEntries(Object.entries(target).filter(([name, value]) => value !== null || name === "cast_config_id"));
}

/** The handlers of this area, by operation. `get_cast_configs` and `get_cast_config` are the product's (product mode only). */
export const castingHandlers = {
  create_cast_config: ({ body, store, observedFields, apiNames }) => {
    const parsed = parse(castFields(apiNames), body.target_cast_config, "target_cast_config");
    const fields = apiNames === "product" ? withProductDefaults(parsed) : parsed;
    return { cast_config: castJson(store, store.casting.createCastConfig(fields), observedFields, apiNames) };
  },
  update_cast_config: ({ body, store, caller, observedFields, apiNames }) => {
    const { cast_config_id, ...fields } = parse(
      castFields(apiNames).extend({ cast_config_id: id.optional() }),
      apiNames === "product" ? withoutNulls(body.target_cast_config) : body.target_cast_config,
      "target_cast_config",
    );
    requireGroupChange(store, caller, store.casting.requireCastConfig(cast_config_id), fields.group_id);
    return { cast_config: castJson(store, store.casting.updateCastConfig(cast_config_id, fields), observedFields, apiNames) };
  },
  delete_cast_config: ({ body, store }) => {
    const req = parse(z.object({ cast_config_id: id.nullable().optional(), casting_config_name: z.string().nullable().optional() }), body, "");
    store.casting.deleteCastConfig(req.cast_config_id, req.casting_config_name);
    return {};
  },
  get_cast_configs: ({ store, observedFields, apiNames }) => ({
    cast_configs: store.casting.all().map((c) => castJson(store, c, observedFields, apiNames)),
  }),
  // 1.15's public get_cast_config: `cast_config_id` at the top level, 400 when missing or unknown;
  // its database fails the call on a value that is no UUID.
  get_cast_config: ({ body, store, observedFields, apiNames }) => {
    const castConfigId = body.cast_config_id;
    if (!castConfigId) throw new MissingParameters(".");
    databaseId(castConfigId);
    return { cast_config: castJson(store, store.casting.requireCastConfig(castConfigId), observedFields, apiNames) };
  },
} satisfies Record<string, Handler>;
