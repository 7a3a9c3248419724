/**
 * The connections of one process: each installation's settings, read under its own names
 * (`kasm:` and `KASM_*` for the default one, `kasm-prod:` and `KASM_PROD_*` for connection
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
import { KasmConfigurationError } from "./api/errors";
import { HealthGates } from "./api/health";
import type { InstallationSurvey } from "./resources/framework/installation-check";
import { configKey, connectionSettings, envVar, resolveConfig, type KasmClientOptions, type SettingNames } from "./api/config";
import type { ApiNames } from "./api/vocabulary";

/** A connection's settings: its client options, the environment it reads, and the names of both. */
export interface ConnectionSettings {
  readonly options: KasmClientOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly names: SettingNames;
}

/**
 * What a host process remembers of one connection's installation between provider calls, for
 * the checks made before changes (`resources/framework/installation-check.ts`): kept by the registry,
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
