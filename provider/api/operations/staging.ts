/** Operations of the staging area: staging configs, which keep sessions of an image ready in a zone. */
import { z } from "zod";
import { createOnce, deleteOnce } from "../retry";
import { sameId } from "../schemas/common";
import { StagingConfig, type NewStagingConfig, type StagingConfigUpdate } from "../schemas/staging";
import type { KasmApi } from "../transport";

const StagingAnswer = z.object({ staging_config: StagingConfig });

/** List every staging config (`get_staging_configs`; needs Staging View). */
export async function getStagingConfigs(api: KasmApi): Promise<StagingConfig[]> {
  return (await api.transport.call("get_staging_configs", {}, z.object({ staging_configs: z.array(StagingConfig) }))).staging_configs;
}

/**
 * Read one staging config (`get_staging_config`; needs Staging View).
 *
 * @throws {@link KasmNotFoundError} `Staging config with id (...) does not exist`.
 */
export async function getStagingConfig(api: KasmApi, params: { staging_config_id: string }): Promise<StagingConfig> {
  return (await api.transport.call("get_staging_config", { target_staging_config: params }, StagingAnswer)).staging_config;
}

/** The natural key of a staging config: one config per zone and image. */
export interface StagingConfigKey {
  readonly zone_id: string;
  readonly image_id: string;
}

/**
 * The staging config of this zone and image, or `undefined` when there is none: the natural-key
 * lookup of a staging config (`get_staging_configs`; ids compared in any spelling).
 */
export async function findStagingConfig(api: KasmApi, key: StagingConfigKey): Promise<StagingConfig | undefined> {
  return (await getStagingConfigs(api)).find((c) => sameId(c.zone_id, key.zone_id) && sameId(c.image_id, key.image_id));
}

/**
 * Create a staging config (`create_staging_config`; needs Staging Create). (zone_id, image_id)
 * is unique. Never creates it twice: after a failure that leaves the outcome unknown, the config
 * of that zone and image is looked up and adopted if the failed attempt created it.
 */
export async function createStagingConfig(api: KasmApi, config: NewStagingConfig): Promise<StagingConfig> {
  const { transport } = api;
  return createOnce(
    transport,
    "create_staging_config",
    async () => (await transport.call("create_staging_config", { target_staging_config: config }, StagingAnswer)).staging_config,
    { find: () => findStagingConfig(api, config) },
  );
}

/**
 * Change a staging config (`update_staging_config`; needs Staging Modify).
 *
 * A released Kasm's update leaves each field it is not sent alone, except the config's server pool
 * and autoscale config, which it sets to what it is sent: null when left out (the 1.15 API
 * server's update_staging_config). So with `apiNames` `product` an update that leaves either out
 * reads the config first (`get_staging_config`; needs Staging View) and sends the current ones:
 * changing the number of sessions does not clear a pool set in the Kasm UI.
 */
export async function updateStagingConfig(api: KasmApi, update: StagingConfigUpdate): Promise<StagingConfig> {
  let body = update;
  if (api.transport.apiNames === "product" && (update.server_pool_id === undefined || update.autoscale_config_id === undefined)) {
    const current = await getStagingConfig(api, { staging_config_id: update.staging_config_id });
    body = {
      ...update,
      server_pool_id: update.server_pool_id !== undefined ? update.server_pool_id : (current.server_pool_id ?? null),
      autoscale_config_id: update.autoscale_config_id !== undefined ? update.autoscale_config_id : (current.autoscale_config_id ?? null),
    };
  }
  return (await api.transport.call("update_staging_config", { target_staging_config: body }, StagingAnswer)).staging_config;
}

/**
 * Delete a staging config (`delete_staging_config`; needs Staging Delete). If a retried attempt
 * answers that it does not exist, an earlier attempt deleted it: done.
 */
export async function deleteStagingConfig(api: KasmApi, params: { staging_config_id: string }): Promise<void> {
  await deleteOnce(api.transport, "delete_staging_config", { target_staging_config: { staging_config_id: params.staging_config_id } });
}
