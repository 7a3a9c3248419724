/**
 * Waiting for Kasm to report healthy, from a program or a pipeline's script: the same wait as the
 * `kasm:waitForHealthySeconds` setting (`GET {baseUrl}/api/__healthcheck` until it answers
 * `{ok: true}`, probing as the product's own health check does), run when the caller asks.
 */
import type { HealthyResult, KasmClientOptions, WaitForHealthyOptions } from "../provider/api/config";
import { programConnections } from "./lookups/common";
import { connectionName, type Connection } from "./connection";

/** Options of {@link waitForHealthy}. */
export interface WaitForHealthyArgs extends WaitForHealthyOptions {
  /**
   * Give up after this many milliseconds. Default: `kasm:waitForHealthySeconds` (or
   * `KASM_WAIT_FOR_HEALTHY_SECONDS`) when it is set above 0, else 300000 (5 minutes).
   */
  readonly deadlineMs?: number;
  /**
   * Client settings over the `kasm:` stack configuration and the `KASM_*` environment variables
   * (for a script outside a Pulumi program, such as `{ baseUrl }`). The API key and its secret are
   * required like everywhere else, although the health check itself does not send them.
   */
  readonly settings?: KasmClientOptions;
  /**
   * The installation to wait for: a {@link Connection} or its name, whose settings are its own
   * `kasm-<name>:` keys and `KASM_<NAME>_*` variables. Default: the one `kasm:` configures.
   */
  readonly connection?: Connection | string;
}

/**
 * Wait until Kasm reports healthy: the installation the program's `kasm:` configuration (or the
 * `KASM_*` environment) names, or the one of `connection`. Once it has, this process's resources and lookups do not wait for
 * it again, whatever `kasm:waitForHealthySeconds` says.
 *
 * @returns how many probes it took and how long.
 * @throws `KasmHealthCheckError` when the deadline passes first, naming the probes and the last
 * answer; `KasmConfigurationError` when the settings are missing or invalid.
 * @example
 * ```ts
 * import * as kasm from "pulumi-kasm";
 * // In a pipeline step before `pulumi up`, or at the top of a program that runs lookups:
 * await kasm.waitForHealthy({ deadlineMs: 120_000 });
 * ```
 */
export async function waitForHealthy(args: WaitForHealthyArgs = {}): Promise<HealthyResult> {
  // The same reading of the `kasm:` keys (or a connection's own) as the provider's and the
  // lookups' (outside a program, none are set).
  const name = connectionName(args.connection);
  const connections = await programConnections();
  const settings = connections.settings(name);
  // The registry's health gates: once this wait succeeds, the lookups' clients do not wait again.
  const options = { ...settings.options, ...args.settings, healthGates: connections.healthGates };
  // Loaded here, not with the sdk: a program that never waits does not spend the time on the
  // client, its settings and its errors (which read the permission tables).
  const [{ resolveConfig, HEALTH_DEFAULTS }, { KasmClient }] = await Promise.all([import("../provider/api/config"), import("../provider/api/client")]);
  const seconds = resolveConfig(options, settings.env, settings.names).waitForHealthySeconds;
  const client = new KasmClient(options, settings.env, settings.names);
  try {
    const { settings: _settings, connection: _connection, ...wait } = args;
    return await client.waitForHealthy({ ...wait, deadlineMs: args.deadlineMs ?? (seconds > 0 ? seconds * 1000 : HEALTH_DEFAULTS.deadlineMs) });
  } finally {
    await client.close();
  }
}
