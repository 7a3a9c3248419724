/**
 * Workspace images. The spec's API only reads them (they come from the seed or the data file); in
 * product mode the product's create_image, update_image and delete_image change them, with the
 * rules of the 1.15 API server (decompile: `admin_api.py` create_image, update_image,
 * delete_image; `data/access_postgres.py` create_update_image; `data/model.py` Image).
 */
import { isDeepStrictEqual } from "node:util";
import { IMAGE_COMPUTE_SETTINGS } from "../../permissions/kinds";
import { RefusedWith200, UnhandledException } from "../errors";
import { AreaModel, byId, canonicalId, databaseId, hyphenatedId, newId, orUnknown, pythonUuid, type Table } from "./common";
import type { ServersModel } from "./servers";

/** A value a client sends as JSON text (run, exec, launch config, volume mappings), once parsed. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An image's exec actions: action name -> {cmd, environment}, as the spec describes `exec_config`. */
export type ExecConfig = Record<string, { cmd: string; environment?: Record<string, string> }>;

/** The fields of the spec's image record, as stored (the spec's names, ids canonical). */
export interface SpecImageFields {
  image_id: string;
  /** The Docker image name; null when an image was created over the API without one (1.15 allows it). */
  name: string | null;
  friendly_name: string | null;
  description: string | null;
  enabled: boolean;
  available: boolean;
  memory: number;
  cores: number;
  cpu_allocation_method: string;
  x_res: number;
  y_res: number;
  ctr_registry: string | null;
  ctr_user: string | null;
  /** The registry password: stored as given, answered masked (the product's data model sanitises it). */
  ctr_token: string | null;
  hash: string | null;
  volume_mappings: JsonValue;
  run_config: JsonValue;
  persistent_profile_config: Record<string, unknown>;
  persistent_profile_path: string | null;
  exec_config: ExecConfig | JsonValue;
  restrict_to_network: boolean;
  restrict_to_zone: boolean;
  restrict_to_server: boolean;
  zone_id: string | null;
  server_id: string | null;
  network_name: string | null;
  image_src: string | null;
}

/** The product's image fields beyond the spec's record (1.15's data model). */
export interface ProductImageFields {
  categories: string[];
  require_gpu: boolean;
  gpu_count: number;
  image_type: string;
  uncompressed_size_mb: number;
  restrict_network_names: string[];
  allow_network_selection: boolean;
  hidden: boolean;
  notes: string | null;
  link_url: string | null;
  server_pool_id: string | null;
  session_time_limit: number | null;
  launch_config: JsonValue;
  filter_policy_force_disabled: boolean;
}

/**
 * A workspace image as stored. Images stored before product mode lack the product's fields:
 * {@link productSettingsOf} reads them with the product's defaults.
 */
export interface ImageRecord extends SpecImageFields, Partial<ProductImageFields> {}

/** An image's product fields, the product's defaults (1.15's data model) for those it lacks. */
export function productSettingsOf(image: Partial<ProductImageFields>): ProductImageFields {
  return {
    categories: image.categories ?? [],
    require_gpu: image.require_gpu ?? false,
    gpu_count: image.gpu_count ?? 0,
    image_type: image.image_type ?? "Container",
    uncompressed_size_mb: image.uncompressed_size_mb ?? 0,
    restrict_network_names: image.restrict_network_names ?? [],
    allow_network_selection: image.allow_network_selection ?? false,
    hidden: image.hidden ?? false,
    notes: image.notes ?? null,
    link_url: image.link_url ?? null,
    server_pool_id: image.server_pool_id ?? null,
    session_time_limit: image.session_time_limit ?? null,
    launch_config: image.launch_config ?? {},
    filter_policy_force_disabled: image.filter_policy_force_disabled ?? false,
  };
}

/**
 * The settings create_image and update_image take, as the handler has read them from
 * `target_image` (JSON text parsed, categories split into lines, the filter policy resolved).
 * Undefined: not sent. What a value that was not sent, or a null, does is the product's
 * (see {@link ImagesModel.planSettings}).
 */
export interface ImageSettings {
  name?: string | null;
  friendly_name?: string | null;
  description?: string | null;
  image_src?: string | null;
  cores?: number | null;
  memory?: number | null;
  x_res?: number | null;
  y_res?: number | null;
  enabled?: boolean | null;
  ctr_registry?: string | null;
  ctr_user?: string | null;
  ctr_token?: string | null;
  hash?: string | null;
  run_config?: JsonValue;
  exec_config?: JsonValue;
  volume_mappings?: JsonValue;
  launch_config?: JsonValue;
  categories?: string[];
  restrict_to_network?: boolean | null;
  restrict_network_names?: string[] | null;
  restrict_to_server?: boolean | null;
  server_id?: string | null;
  restrict_to_zone?: boolean | null;
  zone_id?: string | null;
  server_pool_id?: string | null;
  persistent_profile_path?: string | null;
  filter_policy_force_disabled?: boolean | null;
  allow_network_selection?: boolean | null;
  session_time_limit?: number | null;
  gpu_count?: number | null;
  require_gpu?: boolean | null;
  hidden?: boolean | null;
  notes?: string | null;
  image_type?: string | null;
  link_url?: string | null;
  cpu_allocation_method?: string | null;
  uncompressed_size_mb?: number | null;
}

/** The part of the state this model owns. */
export interface ImagesTables {
  images: Table<ImageRecord>;
}

/**
 * An image as a seed describes it; `zone_id` is the zone it is restricted to, if any. No `name`: a
 * workspace without a container image (a link, a server or a server pool), stored with a null name.
 */
export interface ImageInput {
  image_id?: string;
  name?: string;
  friendly_name?: string;
  description?: string;
  enabled?: boolean;
  memory?: number;
  cores?: number;
  zone_id?: string;
  exec_config?: ExecConfig;
  image_src?: string;
  categories?: string[];
  run_config?: Record<string, unknown>;
  volume_mappings?: Record<string, unknown>;
  ctr_registry?: string;
  ctr_user?: string;
  ctr_token?: string;
  uncompressed_size_mb?: number;
  image_type?: string;
  gpu_count?: number;
  require_gpu?: boolean;
  cpu_allocation_method?: string;
  link_url?: string;
  server_pool_id?: string;
}

/** What other areas keep about an image, reached as callbacks so that this model imports none of them. */
export interface ImageDependents {
  /** How many sessions run the image. */
  sessionCount(imageId: string): number;
  /** The ids of the cast configs that launch the image. */
  castConfigIds(imageId: string): string[];
  /** Drop what refers to a deleted image (its staging configs, group authorisations, egress bindings, default-image settings). */
  forgetImage(imageId: string): void;
}

/** What the images model consults: the servers model (zones, servers and pools an image is tied to) and the image's dependents. */
export interface ImagesDependencies {
  servers: ServersModel;
  dependents?: ImageDependents;
}

/** How Python's `%s` writes a value of a request: None for null. */
function pythonText(value: unknown): string {
  return value === null || value === undefined ? "None" : String(value);
}

/** An id planSettings stores, once checkSettings has passed it: as Python read it (a restriction's), else as the database did. */
function storedId(value: string): string {
  return pythonUuid(value) ?? databaseId(value)!;
}

/** Python's truthiness, which decides what 1.15's create_update_image keeps and what it sets. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return !!value;
}

/**
 * Whether a token sent back is the mask an answer showed (1.15's `is_sanitized`: nothing but
 * asterisks, as the answers' mask is): then the stored token is kept.
 */
function isMasked(token: string): boolean {
  return token.split("*").length - 1 === token.trim().length;
}

/** An empty object (`== {}` in Python): the one falsy JSON config the product stores. */
function emptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** Whether two stored values are the same for the compute-field check: 1.15 counts null and "" alike. */
function sameValue(a: unknown, b: unknown): boolean {
  const blank = (v: unknown) => v === null || v === undefined || v === "";
  return (blank(a) && blank(b)) || isDeepStrictEqual(a, b);
}

/** An image about to be created or changed: the record as it would be stored, and what it replaces. */
export interface ImagePlan {
  readonly before: ImageRecord | undefined;
  readonly after: ImageRecord;
}

/** The images, how they are found, and the product's changes to them. */
export class ImagesModel extends AreaModel<ImagesTables, ImagesDependencies> {
  /** Every image. */
  all(): ImageRecord[] {
    return Object.values(this.tables.images);
  }

  /** An image by id in either form; undefined when the id is malformed or unknown. */
  image(id: unknown): ImageRecord | undefined {
    return byId(this.tables.images, id);
  }

  /** An image an operation refers to, with the product's wording when it is unknown. */
  requireImage(id: unknown): ImageRecord {
    return orUnknown(this.image(id), id, (given) => `Invalid Image ID (${given})`);
  }

  /** The image named `name` (its Docker name), if any. */
  imageByName(name: string): ImageRecord | undefined {
    return this.all().find((im) => im.name === name);
  }

  /** Add a seeded image, with the emulator's defaults for what the seed leaves out. */
  addSeedImage(input: ImageInput): ImageRecord {
    const image_id = input.image_id ? canonicalId(input.image_id)! : newId();
    const image: ImageRecord = {
      image_id,
      name: input.name ?? null,
      friendly_name: input.friendly_name ?? input.name ?? null,
      description: input.description ?? "",
      enabled: input.enabled ?? true,
      available: true,
      memory: input.memory ?? 2768000000,
      cores: input.cores ?? 2,
      cpu_allocation_method: input.cpu_allocation_method ?? "Inherit",
      x_res: 800,
      y_res: 600,
      ctr_registry: input.ctr_registry ?? null,
      ctr_user: input.ctr_user ?? null,
      ctr_token: input.ctr_token ?? null,
      hash: null,
      volume_mappings: (input.volume_mappings ?? {}) as JsonValue,
      run_config: (input.run_config ?? {}) as JsonValue,
      persistent_profile_config: {},
      persistent_profile_path: null,
      exec_config: input.exec_config ?? {},
      restrict_to_network: false,
      restrict_to_zone: !!input.zone_id,
      restrict_to_server: false,
      zone_id: input.zone_id ?? null,
      server_id: null,
      network_name: null,
      image_src: input.image_src ?? (input.name === undefined ? null : `img/thumbnails/${input.name.replace(/[^a-z0-9]+/gi, "_")}.png`),
      categories: input.categories ?? [],
      require_gpu: input.require_gpu ?? false,
      gpu_count: input.gpu_count ?? 0,
      image_type: input.image_type ?? "Container",
      uncompressed_size_mb: input.uncompressed_size_mb ?? 0,
      link_url: input.link_url ?? null,
      server_pool_id: input.server_pool_id ?? null,
    };
    this.tables.images[image_id] = image;
    return image;
  }

  // --- the product's image operations (1.15 answers their refusals with HTTP 200) -------------

  /**
   * The image update_image names, or 1.15's wording when it does not exist: the "user" there is
   * the session's, which a call made with an API key (acting as no user) does not have. An id the
   * database cannot read fails the call, as 1.15's getImage does.
   */
  imageToUpdate(id: unknown): ImageRecord {
    const image = this.image(databaseId(id));
    if (!image) throw new RefusedWith200(`User (None) attempted to update an image (${pythonText(id)}) that does not exist.`);
    return image;
  }

  /**
   * The record create_image (`before` undefined) or update_image would store, after the product's
   * checks, without storing it: the caller decides the permissions from it, then {@link commit}s.
   * A field left out (or null) keeps its value, except those 1.15's create_update_image always
   * writes: `ctr_registry`, `ctr_user`, `ctr_token` (a masked token keeps the stored one), `hash`,
   * `server_id`, `persistent_profile_path` and the filter policy become null, `gpu_count` 0 and
   * `hidden` false. Falsy values (0, "", false) keep the stored value where 1.15 tests truthiness.
   * `require_gpu` is taken and never stored, as 1.15's create_update_image does.
   */
  planSettings(before: ImageRecord | undefined, s: ImageSettings): ImagePlan {
    this.checkSettings(s);
    const base: ImageRecord = before ? { ...before, ...productSettingsOf(before) } : this.newImageRecord();
    const after: ImageRecord = { ...base };
    // Where 1.15 tests `if value:`, a falsy value (None, 0, "", False, [] or {}) keeps the stored one.
    const setIfTruthy = <K extends keyof ImageRecord>(field: K, value: ImageRecord[K] | null | undefined, cut?: number) => {
      if (truthy(value)) after[field] = (typeof value === "string" && cut ? value.slice(0, cut) : value) as ImageRecord[K];
    };
    after.ctr_registry = s.ctr_registry ?? null;
    after.ctr_user = s.ctr_user ?? null;
    if (!s.ctr_token || !isMasked(s.ctr_token)) after.ctr_token = s.ctr_token ? s.ctr_token.slice(0, 8192) : (s.ctr_token ?? null);
    setIfTruthy("cores", s.cores);
    setIfTruthy("description", s.description);
    if (s.enabled === true || s.enabled === false) after.enabled = s.enabled;
    setIfTruthy("friendly_name", s.friendly_name, 255);
    setIfTruthy("image_src", s.image_src, 255);
    after.hash = s.hash ? s.hash.slice(0, 255) : (s.hash ?? null);
    setIfTruthy("memory", s.memory);
    setIfTruthy("name", s.name, 255);
    setIfTruthy("x_res", s.x_res);
    setIfTruthy("y_res", s.y_res);
    for (const field of ["run_config", "exec_config", "launch_config", "volume_mappings"] as const) {
      const value = s[field];
      if (truthy(value) || emptyObject(value)) after[field] = value as never;
    }
    if (s.categories !== undefined) after.categories = s.categories;
    for (const field of ["restrict_to_network", "restrict_to_server", "restrict_to_zone"] as const) {
      if (s[field] === true || s[field] === false) after[field] = s[field];
    }
    after.server_id = s.server_id ? storedId(s.server_id) : null;
    if (s.server_pool_id) after.server_pool_id = storedId(s.server_pool_id);
    if (s.zone_id) after.zone_id = storedId(s.zone_id);
    if (s.filter_policy_force_disabled !== undefined && s.filter_policy_force_disabled !== null)
      after.filter_policy_force_disabled = s.filter_policy_force_disabled;
    if (s.restrict_network_names) after.restrict_network_names = s.restrict_network_names;
    if (s.allow_network_selection !== undefined && s.allow_network_selection !== null) after.allow_network_selection = s.allow_network_selection;
    if (s.session_time_limit !== undefined) after.session_time_limit = s.session_time_limit;
    after.gpu_count = s.gpu_count ?? 0;
    // 1.15's image store takes require_gpu and leaves it out: the stored value (the seed's, else false) stays.
    after.hidden = !!s.hidden;
    setIfTruthy("notes", s.notes);
    setIfTruthy("image_type", s.image_type);
    setIfTruthy("link_url", s.link_url);
    setIfTruthy("cpu_allocation_method", s.cpu_allocation_method);
    if (s.uncompressed_size_mb !== undefined && s.uncompressed_size_mb !== null) after.uncompressed_size_mb = s.uncompressed_size_mb;
    const path = s.persistent_profile_path ?? null;
    after.persistent_profile_path = path && path.startsWith("s3://") && !path.endsWith("/") ? `${path}/` : path;
    return { before, after };
  }

  /**
   * Whether an update's settings change a compute-related field (the permission catalogue's
   * `IMAGE_COMPUTE_SETTINGS`: the spec's special permission 3 with 1.15's `require_gpu` and
   * `persistent_profile_path`) of the stored image, as 1.15's
   * update_image judges it for a key without both Images Modify and Images Modify Resources: each
   * value sent against the stored one (not the record it would store), null and "" alike. A
   * registry password sent back masked differs from the stored password.
   */
  changesComputeFields(image: ImageRecord, settings: ImageSettings): boolean {
    const stored: Record<string, unknown> = { ...image, ...productSettingsOf(image) };
    const sent: Readonly<Record<string, unknown>> = { ...settings };
    return IMAGE_COMPUTE_SETTINGS.some((field) => field in sent && !sameValue(stored[field], sent[field]));
  }

  /** Store a planned image (a new one, or the new state of an existing one). */
  commit(plan: ImagePlan): ImageRecord {
    const image = plan.before ?? plan.after;
    if (plan.before) Object.assign(plan.before, plan.after);
    this.tables.images[image.image_id] = image;
    return image;
  }

  /**
   * delete_image: not while a cast config launches the image or a session runs it; what else
   * refers to the image goes with it, as the product's foreign keys cascade. An id the database
   * cannot read fails the call, as 1.15's getImage does.
   */
  deleteImage(id: unknown): void {
    const image = this.image(databaseId(id));
    if (!image) throw new RefusedWith200(`Image(${pythonText(id)}) Does not Exist`);
    const castConfigs = this.deps.dependents?.castConfigIds(image.image_id) ?? [];
    const which = `Image (${pythonText(image.friendly_name)}): ID (${hyphenatedId(image.image_id)}) currently has`;
    if (castConfigs.length > 0) throw new RefusedWith200(`${which} (${castConfigs.length}) associated Casting Config(s) and cannot be deleted`);
    const sessions = this.deps.dependents?.sessionCount(image.image_id) ?? 0;
    if (sessions > 0) throw new RefusedWith200(`${which} (${sessions}) associated Kasm(s) and cannot be deleted`);
    this.deps.dependents?.forgetImage(image.image_id);
    delete this.tables.images[image.image_id];
  }

  /** A new image with 1.15's data-model defaults (`available`: the emulator's, see emulator/README.md). */
  private newImageRecord(): ImageRecord {
    return {
      image_id: newId(),
      name: null,
      friendly_name: null,
      description: null,
      enabled: true,
      available: true,
      memory: 768000000,
      cores: 1,
      cpu_allocation_method: "Inherit",
      x_res: 800,
      y_res: 600,
      ctr_registry: null,
      ctr_user: null,
      ctr_token: null,
      hash: null,
      volume_mappings: {},
      run_config: {},
      persistent_profile_config: {},
      persistent_profile_path: null,
      exec_config: {},
      restrict_to_network: false,
      restrict_to_zone: false,
      restrict_to_server: false,
      zone_id: null,
      server_id: null,
      network_name: null,
      image_src: null,
      ...productSettingsOf({}),
    };
  }

  /**
   * 1.15's checks of create_image and update_image, in its order and words: a server or zone is
   * checked when its `restrict_to_*` flag is set (given, a UUID, existing). Otherwise the product
   * stores the id it is sent, and a server, zone or server pool id that is no UUID or names nothing
   * fails the call when its database refuses the row (a failed cast, a foreign key): after every
   * check, as 1.15's commit comes after them.
   */
  private checkSettings(s: ImageSettings): void {
    const path = s.persistent_profile_path;
    if (path && !path.includes("{username}") && !path.includes("{user_id}"))
      throw new RefusedWith200("Invalid Request:Persistent Profile Path must contain either (username} or {user_id} as part of the path");
    if (s.restrict_to_network && !truthy(s.restrict_network_names))
      throw new RefusedWith200("Invalid Request: Docker Network Names is required if Restrict Image to Docker Network is True");
    const server = (id: string) => this.deps.servers.server(id);
    const zone = (id: string) => this.deps.servers.zone(id);
    if (s.restrict_to_server) this.checkRestriction("server_id", "restrict_to_server", "Server", s.server_id, server);
    if (s.restrict_to_zone) this.checkRestriction("zone_id", "restrict_to_zone", "Zone", s.zone_id, zone);
    const stored: [string | null | undefined, (id: string) => unknown][] = [
      [s.restrict_to_server ? undefined : s.server_id, server],
      [s.restrict_to_zone ? undefined : s.zone_id, zone],
      [s.server_pool_id, (id) => this.deps.servers.serverPool(id)],
    ];
    for (const [value, find] of stored) if (value && !find(databaseId(value)!)) throw new UnhandledException();
  }

  /** A restriction's id: given, a UUID as Python reads one, and naming an existing object, in 1.15's words. */
  private checkRestriction(field: string, flag: string, kind: string, value: string | null | undefined, find: (id: string) => unknown): void {
    if (!value) throw new RefusedWith200(`Invalid Request: ${field} required if ${flag} is True`);
    const id = pythonUuid(value);
    if (!id) throw new RefusedWith200(`Invalid Request: ${field} must be a uuid`);
    if (!find(id)) throw new RefusedWith200(`Invalid Request: No ${kind} exists with id (${hyphenatedId(id)})`);
  }
}
