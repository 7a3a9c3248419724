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
 */
import { KasmClient, type KasmClientOptions } from "./api";
import { CONFIG_KEYS, ENV_VARS, optionsFromConfig } from "./api/config";
import type { ApiNames } from "./api/vocabulary";

/** The configuration keys the provider reads, and the client option each one sets. */
export { CONFIG_KEYS };

/** What `configure` receives from the dynamic-provider host: the stack configuration. */
export interface ConfigureRequest {
  readonly config: { get(key: string): string | undefined };
}

let options: KasmClientOptions = {};
let client: KasmClient | undefined;

/** Read the provider settings from the stack configuration. Called by the host before any other method. */
export function configure(req: ConfigureRequest): void {
  // The same reading of the `kasm:` keys as the lookups' (see optionsFromConfig).
  const next = optionsFromConfig((key) => req.config.get(key));
  // The host configures each kind's provider when it first meets it, with the same stack
  // configuration: keep the one client then, so that every kind shares its connection pool (and
  // its cap), its reads in flight and its snapshot of user pages.
  if (client !== undefined && !client.closed && JSON.stringify(next) === JSON.stringify(options)) return;
  options = next;
  void client?.close().catch(() => undefined);
  client = undefined;
}

/** The client every resource provider uses; built on first use, from the configuration and the environment. */
export function kasmClient(): KasmClient {
  if (client === undefined || client.closed) client = new KasmClient(options);
  return client;
}

/**
 * The client if one was built in this process, else undefined; for what `check` may use only when
 * it is known already (`check` sends no request).
 */
export function existingClient(): KasmClient | undefined {
  return client;
}

/**
 * The wire vocabulary the configuration names (`kasm:apiNames`, else `KASM_API_NAMES`, else
 * `spec`), known without building a client: for `check`, which sends no request but can refuse a
 * product-only kind before the plan is made. A value that is neither is left to the client's own
 * configuration error.
 */
export function configuredApiNames(): ApiNames {
  const value = (options.apiNames ?? process.env[ENV_VARS.apiNames] ?? "spec").trim().toLowerCase();
  return value === "product" ? "product" : "spec";
}
