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
 * however many resources and clients follow (see `HealthGates` in api/health.ts, which the registry below gives every client it builds).
 *
 * Named connections (a resource's `connection` input, see `resources/framework/connections.ts`): each
 * has its own client, built from its own settings (`kasm-<name>:` keys, `KASM_<NAME>_*`
 * variables), so pools, coalesced reads and health waits are per installation. Each provider
 * method receives the {@link KindContext} of its object's connection, built by {@link contextFor}.
 */
import type { KasmClient } from "./api/client";
import { CONFIG_KEYS } from "./api/config";
import { ConnectionRegistry } from "./connections";
import { labelFor, note, warn } from "./engine-log";
import type { KindContext, ProviderSetting } from "./resources/framework/types";

/** The configuration keys the provider reads, and the client option each one sets. */
export { CONFIG_KEYS };

/**
 * The provider's own settings, which no client option has (the lookups do not read them): each
 * with its key for the default connection; a named one's are `kasm-<name>:<option>`, and each
 * falls back to its variable (`KASM_CHECK_BEFORE_CHANGES`, `KASM_TAKE_OVER_CHANGES`).
 */
export const PROVIDER_SETTINGS = {
  /** `false`: no read of the installation before a change is planned (framework/installation-check.ts). Default `true`. */
  checkBeforeChanges: "kasm:checkBeforeChanges",
  /** `refuse`: a take-over that would change Kasm fails instead (framework/take-over.ts). Default `apply`. */
  takeOverChanges: "kasm:takeOverChanges",
} as const satisfies Record<ProviderSetting, string>;

/** The name of a provider setting (see {@link PROVIDER_SETTINGS}). */
export type { ProviderSetting };

/** What `configure` receives from the dynamic-provider host: the stack configuration. */
export interface ConfigureRequest {
  readonly config: { get(key: string): string | undefined };
}

/**
 * This process's connections, over the stack configuration `configure` hands the provider: the
 * one registry the host's provider methods get their clients and settings from, through the
 * contexts {@link contextFor} builds (the program's lookups have their own, over the program's
 * configuration: see sdk/lookups/common.ts). A host process serves one stack, so one registry.
 */
const connections = new ConnectionRegistry(() => undefined);

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
 * The client of `connection` (default: the one `kasm:` configures) in this process, built on first
 * use from the configuration and the environment: what the provider's methods reach through their
 * context, for code that drives the provider without one (a script, a test).
 */
export function kasmClient(connection?: string): KasmClient {
  return connections.client(connection);
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
 * The context of a provider method for an object on `connection` (undefined: the default one),
 * of the resource the program named `resourceName` (undefined in a state written before the name
 * was kept): what the kind's code is handed instead of reaching for module state.
 */
export function contextFor(connection: string | undefined, resourceName: string | undefined): KindContext {
  return contextIn(connections, connection, resourceName, { warn: (message) => warn(message), note: (message) => note(message) });
}

/** How a method's context tells the user something (the engine's diagnostics). */
export interface Diagnostics {
  warn(message: string): Promise<unknown>;
  note(message: string): Promise<unknown>;
}

/**
 * The context of a provider method for an object on `connection` of `registry`, of the resource
 * the program named `resourceName`, telling the user through `diagnostics`: {@link contextFor}
 * for the dynamic-provider host, and the native provider's own (its registry, and diagnostics
 * that name the resource's URN).
 */
export function contextIn(
  registry: ConnectionRegistry,
  connection: string | undefined,
  resourceName: string | undefined,
  diagnostics: Diagnostics,
): KindContext {
  return {
    connection,
    // The registry's names: an explicit native provider's messages name its properties.
    settingNames: registry.settings(connection).names,
    client: () => registry.client(connection),
    existingClient: () => registry.existingClient(connection),
    apiNames: () => registry.apiNames(connection),
    memory: () => registry.memory(connection),
    setting: (option: ProviderSetting) => registry.setting(connection, option),
    label: (kind, id) => labelFor(kind, resourceName, id),
    warn: (message) => diagnostics.warn(message),
    note: (message) => diagnostics.note(message),
  };
}
