/**
 * `ServerImport`'s `check`: exactly one of `csv` and `servers`, then every row, each problem
 * naming its row and column (`row 3 'ws-03', column port: ...`), before any request is sent.
 * Values not known during preview are left out.
 */
import type * as pulumi from "@pulumi/pulumi";
import { parseCsv, serverRowFromCsv, SERVER_CSV_COLUMNS } from "../../../permissions/bulk-rows";
import { didYouMean, isUnknown, rowIssues } from "../framework/check-wording";
import { UNKNOWN } from "../../../permissions/planned-calls";
import type { Props } from "../framework/types";
import { FIELD_NAMES, FIELDS, INPUTS, serverRowSchema, type Field } from "./rows";

// --- types ---------------------------------------------------------------------------------------

/** One problem `check` reports: the input it is about, and the message. */
type Failure = pulumi.dynamic.CheckFailure;

// --- helpers -------------------------------------------------------------------------------------

/**
 * Every problem of the rows, each naming its row and column: required fields, types, the
 * combination Kasm refuses (an SSH server prompting the user for credentials, CSV_ERROR_012), and
 * names used twice. Values not known yet are left out.
 */
function rowProblems(rows: readonly (Props | undefined)[], fromCsv: boolean): { index: number; field?: Field; message: string }[] {
  const schema = serverRowSchema(fromCsv);
  const problems: { index: number; field?: Field; message: string }[] = [];
  const firstRowOfName = new Map<string, number>();
  rows.forEach((row, index) => {
    // A row not known yet (preview) is checked once it is.
    if (row === undefined) return;
    // The row's schema (a value not known yet is checked once it is): a key that is no field
    // first, then the fields in Kasm's column order.
    const issues = rowIssues(schema, row);
    for (const issue of issues)
      if (issue.notAField)
        problems.push({
          index,
          message: `${issue.field} is not a field of a server row${didYouMean(issue.field, FIELD_NAMES)} (fields: ${FIELD_NAMES.join(", ")})`,
        });
    for (const issue of issues) if (!issue.notAField) problems.push({ index, field: issue.field as Field, message: issue.message });
    const type = row.connectionType;
    const credentials = row.connectionCredentialType;
    if (
      typeof type === "string" &&
      typeof credentials === "string" &&
      type.trim().toUpperCase() === "SSH" &&
      credentials.trim().toUpperCase() === "PROMPT_USER"
    )
      problems.push({
        index,
        field: "connectionCredentialType",
        message: "PROMPT_USER cannot be used with an SSH connection (Kasm refuses the combination, CSV_ERROR_012): use STATIC or SSO",
      });
    if (typeof row.name === "string" && !isUnknown(row.name) && row.name.trim() !== "") {
      const name = row.name.trim();
      const first = firstRowOfName.get(name);
      if (first !== undefined)
        problems.push({ index, field: "name", message: `'${name}' is also the name of row ${first + 1}: names must be unique within the set` });
      else firstRowOfName.set(name, index);
    }
  });
  return problems;
}

/** The display name of a row in a message: ` 'ws-03'` when its name is known. */
function nameOf(row: Props | undefined): string {
  return typeof row?.name === "string" && !isUnknown(row.name) && row.name.trim() !== "" ? ` '${row.name.trim()}'` : "";
}

/** Validate a `csv` input: its header, then every row, reporting `row 3 'ws-03', column port: ...`. */
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
    failures.push({
      property: "csv",
      reason: `csv has unknown column(s) ${unknown.map((c) => `'${c}'`).join(", ")}; the columns are ${SERVER_CSV_COLUMNS.join(", ")}`,
    });
  const repeated = table.headers.filter((h, i) => table.headers.indexOf(h) !== i);
  if (repeated.length)
    failures.push({ property: "csv", reason: `csv names column(s) ${[...new Set(repeated)].map((c) => `'${c}'`).join(", ")} more than once` });
  for (const required of ["name", "ip_hostname"])
    if (!table.headers.includes(required)) failures.push({ property: "csv", reason: `csv has no '${required}' column, which every server needs` });
  if (table.records.length === 0) failures.push({ property: "csv", reason: "csv has no server rows: give at least one line after the header" });
  if (failures.length) return failures;
  const rows = table.records.map((r) => serverRowFromCsv(table.headers, r));
  return rowProblems(rows, true).map((p) => ({
    property: "csv",
    reason: `row ${p.index + 1} (line ${table.lines[p.index]})${nameOf(rows[p.index])}${p.field ? `, column ${FIELDS[p.field].column}` : ""}: ${p.message}`,
  }));
}

/** Validate a `servers` input, reporting `servers[2].port` with `row 3 'ws-03': port ...`. */
function checkServers(servers: unknown): Failure[] {
  if (!Array.isArray(servers))
    return [{ property: "servers", reason: "servers must be a list of rows such as { name, ipHostname, port, zoneName, connectionType }" }];
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
    failures.push({
      property: `servers[${p.index}]${field ? `.${field}` : ""}`,
      reason: `row ${p.index + 1}${nameOf(rows[p.index])}: ${field ? `${field} ` : ""}${p.message}`,
    });
  }
  return failures;
}

// --- check ---------------------------------------------------------------------------------------

/** `check` of a ServerImport: only its inputs, exactly one of `csv` and `servers`, then every row. */
export function checkServerImport(news: Props): pulumi.dynamic.CheckResult {
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
}
