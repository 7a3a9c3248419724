/** Schemas of the images area: workspace images. */
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
});
/** A workspace image. */
export type Image = z.infer<typeof Image>;
