/**
 * Client options: what each one means, its default, its environment variable, and how the
 * options and the environment are merged into a checked configuration.
 *
 * Setting names: where one connection's settings are read, so that every message about them names
 * the keys to change: the default connection's are `kasm:baseUrl` and `KASM_BASE_URL`; a named
 * connection's (`prod`) are `kasm-prod:baseUrl` and `KASM_PROD_BASE_URL`. The configuration and
 * the environment are read under these names directly (nothing is copied into the default names),
 * and errors are written with them: a message about the production installation must not send its
 * reader to the staging one's settings.
 *
 * An explicit provider of the native plugin (`new kasm.Provider("staging", {...})`, a YAML
 * `pulumi:providers:kasm` resource) reads its settings from its own properties, not from the stack's
 * `kasm:` keys: its messages name the property and the provider (`` `apiKeySecret` of provider
 * `staging` ``), since `pulumi config set kasm:apiKeySecret` would change nothing it reads.
 *
 * And the health wait that one of those settings, `waitForHealthySeconds`, configures
 * ({@link HealthGates}, shared by the clients of a registry, and {@link waitForHealthy}, which it
 * runs): {@link resolveConfig} gives every configuration its gates, and a wait that runs out names
 * the setting by the connection's setting names. The two imported each other while apart.
 */
import { readFileSync } from "node:fs";
import { connectionEnvPrefix, connectionNamespace } from "../../permissions/connections";
// From the files that declare them, not through the errors folder's index: the errors' advice
// imports the setting names of this file, and the index would load this file half-way through it.
import { KasmConfigurationError } from "./errors/base";
import { KasmHealthCheckError } from "./errors/connection";
import type { KasmApi } from "./transport";
import { API_NAMES, type ApiNames } from "./records";

/** Where the client reports what it does (retries, adopted objects). Every line is free of secrets. */
export interface KasmLogger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

/** Options of {@link KasmClient}. Each falls back to its environment variable, then to its default. */
export interface KasmClientOptions {
  /**
   * The address of the Kasm installation, such as `https://kasm.example.com` (a path prefix is kept).
   * Env: `KASM_BASE_URL`. Required.
   */
  readonly baseUrl?: string;
  /** The API key (Settings, Developers, Add API Key). Env: `KASM_API_KEY`. Required. */
  readonly apiKey?: string;
  /** The API key secret. Env: `KASM_API_KEY_SECRET`. Required. Never logged, printed or put into an error. */
  readonly apiKeySecret?: string;
  /**
   * A CA certificate to trust in addition to the system ones, for installations with a
   * self-signed certificate: PEM text, or the path of a PEM file. Env: `KASM_CA_CERT`. Default: none.
   */
  readonly caCert?: string;
  /**
   * Accept any TLS certificate, including an invalid or forged one. Insecure: it lets anyone on
   * the network read the API secret. Prefer {@link caCert}. No environment variable, on purpose.
   * Default: `false`.
   */
  readonly insecureSkipVerify?: boolean;
  /** How long to wait for a connection to open, per attempt. Env: `KASM_CONNECT_TIMEOUT_MS`. Default: 10000. */
  readonly connectTimeoutMs?: number;
  /**
   * How long to wait for the answer's headers, and at most between two chunks of its body, per
   * attempt. Env: `KASM_REQUEST_TIMEOUT_MS`. Default: 60000.
   */
  readonly requestTimeoutMs?: number;
  /**
   * Retries after the first attempt of a failed request. Env: `KASM_MAX_RETRIES`. Default: 5.
   * One call waits at most about (maxRetries + 1) × (connectTimeoutMs + requestTimeoutMs), plus the
   * backoff between attempts (at most the sum of min(retryMaxDelayMs, retryBaseDelayMs × 2^(n−1))
   * for n = 1 … maxRetries): 7 minutes 15 seconds with the defaults.
   */
  readonly maxRetries?: number;
  /** The backoff before the first retry; it doubles per retry, with jitter. Env: `KASM_RETRY_BASE_DELAY_MS`. Default: 500. */
  readonly retryBaseDelayMs?: number;
  /**
   * The longest wait between two attempts, including a wait a server asks for with `Retry-After`.
   * Env: `KASM_RETRY_MAX_DELAY_MS`. Default: 30000.
   */
  readonly retryMaxDelayMs?: number;
  /**
   * Before the first request, wait up to this many seconds for `GET {baseUrl}/api/__healthcheck`
   * to answer `{ok: true}` (a Kasm still starting, or just upgraded), probing as the product's own
   * health check does (5 s after the first failure, doubling up to 60 s). Once per process and
   * base URL: the dynamic-provider host waits once for all the resources of a deployment, the
   * program once for all its lookups. Env: `KASM_WAIT_FOR_HEALTHY_SECONDS`. Default: 0 (no wait).
   */
  readonly waitForHealthySeconds?: number;
  /**
   * The most connections the client opens to Kasm at once; requests beyond them wait for a free
   * one. A burst of resource operations (Pulumi runs many side by side) otherwise opens a
   * connection per request in flight, which a proxy in front of Kasm may refuse or rate-limit.
   * Env: `KASM_MAX_CONNECTIONS`. Default: 8.
   */
  readonly maxConnections?: number;
  /**
   * Which names the installation's API uses on the wire: `spec`, the API documentation's
   * (`allow_ws_audio`, `ws_url`, `auto_login_ws`, `request_ws`), or `product`, the released
   * Kasm's (1.15 and later: `allow_kasm_audio`, `kasm_url`, `auto_login_kasm`, `request_kasm`),
   * which also has the operations the documentation leaves out (groups, cast config reads,
   * license listing). Programs and state use the same names either way; answers are understood in
   * both; an answer in the other vocabulary fails the operation, naming this setting.
   * Env: `KASM_API_NAMES`. Default: `spec`.
   */
  readonly apiNames?: ApiNames;
  /** Where to report retries and adopted objects. No environment variable. Default: silent. */
  readonly logger?: KasmLogger;
  /**
   * The health waits this client shares with others (see {@link HealthGates}): a connection
   * registry gives every client it builds the same. No environment variable. Default: the
   * client's own.
   */
  readonly healthGates?: HealthGates;
}

/** The checked configuration the client runs with. */
export interface ResolvedConfig {
  readonly baseUrl: URL;
  readonly apiKey: string;
  readonly apiKeySecret: string;
  /** PEM text of the extra CA, already read from its file. */
  readonly caCert?: string;
  readonly insecureSkipVerify: boolean;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
  readonly retryMaxDelayMs: number;
  readonly maxConnections: number;
  /** 0: no wait before the first request. */
  readonly waitForHealthySeconds: number;
  /** The wire vocabulary (see {@link KasmClientOptions.apiNames}). */
  readonly apiNames: ApiNames;
  /** Where these settings were read, for messages that say which setting to change. */
  readonly settingNames: SettingNames;
  readonly logger?: KasmLogger;
  /** The health waits of {@link KasmClientOptions.healthGates}, or the client's own. */
  readonly healthGates: HealthGates;
}

/** The environment variable of each option that has one. */
export const ENV_VARS = {
  baseUrl: "KASM_BASE_URL",
  apiKey: "KASM_API_KEY",
  apiKeySecret: "KASM_API_KEY_SECRET",
  caCert: "KASM_CA_CERT",
  connectTimeoutMs: "KASM_CONNECT_TIMEOUT_MS",
  requestTimeoutMs: "KASM_REQUEST_TIMEOUT_MS",
  maxRetries: "KASM_MAX_RETRIES",
  retryBaseDelayMs: "KASM_RETRY_BASE_DELAY_MS",
  retryMaxDelayMs: "KASM_RETRY_MAX_DELAY_MS",
  maxConnections: "KASM_MAX_CONNECTIONS",
  waitForHealthySeconds: "KASM_WAIT_FOR_HEALTHY_SECONDS",
  apiNames: "KASM_API_NAMES",
} as const;

/**
 * The Pulumi stack configuration key of each option that has one (`pulumi config set kasm:baseUrl ...`).
 * The provider (in Pulumi's dynamic-provider host) and the lookups (in the program) both read
 * them through {@link optionsFromConfig}.
 */
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
  maxConnections: "kasm:maxConnections",
  waitForHealthySeconds: "kasm:waitForHealthySeconds",
  apiNames: "kasm:apiNames",
} as const satisfies Record<Exclude<keyof KasmClientOptions, "logger" | "healthGates">, string>;

/** The default of each numeric option. */
export const DEFAULTS = {
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  maxRetries: 5,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 30_000,
  maxConnections: 8,
  waitForHealthySeconds: 0,
} as const;

type NumericOption = keyof typeof DEFAULTS;

/**
 * Client options from a Pulumi stack configuration: the one reading of the `kasm:` keys
 * ({@link CONFIG_KEYS}), shared by the provider's `configure` and the lookups, so that a setting
 * cannot work in one and be ignored in the other.
 *
 * `get` answers a fully qualified key (`kasm:baseUrl`) with its value, or undefined; `names` says
 * whose keys to read (a named connection's are `kasm-prod:baseUrl` ...). A key that is
 * unset or empty is left out, so the option falls back to its environment variable, then to its
 * default. `kasm:insecureSkipVerify` is on only for `true`. A numeric setting is passed on as a
 * number even when it is not one (NaN), so that {@link resolveConfig} names it in its error instead
 * of silently using the default.
 *
 * @example
 * ```ts
 * const options = optionsFromConfig((key) => pulumi.runtime.getConfig(key));
 * ```
 */
export function optionsFromConfig(get: (key: string) => string | undefined, names: SettingNames = DEFAULT_SETTING_NAMES): KasmClientOptions {
  const read = (name: keyof typeof CONFIG_KEYS): string | undefined => {
    const value = get(configKey(names, name));
    return value === undefined || value.trim() === "" ? undefined : value;
  };
  const options: { -readonly [K in keyof KasmClientOptions]: KasmClientOptions[K] } = {};
  for (const name of ["baseUrl", "apiKey", "apiKeySecret", "caCert"] as const) {
    const value = read(name);
    if (value !== undefined) options[name] = value;
  }
  // Passed on as written: resolveConfig names a value that is neither `spec` nor `product`.
  const apiNames = read("apiNames");
  if (apiNames !== undefined) options.apiNames = apiNames as ApiNames;
  const insecure = read("insecureSkipVerify");
  if (insecure !== undefined) options.insecureSkipVerify = insecure.trim().toLowerCase() === "true";
  for (const name of Object.keys(DEFAULTS) as NumericOption[]) {
    const value = read(name);
    if (value !== undefined) options[name] = Number(value);
  }
  return options;
}

/**
 * Merge options, environment and defaults, and check the result. Throws one
 * {@link KasmConfigurationError} naming every missing or invalid setting by `names`, the keys and
 * variables of the connection being configured (the environment is read under those names too).
 */
export function resolveConfig(
  options: KasmClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  names: SettingNames = DEFAULT_SETTING_NAMES,
): ResolvedConfig {
  const missing: string[] = [];
  const invalid: string[] = [];
  const fromEnv = (name: keyof typeof ENV_VARS): string | undefined => env[envVar(names, name)];
  const setBy = (name: keyof typeof ENV_VARS, variableWord = "environment variable ") => whereSet(names, name, variableWord);
  const pick = (name: "baseUrl" | "apiKey" | "apiKeySecret" | "caCert"): string | undefined => {
    const value = options[name] ?? fromEnv(name);
    return value === undefined || value.trim() === "" ? undefined : value;
  };
  const required = (name: "baseUrl" | "apiKey" | "apiKeySecret"): string => {
    const value = pick(name);
    if (value === undefined) missing.push(`${name} (${setBy(name)})`);
    return value ?? "";
  };
  const numeric = (name: NumericOption, min: number): number => {
    const variable = fromEnv(name);
    const raw = options[name] ?? (variable === undefined || variable.trim() === "" ? undefined : Number(variable));
    if (raw === undefined) return DEFAULTS[name];
    if (!Number.isFinite(raw) || raw < min || !Number.isInteger(raw)) {
      invalid.push(`${name} must be a whole number of at least ${min} (${setBy(name, "")})`);
      return DEFAULTS[name];
    }
    return raw;
  };

  const rawBaseUrl = required("baseUrl");
  const apiKey = required("apiKey");
  const apiKeySecret = required("apiKeySecret");
  let baseUrl: URL | undefined;
  if (rawBaseUrl) {
    baseUrl = parseBaseUrl(rawBaseUrl);
    if (!baseUrl) invalid.push(`baseUrl must be an http:// or https:// address, such as https://kasm.example.com`);
    else if (API_PATH.test(baseUrl.pathname)) {
      const shown = `${baseUrl.origin}${baseUrl.pathname}`;
      const without = `${baseUrl.origin}${baseUrl.pathname.replace(API_PATH, "")}`;
      invalid.push(
        `baseUrl must be the address of the Kasm installation, without the API path: ${without} rather than ${shown} ` +
          `(the client adds /api/public/... itself; ${whereSet(names, "baseUrl", "")})`,
      );
    }
  }
  const caCert = readCaCert(pick("caCert"), invalid);
  const apiNames = readApiNames(options.apiNames ?? fromEnv("apiNames"), invalid, names);
  const config = {
    connectTimeoutMs: numeric("connectTimeoutMs", 1),
    requestTimeoutMs: numeric("requestTimeoutMs", 1),
    maxRetries: numeric("maxRetries", 0),
    retryBaseDelayMs: numeric("retryBaseDelayMs", 0),
    retryMaxDelayMs: numeric("retryMaxDelayMs", 0),
    maxConnections: numeric("maxConnections", 1),
    waitForHealthySeconds: numeric("waitForHealthySeconds", 0),
  };

  if (missing.length > 0 || invalid.length > 0) {
    const lines = [...(missing.length > 0 ? [`missing: ${missing.join("; ")}`] : []), ...(invalid.length > 0 ? [`invalid: ${invalid.join("; ")}`] : [])];
    const subject = names.connection === undefined ? "The Kasm API client" : `The Kasm connection "${names.connection}"`;
    throw new KasmConfigurationError(`${subject} is not configured: ${lines.join(". ")}.`, missing);
  }
  return {
    baseUrl: baseUrl!,
    apiKey,
    apiKeySecret,
    caCert,
    insecureSkipVerify: options.insecureSkipVerify === true,
    ...config,
    apiNames,
    settingNames: names,
    logger: options.logger,
    healthGates: options.healthGates ?? new HealthGates(),
  };
}

/**
 * A base URL path that ends in Kasm's API path (`/api` or `/api/public`, any case). The client adds
 * that path itself, so such a base URL would call `/api/api/public/...`; {@link resolveConfig}
 * refuses it, naming the address to give instead, rather than guess what a path prefix meant.
 */
const API_PATH = /\/api(?:\/public)?$/i;

/** The base URL without a trailing slash, or undefined when it is not an http(s) URL. */
export function parseBaseUrl(raw: string): URL | undefined {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    url.pathname = url.pathname.replace(/\/+$/, "");
    url.search = "";
    url.hash = "";
    return url;
  } catch {
    return undefined;
  }
}

/**
 * Where an option is set, for a message: the configuration key, the client option and the
 * variable (`` configuration `kasm:baseUrl`, option `baseUrl` or environment variable KASM_BASE_URL ``);
 * for an explicit provider, its property and the variable that stands in when it is left out.
 */
function whereSet(names: SettingNames, option: string, variableWord: string): string {
  if (names.provider !== undefined) return `${settingRef(names, option)}, or ${variableWord}${envVar(names, option)} where the provider leaves it out`;
  return `configuration ${settingRef(names, option, true)}, option \`${option}\` or ${variableWord}${envVar(names, option)}`;
}

/** The wire vocabulary setting: `spec` when unset; a value other than `spec` or `product` is added to `invalid`. */
function readApiNames(value: string | undefined, invalid: string[], names: SettingNames): ApiNames {
  const given = value?.trim().toLowerCase();
  if (given === undefined || given === "") return "spec";
  if ((API_NAMES as readonly string[]).includes(given)) return given as ApiNames;
  invalid.push(
    `apiNames must be "spec" (the API documentation's names, the default) or "product" (a released Kasm, 1.15 or later), not ${JSON.stringify(value)} ` +
      `(${whereSet(names, "apiNames", "")})`,
  );
  return "spec";
}

/** PEM text given inline, or read from the named file. Problems are added to `invalid`, without the value. */
export function readCaCert(value: string | undefined, invalid: string[] = []): string | undefined {
  if (value === undefined) return undefined;
  if (value.includes("-----BEGIN")) return value;
  try {
    const text = readFileSync(value, "utf8");
    if (!text.includes("-----BEGIN CERTIFICATE-----")) invalid.push(`caCert: the file ${value} holds no PEM certificate`);
    return text;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    invalid.push(`caCert: neither PEM text nor a readable file (${code} for ${value})`);
    return undefined;
  }
}

// --- setting names ----------------------------------------------------------------------------------

/** The configuration namespace and environment prefix of one connection. */
export interface SettingNames {
  /** The connection's name (`prod`); undefined for the default connection. */
  readonly connection?: string;
  /** The configuration namespace: `kasm`, or `kasm-<name>`. */
  readonly namespace: string;
  /** The environment variables' prefix: `KASM_`, or `KASM_<NAME>_`. */
  readonly envPrefix: string;
  /**
   * The resource name of the explicit native provider whose properties hold the settings
   * (`staging`); undefined where the stack's configuration holds them (the dynamic form, the
   * native plugin's default provider).
   */
  readonly provider?: string;
}

/** The default connection's setting names: `kasm:` keys and `KASM_*` variables. */
export const DEFAULT_SETTING_NAMES: SettingNames = Object.freeze({ namespace: "kasm", envPrefix: "KASM_" });

/** The setting names of a connection: the default one's for `undefined`, else `kasm-<name>:` and `KASM_<NAME>_`. */
export function settingNamesOf(connection: string | undefined): SettingNames {
  if (connection === undefined) return DEFAULT_SETTING_NAMES;
  return Object.freeze({ connection, namespace: connectionNamespace(connection), envPrefix: connectionEnvPrefix(connection) });
}

/** The setting names of an explicit native provider named `provider`: its properties, with the `KASM_*` fallbacks. */
export function providerSettingNames(provider: string): SettingNames {
  return Object.freeze({ ...DEFAULT_SETTING_NAMES, provider });
}

/**
 * The configuration key a client option is read under: `kasm:apiNames`, `kasm-prod:apiNames` (an
 * explicit provider's properties are handed over under the `kasm:` keys too). For a message, use
 * {@link settingRef}, which names an explicit provider's property instead.
 */
export function configKey(names: SettingNames, option: string): string {
  return `${names.namespace}:${option}`;
}

/**
 * A setting as a message names it: its configuration key (`kasm:apiNames`, `kasm-prod:apiNames`;
 * in backticks with `quoted`), or an explicit provider's property, `` `apiNames` of provider `staging` ``.
 */
export function settingRef(names: SettingNames, option: string, quoted = false): string {
  if (names.provider !== undefined) return `\`${option}\` of provider \`${names.provider}\``;
  return quoted ? `\`${configKey(names, option)}\`` : configKey(names, option);
}

/**
 * The environment variable of a client option for a connection: the option in upper snake case
 * after the prefix (`apiNames`: `KASM_API_NAMES`, `KASM_PROD_API_NAMES`), as every one of
 * `ENV_VARS` is written.
 */
export function envVar(names: SettingNames, option: string): string {
  return `${names.envPrefix}${option.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;
}

/**
 * How to set an option, for a message: `` `kasm-prod:apiNames` (or KASM_PROD_API_NAMES) ``; with a
 * `value`, `` `pulumi config set kasm-prod:apiNames product` (or KASM_PROD_API_NAMES=product) ``.
 * For an explicit provider, its property: `` `apiNames: product` on provider `staging` `` (the
 * variable applies only where the provider leaves the property out).
 */
export function howToSet(names: SettingNames, option: string, value?: string): string {
  const variable = envVar(names, option);
  if (names.provider !== undefined) {
    return value === undefined
      ? `${settingRef(names, option, true)} (or ${variable} where the provider leaves it out)`
      : `\`${option}: ${value}\` on provider \`${names.provider}\``;
  }
  const key = configKey(names, option);
  return value === undefined ? `\`${key}\` (or ${variable})` : `\`pulumi config set ${key} ${value}\` (or ${variable}=${value})`;
}

/**
 * What follows "set" in advice to give an option a value: `` kasm:apiNames to "product"
 * (`pulumi config set kasm:apiNames product` (or KASM_API_NAMES=product)) ``, or for an explicit
 * provider `` `apiNames: product` on provider `staging` ``.
 */
export function setTo(names: SettingNames, option: string, value: string): string {
  return names.provider !== undefined ? howToSet(names, option, value) : `${configKey(names, option)} to "${value}" (${howToSet(names, option, value)})`;
}

// --- named connections ------------------------------------------------------------------------------

/**
 * The client options, the environment and the setting names of a connection: for the default
 * one (`undefined`) the `kasm:` keys and the `KASM_*` variables, for a named one its own
 * (`kasm-prod:` and `KASM_PROD_*`), read under those names. The default connection's variables
 * are never read for a named one: a second installation must not quietly get the first one's
 * credentials. The one place the provider, the lookups and `waitForHealthy` choose a connection's
 * settings; {@link resolveConfig} takes all three. `provider` names the explicit native provider
 * whose properties `get` reads for the default connection, so that messages name its properties.
 */
export function connectionSettings(
  name: string | undefined,
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  provider?: string,
): { readonly options: KasmClientOptions; readonly env: NodeJS.ProcessEnv; readonly names: SettingNames } {
  const names = name === undefined && provider !== undefined ? providerSettingNames(provider) : settingNamesOf(name);
  return { options: optionsFromConfig(get, names), env, names };
}

// --- the health wait --------------------------------------------------------------------------------

/*
 * Waiting for a Kasm installation to become healthy: poll `GET {baseUrl}/api/__healthcheck`
 * until it answers `{ok: true}`, backing off the way the product's own health-check script does
 * for the API Server (retry_delay 5 s, doubling per consecutive failure up to max_delay 60 s).
 *
 * {@link HealthGates} is the `waitForHealthySeconds` setting: the transport waits on it before its
 * first request, once per base URL among the clients that share the gates (every client of one
 * connection registry: one host process's), so that a deployment against a Kasm still starting
 * waits instead of failing its first calls.
 */

/** Options of {@link waitForHealthy}. */
export interface WaitForHealthyOptions {
  /** Give up after this many milliseconds (counted from the call). Default: 300000 (5 minutes). */
  readonly deadlineMs?: number;
  /** The wait after the first failure; it doubles per consecutive failure. Default: 5000 (the API Server's retry_delay). */
  readonly initialDelayMs?: number;
  /** The longest wait between two probes. Default: 60000 (the API Server's max_delay). */
  readonly maxDelayMs?: number;
  /** How long one probe may take. Default: 5000 (the health check's fixed request timeout). */
  readonly probeTimeoutMs?: number;
  /** Stops waiting early (the promise rejects with the signal's reason). */
  readonly signal?: AbortSignal;
}

/** What {@link waitForHealthy} observed before the installation answered healthy. */
export interface HealthyResult {
  /** Probes sent, the successful one included. */
  readonly attempts: number;
  readonly elapsedMs: number;
}

/** The defaults of {@link WaitForHealthyOptions}. */
export const HEALTH_DEFAULTS = {
  deadlineMs: 300_000,
  initialDelayMs: 5_000,
  maxDelayMs: 60_000,
  probeTimeoutMs: 5_000,
} as const;

/**
 * Poll the health endpoint until it answers `{ok: true}`.
 *
 * @throws {@link KasmHealthCheckError} when the deadline passes first, naming the number of
 * attempts and the last failure.
 * @example
 * ```ts
 * await client.waitForHealthy({ deadlineMs: 120_000 });
 * ```
 */
export async function waitForHealthy(api: KasmApi, options: WaitForHealthyOptions = {}): Promise<HealthyResult> {
  const deadlineMs = options.deadlineMs ?? HEALTH_DEFAULTS.deadlineMs;
  const maxDelayMs = options.maxDelayMs ?? HEALTH_DEFAULTS.maxDelayMs;
  const probeTimeoutMs = options.probeTimeoutMs ?? HEALTH_DEFAULTS.probeTimeoutMs;
  let delayMs = Math.min(options.initialDelayMs ?? HEALTH_DEFAULTS.initialDelayMs, maxDelayMs);
  const started = Date.now();
  const elapsed = () => Date.now() - started;

  for (let attempts = 1; ; attempts += 1) {
    options.signal?.throwIfAborted();
    // A probe never runs past the deadline (but gets at least a moment to answer).
    const probe = await api.transport.probeHealth(Math.max(1, Math.min(probeTimeoutMs, deadlineMs - elapsed())));
    if (probe.healthy) {
      api.transport.healthGates.markHealthy(api.transport.baseUrl);
      return { attempts, elapsedMs: elapsed() };
    }
    const remaining = deadlineMs - elapsed();
    if (remaining <= 0) throw new KasmHealthCheckError(attempts, elapsed(), probe.detail);
    api.transport.log("debug", `healthcheck: attempt ${attempts} failed (${probe.detail}); next in ${Math.min(delayMs, remaining)} ms`);
    // The last wait ends at the deadline, so that a final probe is made then.
    await sleep(Math.min(delayMs, remaining), options.signal);
    delayMs = Math.min(delayMs * 2, maxDelayMs);
  }
}

/**
 * The health wait of the `waitForHealthySeconds` setting ran out: the message names the setting,
 * its environment variable and the way out.
 */
export class KasmHealthGateError extends KasmHealthCheckError {
  constructor(baseUrl: string, seconds: number, cause: KasmHealthCheckError, settings: SettingNames = DEFAULT_SETTING_NAMES) {
    super(cause.attempts ?? 1, seconds * 1000, cause.lastFailure);
    this.message =
      `Kasm at ${baseUrl} did not report healthy (GET /api/__healthcheck) within the ${seconds} s that ` +
      `${settingRef(settings, "waitForHealthySeconds")} (or ${envVar(settings, "waitForHealthySeconds")}) allows, after ${cause.attempts ?? 1} probe(s); ` +
      `last answer: ${cause.lastFailure}. Check that Kasm is running and reachable at that address (${howToSet(settings, "baseUrl")}), or raise the setting.`;
  }
}

/**
 * The health waits of the clients that share them: one per base URL, its outcome shared by every
 * request that follows. A connection registry (`ConnectionRegistry` in `provider/runtime.ts`) gives every client it
 * builds the same gates, so that a host process waits once per installation; a client built on
 * its own has gates of its own.
 */
export class HealthGates {
  /** One wait per base URL: its outcome. */
  readonly #gates = new Map<string, Promise<void>>();

  /**
   * Wait, once per base URL, until the installation reports healthy, for at most `seconds` (the
   * `waitForHealthySeconds` setting; 0 returns at once). Every request of every client sharing
   * these gates waits on the same outcome: a Kasm that became healthy is not probed again, and one
   * that did not fails each request at once with the same {@link KasmHealthGateError} rather than
   * waiting again.
   */
  wait(api: KasmApi, seconds: number): Promise<void> | undefined {
    if (seconds <= 0) return undefined;
    const key = api.transport.baseUrl;
    let gate = this.#gates.get(key);
    if (!gate) {
      gate = waitForHealthy(api, { deadlineMs: seconds * 1000 }).then(
        () => undefined,
        (error: unknown) => {
          throw error instanceof KasmHealthCheckError ? new KasmHealthGateError(key, seconds, error, api.transport.settingNames) : error;
        },
      );
      this.#gates.set(key, gate);
    }
    return gate;
  }

  /** Record that `baseUrl` answered healthy (an explicit wait succeeded): no gate waits for it again. */
  markHealthy(baseUrl: string): void {
    this.#gates.set(baseUrl, Promise.resolve());
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
