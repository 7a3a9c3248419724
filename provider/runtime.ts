/**
 * The provider's connection to Kasm, inside the dynamic-provider host process.
 *
 * `configure()` receives the stack configuration (`kasm:baseUrl`, `kasm:apiKey`,
 * `kasm:apiKeySecret`, ...) and keeps it here, in module state. It never reaches the provider
 * objects that Pulumi serializes into the state file, so the secret cannot leak there. The client
 * is built on first use; settings not in the configuration fall back to the client's
 * environment variables (`KASM_BASE_URL`, `KASM_API_KEY`, `KASM_API_KEY_SECRET`, ...).
 *
 * How long an operation may take is bounded by these settings, not by Pulumi's `customTimeouts`
 * resource option: Pulumi's engine puts the option's value into its Create, Update and Delete
 * requests, but the dynamic-provider host never passes it on to the provider's methods. Each API
 * call waits at most `kasm:connectTimeoutMs` + `kasm:requestTimeoutMs` per attempt, for up to
 * `kasm:maxRetries` + 1 attempts, with a backoff between attempts bounded by
 * `kasm:retryBaseDelayMs` and `kasm:retryMaxDelayMs` (README.md gives the worst case).
 *
 * `kasm:waitForHealthySeconds` (or `KASM_WAIT_FOR_HEALTHY_SECONDS`) makes the first request of
 * this process wait for Kasm's health check: once per host process, which is once per deployment,
 * however many resources and clients follow (see `healthGate` in api/health.ts).
 *
 * Named connections (a resource's `connection` input, see `resources/kit/connections.ts`): each
 * has its own client, built from its own settings (`kasm-<name>:` keys, `KASM_<NAME>_*`
 * variables), so pools, coalesced reads and health waits are per installation. A provider method
 * runs inside {@link withConnection}, and {@link kasmClient} answers that connection's client.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { KasmClient } from "./api";
import { CONFIG_KEYS, settingNamesOf, type SettingNames } from "./api/config";
import { ConnectionRegistry } from "./connections";
import type { ApiNames } from "./api/vocabulary";

/** The configuration keys the provider reads, and the client option each one sets. */
export { CONFIG_KEYS };

/**
 * The provider's own settings, which no client option has (the lookups do not read them): each
 * with its key for the default connection; a named one's are `kasm-<name>:<option>`, and each
 * falls back to its variable (`KASM_CHECK_BEFORE_CHANGES`, `KASM_TAKE_OVER_CHANGES`).
 */
export const PROVIDER_SETTINGS = {
  /** `false`: no read of the installation before a change is planned (kit/installation-check.ts). Default `true`. */
  checkBeforeChanges: "kasm:checkBeforeChanges",
  /** `refuse`: a take-over that would change Kasm fails instead (kit/take-over.ts). Default `apply`. */
  takeOverChanges: "kasm:takeOverChanges",
} as const;

/** The name of a provider setting (see {@link PROVIDER_SETTINGS}). */
export type ProviderSetting = keyof typeof PROVIDER_SETTINGS;

/** What `configure` receives from the dynamic-provider host: the stack configuration. */
export interface ConfigureRequest {
  readonly config: { get(key: string): string | undefined };
}

/**
 * This process's connections, over the stack configuration `configure` hands the provider: the
 * one registry the host's provider methods read their clients and settings from (the program's
 * lookups have their own, over the program's configuration: see sdk/lookups/common.ts).
 */
const connections = new ConnectionRegistry(() => undefined);
/** The named connection the current provider method works on; undefined for the default one. */
const currentConnection = new AsyncLocalStorage<string | undefined>();

/**
 * Read the provider settings from the stack configuration. Called by the host before any other
 * method, once per kind with the same configuration: the clients already built are kept then, so
 * that every kind shares each installation's connection pool (and its cap), its reads in flight
 * and its snapshot of user pages.
 */
export function configure(req: ConfigureRequest): void {
  connections.reconfigure((key) => req.config.get(key));
}

/**
 * Run `work` with `connection` as the installation {@link kasmClient} answers for (undefined: the
 * default one, `kasm:`).
 */
export function withConnection<T>(connection: string | undefined, work: () => Promise<T>): Promise<T> {
  return currentConnection.run(connection, work);
}

/**
 * The client the current resource provider method uses: its connection's (see
 * {@link withConnection}), else the default one; built on first use, from the configuration and
 * the environment.
 */
export function kasmClient(): KasmClient {
  return connections.client(currentConnection.getStore());
}

/**
 * The current connection's client if one was built in this process, else undefined; for what
 * `check` may use only when it is known already (`check` sends no request).
 */
export function existingClient(): KasmClient | undefined {
  return connections.existingClient(currentConnection.getStore());
}

/**
 * Why a named connection's settings cannot build a client (missing or invalid, each named by the
 * connection's own keys), or undefined when they can. Sends nothing: for `check`, which refuses a
 * resource on a connection nobody configured before the plan is made, rather than at `up` after
 * other resources were applied.
 */
export function connectionConfigurationProblem(name: string): string | undefined {
  return connections.configurationProblem(name);
}

/**
 * Whether a change to the current connection's installation is checked with one read first (see
 * `resources/kit/installation-check.ts`): `kasm:checkBeforeChanges`, else
 * `KASM_CHECK_BEFORE_CHANGES` (a named connection's own key and variable), else on. Only `false`
 * turns it off.
 */
export function checksBeforeChanges(): boolean {
  return settingValue("checkBeforeChanges")?.trim().toLowerCase() !== "false";
}

/**
 * A provider setting of the current connection that is not a client option
 * (`checkBeforeChanges`, `takeOverChanges`): its configuration key (`kasm:<option>`, or a named
 * connection's `kasm-<name>:<option>`), else its environment variable, else undefined.
 */
export function settingValue(option: ProviderSetting): string | undefined {
  return connections.setting(currentConnection.getStore(), option);
}

/**
 * Where the current connection's settings are read (`kasm:` and `KASM_*`, or a named connection's
 * own), for messages that tell which setting to change.
 */
export function currentSettingNames(): SettingNames {
  return settingNamesOf(currentConnection.getStore());
}

/**
 * The wire vocabulary the current connection's configuration names (`kasm:apiNames`, else
 * `KASM_API_NAMES`, else `spec`; for a named connection its own `kasm-<name>:apiNames` and
 * `KASM_<NAME>_API_NAMES`), known without building a client: for `check`, which sends no request
 * but can refuse a product-only kind before the plan is made.
 */
export function configuredApiNames(): ApiNames {
  return connections.apiNames(currentConnection.getStore());
}
