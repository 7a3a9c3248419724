/**
 * `kasm.ServerImport`: a set of servers created with Kasm's batch server import.
 *
 * The Kasm API creates servers only in bulk and can neither update nor delete them: a changed row
 * creates a new server (the old one stays in Kasm), and removing a row or destroying the resource
 * only forgets servers. The provider warns, naming every server it leaves behind.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type ExactlyOneOf, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";
import type { ServerImportOutputs } from "../provider/resources/server-import";

/** One server of a {@link ServerImport}: the camelCase form of a row of Kasm's server CSV. */
export interface ServerImportRow {
  /** The server's name in Kasm (its friendly name). Identifies the row: unique within the set. */
  readonly name: pulumi.Input<string>;
  /** The host name or IP address Kasm connects to. */
  readonly ipHostname: pulumi.Input<string>;
  /** The port of the connection (1-65535). */
  readonly port?: pulumi.Input<number>;
  /** The deployment zone, by name. */
  readonly zoneName?: pulumi.Input<string>;
  /** `SSH`, or a remote display type such as `RDP`, `VNC` or `KasmVNC`. */
  readonly connectionType?: pulumi.Input<string>;
  /** `STATIC` (Kasm's default), `PROMPT_USER` or `SSO`. An SSH server cannot use `PROMPT_USER`. */
  readonly connectionCredentialType?: pulumi.Input<string>;
  /** Connect with the user's own SSH private key (from the user's attributes). */
  readonly useUserPrivateKey?: pulumi.Input<boolean>;
  /** The server pool (32 hex digits or a hyphenated UUID). */
  readonly poolId?: pulumi.Input<string>;
  /** A user, by username, to assign to the server (needs Users Modify; Users Modify Admin for a user with Global Admin). */
  readonly assignedUsername?: pulumi.Input<string>;
  /** Labels, compared as a set; none may contain `;` or `,`. */
  readonly labels?: pulumi.Input<pulumi.Input<string>[]>;
}

/** The arguments of a {@link ServerImport}: exactly one of `csv` and `servers`. */
export interface ServerImportArgs extends ConnectionArgs {
  /**
   * Kasm's batch import CSV: a header line with any of `name, ip_hostname, port, zone_name,
   * connection_type, connection_credential_type, use_user_private_key, pool_id, assigned_username,
   * labels` (`name` and `ip_hostname` required; labels separated by `;`), then one line per server.
   */
  readonly csv?: pulumi.Input<string>;
  /** The servers as rows (see {@link ServerImportRow}). */
  readonly servers?: pulumi.Input<pulumi.Input<ServerImportRow>[]>;
}

/**
 * Servers created with Kasm's batch import (`batch_create_server`), each identified by its name.
 *
 * What the Kasm API cannot do, and what the resource does about it:
 * - **No update.** A row whose fields change is imported again as a new server with the same name;
 *   `serverIds` then points at the new one and the old server stays in Kasm. A warning names it.
 * - **No delete.** Removing a row, or destroying the resource, forgets the servers and warns,
 *   naming them: remove them in the Kasm admin UI (Infrastructure, Servers) if they are not needed.
 * - **Server names are not unique in Kasm**, and the API cannot list servers: a name already used
 *   by a server outside this resource gives a second server of that name. Names must be unique
 *   within the set (checked before any request).
 *
 * `check` validates every row before anything is sent (required `name` and `ipHostname`, port
 * range, booleans, SSH with `PROMPT_USER`, duplicate names, unknown CSV columns), naming row and
 * column. Kasm validates the whole file before creating anything, so a refused import creates no
 * server; the error lists every problem with its row and code. Refresh reads each server, shows
 * drift in the declared fields (the next `up` then imports a replacement), and drops servers
 * removed out of band (the next `up` imports them again).
 *
 * Needs Servers Create and Servers View (with Server Pools View and Zones View); Users Modify when a
 * row assigns a user (Users Modify Admin when that user has Global Admin).
 *
 * @example
 * ```ts
 * const workstations = new kasm.ServerImport("workstations", {
 *   servers: [
 *     { name: "ws-01", ipHostname: "10.0.4.11", port: 22, zoneName: "default", connectionType: "SSH", useUserPrivateKey: true, labels: ["linux"] },
 *     { name: "ws-02", ipHostname: "10.0.4.12", port: 3389, zoneName: "default", connectionType: "RDP", assignedUsername: "alice" },
 *   ],
 * });
 * new kasm.UserServerAssignment("bob-ws-01", { userId: bob.userId, serverId: workstations.serverIds["ws-01"] });
 * new kasm.ServerDrain("ws-02-maintenance", { serverId: workstations.serverIds["ws-02"] });
 * ```
 *
 * @example
 * ```ts
 * // The same from a CSV file kept next to the program.
 * new kasm.ServerImport("lab", { csv: fs.readFileSync("servers.csv", "utf8") });
 * ```
 */
export class ServerImport extends KasmResource<ServerImportArgs, ServerImportOutputs> {
  protected static override readonly kind = "ServerImport";

  /** The servers as rows (see {@link ServerImportRow}). */
  declare readonly servers: pulumi.Output<ServerImportRow[] | undefined>;

  /** Exactly one of `csv` and `servers`: giving both (or neither) fails to compile. */
  constructor(name: string, args: ExactlyOneOf<ServerImportArgs, "csv", "servers">, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { serverIds: true } });
  }
}

/**
 * The outputs of a {@link ServerImport}: those the provider computes (see {@link ServerImportOutputs})
 * and those that mirror its arguments, but `servers`, which the class declares: its rows keep the
 * argument's `pulumi.Input` field types.
 */
export interface ServerImport extends ComputedOutputs<ServerImportOutputs>, InputOutputs<Omit<ServerImportArgs, "servers">> {}
