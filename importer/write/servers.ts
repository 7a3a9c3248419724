/**
 * The program's sections about servers: which users are assigned to which server, and which
 * servers drain. Servers themselves are never declared (Kasm's CSV import cannot take an existing
 * server over): these sections refer to them by id, with their names beside it. Apart from the
 * other areas because that is the rule they share, and the summary's line that says so.
 */
import { pairId } from "../../catalogue/ids";
import { canonical, rawId, type ProgramWriter } from "./writer";

// --- the sections --------------------------------------------------------------------------------

/** One UserServerAssignment per user and server it is assigned to, when the users' records show them. */
export function writeServerAssignments(w: ProgramWriter): void {
  // Without the users' assigned servers in their records, the assignments were not read.
  const users = w.wanted("server-assignments", w.inventory.assignedServersVisible ? w.inventory.users : undefined);
  if (users === undefined) return;
  const lines: string[] = [];
  for (const user of users)
    for (const server of [...(user.assigned_servers ?? [])].sort((a, b) => (canonical(a.server_id) < canonical(b.server_id) ? -1 : 1))) {
      const serverName = server.friendly_name || server.hostname || server.server_id.slice(0, 8);
      const name = w.names.resource(`${user.username}-on-${serverName}`, "assignment");
      lines.push(w.declare(undefined, "UserServerAssignment", name, pairId(user.user_id, server.server_id), { userId: w.userRef(user.user_id), serverId: rawId(server.server_id, serverName), adopt: true }, w.options()));
    }
  w.row("server-assignments", lines.length, lines.length);
  if (lines.length > 0)
    w.section("Server assignments", "Users assigned to servers. Servers themselves are not declared: see README.md.", `${lines.join("\n")}\n`);
}

/** One ServerDrain per draining server, and the summary's line that says why servers are not declared. */
export function writeServerDrains(w: ProgramWriter): void {
  const servers = w.wanted("server-drains", w.inventory.servers);
  if (servers === undefined) return;
  const unknown = servers.filter((s) => typeof s.is_draining !== "boolean").length;
  const draining = servers.filter((s) => s.is_draining === true);
  const lines = draining.map((server) => {
    const serverName = server.friendly_name || server.hostname || server.server_id.slice(0, 8);
    const name = w.names.resource(`${serverName}-drain`, "drain");
    return w.declare(undefined, "ServerDrain", name, server.server_id, { serverId: rawId(server.server_id, serverName), draining: true }, w.options());
  });
  w.row(
    "server-drains",
    servers.length,
    lines.length,
    [
      ...(servers.length - draining.length - unknown > 0 ? [`${servers.length - draining.length - unknown}: not draining`] : []),
      ...(unknown > 0 ? [`${unknown}: Kasm's server record does not show whether it drains (is_draining is not a documented field)`] : []),
    ],
  );
  if (lines.length > 0) w.section("Server draining", "Servers that were draining: they take no new sessions.", `${lines.join("\n")}\n`);
  w.row("servers", servers.length, 0, ["servers are registered from Kasm's CSV import (ServerImport), which cannot take an existing server over; they are referred to by id"]);
}
