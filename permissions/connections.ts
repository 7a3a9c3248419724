/**
 * Named connections: how a connection's name is written, and the configuration namespace and
 * environment prefix it names. Shared by the provider (which reads the settings), the SDK (which
 * checks the name a program gives) and the policy packs (which read a key per connection).
 */

/**
 * The name of a connection to an installation other than the default one (`kasm:`): lower-case
 * letters, digits and hyphens, starting with a letter, not ending with a hyphen, at most 40
 * characters. It names the configuration namespace and the environment prefix.
 */
export const CONNECTION_NAME = /^[a-z](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** Whether `name` can name a connection (see {@link CONNECTION_NAME}). */
export function isConnectionName(name: unknown): name is string {
  return typeof name === "string" && CONNECTION_NAME.test(name);
}

/** The configuration namespace of a connection: `kasm-<name>` (`pulumi config set kasm-prod:baseUrl ...`). */
export function connectionNamespace(name: string): string {
  return `kasm-${name}`;
}

/** The environment prefix of a connection: `KASM_<NAME>_` with hyphens as underscores (`KASM_PROD_API_KEY_SECRET`). */
export function connectionEnvPrefix(name: string): string {
  return `KASM_${name.toUpperCase().replace(/-/g, "_")}_`;
}
