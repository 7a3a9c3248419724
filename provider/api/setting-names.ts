/**
 * Where one connection's settings are read, so that every message about them names the keys to
 * change: the default connection's are `kasm:baseUrl` and `KASM_BASE_URL`; a named connection's
 * (`prod`) are `kasm-prod:baseUrl` and `KASM_PROD_BASE_URL`. The configuration and the environment
 * are read under these names directly (nothing is copied into the default names), and errors are
 * written with them: a message about the production installation must not send its reader to the
 * staging one's settings.
 */
import { connectionEnvPrefix, connectionNamespace } from "../../catalogue/connections";

/** The configuration namespace and environment prefix of one connection. */
export interface SettingNames {
  /** The connection's name (`prod`); undefined for the default connection. */
  readonly connection?: string;
  /** The configuration namespace: `kasm`, or `kasm-<name>`. */
  readonly namespace: string;
  /** The environment variables' prefix: `KASM_`, or `KASM_<NAME>_`. */
  readonly envPrefix: string;
}

/** The default connection's setting names: `kasm:` keys and `KASM_*` variables. */
export const DEFAULT_SETTING_NAMES: SettingNames = Object.freeze({ namespace: "kasm", envPrefix: "KASM_" });

/** The setting names of a connection: the default one's for `undefined`, else `kasm-<name>:` and `KASM_<NAME>_`. */
export function settingNamesOf(connection: string | undefined): SettingNames {
  if (connection === undefined) return DEFAULT_SETTING_NAMES;
  return Object.freeze({ connection, namespace: connectionNamespace(connection), envPrefix: connectionEnvPrefix(connection) });
}

/** The configuration key of a client option for a connection: `kasm:apiNames`, `kasm-prod:apiNames`. */
export function configKey(names: SettingNames, option: string): string {
  return `${names.namespace}:${option}`;
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
 */
export function howToSet(names: SettingNames, option: string, value?: string): string {
  const key = configKey(names, option);
  const variable = envVar(names, option);
  return value === undefined ? `\`${key}\` (or ${variable})` : `\`pulumi config set ${key} ${value}\` (or ${variable}=${value})`;
}
