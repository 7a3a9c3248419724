/**
 * Session staging configurations.
 */
import { z } from "zod";
import { STAGING_CONFIG } from "../fields";
import { clientPermissionsOf } from "../models/common";
import type { StagingConfigRecord, Store } from "../store";
import { clientPermissionInputs, id, int, parse, type Handler } from "./common";

const StagingFields = z.object({
  zone_id: id.optional(),
  image_id: id.optional(),
  num_sessions: int.refine((n) => n >= 0, "must be 0 or more").optional(),
  expiration: int.refine((n) => n >= 1, "must be at least 1 hour").optional(),
  ...clientPermissionInputs,
});
const StagingRef = z.object({ staging_config_id: id.optional() });

/** A staging config with the names of its zone and image. */
function stagingJson(store: Store, c: StagingConfigRecord, observedFields: boolean) {
  return STAGING_CONFIG.form(
    {
      staging_config_id: c.staging_config_id,
      zone_id: c.zone_id,
      zone_name: store.servers.zone(c.zone_id)?.zone_name ?? null,
      image_id: c.image_id,
      image_friendly_name: store.images.image(c.image_id)?.friendly_name ?? null,
      num_sessions: c.num_sessions,
      num_current_sessions: c.num_current_sessions,
      expiration: c.expiration,
      ...clientPermissionsOf(c),
    },
    observedFields,
  );
}

/** The handlers of this area, by operation. */
export const stagingHandlers = {
  get_staging_configs: ({ store, observedFields }) => ({
    staging_configs: store.staging.all().map((c) => stagingJson(store, c, observedFields)),
  }),
  get_staging_config: ({ body, store, observedFields }) => {
    const ref = parse(StagingRef, body.target_staging_config, "target_staging_config");
    return { staging_config: stagingJson(store, store.staging.requireStagingConfig(ref.staging_config_id), observedFields) };
  },
  create_staging_config: ({ body, store, observedFields }) => {
    const fields = parse(StagingFields, body.target_staging_config, "target_staging_config");
    return { staging_config: stagingJson(store, store.staging.createStagingConfig(fields), observedFields) };
  },
  update_staging_config: ({ body, store, observedFields }) => {
    const { staging_config_id, ...fields } = parse(
      StagingFields.extend(StagingRef.shape),
      body.target_staging_config,
      "target_staging_config",
    );
    return { staging_config: stagingJson(store, store.staging.updateStagingConfig(staging_config_id, fields), observedFields) };
  },
  delete_staging_config: ({ body, store }) => {
    const ref = parse(StagingRef, body.target_staging_config, "target_staging_config");
    store.staging.deleteStagingConfig(ref.staging_config_id);
    return {};
  },
} satisfies Record<string, Handler>;
