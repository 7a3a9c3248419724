/**
 * The native provider's configuration: the same settings the dynamic provider reads from the
 * stack (`kasm:baseUrl`, `kasm:apiKeySecret`, ...), here the properties of the provider instance
 * (an explicit `pulumi:providers:kasm` resource, or the default provider over the stack's `kasm:`
 * configuration), typed in the schema and handed to the connection registry by their keys.
 *
 * Environment fallbacks (`KASM_BASE_URL`, ...) are the registry's, applied when Configure hands it
 * the settings, never in CheckConfig, whose result the engine keeps in the state: a secret taken
 * from the environment must not land there.
 */
import { DEFAULT_SETTING_NAMES, configKey } from "../api/config";
import { isUnknownValue } from "../../catalogue/values";
import type { Props } from "../resources/kit/types";
import type { PropertySpec } from "./outputs";

/** The settings that hold a secret: stored and answered wrapped, never shown. */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set(["apiKeySecret"]);

/** What each setting is, for the schema (the options' own documentation is in api/config.ts and runtime.ts). */
const SETTING_SPECS: Readonly<Record<string, PropertySpec>> = {
  baseUrl: { type: "string", description: "The address of the Kasm installation, such as https://kasm.example.com. Env: KASM_BASE_URL." },
  apiKey: { type: "string", description: "The API key (Settings, Developers, Add API Key). Env: KASM_API_KEY." },
  apiKeySecret: { type: "string", secret: true, description: "The API key secret. Env: KASM_API_KEY_SECRET." },
  caCert: { type: "string", description: "A CA certificate to trust besides the system ones: PEM text or the path of a PEM file. Env: KASM_CA_CERT." },
  insecureSkipVerify: { type: "boolean", description: "Accept any TLS certificate (insecure: prefer caCert). Default: false." },
  connectTimeoutMs: { type: "integer", description: "How long to wait for a connection to open, per attempt. Env: KASM_CONNECT_TIMEOUT_MS. Default: 10000." },
  requestTimeoutMs: { type: "integer", description: "How long to wait for an answer, per attempt. Env: KASM_REQUEST_TIMEOUT_MS. Default: 60000." },
  maxRetries: { type: "integer", description: "Retries after the first attempt of a failed request. Env: KASM_MAX_RETRIES. Default: 5." },
  retryBaseDelayMs: { type: "integer", description: "The backoff before the first retry; it doubles per retry. Env: KASM_RETRY_BASE_DELAY_MS. Default: 500." },
  retryMaxDelayMs: { type: "integer", description: "The longest wait between two attempts. Env: KASM_RETRY_MAX_DELAY_MS. Default: 30000." },
  maxConnections: { type: "integer", description: "The most connections opened to Kasm at once. Env: KASM_MAX_CONNECTIONS. Default: 8." },
  waitForHealthySeconds: { type: "number", description: "Before the first request, wait up to this many seconds for Kasm's health check. Env: KASM_WAIT_FOR_HEALTHY_SECONDS. Default: 0." },
  apiNames: { type: "string", description: "The installation's wire names: `spec` (the API documentation's) or `product` (released Kasm's). Env: KASM_API_NAMES. Default: spec." },
  checkBeforeChanges: { type: "boolean", description: "`false`: no read of the installation before a change is planned. Env: KASM_CHECK_BEFORE_CHANGES. Default: true." },
  takeOverChanges: { type: "string", description: "`refuse`: a take-over (adopt) that would change Kasm fails instead. Env: KASM_TAKE_OVER_CHANGES. Default: apply." },
};

/**
 * The schema of the settings named (the client's options and the provider's own), each typed and
 * described; a setting without a spec here is a string, so that a new option is never left out.
 */
export function configSpecs(clientOptions: readonly string[], providerSettings: readonly string[]): Record<string, PropertySpec> {
  return Object.fromEntries([...clientOptions, ...providerSettings].map((name) => [name, SETTING_SPECS[name] ?? { type: "string" }]));
}

/**
 * The reader the connection registry takes (a fully qualified key, such as `kasm:baseUrl`, to its
 * value) over a provider instance's properties. Values are handed on as text, as the stack
 * configuration gives them (a YAML program writes `maxRetries: 1`, a number); a value not known
 * yet counts as not set.
 */
export function settingsReader(props: Props): (key: string) => string | undefined {
  const byKey = new Map<string, string>();
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || isUnknownValue(value)) continue;
    byKey.set(configKey(DEFAULT_SETTING_NAMES, name), typeof value === "string" ? value : JSON.stringify(value));
  }
  return (key) => byKey.get(key);
}

/** Whether any of a provider instance's properties is not known yet (preview): Configure then configures nothing for real. */
export function hasUnknownSetting(props: Props): boolean {
  return Object.values(props).some((value) => isUnknownValue(value));
}
