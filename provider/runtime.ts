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
import { KasmClient, type KasmClientOptions } from "./api";
import { KasmConfigurationError } from "./api/errors";
import { CONFIG_KEYS, DEFAULT_SETTING_NAMES, configKey, connectionSettings, envVar, optionsFromConfig, resolveConfig, settingNamesOf, type SettingNames } from "./api/config";
import type { ApiNames } from "./api/vocabulary";

/** The configuration keys the provider reads, and the client option each one sets. */
export { CONFIG_KEYS };

/** What `configure` receives from the dynamic-provider host: the stack configuration. */
export interface ConfigureRequest {
  readonly config: { get(key: string): string | undefined };
}

let options: KasmClientOptions = {};
let client: KasmClient | undefined;
/** The stack configuration, for the named connections' settings (read when a connection is first used). */
let configuration: ConfigureRequest["config"] = { get: () => undefined };
/** The clients of named connections, by name. */
const connectionClients = new Map<string, KasmClient>();
/** The named connection the current provider method works on; undefined for the default one. */
const currentConnection = new AsyncLocalStorage<string | undefined>();

/** Read the provider settings from the stack configuration. Called by the host before any other method. */
export function configure(req: ConfigureRequest): void {
  configuration = req.config;
  // The same reading of the `kasm:` keys as the lookups' (see optionsFromConfig).
  const next = optionsFromConfig((key) => req.config.get(key));
  // The host configures each kind's provider when it first meets it, with the same stack
  // configuration: keep the one client then, so that every kind shares its connection pool (and
  // its cap), its reads in flight and its snapshot of user pages.
  if (client !== undefined && !client.closed && JSON.stringify(next) === JSON.stringify(options)) return;
  options = next;
  void client?.close().catch(() => undefined);
  client = undefined;
  for (const named of connectionClients.values()) void named.close().catch(() => undefined);
  connectionClients.clear();
}

/**
 * Run `work` with `connection` as the installation {@link kasmClient} answers for (undefined: the
 * default one, `kasm:`).
 */
export function withConnection<T>(connection: string | undefined, work: () => Promise<T>): Promise<T> {
  return currentConnection.run(connection, work);
}

/** The client of a named connection, built on first use from its own settings. */
function connectionClient(name: string): KasmClient {
  let named = connectionClients.get(name);
  if (named === undefined || named.closed) {
    const settings = connectionSettings(name, (key) => configuration.get(key));
    named = new KasmClient(settings.options, settings.env, settings.names);
    connectionClients.set(name, named);
  }
  return named;
}

/**
 * The client the current resource provider method uses: its connection's (see
 * {@link withConnection}), else the default one; built on first use, from the configuration and
 * the environment.
 */
export function kasmClient(): KasmClient {
  const name = currentConnection.getStore();
  if (name !== undefined) return connectionClient(name);
  if (client === undefined || client.closed) client = new KasmClient(options);
  return client;
}

/**
 * The current connection's client if one was built in this process, else undefined; for what
 * `check` may use only when it is known already (`check` sends no request).
 */
export function existingClient(): KasmClient | undefined {
  const name = currentConnection.getStore();
  return name === undefined ? client : connectionClients.get(name);
}

/**
 * Why a named connection's settings cannot build a client (missing or invalid, each named by the
 * connection's own keys), or undefined when they can. Sends nothing: for `check`, which refuses a
 * resource on a connection nobody configured before the plan is made, rather than at `up` after
 * other resources were applied.
 */
export function connectionConfigurationProblem(name: string): string | undefined {
  const settings = connectionSettings(name, (key) => configuration.get(key));
  try {
    resolveConfig(settings.options, settings.env, settings.names);
    return undefined;
  } catch (error) {
    if (error instanceof KasmConfigurationError) return error.message;
    throw error;
  }
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
export function settingValue(option: string): string | undefined {
  const names = currentSettingNames();
  return configuration.get(configKey(names, option)) ?? process.env[envVar(names, option)];
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
 * but can refuse a product-only kind before the plan is made. A value that is neither is left to
 * the client's own configuration error.
 */
export function configuredApiNames(): ApiNames {
  const name = currentConnection.getStore();
  const settings = name === undefined ? { options, env: process.env, names: DEFAULT_SETTING_NAMES } : connectionSettings(name, (key) => configuration.get(key));
  const configured = settings.options.apiNames ?? settings.env[envVar(settings.names, "apiNames")];
  const value = (configured ?? "spec").trim().toLowerCase();
  return value === "product" ? "product" : "spec";
}
