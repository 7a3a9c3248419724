/** Schemas of the zones area: deployment zones. */
import { z } from "zod";
import { Bool, Id, NullableString, nullable } from "./common";

/**
 * A deployment zone. Only the brief form's fields are listed by the spec; others are kept as they
 * come. `cloud_secret_access_key` comes masked.
 */
export const Zone = z.looseObject({
  zone_id: Id.describe("The zone's id (32 hex digits)."),
  zone_name: z.string().describe("The zone's name."),
  auto_scaling_enabled: nullable(Bool).optional().describe("Whether auto-scaling is enabled in the zone."),
  cloud_enabled: nullable(Bool).optional().describe("Whether the zone has cloud enabled."),
  cloud_region: NullableString.optional().describe("The zone's cloud region."),
  cloud_access_key_id: NullableString.optional().describe("The access key id of the zone's cloud account."),
  // The API documentation types it as a string, not as a Kasm id: read as it comes.
  vm_agent_image_id: NullableString.optional().describe("The id of the zone's VM agent image."),
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
