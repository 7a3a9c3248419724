/**
 * Session staging configurations. In product mode a config also carries the product's
 * allow_kasm_gamepad, allow_kasm_webcam and allow_kasm_printing, and its server pool and
 * autoscale config, which an update that does not send them clears.
 */
import { z } from "zod";
import { AlreadyExists, UnhandledException } from "../errors";
import { STAGING_CONFIG } from "../fields";
import { productClientPermissionsOf } from "../models/common";
import type { StagingConfigRecord, Store } from "../store";
import type { StagingConfigInput } from "../models/staging";
import type { ApiNames } from "../vocabulary";
import { clientPermissionInputs, id, int, parse, productClientPermissionInputs, withProductDefaults, type Handler } from "./common";

/** A number, also as a string of digits with an optional fraction. */
const decimal = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);
const StagingFields = z.object({
  zone_id: id.optional(),
  image_id: id.optional(),
  num_sessions: int.refine((n) => n >= 0, "must be 0 or more").optional(),
  // The spec's record says "number of hours" and the product stores a float: 0.5 is half an hour.
  expiration: decimal.refine((n) => n > 0, "must be more than 0 hours").optional(),
  ...clientPermissionInputs,
});
// The product's server pool and autoscale config of the staged sessions, stored as given.
const ProductStagingFields = StagingFields.extend({
  ...productClientPermissionInputs,
  server_pool_id: id.nullable().optional(),
  autoscale_config_id: id.nullable().optional(),
});
const StagingRef = z.object({ staging_config_id: id.optional() });

/** The fields a request may set, in the emulator's vocabulary. */
const stagingFields = (apiNames: ApiNames) => (apiNames === "product" ? ProductStagingFields : StagingFields);

/** A staging config with the names of its zone and image. */
function stagingJson(store: Store, c: StagingConfigRecord, observedFields: boolean, apiNames: ApiNames) {
  const json = STAGING_CONFIG.form(
    {
      ...c,
      zone_name: store.servers.zone(c.zone_id)?.zone_name ?? null,
      image_friendly_name: store.images.image(c.image_id)?.friendly_name ?? null,
    },
    observedFields,
  );
  if (apiNames !== "product") return json;
  const pool = c.server_pool_id ? store.servers.serverPool(c.server_pool_id) : undefined;
  return {
    ...json,
    ...productClientPermissionsOf(c),
    server_pool_id: c.server_pool_id,
    server_pool_name: pool?.server_pool_name ?? null,
    // The emulator keeps no autoscale configs: the id as stored, no name.
    autoscale_config_id: c.autoscale_config_id,
    autoscale_config_name: null,
  };
}

/**
 * A write that would give a zone and image a second staging config: in product mode it fails as
 * 1.15 fails it, with an unhandled database error (HTTP 500: its code checks nothing, and the
 * table's unique constraint on zone and image refuses the row); otherwise the emulator's 400.
 */
function unique<T>(apiNames: ApiNames, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (apiNames === "product" && error instanceof AlreadyExists) throw new UnhandledException();
    throw error;
  }
}

/** The handlers of this area, by operation. */
export const stagingHandlers = {
  get_staging_configs: ({ store, observedFields, apiNames }) => ({
    staging_configs: store.staging.all().map((c) => stagingJson(store, c, observedFields, apiNames)),
  }),
  get_staging_config: ({ body, store, observedFields, apiNames }) => {
    const ref = parse(StagingRef, body.target_staging_config, "target_staging_config");
    return { staging_config: stagingJson(store, store.staging.requireStagingConfig(ref.staging_config_id), observedFields, apiNames) };
  },
  create_staging_config: ({ body, store, observedFields, apiNames }) => {
    const parsed = parse(stagingFields(apiNames), body.target_staging_config, "target_staging_config");
    const fields = apiNames === "product" ? withProductDefaults(parsed) : parsed;
    return {
      staging_config: stagingJson(
        store,
        unique(apiNames, () => store.staging.createStagingConfig(fields)),
        observedFields,
        apiNames,
      ),
    };
  },
  update_staging_config: ({ body, store, observedFields, apiNames }) => {
    const answer = (id: string | undefined, fields: StagingConfigInput) => ({
      staging_config: stagingJson(
        store,
        unique(apiNames, () => store.staging.updateStagingConfig(id, fields)),
        observedFields,
        apiNames,
      ),
    });
    if (apiNames === "product") {
      // The product's update leaves every other field it is not sent alone, but sets the server
      // pool and the autoscale config to what it is sent: null when left out (1.15's update_staging_config).
      const { staging_config_id, ...fields } = parse(ProductStagingFields.extend(StagingRef.shape), body.target_staging_config, "target_staging_config");
      return answer(staging_config_id, { ...fields, server_pool_id: fields.server_pool_id ?? null, autoscale_config_id: fields.autoscale_config_id ?? null });
    }
    const { staging_config_id, ...fields } = parse(StagingFields.extend(StagingRef.shape), body.target_staging_config, "target_staging_config");
    return answer(staging_config_id, fields);
  },
  delete_staging_config: ({ body, store }) => {
    const ref = parse(StagingRef, body.target_staging_config, "target_staging_config");
    store.staging.deleteStagingConfig(ref.staging_config_id);
    return {};
  },
} satisfies Record<string, Handler>;
