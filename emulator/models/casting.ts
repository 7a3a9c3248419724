/**
 * Casting configs: links that start a session of an image for whoever opens them. A config may
 * refer to an image and a group, whose models are passed in.
 */
import { AlreadyExists, InvalidRequest, MissingParameters, UnknownObject } from "../errors";
import {
  AreaModel,
  byId,
  definedOnly,
  newId,
  NO_CLIENT_PERMISSIONS,
  parseTime,
  orUnknown,
  type ClientPermissions,
  type ProductClientPermissions,
  type Table,
} from "./common";
import type { GroupsModel } from "./groups";
import type { ImagesModel } from "./images";

/** A casting config as stored: the wire's fields, ids canonical. */
export interface CastConfigRecord extends ClientPermissions, ProductClientPermissions {
  cast_config_id: string;
  casting_config_name: string;
  image_id: string | null;
  key: string;
  allowed_referrers: string[];
  limit_sessions: boolean;
  session_remaining: number;
  limit_ips: boolean;
  ip_request_limit: number;
  ip_request_seconds: number;
  error_url: string | null;
  enable_sharing: boolean;
  disable_control_panel: boolean;
  disable_tips: boolean;
  disable_fixed_res: boolean;
  allow_anonymous: boolean;
  group_id: string | null;
  require_recaptcha: boolean;
  ws_url: string | null;
  dynamic_ws_url: boolean;
  dynamic_ctr_network: boolean;
  allow_resume: boolean;
  enforce_client_settings: boolean;
  allow_ws_sharing: boolean;
  ws_audio_default_on: boolean;
  ws_ime_mode_default_on: boolean;
  valid_until: string | null;
}

/** The part of the state this model owns. */
export interface CastingTables {
  castConfigs: Table<CastConfigRecord>;
}

/** The fields of a casting config a client may send. */
export type CastConfigInput = Partial<Omit<CastConfigRecord, "cast_config_id">>;

/** The models casting configs refer to. */
export interface CastingDependencies {
  images: ImagesModel;
  groups: GroupsModel;
}

/** The casting configs and the rules that change them. */
export class CastingModel extends AreaModel<CastingTables, CastingDependencies> {
  /** Every casting config. */
  all(): CastConfigRecord[] {
    return Object.values(this.tables.castConfigs);
  }

  /** A casting config an operation refers to, with the product's wording when it is unknown. */
  requireCastConfig(id: unknown): CastConfigRecord {
    return orUnknown(byId(this.tables.castConfigs, id), id, (given) => `Cast config with id (${given}) does not exist`);
  }

  /** create_cast_config: `key` is required; key and name are each unique. The id is a new one, or the one a seed pins (canonical form). */
  createCastConfig(input: CastConfigInput, id: string = newId()): CastConfigRecord {
    if (!input.key) throw new MissingParameters(".");
    const config: CastConfigRecord = {
      cast_config_id: id,
      casting_config_name: input.key,
      image_id: null,
      key: input.key,
      allowed_referrers: [],
      limit_sessions: false,
      session_remaining: 0,
      limit_ips: false,
      ip_request_limit: 0,
      ip_request_seconds: 0,
      error_url: null,
      enable_sharing: false,
      disable_control_panel: false,
      disable_tips: false,
      disable_fixed_res: false,
      allow_anonymous: false,
      group_id: null,
      require_recaptcha: false,
      ws_url: null,
      dynamic_ws_url: false,
      dynamic_ctr_network: false,
      allow_resume: false,
      enforce_client_settings: false,
      ...NO_CLIENT_PERMISSIONS,
      allow_ws_sharing: false,
      ws_audio_default_on: true,
      ws_ime_mode_default_on: false,
      valid_until: null,
    };
    this.applyCastConfig(config, input);
    this.tables.castConfigs[config.cast_config_id] = config;
    return config;
  }

  /** update_cast_config: the fields sent change; key and name stay unique. */
  updateCastConfig(id: unknown, input: CastConfigInput): CastConfigRecord {
    const config = this.requireCastConfig(id);
    this.applyCastConfig(config, input);
    return config;
  }

  private applyCastConfig(config: CastConfigRecord, input: CastConfigInput): void {
    const key = input.key ?? config.key;
    const name = input.casting_config_name ?? config.casting_config_name;
    if (!key) throw new InvalidRequest("Invalid Request: key must not be empty");
    const clash = this.all().find((c) => c.cast_config_id !== config.cast_config_id && (c.key === key || c.casting_config_name === name));
    if (clash)
      throw new AlreadyExists(`A Cast config with existing key (${key}) OR configuration name (${name}) exists. Key/Configuration Name must be unique`);
    let imageId = config.image_id;
    if (input.image_id !== undefined) {
      imageId = null;
      if (input.image_id !== null && input.image_id !== "") imageId = this.deps.images.requireImage(input.image_id).image_id;
    }
    let groupId = config.group_id;
    if (input.group_id !== undefined) {
      groupId = null;
      if (input.group_id !== null && input.group_id !== "") groupId = this.deps.groups.requireGroup(input.group_id).group_id;
    }
    const next = { ...config, ...definedOnly(input) };
    if (next.limit_ips && (next.ip_request_limit < 1 || next.ip_request_seconds < 1))
      throw new InvalidRequest("Invalid Request: ip_request_limit and ip_request_seconds must be positive when limit_ips is true");
    // The spec: "valid_until string YYYY-MM-DD HH:MM:SS, UTC". "" is refused too: the product
    // stores the value in a timestamp column as sent, and its own admin UI sends null, never "",
    // for a link without expiry (see emulator/README.md, "valid_until and no expiry").
    if (next.valid_until !== null && !parseTime(next.valid_until))
      throw new InvalidRequest(
        `Invalid Request: valid_until (${JSON.stringify(next.valid_until)}) must be a UTC time written 'YYYY-MM-DD HH:MM:SS', ` +
          "such as 2031-12-31 23:59:59; for a link that never expires send null or leave valid_until out",
      );
    Object.assign(config, next, { key, casting_config_name: name, image_id: imageId, group_id: groupId });
  }

  /** delete_cast_config: by id, or by name when no id is sent. */
  deleteCastConfig(id: unknown, name: unknown): void {
    let config: CastConfigRecord | undefined;
    if (id !== undefined && id !== null && id !== "") config = this.requireCastConfig(id);
    else if (typeof name === "string") config = this.all().find((c) => c.casting_config_name === name);
    if (!config) throw new UnknownObject(`Cast config with id (${String(id ?? name ?? "")}) does not exist`);
    delete this.tables.castConfigs[config.cast_config_id];
  }
}
