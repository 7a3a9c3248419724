/**
 * The program's areas about servers: which users are assigned to which server, and which servers
 * drain. Servers themselves are never declared (Kasm's CSV import cannot take an existing server
 * over): these areas refer to them by id, with their names beside it. Apart from the other areas
 * because that is the rule they share, and the summary's line that says so.
 */
import { pairId } from "../../permissions/planned-calls";
import type { AssignedServer, Server, User } from "../../provider/api";
import type { Area } from "./area";
import { canonical, rawId, type ProgramWriter } from "./writer";

// --- helpers -------------------------------------------------------------------------------------

/** What a server is called in names and beside its id: its friendly name, its host name, or the start of its id. */
const serverName = (server: AssignedServer | Server) => server.friendly_name || server.hostname || server.server_id.slice(0, 8);

/**
 * Servers in the order the program declares them: by the name it gives them, then by id, so that
 * the same servers give the same program whatever ids Kasm made up.
 */
function byServerName<T extends AssignedServer | Server>(servers: readonly T[]): T[] {
  const key = (server: T) => `${serverName(server)}\u0000${canonical(server.server_id)}`;
  return [...servers].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** One user's assignment to one server. */
interface Assignment {
  readonly user: User;
  readonly server: AssignedServer;
}

// --- the areas -----------------------------------------------------------------------------------

/** One UserServerAssignment per user and server it is assigned to, when the users' records show them. */
export const SERVER_ASSIGNMENTS: Area<Assignment> = {
  area: "server-assignments",
  kind: "UserServerAssignment",
  section: { title: "Server assignments", comment: "Users assigned to servers. Servers themselves are not declared: see README.md." },
  // Without the users' assigned servers in their records, the assignments were not read.
  records: (inventory) =>
    inventory.assignedServersVisible
      ? inventory.users?.flatMap((user) => byServerName(user.assigned_servers ?? []).map((server) => ({ user, server })))
      : undefined,
  name: ({ user, server }) => [`${user.username}-on-${serverName(server)}`, "assignment"],
  id: ({ user, server }) => pairId(user.user_id, server.server_id),
  inputs: ({ user, server }, w) => ({ userId: w.userRef(user.user_id), serverId: rawId(server.server_id, serverName(server)), adopt: true }),
};

/** One ServerDrain per draining server. */
export const SERVER_DRAINS: Area<Server> = {
  area: "server-drains",
  kind: "ServerDrain",
  section: { title: "Server draining", comment: "Servers that were draining: they take no new sessions." },
  records: (inventory) => inventory.servers && byServerName(inventory.servers),
  notDeclared: (server) =>
    server.is_draining === true
      ? undefined
      : typeof server.is_draining === "boolean"
        ? "not draining"
        : "Kasm's server record does not show whether it drains (is_draining is not a documented field)",
  name: (server) => [`${serverName(server)}-drain`, "drain"],
  id: (server) => server.server_id,
  inputs: (server) => ({ serverId: rawId(server.server_id, serverName(server)), draining: true }),
};

/** The summary's line that says why servers are not declared, when they were read. */
export function writeServersRow(w: ProgramWriter): void {
  const servers = w.wants("server-drains") ? w.inventory.servers : undefined;
  if (servers === undefined) return;
  w.row("servers", servers.length, 0, [
    "servers are registered from Kasm's CSV import (ServerImport), which cannot take an existing server over; they are referred to by id",
  ]);
}
