/**
 * The rows of the two bulk kinds, `ServerImport` and `UserSet`, as the permission table and the
 * policy packs read them: from the `servers` / `users` array a program declares, or from the
 * `csv` text in Kasm's batch import format. One reading for every reader, so that a rule about
 * "a row with groups" means the same in the table, the packs and the provider.
 *
 * Reading is lenient: it never throws. Validation (with messages naming row and column) is the
 * providers' `check`; here a cell that does not parse is kept as its text, and a value not known
 * during preview stays the engine's placeholder, for the caller to treat as unknown.
 */
import { parse } from "csv-parse/sync";

// The marker of a row's id before the import (see id-after-import.ts), where the rows' code reads it.
export { ID_AFTER_IMPORT } from "./id-after-import";

/** The CSV columns of `batch_create_server`, in Kasm's order. */
export const SERVER_CSV_COLUMNS = [
  "name",
  "ip_hostname",
  "port",
  "zone_name",
  "connection_type",
  "connection_credential_type",
  "use_user_private_key",
  "pool_id",
  "assigned_username",
  "labels",
] as const;

/** The CSV columns of `batch_create_user` besides the numbered `group_1`, `group_2`, ... */
export const USER_CSV_COLUMNS = [
  "username",
  "realm",
  "first_name",
  "last_name",
  "phone_number",
  "organization",
  "force_password_reset",
  "city",
  "state",
  "country",
  "email",
] as const;

/** A numbered group column of `batch_create_user`. */
export const USER_GROUP_COLUMN = /^group_\d+$/;

/** A CSV file: its header (trimmed) and its records (cells as written). */
export interface CsvTable {
  readonly headers: readonly string[];
  readonly records: readonly (readonly string[])[];
  /** The line of the text (from 1, as an editor numbers them) each record starts on. */
  readonly lines: readonly number[];
}

/**
 * Parse CSV text (a byte order mark and blank lines are ignored; every record must have as many
 * cells as the header). Throws csv-parse's error, which says where, when the text is not CSV.
 */
export function parseCsv(text: string): CsvTable {
  const parsed = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, info: true }) as unknown as {
    record: string[];
    info: { lines: number };
  }[];
  const [header, ...rest] = parsed;
  // csv-parse counts the line a record ends on; a quoted cell may hold line breaks.
  const startLine = ({ record, info }: (typeof parsed)[number]) => info.lines - record.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
  return { headers: (header?.record ?? []).map((h) => h.trim()), records: rest.map((r) => r.record), lines: rest.map(startLine) };
}

/** One CSV cell: quoted when it holds a comma, a quote, a line break or surrounding blanks. */
export function csvCell(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A CSV boolean cell (`true`/`false`, `yes`/`no`, `1`/`0`, any case): the boolean, undefined when empty, the text when it is none of these. */
export function csvBoolean(cell: string): boolean | string | undefined {
  const value = cell.trim().toLowerCase();
  if (value === "") return undefined;
  if (["true", "yes", "1"].includes(value)) return true;
  if (["false", "no", "0"].includes(value)) return false;
  return cell.trim();
}

/** Labels in one CSV cell, separated by `;` (or `,` inside a quoted cell). */
export function csvLabels(cell: string): string[] {
  return cell
    .split(/[;,]/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** A row as it is built: camelCase fields; values may be unknown placeholders. */
export type BulkRow = Readonly<Record<string, unknown>>;

/**
 * The row fields read from the bulk kinds' rows (by the permission rows and by the hardening
 * rules), by kind. The catalogue imports nothing of the provider, so it names them here;
 * `test/types/row-properties.test-d.ts` checks each against the provider's row schema, so a
 * misspelt or renamed field fails to compile there, and reading a field not named here fails to
 * compile where it is read.
 */
export interface BulkRowFields {
  readonly UserSet: "username" | "groups" | "realm" | "forcePasswordReset";
  readonly ServerImport: "assignedUsername" | "connectionType" | "connectionCredentialType" | "useUserPrivateKey";
}

/** A row of bulk kind `K` as a reader sees it: the fields {@link BulkRowFields} names; values may be unknown placeholders. */
export type BulkRowOf<K extends keyof BulkRowFields> = { readonly [P in BulkRowFields[K]]?: unknown };

/** The rows of a bulk resource, or `undefined` when they are not known (not declared, not known yet during preview, or a CSV that does not parse). */
export interface BulkRows<Row = BulkRow> {
  /** Where the rows come from: the array input, or the CSV text. */
  readonly source: "csv" | "array";
  /** The rows; `undefined` for a row that is not known yet (or is not an object). */
  readonly rows: readonly (Row | undefined)[];
  /** For CSV rows: the line of the text each row starts on (see {@link CsvTable}). */
  readonly lines?: readonly number[];
}

/** `ip_hostname` -> `ipHostname`. */
function camel(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A CSV server row in the camelCase fields of the `servers` input; empty cells are left out. */
export function serverRowFromCsv(headers: readonly string[], record: readonly string[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  headers.forEach((column, i) => {
    const cell = record[i] ?? "";
    if (cell.trim() === "") return;
    if (column === "port") row.port = /^\s*\d+\s*$/.test(cell) ? Number(cell) : cell.trim();
    else if (column === "use_user_private_key") row.useUserPrivateKey = csvBoolean(cell);
    else if (column === "labels") row.labels = csvLabels(cell);
    else row[camel(column)] = cell.trim();
  });
  return row;
}

/** A CSV user row in the camelCase fields of the `users` input (group columns gathered into `groups`); empty cells are left out. */
export function userRowFromCsv(headers: readonly string[], record: readonly string[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const groups: string[] = [];
  headers.forEach((column, i) => {
    const cell = record[i] ?? "";
    if (cell.trim() === "") return;
    if (USER_GROUP_COLUMN.test(column)) groups.push(cell.trim());
    else if (column === "force_password_reset") row.forcePasswordReset = csvBoolean(cell);
    else row[camel(column)] = cell.trim();
  });
  if (groups.length > 0) row.groups = groups;
  return row;
}

function rowsOf(
  props: Readonly<Record<string, unknown>>,
  arrayKey: string,
  fromCsv: typeof serverRowFromCsv,
  isUnknown: (v: unknown) => boolean,
): BulkRows | undefined {
  const list = props[arrayKey];
  if (Array.isArray(list)) return { source: "array", rows: list.map((r) => (r && typeof r === "object" && !Array.isArray(r) ? (r as BulkRow) : undefined)) };
  const csv = props.csv;
  if (typeof csv !== "string" || isUnknown(csv)) return undefined;
  try {
    const table = parseCsv(csv);
    return { source: "csv", rows: table.records.map((r) => fromCsv(table.headers, r)), lines: table.lines };
  } catch {
    return undefined;
  }
}

/** The rows of a `ServerImport` (`servers`, or `csv`), or undefined when not known. */
export function serverImportRows(
  props: Readonly<Record<string, unknown>>,
  isUnknown: (v: unknown) => boolean,
): BulkRows<BulkRowOf<"ServerImport">> | undefined {
  return rowsOf(props, "servers", serverRowFromCsv, isUnknown);
}

/** The rows of a `UserSet` (`users`, or `csv`), or undefined when not known. */
export function userSetRows(props: Readonly<Record<string, unknown>>, isUnknown: (v: unknown) => boolean): BulkRows<BulkRowOf<"UserSet">> | undefined {
  return rowsOf(props, "users", userRowFromCsv, isUnknown);
}

/**
 * How a message names a row, never by its values: `servers[2]`, or `csv row 3 (line 4)`: rows
 * count from 1 after the header, as Kasm's import report counts them, and the line is the one an
 * editor shows (they differ by the header, blank lines and line breaks inside quoted cells).
 */
export function rowLabel(source: BulkRows["source"], arrayKey: string, index: number, line?: number): string {
  if (source === "array") return `${arrayKey}[${index}]`;
  return line === undefined ? `csv row ${index + 1}` : `csv row ${index + 1} (line ${line})`;
}
