/**
 * What the StagingConfig provider (`./staging-config.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { adoptOptions, declareCalls, plan, type CallOptions } from "../../permissions/planned-calls";

/**
 * What each step of a StagingConfig calls.
 */
export const stagingConfigCalls = declareCalls("StagingConfig", (props) => {
  const adopt = adoptOptions(props.adopt, "with adopt: true");
  // A released Kasm's update clears the server pool and autoscale config it is not sent: with
  // kasm:apiNames product the client reads the config first and sends them (operations/staging.ts).
  const keepPool = (options: CallOptions) =>
    plan(
      "get_staging_config",
      {},
      { ...options, condition: `${options.condition}, with kasm:apiNames product: to keep the config's server pool and autoscale config` },
    );
  const changed = "when a field sent to Kasm changed";
  return {
    create: [
      // The zone and image are looked up first, with adopt or without: a released Kasm fails a second
      // config of them with a server error, which the provider must not take for its own create.
      plan("get_staging_configs"),
      ...(adopt
        ? [
            keepPool(adopt),
            plan(
              "update_staging_config",
              {},
              { ...adopt, condition: "with adopt: true, when the zone and image have a staging config that differs from the program" },
            ),
          ]
        : []),
      plan("create_staging_config", {}, adopt ? { condition: "unless adopt: true finds a staging config" } : {}),
    ],
    read: [plan("get_staging_config")],
    update: [keepPool({ condition: changed }), plan("update_staging_config", {}, { condition: changed })],
    delete: [plan("delete_staging_config")],
  };
});
