/**
 * `ServerImport`'s `read` (refresh): every server in `serverIds` through get_servers, a few at a
 * time, compared on the documented fields of the server record. A server removed out of band is
 * dropped (the next up imports it again); drift shows as a change of its row.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Server } from "../../api/schemas/servers";
import type { KindContext, Props } from "../framework/types";
import { GONE, unlessGone } from "../framework/define-kind";
import { same } from "../framework/fields";
import { importCsv } from "./import";
import { declaredRows, FIELD_NAMES, FIELDS, INPUTS, outputs, type Field, type ServerRow } from "./rows";

// --- helpers -------------------------------------------------------------------------------------

/** The declared row as Kasm has it now: each declared field with Kasm's value, or the declared one when equal or not shown. */
function currentRow(row: ServerRow, server: Server): ServerRow {
  const kasm: Partial<Record<Field, unknown>> = {
    name: server.friendly_name ?? undefined,
    ipHostname: server.hostname,
    port: server.connection_port,
    zoneName: server.zone_name,
    connectionType: server.connection_type,
    connectionCredentialType: server.connection_credential_type,
    useUserPrivateKey: server.use_user_private_key,
    poolId: server.server_pool_id,
    labels: server.labels === null ? [] : server.labels,
  };
  if (server.assigned_users !== undefined) {
    const declared = row.assignedUsername;
    kasm.assignedUsername = server.assigned_users.some((u) => same.username(u.username, declared)) ? declared : (server.assigned_users[0]?.username ?? null);
  }
  const current: Record<string, unknown> = {};
  for (const field of FIELD_NAMES) {
    const declared = row[field];
    if (declared === undefined) continue;
    const value = kasm[field];
    // Left out of Kasm's answer: drift in it cannot be seen.
    current[field] = value === undefined || FIELDS[field].equal(declared, value) ? declared : value;
  }
  return current as unknown as ServerRow;
}

/** The inputs after a refresh, in the form the program declared them. */
function refreshedInputs(props: Props, rows: readonly ServerRow[], changed: boolean): Props {
  if (!changed) return Object.fromEntries(INPUTS.filter((key) => props[key] !== undefined).map((key) => [key, props[key]]));
  if (Array.isArray(props.servers)) return { servers: rows.map((r) => ({ ...r })) };
  return { csv: importCsv(rows) };
}

/** get_servers for each id, a few at a time; undefined for a server Kasm does not have. */
async function readServers(context: KindContext, ids: readonly string[]): Promise<(Server | undefined)[]> {
  const client = context.client();
  const results: (Server | undefined)[] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      results[i] = await unlessGone(() => client.servers.getServers({ server_id: ids[i] }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, ids.length) }, worker));
  return results;
}

// --- read ----------------------------------------------------------------------------------------

/** `read` of a ServerImport: the declared rows as Kasm has them now, and the servers it still has. */
export async function readServerImport(context: KindContext, id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  const serverIds = (props.serverIds ?? {}) as Record<string, string>;
  const rows = (declaredRows(props) ?? []).map((l) => l.row);
  const names = rows.map((r) => r.name).filter((name) => serverIds[name] !== undefined);
  const servers = await readServers(
    context,
    names.map((n) => serverIds[n]),
  );
  // Every server was removed out of band: Pulumi drops the resource, and the next `up` imports them all again.
  if (servers.every((s) => s === undefined)) return GONE;
  const current: ServerRow[] = [];
  const ids: Record<string, string> = {};
  let changed = names.length !== rows.length;
  names.forEach((name, i) => {
    const server = servers[i];
    if (!server) {
      // Removed out of band: dropped, so that the next `up` imports it again.
      changed = true;
      return;
    }
    const row = currentRow(rows.find((r) => r.name === name)!, server);
    // A server renamed to a name another row uses cannot be told apart: keep the declared name.
    const renamed = row.name !== name && (names.includes(row.name) || current.some((c) => c.name === row.name));
    const kept = renamed ? { ...row, name } : row;
    if (FIELD_NAMES.some((f) => !same.value(kept[f], rows.find((r) => r.name === name)![f]))) changed = true;
    current.push(kept);
    ids[kept.name] = serverIds[name];
  });
  const inputs = refreshedInputs(props, current, changed);
  return { id, props: outputs(inputs, ids), inputs };
}
