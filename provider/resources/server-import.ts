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
 * Names: Kasm does not keep server names unique (nor does the emulator: a second server with a
 * name in use is created beside the first), and the API cannot list servers, so the provider cannot
 * see a server of the same name made outside this resource. It keeps names unique within the set
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
 */
import { randomUUID } from "node:crypto";
import { KasmBadRequestError, type Server } from "../api";
import { kasmClient } from "../runtime";
import { warn } from "../engine-log";
import { isKasmId, KASM_ID_MESSAGE } from "../../catalogue/ids";
import { csvCell, parseCsv, serverRowFromCsv, SERVER_CSV_COLUMNS } from "../../catalogue/bulk-rows";
import { canonicalId, GONE, isUnknown, same, unlessGone, UNKNOWN, type KindProvider, type Props } from "./kit";

// --- types ---------------------------------------------------------------------------------------

/** One server to import: the camelCase form of a CSV row. */
export interface ServerRow {
  /** The server's name in Kasm (its friendly name); unique within the set. */
  readonly name: string;
  /** The address Kasm connects to. */
  readonly ipHostname: string;
  readonly port?: number;
  readonly zoneName?: string;
  /** `SSH`, or a remote display type such as `RDP`, `VNC` or `KasmVNC`. */
  readonly connectionType?: string;
  /** `STATIC`, `PROMPT_USER` or `SSO`; an SSH server cannot use `PROMPT_USER`. */
  readonly connectionCredentialType?: string;
  readonly useUserPrivateKey?: boolean;
  readonly poolId?: string;
  /** A user (by username) assigned to the server. */
  readonly assignedUsername?: string;
  readonly labels?: readonly string[];
}

/** What the provider adds to the inputs. */
export interface ServerImportOutputs {
  /** Server name -> the id of the server this resource imported under that name. */
  readonly serverIds: Readonly<Record<string, string>>;
}

type Field = keyof ServerRow;

const text = (a: unknown, b: unknown) => String(a ?? "").trim() === String(b ?? "").trim();
const caseless = (a: unknown, b: unknown) => String(a ?? "").trim().toLowerCase() === String(b ?? "").trim().toLowerCase();

/** Each field: its CSV column, its type in the `servers` input, and how two values compare. */
const FIELDS: Readonly<Record<Field, { column: string; type: "text" | "port" | "boolean" | "id" | "labels"; equal: (a: unknown, b: unknown) => boolean }>> = {
  name: { column: "name", type: "text", equal: text },
  ipHostname: { column: "ip_hostname", type: "text", equal: caseless },
  port: { column: "port", type: "port", equal: same.value },
  zoneName: { column: "zone_name", type: "text", equal: text },
  connectionType: { column: "connection_type", type: "text", equal: caseless },
  connectionCredentialType: { column: "connection_credential_type", type: "text", equal: caseless },
  useUserPrivateKey: { column: "use_user_private_key", type: "boolean", equal: same.value },
  poolId: { column: "pool_id", type: "id", equal: same.id },
  assignedUsername: { column: "assigned_username", type: "text", equal: same.username },
  labels: { column: "labels", type: "labels", equal: same.set },
};
const FIELD_NAMES = Object.keys(FIELDS) as Field[];
const INPUTS = ["csv", "servers"];

/** A declared row with where it was declared, for messages. */
interface Located {
  readonly row: ServerRow;
  /** `servers[2] 'ws-03'` or `csv row 3 'ws-03'`. */
  readonly where: string;
}

// --- check ---------------------------------------------------------------------------------------

type Failure = { property: string; reason: string };


/** What is wrong with one field's value, or undefined. `fromCsv`: the value came from a CSV cell. */
function fieldProblem(field: Field, value: unknown, fromCsv: boolean): string | undefined {
  const type = FIELDS[field].type;
  if (type === "port") {
    return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65535 ? undefined : "must be a whole number from 1 to 65535";
  }
  if (type === "boolean") return typeof value === "boolean" ? undefined : fromCsv ? "must be true or false (or yes/no, 1/0)" : "must be true or false";
  if (type === "labels") {
    if (!Array.isArray(value) || value.some((l) => typeof l !== "string")) return "must be a list of strings";
    if (value.some((l: string) => /[;,]/.test(l))) return "a label must not contain ';' or ',' (Kasm's CSV separates labels with them)";
    return undefined;
  }
  if (typeof value !== "string") return "must be a string";
  if (value.trim() === "") return "must not be empty";
  if (type === "id" && !isKasmId(value)) return KASM_ID_MESSAGE;
  return undefined;
}

/**
 * Every problem of the rows, each naming its row and column: required fields, types, the
 * combination Kasm refuses (an SSH server prompting the user for credentials, CSV_ERROR_012), and
 * names used twice. Values not known yet are left out.
 */
function rowProblems(rows: readonly (Props | undefined)[], fromCsv: boolean): { index: number; field?: Field; message: string }[] {
  const problems: { index: number; field?: Field; message: string }[] = [];
  const firstRowOfName = new Map<string, number>();
  rows.forEach((row, index) => {
    // A row not known yet (preview) is checked once it is.
    if (row === undefined) return;
    for (const key of Object.keys(row)) {
      if (!(FIELD_NAMES as string[]).includes(key) && row[key] !== undefined)
        problems.push({ index, message: `${key} is not a field of a server row (fields: ${FIELD_NAMES.join(", ")})` });
    }
    for (const field of FIELD_NAMES) {
      const value = row[field];
      if (isUnknown(value)) continue;
      if (value === undefined || value === null) {
        if (field === "name" || field === "ipHostname") problems.push({ index, field, message: "is required" });
        continue;
      }
      const problem = fieldProblem(field, value, fromCsv);
      if (problem) problems.push({ index, field, message: problem });
    }
    const type = row.connectionType;
    const credentials = row.connectionCredentialType;
    if (typeof type === "string" && typeof credentials === "string" && type.trim().toUpperCase() === "SSH" && credentials.trim().toUpperCase() === "PROMPT_USER")
      problems.push({
        index,
        field: "connectionCredentialType",
        message: "PROMPT_USER cannot be used with an SSH connection (Kasm refuses the combination, CSV_ERROR_012): use STATIC or SSO",
      });
    if (typeof row.name === "string" && !isUnknown(row.name) && row.name.trim() !== "") {
      const name = row.name.trim();
      const first = firstRowOfName.get(name);
      if (first !== undefined) problems.push({ index, field: "name", message: `'${name}' is also the name of row ${first + 1}: names must be unique within the set` });
      else firstRowOfName.set(name, index);
    }
  });
  return problems;
}

/** The display name of a row in a message: ` 'ws-03'` when its name is known. */
function nameOf(row: Props | undefined): string {
  return typeof row?.name === "string" && !isUnknown(row.name) && row.name.trim() !== "" ? ` '${row.name.trim()}'` : "";
}

function checkCsv(csv: unknown): Failure[] {
  if (typeof csv !== "string") return [{ property: "csv", reason: "csv must be text: Kasm's batch import CSV, a header line and one line per server" }];
  let table;
  try {
    table = parseCsv(csv);
  } catch (error) {
    return [{ property: "csv", reason: `csv is not valid CSV: ${(error as Error).message}` }];
  }
  const failures: Failure[] = [];
  const unknown = table.headers.filter((h) => !(SERVER_CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length)
    failures.push({ property: "csv", reason: `csv has unknown column(s) ${unknown.map((c) => `'${c}'`).join(", ")}; the columns are ${SERVER_CSV_COLUMNS.join(", ")}` });
  const repeated = table.headers.filter((h, i) => table.headers.indexOf(h) !== i);
  if (repeated.length) failures.push({ property: "csv", reason: `csv names column(s) ${[...new Set(repeated)].map((c) => `'${c}'`).join(", ")} more than once` });
  for (const required of ["name", "ip_hostname"])
    if (!table.headers.includes(required)) failures.push({ property: "csv", reason: `csv has no '${required}' column, which every server needs` });
  if (table.records.length === 0) failures.push({ property: "csv", reason: "csv has no server rows: give at least one line after the header" });
  if (failures.length) return failures;
  const rows = table.records.map((r) => serverRowFromCsv(table.headers, r));
  return rowProblems(rows, true).map((p) => ({
    property: "csv",
    reason: `row ${p.index + 1}${nameOf(rows[p.index])}${p.field ? `, column ${FIELDS[p.field].column}` : ""}: ${p.message}`,
  }));
}

function checkServers(servers: unknown): Failure[] {
  if (!Array.isArray(servers)) return [{ property: "servers", reason: "servers must be a list of rows such as { name, ipHostname, port, zoneName, connectionType }" }];
  if (servers.length === 0) return [{ property: "servers", reason: "servers must list at least one server" }];
  const failures: Failure[] = [];
  const rows: (Props | undefined)[] = [];
  servers.forEach((row, index) => {
    if (row === UNKNOWN) rows.push(undefined);
    else if (!row || typeof row !== "object" || Array.isArray(row)) {
      failures.push({ property: `servers[${index}]`, reason: `row ${index + 1} must be an object such as { name, ipHostname }` });
      rows.push(undefined);
    } else rows.push(row as Props);
  });
  for (const p of rowProblems(rows, false)) {
    const field = p.field ?? "";
    failures.push({ property: `servers[${p.index}]${field ? `.${field}` : ""}`, reason: `row ${p.index + 1}${nameOf(rows[p.index])}: ${field ? `${field} ` : ""}${p.message}` });
  }
  return failures;
}

// --- diff: rows compared by name -----------------------------------------------------------------

/** A declared row in normal form: strings trimmed, CSV cells converted, empty fields left out. */
function normalRow(raw: Props): ServerRow {
  const row: Record<string, unknown> = {};
  for (const field of FIELD_NAMES) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    row[field] = typeof value === "string" ? value.trim() : value;
  }
  return row as unknown as ServerRow;
}

/** The declared rows of `props` (csv or servers) with where each is declared; undefined when neither is given. */
function declaredRows(props: Props): Located[] | undefined {
  if (Array.isArray(props.servers)) {
    return (props.servers as Props[]).map((raw, i) => {
      const row = normalRow(raw);
      return { row, where: `servers[${i}] '${row.name}'` };
    });
  }
  if (typeof props.csv === "string") {
    const table = parseCsv(props.csv);
    return table.records.map((r, i) => {
      const row = normalRow(serverRowFromCsv(table.headers, r));
      return { row, where: `csv row ${i + 1} '${row.name}'` };
    });
  }
  return undefined;
}

/** What an update does to the set. */
interface RowPlan {
  /** Rows whose name is new. */
  readonly added: Located[];
  /** Rows whose declared fields changed: imported again as new servers. */
  readonly changed: { located: Located; fields: Field[] }[];
  /** Names no longer declared: forgotten. */
  readonly removed: ServerRow[];
  /** Some row stopped declaring a field: only the state changes. */
  readonly forgotten: boolean;
}

function planRows(before: readonly Located[], after: readonly Located[]): RowPlan {
  const old = new Map(before.map((l) => [l.row.name, l.row]));
  const kept = new Set(after.map((l) => l.row.name));
  const plan: RowPlan = { added: [], changed: [], removed: before.filter((l) => !kept.has(l.row.name)).map((l) => l.row), forgotten: false };
  let forgotten = false;
  for (const located of after) {
    const previous = old.get(located.row.name);
    if (!previous) {
      plan.added.push(located);
      continue;
    }
    const fields = FIELD_NAMES.filter((f) => located.row[f] !== undefined && (previous[f] === undefined || !FIELDS[f].equal(previous[f], located.row[f])));
    if (fields.length) plan.changed.push({ located, fields });
    if (FIELD_NAMES.some((f) => previous[f] !== undefined && located.row[f] === undefined)) forgotten = true;
  }
  return { ...plan, forgotten };
}

// --- create and update: the import --------------------------------------------------------------

/** The CSV for `batch_create_server`: name and ip_hostname, then every other column some row uses, in Kasm's order. */
function importCsv(rows: readonly ServerRow[]): string {
  const fields = FIELD_NAMES.filter((f) => f === "name" || f === "ipHostname" || rows.some((r) => r[f] !== undefined));
  const cell = (row: ServerRow, field: Field): string => {
    const value = row[field];
    if (value === undefined) return "";
    if (field === "labels") return (value as readonly string[]).join(";");
    if (field === "poolId") return canonicalId(value);
    return String(value);
  };
  const lines = [fields.map((f) => FIELDS[f].column).join(","), ...rows.map((row) => fields.map((f) => csvCell(cell(row, f))).join(","))];
  return `${lines.join("\n")}\n`;
}

/**
 * Import the rows in one request: Kasm creates all of them or none. Answers name -> new server id.
 * A refused import is an error listing every problem Kasm found, each with its row and code.
 */
async function importRows(rows: readonly Located[]): Promise<Map<string, string>> {
  let result;
  try {
    result = await kasmClient().servers.batchCreateServer({ csv: importCsv(rows.map((l) => l.row)), view: "api", filename: "servers.csv" });
  } catch (error) {
    if (error instanceof KasmBadRequestError && error.validationErrors?.length) throw refusedImportError(error, rows);
    throw error;
  }
  const created = result.resources?.servers ?? [];
  const ids = new Map<string, string>();
  const unnamed: Server[] = [];
  for (const server of created) {
    const match = rows.find((l) => typeof server.friendly_name === "string" && server.friendly_name.trim() === l.row.name && !ids.has(l.row.name));
    if (match) ids.set(match.row.name, canonicalId(server.server_id));
    else unnamed.push(server);
  }
  // A server whose answer has no name is matched by position: Kasm answers in the order of the rows.
  for (const located of rows) if (!ids.has(located.row.name) && unnamed.length) ids.set(located.row.name, canonicalId(unnamed.shift()!.server_id));
  const missing = rows.filter((l) => !ids.has(l.row.name));
  if (missing.length)
    throw new Error(
      `ServerImport: Kasm accepted the import but its answer lacks the server(s) ${missing.map((l) => `'${l.row.name}'`).join(", ")}. ` +
        `They may exist in Kasm: check Infrastructure, Servers in the Kasm admin UI before running the update again.`,
    );
  return ids;
}

/** The error for an import Kasm refused: every problem, with the row it is about as the program declares it. */
function refusedImportError(error: KasmBadRequestError, rows: readonly Located[]): Error {
  const problems = (error.validationErrors ?? []).map((problem) => {
    const m = /^row (\d+)(?:, ([^:]+))?: (.*)$/s.exec(problem);
    if (!m) return problem;
    const located = rows[Number(m[1]) - 1];
    return `${located ? located.where : `row ${m[1]}`}${m[2] ? `, column ${m[2]}` : ""}: ${m[3]}`;
  });
  return new Error(
    `ServerImport: Kasm refused the import (HTTP ${error.status} '${error.errorMessage ?? ""}'), so no server was created. ` +
      `${problems.length} problem(s):\n  - ${problems.join("\n  - ")}`,
  );
}

/** `'ws-01' (5e0a...)`: how warnings name a server. */
function serverLabel(name: string, id: string | undefined): string {
  return `'${name}' (${id ?? "id not known"})`;
}

function outputs(inputs: Props, serverIds: Record<string, string>): Props {
  const result: Props = { serverIds };
  for (const key of INPUTS) if (inputs[key] !== undefined) result[key] = inputs[key];
  return result;
}

// --- read ----------------------------------------------------------------------------------------

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
async function readServers(ids: readonly string[]): Promise<(Server | undefined)[]> {
  const client = kasmClient();
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

// --- provider ------------------------------------------------------------------------------------

export const serverImportProvider: KindProvider = {
  async check(_olds, news) {
    const failures: Failure[] = [];
    for (const key of Object.keys(news)) {
      if (key === "__provider" || INPUTS.includes(key) || news[key] === undefined) continue;
      failures.push({ property: key, reason: `${key} is not an input of ServerImport (its inputs: csv or servers)` });
    }
    const hasCsv = news.csv !== undefined && news.csv !== null;
    const hasServers = news.servers !== undefined && news.servers !== null;
    if (hasCsv === hasServers)
      failures.push({ property: "(inputs)", reason: "give exactly one of csv (Kasm's batch import CSV text) or servers (a list of rows)" });
    if (hasCsv && news.csv !== UNKNOWN) failures.push(...checkCsv(news.csv));
    if (hasServers && news.servers !== UNKNOWN) failures.push(...checkServers(news.servers));
    return failures.length ? { inputs: news, failures } : { inputs: news };
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

  async create(inputs) {
    const rows = declaredRows(inputs) ?? [];
    const ids = await importRows(rows);
    const serverIds = Object.fromEntries(rows.map((l) => [l.row.name, ids.get(l.row.name)!]));
    return { id: randomUUID().replace(/-/g, ""), outs: outputs(inputs, serverIds) };
  },

  async read(id, props) {
    const serverIds = (props.serverIds ?? {}) as Record<string, string>;
    const rows = (declaredRows(props) ?? []).map((l) => l.row);
    const names = rows.map((r) => r.name).filter((name) => serverIds[name] !== undefined);
    const servers = await readServers(names.map((n) => serverIds[n]));
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
  },

  async update(id, olds, news) {
    const before = declaredRows(olds) ?? [];
    const after = declaredRows(news) ?? [];
    const plan = planRows(before, after);
    const oldIds = (olds.serverIds ?? {}) as Record<string, string>;
    const toImport = [...plan.added, ...plan.changed.map((c) => c.located)];
    const created = toImport.length ? await importRows(toImport) : new Map<string, string>();
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
      await warn(
        `ServerImport ${id}: the Kasm API can neither update nor delete servers, so these stay in Kasm and Pulumi no longer manages them: ` +
          `${left.join("; ")}. Remove them in the Kasm admin UI (Infrastructure, Servers) if they are not needed.`,
      );
    return { outs: outputs(news, serverIds) };
  },

  async delete(id, props) {
    const serverIds = (props.serverIds ?? {}) as Record<string, string>;
    // Named in the order the program declares them (the state keeps map keys sorted).
    const declaredNames = (declaredRows(props) ?? []).map((l) => l.row.name).filter((n) => serverIds[n] !== undefined);
    const names = [...declaredNames, ...Object.keys(serverIds).filter((n) => !declaredNames.includes(n))];
    if (names.length === 0) return;
    await warn(
      `ServerImport ${id}: the Kasm API cannot delete servers, so its ${names.length} server(s) stay in Kasm and Pulumi only forgets them: ` +
        `${names.map((n) => serverLabel(n, serverIds[n])).join(", ")}. Remove them in the Kasm admin UI (Infrastructure, Servers) if they are not needed.`,
    );
  },
};
