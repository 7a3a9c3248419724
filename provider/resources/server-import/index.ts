/**
 * `ServerImport`: a set of servers (hosts reached over SSH or a remote display protocol) created
 * with Kasm's batch import, the only way the API creates servers.
 *
 * Inputs: exactly one of `csv` (Kasm's batch CSV text) or `servers` (rows in camelCase). Each row
 * is identified by its `name`, unique within the set. Output: `serverIds`, name -> server id, for
 * `UserServerAssignment`, `ServerDrain` and `getServer`. The resource's own id is a random one:
 * Kasm has no object for an import.
 *
 * API: batch_create_server (multipart, `view=api`) to create; get_servers, one server at a time,
 * to read. Kasm can neither update nor delete a server, so:
 * - an added row is imported; a changed row is imported again as a NEW server with the same name,
 *   and the old server stays in Kasm: the provider warns, naming it (through the engine's log,
 *   see provider/engine-log.ts). `serverIds` then maps the name to the new server;
 * - a removed row, and every server on destroy, is only forgotten, with a warning naming it;
 * - a row that stops declaring a field is not a change in Kasm: the state forgets the field.
 * One import holds every added and changed row, and Kasm validates every row before creating any,
 * so a refused import creates nothing; its error lists every problem with its row and code.
 *
 * Retries: the import is the only write, and Kasm applies all of its rows or none, so a failed
 * create or update leaves the state as it was and the next up imports the same rows again. The
 * import itself is never sent blindly a second time. When its outcome is unknown (a server error,
 * a 429, a broken connection, a timeout), a released Kasm (`kasm:apiNames product`) lists its
 * servers: the ones that were not there before the import and carry the rows' names are the
 * import's, and only when there are none is the import sent again, by the retry settings. The API
 * documentation's operations cannot list servers: there the error says the outcome is unknown and
 * what to check first. When Kasm accepts an import but its answer lacks some servers, the ones it
 * named are kept in the state (failed to initialise), and the next up imports only the rows
 * without a server.
 *
 * Names: Kasm does not keep server names unique (nor does the emulator: a second server with a
 * name in use is created beside the first), and the API documentation's operations cannot list
 * servers, so the provider does not refuse a server of the same name made outside this resource. It keeps names unique within the set
 * (check refuses duplicates), and a name that clashes with another server outside the set gives a
 * second server of that name; `serverIds` holds this resource's.
 *
 * Read: every server in `serverIds` through get_servers, comparing only documented fields of the
 * server record: `friendly_name` (name), `hostname`, `connection_port`, `zone_name`,
 * `connection_type`, `connection_credential_type`, `use_user_private_key`, `server_pool_id`,
 * `assigned_users` and `labels`. A server removed out of band is dropped (its row then shows as
 * added, and the next `up` imports it again); drift shows as a change of its row, which the next
 * `up` applies by importing a new server. A field Kasm leaves out of its answer keeps its declared
 * value (drift in it cannot be seen).
 *
 * Needs Servers Create (and Users Modify when a row has `assignedUsername`, Users Modify Admin when
 * that user has Global Admin), and Servers View (or Agents View) to read.
 *
 * This module, the folder's index, is the provider; its parts are beside it: `rows` (the fields of
 * a row, the declared rows, the plan of an update, the state), `check`, `import` and `read`.
 */
import { randomUUID } from "node:crypto";
import { initializationFailure, manifestOfFields } from "../framework/define-kind";
import { isUnknown } from "../framework/check-wording";
import { KasmOutcomeUnknownError } from "../framework/errors";
import type { Kind, KindTexts } from "../framework/types";
import { withDeclaredCalls } from "../framework/connections";
import { serverImportCalls } from "./calls";
import { checkServerImport } from "./check";
import { importCsv, importRows } from "./import";
import { readServerImport } from "./read";
import {
  declaredRows,
  outputs,
  planRows,
  SERVER_IMPORT_FIELDS,
  ServerImportOutputs,
  type ServerImportInputs,
  type ServerImportState,
  type ServerRow,
} from "./rows";

// --- types ---------------------------------------------------------------------------------------

// The kind's public types, defined with its rows and exported from this module, the kind's entry point.
export { ServerImportOutputs, type ServerImportInputs, type ServerRow } from "./rows";

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the ServerImport kind (see {@link KindTexts}; each input's doc is its declaration's, in rows.ts). */
const DOCS: KindTexts = {
  description:
    "Servers created with Kasm's batch import (`batch_create_server`), each identified by its name.\n\n" +
    "What the Kasm API cannot do, and what the resource does about it:\n- **No update.** A row whose " +
    "fields change is imported again as a new server with the same name; `serverIds` then points at " +
    "the new one and the old server stays in Kasm. A warning names it.\n- **No delete.** Removing a " +
    "row, or destroying the resource, forgets the servers and warns, naming them: remove them in the " +
    "Kasm admin UI (Infrastructure, Servers) if they are not needed.\n- **Server names are not unique " +
    "in Kasm**: a name already used by a server outside this resource gives a second server of that " +
    "name. Names must be unique within the set (checked before any request).\n\n**An import whose " +
    "answer was lost** (a server error, a 429, a broken connection, a timeout) is never sent again " +
    "blindly: with `kasm:apiNames product` the servers are listed before the import, and the new " +
    "servers carrying the rows' names are found after the failure (the import is sent again only " +
    "when there are none, by the retry settings); the API documentation's operations cannot list " +
    "servers, so there the error says the outcome is unknown and what to check in the Kasm admin UI " +
    "before the next `up`.\n\n`check` validates every row before anything is sent (required `name` and " +
    "`ipHostname`, port range, booleans, SSH with `PROMPT_USER`, duplicate names, unknown CSV " +
    "columns), naming row and column. Kasm validates the whole file before creating anything, so a " +
    "refused import creates no server; the error lists every problem with its row and code. Refresh " +
    "reads each server, shows drift in the declared fields (the next `up` then imports a " +
    "replacement), and drops servers removed out of band (the next `up` imports them again).\n\nNeeds " +
    "Servers Create and Servers View (with Server Pools View and Zones View); Users Modify when a " +
    "row assigns a user (Users Modify Admin when that user has Global Admin).",
  arguments: "The arguments of a ServerImport: exactly one of `csv` and `servers`.",
  example: [
    'const workstations = new kasm.ServerImport("workstations", {',
    "  servers: [",
    '    { name: "ws-01", ipHostname: "10.0.4.11", port: 22, zoneName: "default", connectionType: "SSH", useUserPrivateKey: true, labels: ["linux"] },',
    '    { name: "ws-02", ipHostname: "10.0.4.12", port: 3389, zoneName: "default", connectionType: "RDP", assignedUsername: "alice" },',
    "  ],",
    "});",
    'new kasm.UserServerAssignment("bob-ws-01", { userId: bob.userId, serverId: workstations.serverIds["ws-01"] });',
    'new kasm.ServerDrain("ws-02-maintenance", { serverId: workstations.serverIds["ws-02"] });',
  ].join("\n"),
  notImported: "servers are taken over as they are; ServerImport is for bulk-creating new ones from a CSV",
  limits:
    "servers are only created, in one all-or-nothing import: a changed row imports a new server and " +
    "the old one stays in Kasm; a removed row and destroy only forget (each with a warning naming " +
    "the servers); names are not unique in Kasm, so a name in use outside the set gives a second " +
    "server; an import whose answer was lost is found by listing the servers with `kasm:apiNames " +
    "product` only",
};

// --- helpers -------------------------------------------------------------------------------------

/** `'ws-01' (5e0a...)`: how warnings name a server. */
function serverLabel(name: string, id: string | undefined): string {
  return `'${name}' (${id ?? "id not known"})`;
}

/**
 * The state of a run whose import answer lacked some servers: `rows` with their ids, in the form
 * the program declared them (as a refresh writes them back), and the serialized provider the
 * engine needs to call this provider for the resource again.
 */
function keptState(inputs: ServerImportInputs & { readonly __provider?: unknown }, rows: readonly ServerRow[], serverIds: Record<string, string>): object {
  const declared: ServerImportInputs = Array.isArray(inputs.servers) ? { servers: rows.map((r) => ({ ...r })) } : { csv: importCsv(rows) };
  const state = outputs(declared, serverIds);
  return inputs.__provider === undefined ? state : { ...state, __provider: inputs.__provider };
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of `ServerImport`. */
export const serverImportProvider: Kind<ServerImportInputs, ServerImportState, ServerImportOutputs> = withDeclaredCalls({
  // Both inputs are the rows, sent as the import CSV; nothing replaces (a removed row's server is deleted alone).
  manifest: {
    // The schema, each input's doc and role, from the declarations (rows.ts).
    ...manifestOfFields(SERVER_IMPORT_FIELDS, DOCS),
    outputs: ServerImportOutputs,
    exactlyOneOf: ["csv", "servers"],
    calls: serverImportCalls,
  },

  async check(_olds, news) {
    return checkServerImport(news);
  },

  async diff(_id, olds, news) {
    const none = { changes: false, replaces: [], deleteBeforeReplace: false };
    if (isUnknown(news.csv) || isUnknown(news.servers)) return { ...none, changes: true };
    const before = declaredRows(olds);
    const after = declaredRows(news);
    if (!before || !after) return { ...none, changes: true };
    const plan = planRows(before, after);
    const sourceChanged = Array.isArray(olds.servers) !== Array.isArray(news.servers);
    return { ...none, changes: plan.added.length > 0 || plan.changed.length > 0 || plan.removed.length > 0 || plan.forgotten || sourceChanged };
  },

  async create(inputs, context) {
    const id = randomUUID().replace(/-/g, "");
    const rows = declaredRows(inputs) ?? [];
    let ids: Map<string, string>;
    try {
      ids = await importRows(context, rows);
    } catch (error) {
      if (!(error instanceof KasmOutcomeUnknownError) || error.knownIds.size === 0) throw error;
      const known = rows.filter((l) => error.knownIds.has(l.row.name));
      throw initializationFailure(
        id,
        keptState(
          inputs,
          known.map((l) => l.row),
          Object.fromEntries(error.knownIds),
        ),
        error,
      );
    }
    const serverIds = Object.fromEntries(rows.map((l) => [l.row.name, ids.get(l.row.name)!]));
    return { id, outs: outputs(inputs, serverIds) };
  },

  read: (id, props, context) => readServerImport(context, id, props),

  async update(id, olds, news, context) {
    const before = declaredRows(olds) ?? [];
    const after = declaredRows(news) ?? [];
    const plan = planRows(before, after);
    const oldIds = (olds.serverIds ?? {}) as Record<string, string>;
    const toImport = [...plan.added, ...plan.changed.map((c) => c.located)];
    let created: Map<string, string>;
    try {
      created = toImport.length ? await importRows(context, toImport) : new Map<string, string>();
    } catch (error) {
      if (!(error instanceof KasmOutcomeUnknownError) || error.knownIds.size === 0) throw error;
      // Each declared row as Kasm now has it: imported anew, as before (a changed row whose new server is not known), or not at all.
      const oldRows = new Map(before.map((l) => [l.row.name, l.row]));
      const rows: ServerRow[] = [];
      const ids: Record<string, string> = {};
      const importing = new Set(toImport.map((l) => l.row.name));
      for (const { row } of after) {
        const serverId = error.knownIds.get(row.name) ?? oldIds[row.name];
        if (serverId === undefined) continue;
        rows.push(importing.has(row.name) && !error.knownIds.has(row.name) ? oldRows.get(row.name)! : row);
        ids[row.name] = serverId;
      }
      throw initializationFailure(id, keptState(news, rows, ids), error);
    }
    const serverIds: Record<string, string> = {};
    for (const { row } of after) serverIds[row.name] = created.get(row.name) ?? oldIds[row.name];

    const left: string[] = [
      ...plan.changed.map(
        ({ located, fields }) =>
          `${serverLabel(located.row.name, oldIds[located.row.name])} is replaced by the new server ${serverLabel(located.row.name, created.get(located.row.name))} ` +
          `because ${fields.join(", ")} changed`,
      ),
      ...plan.removed.map((row) => `${serverLabel(row.name, oldIds[row.name])} is no longer declared`),
    ];
    if (left.length)
      await context.warn(
        `${context.label("ServerImport", id)}: the Kasm API can neither update nor delete servers, so these stay in Kasm and Pulumi no longer manages them: ` +
          `${left.join("; ")}. Remove them in the Kasm admin UI (Infrastructure, Servers) if they are not needed.`,
      );
    return { outs: outputs(news, serverIds) };
  },

  async delete(id, props, context) {
    const serverIds = (props.serverIds ?? {}) as Record<string, string>;
    // Named in the order the program declares them (the state keeps map keys sorted).
    const declaredNames = (declaredRows(props) ?? []).map((l) => l.row.name).filter((n) => serverIds[n] !== undefined);
    const names = [...declaredNames, ...Object.keys(serverIds).filter((n) => !declaredNames.includes(n))];
    if (names.length === 0) return;
    await context.warn(
      `${context.label("ServerImport", id)}: the Kasm API cannot delete servers, so its ${names.length} server(s) stay in Kasm and Pulumi only forgets them: ` +
        `${names.map((n) => serverLabel(n, serverIds[n])).join(", ")}. Remove them in the Kasm admin UI (Infrastructure, Servers) if they are not needed.`,
    );
  },
});
