/**
 * The provider's connection to Kasm, inside the dynamic-provider host process.
 *
 * `configure()` receives the stack configuration (`kasm:baseUrl`, `kasm:apiKey`,
 * `kasm:apiKeySecret`, ...) and keeps it here, in module state. It never reaches the provider
 * objects that Pulumi serializes into the state file, so the secret cannot leak there. The client
 * is built on first use; settings not in the configuration fall back to the client's
 * environment variables (`KASM_BASE_URL`, `KASM_API_KEY`, `KASM_API_KEY_SECRET`, ...).
 */
import { KasmClient, type KasmClientOptions } from "./api";

/** What `configure` receives from the dynamic-provider host: the stack configuration. */
export interface ConfigureRequest {
  readonly config: { get(key: string): string | undefined };
}

/** The configuration keys the provider reads, and the client option each one sets. */
export const CONFIG_KEYS = {
  baseUrl: "kasm:baseUrl",
  apiKey: "kasm:apiKey",
  apiKeySecret: "kasm:apiKeySecret",
  caCert: "kasm:caCert",
  insecureSkipVerify: "kasm:insecureSkipVerify",
  connectTimeoutMs: "kasm:connectTimeoutMs",
  requestTimeoutMs: "kasm:requestTimeoutMs",
  maxRetries: "kasm:maxRetries",
  retryBaseDelayMs: "kasm:retryBaseDelayMs",
  retryMaxDelayMs: "kasm:retryMaxDelayMs",
} as const;

const NUMERIC = ["connectTimeoutMs", "requestTimeoutMs", "maxRetries", "retryBaseDelayMs", "retryMaxDelayMs"] as const;

let options: KasmClientOptions = {};
let client: KasmClient | undefined;

/** Read the provider settings from the stack configuration. Called by the host before any other method. */
export function configure(req: ConfigureRequest): void {
  const get = (key: keyof typeof CONFIG_KEYS) => {
    const value = req.config.get(CONFIG_KEYS[key]);
    return value === undefined || value === "" ? undefined : value;
  };
  const next: Record<string, unknown> = {
    baseUrl: get("baseUrl"),
    apiKey: get("apiKey"),
    apiKeySecret: get("apiKeySecret"),
    caCert: get("caCert"),
    insecureSkipVerify: get("insecureSkipVerify") === "true",
  };
  for (const key of NUMERIC) {
    const value = get(key);
    // An invalid number is passed on as NaN so that the client names the setting in its error.
    if (value !== undefined) next[key] = Number(value);
  }
  options = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as KasmClientOptions;
  client = undefined;
}

/** The client every resource provider uses; built on first use, from the configuration and the environment. */
export function kasmClient(): KasmClient {
  client ??= new KasmClient(options);
  return client;
}
