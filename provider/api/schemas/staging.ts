/** Schemas of the staging area: staging configs, which keep sessions of an image ready in a zone. */
import { z } from "zod";
import { fromApiFields } from "../records";
import { Id, Int, Num, NullableId, NullableString, nullable, SESSION_PERMISSION_NAMES, SessionPermissions } from "./common";

/** A staging config: keep `num_sessions` sessions of an image staged in a zone. (zone_id, image_id) is unique. */
export const StagingConfig = z.object({
  staging_config_id: Id.describe("The staging config's id (32 hex digits)."),
  zone_id: Id.describe("The id of the zone the sessions are staged in (32 hex digits)."),
  zone_name: NullableString.optional().describe("The name of the zone the sessions are staged in."),
  image_id: Id.describe("The id of the image of the staged sessions (32 hex digits)."),
  image_friendly_name: NullableString.optional().describe("The friendly name of the image of the staged sessions."),
  num_sessions: Int.describe("How many sessions Kasm keeps staged at all times."),
  /** Read only. */
  num_current_sessions: nullable(Int).optional().describe("The number of current sessions of the staging config, as Kasm reports it."),
  expiration: Num.describe("Hours after which an unassigned staged session expires and is re-created; fractions such as 0.5 are allowed."),
  ...SessionPermissions,
  // The released product's (1.15 and later; the API documentation leaves them out).
  server_pool_id: NullableId.optional().describe("The id of the server pool the sessions are staged on (32 hex digits); a released Kasm's field."),
  server_pool_name: NullableString.optional().describe("The name of the server pool the sessions are staged on; a released Kasm's field."),
  autoscale_config_id: NullableId.optional().describe("The id of the autoscale config that stages the sessions (32 hex digits); a released Kasm's field."),
  autoscale_config_name: NullableString.optional().describe("The name of the autoscale config that stages the sessions; a released Kasm's field."),
});
/** A staging config. */
export type StagingConfig = z.infer<typeof StagingConfig>;

/**
 * A staging config's settings by the names a program declares them (a StagingConfig's inputs), as
 * the record shows them: ids as Kasm writes them, the other fields Kasm's record holds. One mapping
 * for the StagingConfig kind, which reports it on refresh and compares it when taking a config
 * over, and for `kasm-import`, which writes it: the program then declares what the take-over compares.
 */
export function stagingConfigShown(config: StagingConfig) {
  return {
    zoneId: config.zone_id,
    imageId: config.image_id,
    ...fromApiFields(config, ["numSessions", "expiration", ...SESSION_PERMISSION_NAMES]),
  };
}

/** The writable fields of a staging config. */
const StagingFields = StagingConfig.omit({
  staging_config_id: true,
  zone_name: true,
  image_friendly_name: true,
  num_current_sessions: true,
  server_pool_name: true,
  autoscale_config_name: true,
});

/** `target_staging_config` of `create_staging_config`: zone_id, image_id, num_sessions and expiration are required. */
export const NewStagingConfig = StagingFields.partial().required({ zone_id: true, image_id: true, num_sessions: true, expiration: true });
/** `target_staging_config` of `create_staging_config`. */
export type NewStagingConfig = z.infer<typeof NewStagingConfig>;

/** `target_staging_config` of `update_staging_config`: the id and the fields to change. */
export const StagingConfigUpdate = StagingFields.partial().extend({ staging_config_id: Id });
/** `target_staging_config` of `update_staging_config`. */
export type StagingConfigUpdate = z.infer<typeof StagingConfigUpdate>;
