/**
 * Operations of the casting area: casting configs, which expose session access through a URL
 * `{base_url}/#/cast/<key>`. The API documentation has no operation to list or read them; a
 * released Kasm has two (`get_cast_configs`, `get_cast_config`), called with `apiNames` `product`.
 */
import { z } from "zod";
import { KasmAlreadyExistsError } from "../errors";
import { createOnce, deleteOnce } from "../retry";
import { CastConfig, type CastConfigUpdate, type CreateCastConfigResult, type DeleteCastConfigParams, type NewCastConfig } from "../schemas/casting";
import type { OperationContext } from "../../../permissions/operations";
import type { KasmApi } from "../transport";

const CastAnswer = z.object({ cast_config: CastConfig });

/**
 * Create a casting config (`create_cast_config`). `key` and `casting_config_name` must be unique.
 *
 * The API has no operation that reads casting configs, so a create whose outcome is unknown
 * cannot be checked by looking it up. Instead it is sent again: if the repeat is refused because
 * the key or name exists, the earlier attempt is taken to have committed, and the result has
 * `confirmed: false` with what was sent (no `cast_config_id`). A config with the same key or
 * name that existed before the first attempt would be taken for ours too: choose unique keys.
 */
export async function createCastConfig(api: KasmApi, config: NewCastConfig): Promise<CreateCastConfigResult> {
  const { transport } = api;
  return createOnce<CreateCastConfigResult>(
    transport,
    "create_cast_config",
    async () => ({
      confirmed: true,
      cast_config: (await transport.call("create_cast_config", { target_cast_config: config }, CastAnswer)).cast_config,
    }),
    {
      // The API documentation has no read operation: only a released Kasm can be asked.
      find: async () => {
        if (!transport.supports("get_cast_configs")) return undefined;
        const found = await findCastConfig(api, config);
        return found === undefined ? undefined : { confirmed: true as const, cast_config: found };
      },
      // Only reached after an earlier attempt failed transiently: the duplicate is that attempt's commit.
      repeatRefused: (error) => (error instanceof KasmAlreadyExistsError ? { confirmed: false, cast_config: config } : undefined),
    },
  );
}

/**
 * Every casting config (`get_cast_configs`; a product operation, needs Casting View).
 *
 * @throws {@link KasmUnsupportedOperationError} with `apiNames` `spec`, before sending anything.
 */
export async function getCastConfigs(api: KasmApi): Promise<CastConfig[]> {
  return (await api.transport.call("get_cast_configs", {}, z.object({ cast_configs: z.array(CastConfig).default([]) }))).cast_configs;
}

/**
 * Read one casting config (`get_cast_config`; a product operation, needs Casting View). The
 * product takes `cast_config_id` at the top level of the body.
 *
 * @throws {@link KasmNotFoundError} `Cast config with id (...) does not exist`.
 */
export async function getCastConfig(api: KasmApi, params: { cast_config_id: string }): Promise<CastConfig> {
  return (await api.transport.call("get_cast_config", { cast_config_id: params.cast_config_id }, CastAnswer)).cast_config;
}

/**
 * The casting config with this key, or `undefined` (`get_cast_configs`; a product operation). The
 * key is what the product keeps unique, with the name.
 */
export async function findCastConfig(api: KasmApi, key: { key: string }): Promise<CastConfig | undefined> {
  return (await getCastConfigs(api)).find((c) => c.key === key.key);
}

/**
 * Change a casting config (`update_cast_config`; needs Casting Modify, and Groups Modify on both
 * groups when it moves the config between groups: `context.changesCastGroup`, which a refusal's
 * advice reads). Send the group as the config has it, in 32 hex digits: 1.15.0 compares that
 * spelling, and checks the groups' permissions for any other.
 */
export async function updateCastConfig(api: KasmApi, update: CastConfigUpdate, context: OperationContext = {}): Promise<CastConfig> {
  return (await api.transport.call("update_cast_config", { target_cast_config: update }, CastAnswer, { context })).cast_config;
}

/**
 * Delete a casting config (`delete_cast_config`; needs Casting Delete). If a retried attempt
 * answers that it does not exist, an earlier attempt deleted it: done.
 */
export async function deleteCastConfig(api: KasmApi, params: DeleteCastConfigParams): Promise<void> {
  await deleteOnce(api.transport, "delete_cast_config", params);
}
