/**
 * Schemas of the images area: workspace images, and which groups may launch them.
 *
 * The API documentation lists images (`get_images`) but leaves out the operations that create,
 * read, change and delete one, and a group's images. Their shapes are the released product's, as
 * two public clients send and read them (a Terraform client tested against 1.16.1,
 * SiM22/terraform-provider-kasm `internal/client/image_*.go` and `group_*.go`; and
 * KnightRider2070/KasmLink `pkg/webApi`), and a decompile of the 1.15.0 API server (admin_api.py)
 * for the errors and permissions.
 */
import { z } from "zod";
import { IMAGE_COMPUTE_SETTINGS } from "../../../permissions/kinds";
import { AnyObject, Bool, Id, Int, NullableId, NullableString, Num, nullable } from "./common";

/** An attribute of an image. */
export const ImageAttribute = z.looseObject({
  image_id: Id.optional().describe("The id of the image the attribute belongs to (32 hex digits)."),
  attr_id: z.string().optional().describe("The attribute's id."),
  name: z.string().describe("The attribute's name."),
  category: NullableString.optional().describe("The attribute's category."),
  value: z.unknown().optional().describe("The attribute's value."),
});
/** An attribute of an image. */
export type ImageAttribute = z.infer<typeof ImageAttribute>;

/** A workspace image (a containerised application or desktop). Fields beyond those checked are kept. */
export const Image = z.looseObject({
  image_id: Id.describe("The image's id (32 hex digits)."),
  name: NullableString.describe(
    "The image's name: the container image it runs, such as kasmweb/chrome:1.16.0. Null for a workspace that runs no container image of its own (a link, a server or a server pool), which Kasm stores without one.",
  ),
  friendly_name: NullableString.optional().describe("The image's friendly name."),
  description: NullableString.optional().describe("The image's description."),
  enabled: nullable(Bool).optional().describe("Whether the image is enabled."),
  available: nullable(Bool).optional().describe("Whether the image is available."),
  memory: nullable(Num).optional().describe("The image's memory, in bytes."),
  cores: nullable(Num).optional().describe("The image's CPU cores."),
  cpu_allocation_method: NullableString.optional().describe("How the image's CPU is allocated, such as `Inherit`."),
  x_res: nullable(Int).optional().describe("The image's horizontal resolution."),
  y_res: nullable(Int).optional().describe("The image's vertical resolution."),
  ctr_registry: NullableString.optional().describe("The container registry of the image, or null."),
  ctr_user: NullableString.optional().describe("The username for the image's container registry, or null."),
  hash: NullableString.optional().describe("The image's hash, or null."),
  volume_mappings: AnyObject.nullable().optional().describe("The image's volume mappings, as an object."),
  run_config: AnyObject.nullable().optional().describe("The image's run config override, as an object."),
  persistent_profile_config: AnyObject.nullable().optional().describe("The image's persistent profile config, as an object."),
  persistent_profile_path: NullableString.optional().describe("The image's persistent profile path, or null."),
  // Any JSON object: an exec config may hold other keys than actions (`"shell": "/bin/bash"`, as a public client's test image has).
  exec_config: AnyObject.nullable().optional().describe("The image's exec actions, by name: each has a `cmd` text and may have an `environment` object."),
  imageAttributes: z.array(ImageAttribute).optional().describe("The image's attributes."),
  restrict_to_network: nullable(Bool).optional().describe("Whether the image is restricted to a network."),
  restrict_to_zone: nullable(Bool).optional().describe("Whether the image is restricted to a zone."),
  restrict_to_server: nullable(Bool).optional().describe("Whether the image is restricted to a server."),
  zone_id: NullableId.optional().describe("The id of the image's zone (32 hex digits), or null."),
  zone_name: NullableString.optional().describe("The name of the image's zone, or null."),
  server_id: NullableId.optional().describe("The id of the image's server (32 hex digits), or null."),
  network_name: NullableString.optional().describe("The name of the image's network, or null."),
  image_src: NullableString.optional().describe("The image's source (`image_src`), as Kasm reports it."),
});
/** A workspace image. */
export type Image = z.infer<typeof Image>;

/**
 * An image as a released Kasm's image operations and `get_images` answer it: the spec's record and
 * the product's own fields (the image model's JSON fields in the 1.15.0 decompile; the same names
 * in both public clients), read only with `kasm:apiNames` `product`.
 */
export const ProductImage = Image.extend({
  /** The product answers a list; a create or update sends one category a line (see {@link NewImage}). */
  categories: z.array(z.string()).nullable().optional(),
  gpu_count: nullable(Num).optional(),
  require_gpu: nullable(Bool).optional(),
  uncompressed_size_mb: nullable(Num).optional(),
  image_type: NullableString.optional(),
  restrict_network_names: z.array(z.string()).nullable().optional(),
});
/** An image as a released Kasm answers it. */
export type ProductImage = z.infer<typeof ProductImage>;

/**
 * An image's settings by the names a program declares them (a Workspace's inputs), with the values
 * the record shows, null where it shows none. The registry credentials are left out: Kasm never
 * shows the password, and a program gives both as secrets. One mapping for the Workspace kind,
 * which compares it when taking an image over and reports it on refresh, and for `kasm-import`,
 * which writes it: the program then declares what the take-over compares.
 */
export function imageSettingsShown(image: ProductImage) {
  return {
    name: image.name,
    friendlyName: image.friendly_name ?? null,
    description: image.description ?? null,
    categories: image.categories ?? null,
    imageSrc: image.image_src ?? null,
    enabled: image.enabled ?? null,
    cores: image.cores ?? null,
    memory: image.memory ?? null,
    gpuCount: image.gpu_count ?? null,
    requireGpu: image.require_gpu ?? null,
    cpuAllocationMethod: image.cpu_allocation_method ?? null,
    uncompressedSizeMb: image.uncompressed_size_mb ?? null,
    imageType: image.image_type ?? null,
    registry: image.ctr_registry ?? null,
    runConfig: image.run_config ?? null,
    execConfig: image.exec_config ?? null,
    volumeMappings: image.volume_mappings ?? null,
    restrictToZone: image.restrict_to_zone ?? null,
    zoneId: image.zone_id ?? null,
    restrictToServer: image.restrict_to_server ?? null,
    serverId: image.server_id ?? null,
    restrictToNetwork: image.restrict_to_network ?? null,
    restrictNetworkNames: image.restrict_network_names ?? null,
  };
}

/**
 * `target_image` of `create_image` and `update_image` (with `image_id`). Both public clients send
 * the categories as one text (a category a line, as the Kasm UI's field) and the run config, exec
 * config and volume mappings as JSON text, where the record answers a list and objects; 1.15.0's
 * update_image refuses an object there (`Invalid json format for <field>`). The registry password
 * is `ctr_token` (`docker_token` on the product's wire: the KasmLink client and the 1.15.0
 * decompile's image copy; the Terraform client's `docker_password` is a name the product's image
 * model does not have). 1.15.0 passes `target_image` on as keyword arguments, so a field it does
 * not take fails the call: only the fields of {@link IMAGE_SETTINGS} are ever sent.
 */
export const NewImage = z.object({
  name: z.string(),
  friendly_name: z.string(),
  description: z.string().optional(),
  categories: z.string().optional(),
  image_src: z.string().optional(),
  enabled: z.boolean().optional(),
  cores: z.number().optional(),
  memory: z.number().int().optional(),
  gpu_count: z.number().int().optional(),
  require_gpu: z.boolean().optional(),
  cpu_allocation_method: z.string().optional(),
  uncompressed_size_mb: z.number().int().optional(),
  image_type: z.string().optional(),
  ctr_registry: z.string().optional(),
  ctr_user: z.string().optional(),
  ctr_token: z.string().optional(),
  run_config: z.string().optional(),
  exec_config: z.string().optional(),
  volume_mappings: z.string().optional(),
  restrict_to_zone: z.boolean().optional(),
  zone_id: z.string().optional(),
  restrict_to_server: z.boolean().optional(),
  server_id: z.string().optional(),
  restrict_to_network: z.boolean().optional(),
  restrict_network_names: z.array(z.string()).optional(),
});
/** `target_image` of `create_image`. */
export type NewImage = z.infer<typeof NewImage>;

/**
 * The settings of an image that create_image and update_image take, besides the ones a program
 * declares ({@link NewImage}): an update sends the whole record (1.15.0's update_image clears the
 * registry, its credentials, the hash and the server of a record that leaves them out), so these
 * are sent back as Kasm has them. A registry password is answered masked, and the mask sent back
 * keeps the stored one. Source: the 1.15.0 decompile's update_image and the admin UI's edit form.
 */
export const IMAGE_SETTINGS = [
  "name",
  "friendly_name",
  "description",
  "image_src",
  "cores",
  "memory",
  "x_res",
  "y_res",
  "enabled",
  "ctr_registry",
  "ctr_user",
  "ctr_token",
  "hash",
  "run_config",
  "exec_config",
  "volume_mappings",
  "launch_config",
  "categories",
  "restrict_to_network",
  "restrict_network_names",
  "restrict_to_server",
  "server_id",
  "restrict_to_zone",
  "zone_id",
  "server_pool_id",
  "persistent_profile_path",
  "filter_policy_force_disabled",
  "allow_network_selection",
  "session_time_limit",
  "gpu_count",
  "require_gpu",
  "hidden",
  "notes",
  "image_type",
  "link_url",
  "cpu_allocation_method",
  "uncompressed_size_mb",
] as const;

/**
 * The settings 1.15.0's update_image checks one by one when the API key holds only one of Images
 * Modify and Images Modify Resources (the permission catalogue's `IMAGE_COMPUTE_SETTINGS`, read in its
 * compiled code, which the decompile could not rebuild): each is read from `target_image`, where one left out fails the call with an unhandled
 * error (HTTP 500), and a value that differs from the stored one is refused. An update therefore
 * carries every one of them, as null where the record holds none: the image store takes null as
 * it takes a setting left out. A registry password counts too: sent back masked, it differs from
 * the stored one, so such a key cannot update an image that keeps a password the program does not
 * declare.
 */
export const IMAGE_CHECKED_SETTINGS: readonly (typeof IMAGE_SETTINGS)[number][] = IMAGE_COMPUTE_SETTINGS;

/** The settings sent as JSON text: the record answers them as JSON. */
export const IMAGE_JSON_SETTINGS: readonly string[] = ["run_config", "exec_config", "volume_mappings", "launch_config"];

/** `target_image` of `update_image`: the whole record, with its id. */
export const ImageUpdate = NewImage.extend({ image_id: Id }).catchall(z.unknown());
/** `target_image` of `update_image`. */
export type ImageUpdate = z.infer<typeof ImageUpdate>;

/** One image a group may launch, as `get_images_group` lists it. */
export const GroupImage = z.looseObject({
  image_id: Id,
  group_image_id: NullableString.optional(),
  group_id: NullableId.optional(),
  name: NullableString.optional(),
  image_name: NullableString.optional(),
  friendly_name: NullableString.optional(),
  image_friendly_name: NullableString.optional(),
});
/** One image a group may launch. */
export type GroupImage = z.infer<typeof GroupImage>;

// --- workspace registries -------------------------------------------------------------------------
// The product's (`apiNames` `product`): get_registries, create_registry, update_registry,
// registry_auto_updates, delete_registry. Shapes from the 1.15.0 decompile (admin_api.py
// get_registries, _create_registry; data/model.py Registry) and the Terraform client tested against
// 1.16.1 (internal/client/registry_types.go, which adds `channel`).

/** One workspace a registry offers: its `list.json` entry as Kasm keeps it (fields beyond these kept). */
export const RegistryWorkspace = z.looseObject({
  name: NullableString.optional().describe("The container image the workspace runs, such as kasmweb/chrome:1.16.0."),
  friendly_name: NullableString.optional().describe("The workspace's name as people see it."),
  description: NullableString.optional().describe("What the workspace is."),
  image_src: NullableString.optional().describe("The workspace's icon, relative to the registry."),
  // The registry's `docker_registry`, read in the client's names as every image field is (the wire vocabularies of records.ts).
  ctr_registry: NullableString.optional().describe("The container registry its image is pulled from."),
  categories: z.array(z.string()).nullable().optional().describe("The workspace's categories."),
});
/** One workspace a registry offers. */
export type RegistryWorkspace = z.infer<typeof RegistryWorkspace>;

/**
 * A workspace registry. `get_registries` answers `config` without its workspaces and the
 * workspaces beside it; create answers `config` whole. `registry_url` is the URL the registry's
 * list names (`list_url`), with a slash at its end.
 */
export const Registry = z.looseObject({
  registry_id: Id.describe("The registry's id (32 hex digits)."),
  registry_url: z.string().describe("The registry's URL, as its list names it, ending in a slash."),
  do_auto_update: Bool.nullable().optional().describe("Whether Kasm updates the registry's workspaces by itself."),
  schema_version: NullableString.optional().describe("The schema version of the registry's list Kasm read (1.0)."),
  is_verified: Bool.nullable().optional().describe("Whether the registry is signed by Kasm."),
  channel: NullableString.optional().describe("The registry's channel (1.16 and later), null when none was given."),
  workspaces: z.array(RegistryWorkspace).nullable().optional().describe("The workspaces the registry offers."),
  config: AnyObject.nullable().optional().describe("The registry's list (name, icon, description, list_url, ...)."),
});
/** A workspace registry. */
export type Registry = z.infer<typeof Registry>;

/** The product appends a slash to a registry's URL (1.15 `addSlash`): URLs compare so. */
export function registryUrl(url: string): string {
  const trimmed = url.trim();
  return trimmed.endsWith("/") ? trimmed : `${trimmed}/`;
}

/**
 * A registry's fields as a WorkspaceRegistry's inputs: the one mapping, for the kind's `read` and
 * for kasm-import. The URL Kasm keeps (the list's `list_url`), the channel when Kasm has one (1.15
 * keeps none), whether it updates itself (false when Kasm does not say).
 */
export function registryShown(registry: Registry): { url: string; channel?: string; autoUpdate: boolean } {
  return {
    url: registry.registry_url,
    ...(registry.channel !== undefined && registry.channel !== null ? { channel: registry.channel } : {}),
    autoUpdate: registry.do_auto_update ?? false,
  };
}

/** What create_registry sends: the URL, and 1.16's channel. */
export interface NewRegistry {
  registry: string;
  channel?: string;
}
