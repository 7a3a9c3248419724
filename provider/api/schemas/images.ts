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
import { AnyObject, Bool, Id, Int, NullableId, NullableString, Num, nullable } from "./common";

/** An attribute of an image. */
export const ImageAttribute = z.looseObject({
  image_id: Id.optional(),
  attr_id: z.string().optional(),
  name: z.string(),
  category: NullableString.optional(),
  value: z.unknown().optional(),
});
/** An attribute of an image. */
export type ImageAttribute = z.infer<typeof ImageAttribute>;

/** A workspace image (a containerised application or desktop). Fields beyond those checked are kept. */
export const Image = z.looseObject({
  image_id: Id,
  name: z.string(),
  friendly_name: NullableString.optional(),
  description: NullableString.optional(),
  enabled: nullable(Bool).optional(),
  available: nullable(Bool).optional(),
  /** Bytes. */
  memory: nullable(Num).optional(),
  cores: nullable(Num).optional(),
  cpu_allocation_method: NullableString.optional(),
  x_res: nullable(Int).optional(),
  y_res: nullable(Int).optional(),
  ctr_registry: NullableString.optional(),
  ctr_user: NullableString.optional(),
  hash: NullableString.optional(),
  volume_mappings: AnyObject.nullable().optional(),
  run_config: AnyObject.nullable().optional(),
  persistent_profile_config: AnyObject.nullable().optional(),
  persistent_profile_path: NullableString.optional(),
  exec_config: z.record(z.string(), z.looseObject({ cmd: z.string().optional(), environment: AnyObject.optional() })).nullable().optional(),
  imageAttributes: z.array(ImageAttribute).optional(),
  restrict_to_network: nullable(Bool).optional(),
  restrict_to_zone: nullable(Bool).optional(),
  restrict_to_server: nullable(Bool).optional(),
  zone_id: NullableId.optional(),
  zone_name: NullableString.optional(),
  server_id: NullableId.optional(),
  network_name: NullableString.optional(),
  image_src: NullableString.optional(),
  /** The product answers a list; a create or update sends one category a line (see {@link NewImage}). */
  categories: z.array(z.string()).nullable().optional(),
  gpu_count: nullable(Num).optional(),
  require_gpu: nullable(Bool).optional(),
  uncompressed_size_mb: nullable(Num).optional(),
  image_type: NullableString.optional(),
});
/** A workspace image. */
export type Image = z.infer<typeof Image>;

/**
 * `target_image` of `create_image` and `update_image` (with `image_id`). Both public clients send
 * the categories as one text (a category a line, as the Kasm UI's field) and the run config, exec
 * config and volume mappings as JSON text, where the record answers a list and objects. The
 * registry password is `ctr_token` (`docker_token` on the product's wire: the KasmLink client and
 * the 1.15.0 decompile's image copy; the Terraform client's `docker_password` is a name the
 * product's image model does not have).
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
  network_name: z.string().optional(),
});
/** `target_image` of `create_image`. */
export type NewImage = z.infer<typeof NewImage>;

/** `target_image` of `update_image`: the whole record, with its id. */
export const ImageUpdate = NewImage.extend({ image_id: Id });
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
