/**
 * `kasm.Connection`: another Kasm installation for the program, beside the default one (`kasm:`).
 */
import { connectionEnvPrefix, connectionNamespace, isConnectionName } from "../permissions/connections";

/**
 * A Kasm installation other than the default one, for a program that manages several (staging and
 * production, one per region or per customer). Its settings are those of `kasm:` under its own
 * configuration namespace, `kasm-<name>:`, or environment prefix, `KASM_<NAME>_` (hyphens as
 * underscores), with the same defaults and checks; it never falls back to the default
 * connection's settings. Give it to a resource as its `connection` argument. A resource without
 * one uses `kasm:`, as it always has.
 *
 * Pulumi's `provider` resource option cannot carry it: these are dynamic resources, whose provider
 * is Pulumi's own. So, as with Terraform's `provider` meta-argument, the connection is an
 * argument. Only its name is kept in the state (never a setting or the secret); refresh, update
 * and delete go to the installation the state names; changing a resource's connection replaces it
 * (created in the new installation, then deleted from the old one).
 *
 * @example
 * ```ts
 * // pulumi config set kasm-prod:baseUrl https://kasm.example.com
 * // pulumi config set kasm-prod:apiKey pipeline-key
 * // pulumi config set --secret kasm-prod:apiKeySecret ...      (or KASM_PROD_API_KEY_SECRET)
 * const prod = new kasm.Connection("prod");
 * new kasm.User("alice-staging", { username: "alice" });                     // kasm:
 * new kasm.User("alice-prod", { username: "alice", connection: prod });      // kasm-prod:
 * ```
 */
export class Connection {
  /** The connection's name: lower-case letters, digits and hyphens, starting with a letter. */
  readonly name: string;
  /** Where its settings are read in the stack configuration: `kasm-<name>` (`kasm-prod:baseUrl`). */
  readonly configNamespace: string;
  /** Where its settings are read in the environment: `KASM_<NAME>_` (`KASM_PROD_API_KEY_SECRET`). */
  readonly envPrefix: string;

  /** @throws Error when `name` is not a valid connection name. */
  constructor(name: string) {
    if (!isConnectionName(name))
      throw new Error(
        `kasm.Connection: the name must be lower-case letters, digits and hyphens, starting with a letter and at most 40 characters ` +
          `(such as "prod" or "eu-west"), not ${JSON.stringify(name)}; it names the settings kasm-<name>:baseUrl ... and KASM_<NAME>_BASE_URL ...`,
      );
    this.name = name;
    this.configNamespace = connectionNamespace(name);
    this.envPrefix = connectionEnvPrefix(name);
  }
}

/** The argument every resource takes besides its own. */
export interface ConnectionArgs {
  /**
   * The installation the object lives on: a {@link Connection}, or its name. Default: the one
   * `kasm:` configures. Changing it replaces the resource.
   */
  readonly connection?: Connection | string;
}

/** The name a resource's `connection` argument gives to the provider (undefined: the default connection). */
export function connectionName(connection: Connection | string | undefined): string | undefined {
  if (connection === undefined) return undefined;
  return typeof connection === "string" ? connection : connection.name;
}
