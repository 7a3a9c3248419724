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
import { DEFAULT_SETTING_NAMES, DEFAULTS, configKey, envVar } from "../api/config";
import { isUnknownValue } from "../../permissions/planned-calls";
import type { Props } from "../resources/framework/types";
import type { PropertySpec } from "./outputs";

/** The settings that hold a secret: stored and answered wrapped, never shown. */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set(["apiKeySecret"]);

/** A setting in words, and its default where the client's table of defaults does not hold it. */
interface SettingText {
  readonly type: PropertySpec["type"];
  readonly secret?: true;
  /** What the setting is, as one or more sentences. */
  readonly what: string;
  /** The default, for a setting that is not numeric (the numeric ones' are the client's `DEFAULTS`). */
  readonly default?: string;
  /** The setting has no environment variable (only `insecureSkipVerify`). */
  readonly noVariable?: true;
}

/**
 * What each setting is, for the schema. Its environment variable and its default are not written
 * here but read from the naming rule of the variables (`envVar`) and the client's table of
 * defaults (`DEFAULTS`), so that the schema cannot name another variable or default than the ones
 * applied (the options' own documentation is in api/config.ts and runtime.ts).
 */
const SETTING_TEXTS: Readonly<Record<string, SettingText>> = {
  baseUrl: { type: "string", what: "The address of the Kasm installation, such as https://kasm.example.com." },
  apiKey: { type: "string", what: "The API key (Settings, Developers, Add API Key)." },
  apiKeySecret: { type: "string", secret: true, what: "The API key secret." },
  caCert: { type: "string", what: "A CA certificate to trust besides the system ones: PEM text or the path of a PEM file." },
  insecureSkipVerify: { type: "boolean", what: "Accept any TLS certificate (insecure: prefer caCert).", default: "false", noVariable: true },
  connectTimeoutMs: { type: "integer", what: "How long to wait for a connection to open, per attempt." },
  requestTimeoutMs: { type: "integer", what: "How long to wait for an answer, per attempt." },
  maxRetries: { type: "integer", what: "Retries after the first attempt of a failed request." },
  retryBaseDelayMs: { type: "integer", what: "The backoff before the first retry; it doubles per retry." },
  retryMaxDelayMs: { type: "integer", what: "The longest wait between two attempts." },
  maxConnections: { type: "integer", what: "The most connections opened to Kasm at once." },
  waitForHealthySeconds: { type: "number", what: "Before the first request, wait up to this many seconds for Kasm's health check." },
  apiNames: { type: "string", what: "The installation's wire names: `spec` (the API documentation's) or `product` (released Kasm's).", default: "spec" },
  checkBeforeChanges: { type: "boolean", what: "`false`: no read of the installation before a change is planned.", default: "true" },
  takeOverChanges: { type: "string", what: "`refuse`: a take-over (adopt) that would change Kasm fails instead.", default: "apply" },
};

/** A setting's schema entry: its type, and its words with its environment variable and its default. */
function settingSpec(name: string, text: SettingText): PropertySpec {
  const variable = text.noVariable ? undefined : envVar(DEFAULT_SETTING_NAMES, name);
  const fallback = text.default ?? (name in DEFAULTS ? String(DEFAULTS[name as keyof typeof DEFAULTS]) : undefined);
  const description = [text.what, variable && `Env: ${variable}.`, fallback && `Default: ${fallback}.`].filter(Boolean).join(" ");
  return { type: text.type, ...(text.secret ? { secret: true } : {}), description };
}

/**
 * The schema of the settings named (the client's options and the provider's own), each typed and
 * described; a setting without a spec here is a string, so that a new option is never left out.
 */
export function configSpecs(clientOptions: readonly string[], providerSettings: readonly string[]): Record<string, PropertySpec> {
  return Object.fromEntries(
    [...clientOptions, ...providerSettings].map((name) => [name, name in SETTING_TEXTS ? settingSpec(name, SETTING_TEXTS[name]) : { type: "string" }]),
  );
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
