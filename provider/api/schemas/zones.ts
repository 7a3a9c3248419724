/** Schemas of the zones area: deployment zones. */
import { z } from "zod";
import { Bool, Id, NullableString, nullable } from "./common";

/**
 * A deployment zone. Only the brief form's fields are listed by the spec; others are kept as they
 * come. `cloud_secret_access_key` comes masked.
 */
export const Zone = z.looseObject({
  zone_id: Id,
  zone_name: z.string(),
  auto_scaling_enabled: nullable(Bool).optional(),
  cloud_enabled: nullable(Bool).optional(),
  cloud_region: NullableString.optional(),
  cloud_access_key_id: NullableString.optional(),
  // The API documentation types it as a string, not as a Kasm id: read as it comes.
  vm_agent_image_id: NullableString.optional(),
});
/** A deployment zone. */
export type Zone = z.infer<typeof Zone>;

/** Parameters of `get_zones`. */
export const GetZonesParams = z.object({
  /** Limit the fields returned per zone. */
  brief: z.boolean().optional(),
});
/** Parameters of `get_zones`. */
export type GetZonesParams = z.infer<typeof GetZonesParams>;
