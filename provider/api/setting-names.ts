/**
 * Where one connection's settings are read, so that every message about them names the keys to
 * change: the default connection's are `kasm:baseUrl` and `KASM_BASE_URL`; a named connection's
 * (`prod`) are `kasm-prod:baseUrl` and `KASM_PROD_BASE_URL`. The configuration and the environment
 * are read under these names directly (nothing is copied into the default names), and errors are
 * written with them: a message about the production installation must not send its reader to the
 * staging one's settings.
 *
 * An explicit provider of the native plugin (`new kasm.Provider("staging", {...})`, a YAML
 * `pulumi:providers:kasm` resource) reads its settings from its own properties, not from the stack's
 * `kasm:` keys: its messages name the property and the provider (`` `apiKeySecret` of provider
 * `staging` ``), since `pulumi config set kasm:apiKeySecret` would change nothing it reads.
 */
import { connectionEnvPrefix, connectionNamespace } from "../../permissions/connections";

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
