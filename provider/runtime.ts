/**
 * The provider's connection to Kasm, inside the dynamic-provider host process, and the registry
 * of connections it is made of ({@link ConnectionRegistry}), which the native provider, the
 * program's lookups and `waitForHealthy` each hold an instance of too. They live together because
 * the host's runtime is little more than its one registry over the stack configuration: what a
 * provider method's context reaches (a connection's client, settings and memory) is the registry's.
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
 * however many resources and clients follow (see `HealthGates` in api/config.ts, which {@link ConnectionRegistry} gives every client it builds).
 *
 * Named connections (a resource's `connection` input, see `resources/framework/connections.ts`): each
 * has its own client, built from its own settings (`kasm-<name>:` keys, `KASM_<NAME>_*`
 * variables), so pools, coalesced reads and health waits are per installation. Each provider
 * method receives the {@link KindContext} of its object's connection, built by {@link contextFor}.
 *
 * The registry: the connections of one process, each installation's settings, read under its own
 * names (`kasm:` and `KASM_*` for the default one, `kasm-prod:` and `KASM_PROD_*` for connection
 * `prod`), and its client, built on first use and kept while its settings stay the same, so that
 * the resources (or lookups) of a deployment share one connection pool, one health wait and one
 * set of reads in flight per installation.
 *
 * One registry serves the provider (in Pulumi's dynamic-provider host, reading the configuration
 * `configure` hands it), the lookups and `waitForHealthy` (in the program, reading
 * `pulumi.runtime.getConfig`): each process holds its own instance, created where its
 * configuration comes from and passed explicitly from there.
 */
import { createHash } from "node:crypto";
import { KasmClient } from "./api/client";
import { configKey, connectionSettings, CONFIG_KEYS, envVar, HealthGates, resolveConfig, type KasmClientOptions, type SettingNames } from "./api/config";
import { KasmConfigurationError } from "./api/errors";
import type { ApiNames } from "./api/records";
import { labelFor, note, warn } from "./engine-log";
import type { InstallationSurvey } from "./resources/framework/connections";
import type { KindContext, ProviderSetting } from "./resources/framework/types";

// --- the registry of connections --------------------------------------------------------------------

/** A connection's settings: its client options, the environment it reads, and the names of both. */
export interface ConnectionSettings {
  readonly options: KasmClientOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly names: SettingNames;
}

/**
 * What a host process remembers of one connection's installation between provider calls, for
 * the checks made before changes (`resources/framework/connections.ts`): kept by the registry,
 * so that every resource of a deployment on that connection shares it, and nothing is kept in a
 * module's variables.
 */
export interface InstallationMemory {
  /** The one read of the installation before a change: made once, then shared. */
  survey?: Promise<InstallationSurvey>;
  /** The natural keys `check` looked up and found no object for, by kind and key, with when. */
  readonly absences: Map<string, number>;
}

/** The connections of one process (see the module comment). */
export class ConnectionRegistry {
  #read: (key: string) => string | undefined;
  /** The explicit native provider whose properties `#read` answers, for messages; undefined for the stack's configuration. */
  #provider: string | undefined;
  readonly #env: NodeJS.ProcessEnv;
  /** The clients built, by connection ("" for the default one), with a digest of their settings. */
  readonly #clients = new Map<string, { readonly client: KasmClient; readonly digest: string }>();
  /**
   * The health waits every client built here shares, one per installation's address; a client
   * built beside the registry for the same process (`waitForHealthy` in the program) shares them too.
   */
  readonly healthGates = new HealthGates();
  /** What is remembered of each connection's installation, by connection ("" for the default one). */
  readonly #memories = new Map<string, InstallationMemory>();

  /**
   * @param read Answers a fully qualified configuration key (`kasm-prod:baseUrl`) with its value.
   * @param env The environment the settings fall back to. Default: `process.env`.
   */
  constructor(read: (key: string) => string | undefined, env: NodeJS.ProcessEnv = process.env) {
    this.#read = read;
    this.#env = env;
  }

  /**
   * Read the configuration from `read` from now on. A client whose settings did not change is
   * kept (Pulumi's host configures every kind's provider with the same stack configuration); the
   * others are closed and built again on their next use. `provider` is the resource name of the
   * explicit native provider whose properties `read` answers (its messages name them), undefined
   * when `read` answers the stack's configuration.
   */
  reconfigure(read: (key: string) => string | undefined, provider?: string): void {
    this.#read = read;
    this.#provider = provider;
    for (const [key, built] of this.#clients) {
      if (built.digest === this.#digest(key === "" ? undefined : key)) continue;
      void built.client.close().catch(() => undefined);
      this.#clients.delete(key);
    }
  }

  /** The settings of connection `name` (undefined: the default one). */
  settings(name: string | undefined): ConnectionSettings {
    return connectionSettings(name, this.#read, this.#env, this.#provider);
  }

  /**
   * The client of connection `name`, built on first use and again when its settings changed.
   *
   * @throws `KasmConfigurationError` naming the connection's own keys when a setting is missing or invalid.
   */
  client(name: string | undefined): KasmClient {
    const key = name ?? "";
    const digest = this.#digest(name);
    const built = this.#clients.get(key);
    if (built !== undefined && built.digest === digest && !built.client.closed) return built.client;
    if (built !== undefined) void built.client.close().catch(() => undefined);
    const settings = this.settings(name);
    const client = new KasmClient({ ...settings.options, healthGates: this.healthGates }, settings.env, settings.names);
    this.#clients.set(key, { client, digest });
    return client;
  }

  /**
   * What this process remembers of connection `name`'s installation (see {@link InstallationMemory}):
   * kept while the process runs, whatever becomes of the connection's client.
   */
  memory(name: string | undefined): InstallationMemory {
    const key = name ?? "";
    let memory = this.#memories.get(key);
    if (memory === undefined) {
      memory = { absences: new Map() };
      this.#memories.set(key, memory);
    }
    return memory;
  }

  /** The client of connection `name` if one was built, else undefined: for what may only use a client that exists. */
  existingClient(name: string | undefined): KasmClient | undefined {
    const built = this.#clients.get(name ?? "");
    return built === undefined || built.client.closed ? undefined : built.client;
  }

  /**
   * Why connection `name`'s settings cannot build a client (each problem named by its own keys),
   * or undefined when they can. Sends nothing.
   */
  configurationProblem(name: string | undefined): string | undefined {
    const settings = this.settings(name);
    try {
      resolveConfig(settings.options, settings.env, settings.names);
      return undefined;
    } catch (error) {
      if (error instanceof KasmConfigurationError) return error.message;
      throw error;
    }
  }

  /**
   * A provider setting of connection `name` that is not a client option (`checkBeforeChanges`,
   * `takeOverChanges`): its configuration key, else its environment variable, else undefined.
   */
  setting(name: string | undefined, option: string): string | undefined {
    const settings = this.settings(name);
    return this.#read(configKey(settings.names, option)) ?? this.#env[envVar(settings.names, option)];
  }

  /**
   * The wire vocabulary connection `name` is configured with (`spec` unless set to `product`),
   * known without building a client. A value that is neither is left to the client's own
   * configuration error.
   */
  apiNames(name: string | undefined): ApiNames {
    const settings = this.settings(name);
    const configured = settings.options.apiNames ?? settings.env[envVar(settings.names, "apiNames")];
    return (configured ?? "spec").trim().toLowerCase() === "product" ? "product" : "spec";
  }

  /** Close every client (their keep-alive pools must not hold a finished process up). */
  async close(): Promise<void> {
    const clients = [...this.#clients.values()].map((built) => built.client);
    this.#clients.clear();
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  }

  /**
   * What a connection's client is built from, as a digest: its options and the variables under
   * its prefix. A digest, so that the secret is not kept here a second time.
   */
  #digest(name: string | undefined): string {
    const settings = this.settings(name);
    const variables = Object.entries(settings.env).filter(([variable]) => variable.startsWith(settings.names.envPrefix));
    return createHash("sha256")
      .update(JSON.stringify([settings.options, settings.names, variables.sort(([a], [b]) => a.localeCompare(b))]))
      .digest("hex");
  }
}

// --- the dynamic-provider host's runtime ------------------------------------------------------------

/** The configuration keys the provider reads, and the client option each one sets. */
export { CONFIG_KEYS };

/**
 * The provider's own settings, which no client option has (the lookups do not read them): each
 * with its key for the default connection; a named one's are `kasm-<name>:<option>`, and each
 * falls back to its variable (`KASM_CHECK_BEFORE_CHANGES`, `KASM_TAKE_OVER_CHANGES`).
 */
export const PROVIDER_SETTINGS = {
  /** `false`: no read of the installation before a change is planned (framework/connections.ts). Default `true`. */
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
