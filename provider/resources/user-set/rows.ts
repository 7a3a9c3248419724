/**
 * `UserSet`'s rows: reading them from the inputs (`users` or `csv`, one `Row` each), comparing
 * two rows, writing rows back in the form the program declared them, and the state the provider
 * keeps (the inputs with the rows, `userIds` and `count`).
 */
import { parseCsv, rowLabel, userRowFromCsv } from "../../../permissions/bulk-rows";
import { BATCH_USER_COLUMNS, type BatchUserColumn, type BatchUserRow } from "../../api/schemas/users";
import { usersCsv } from "../../api/batch-csv";
import { declared, same, snakeCase } from "../framework/fields";
import { isUnknown } from "../framework/check-wording";
import type { Props } from "../framework/types";
import type { KindOutputs } from "../framework/define-kind";
import { GROUP_COLUMN, OTHER_INPUTS, USER_FIELDS, type Form, type Row, type UserField, type UserRow, type UserSetInputs, type UserSetOutputs } from "./fields";

// --- helpers: reading ----------------------------------------------------------------------------

/** The form the rows were given in, or undefined when neither is known. */
export function formOf(props: Props): Form | undefined {
  if (props.users !== undefined) return "users";
  if (props.csv !== undefined) return "csv";
  return undefined;
}

/** The rows of inputs that passed `check`; undefined while they are not known (preview). */
export function rowsOf(props: Props): Row[] | undefined {
  if (isUnknown(props.users) || isUnknown(props.csv)) return undefined;
  if (Array.isArray(props.users)) return props.users.map((entry, i) => userRow(entry as Record<string, unknown>, rowLabel("array", "users", i)));
  if (typeof props.csv === "string") return csvRows(props.csv);
  return [];
}

/** A `users` entry (or a CSV line in the same camelCase fields) as a row. */
function userRow(entry: Record<string, unknown>, label: string): Row {
  const username = String(entry.username).trim();
  const fields: Row["fields"] = {};
  for (const field of USER_FIELDS) {
    const value = entry[field];
    if (value === undefined) continue;
    // A field Kasm has cleared reads back as null: declared, and empty.
    if (typeof value === "boolean") fields[field] = value;
    else
      fields[field] =
        field === "realm"
          ? String(value ?? "")
              .trim()
              .toLowerCase()
          : String(value ?? "").trim();
  }
  const groups = Array.isArray(entry.groups) ? [...new Set(entry.groups.map((g) => String(g).trim()))] : undefined;
  return { username, key: username.toLowerCase(), fields, groups, label };
}

function csvRows(text: string): Row[] {
  const { headers, records, lines } = parseCsv(text);
  const hasGroupColumns = headers.some((h) => GROUP_COLUMN.test(h));
  return records.map((record, i) => {
    const entry = userRowFromCsv(headers, record);
    // `check` lets only a boolean cell through; anything else is no reset.
    if (entry.forcePasswordReset !== undefined && typeof entry.forcePasswordReset !== "boolean") entry.forcePasswordReset = false;
    // With group columns, every row manages its groups (an empty row: none besides All Users).
    if (hasGroupColumns) entry.groups ??= [];
    return userRow(entry, rowLabel("csv", "users", i, lines[i]));
  });
}

/** The row as a line of Kasm's import. */
export function batchRow(row: Row): BatchUserRow {
  const line: BatchUserRow = { username: row.key };
  for (const field of USER_FIELDS) {
    const value = row.fields[field];
    if (value === undefined || value === "") continue;
    (line as Record<string, unknown>)[snakeCase(field)] = value;
  }
  if (row.groups?.length) line.groups = [...row.groups];
  return line;
}

// --- helpers: comparing --------------------------------------------------------------------------

/** Whether two rows declare the same fields and groups (the username's case aside). */
export function sameRow(a: Row, b: Row): boolean {
  return changedFields(a, b).length === 0 && !groupsChanged(a, b);
}

/** The fields whose declaration or value differs between `old` and `now`. */
function changedFields(old: Row, now: Row): UserField[] {
  return USER_FIELDS.filter((f) => (old.fields[f] === undefined) !== (now.fields[f] === undefined) || !same.value(old.fields[f], now.fields[f]));
}

/** Whether the declared groups differ (a row that leaves groups alone differs from one that lists them). */
export function groupsChanged(old: Row, now: Row): boolean {
  if ((old.groups === undefined) !== (now.groups === undefined)) return true;
  return !same.set(old.groups, now.groups);
}

/** What differs between two lists of rows, each by username: rows only in `after`, only in `before`, and in both but not the same. */
export function rowChanges(before: readonly Row[], after: readonly Row[]): { added: Row[]; removed: Row[]; changed: Row[] } {
  const old = new Map(before.map((row) => [row.key, row]));
  const now = new Set(after.map((row) => row.key));
  return {
    added: after.filter((row) => !old.has(row.key)),
    removed: before.filter((row) => !now.has(row.key)),
    changed: after.filter((row) => old.has(row.key) && !sameRow(old.get(row.key)!, row)),
  };
}

// --- helpers: writing back -----------------------------------------------------------------------

/**
 * `rows` in the form of `template` (the inputs they came from): the `users` list keeps each
 * entry as written where the row is unchanged, and a `csv` is written again only when it differs,
 * keeping the template's columns.
 */
export function render(template: Props, rows: readonly Row[]): Pick<UserSetInputs, "users"> | Pick<UserSetInputs, "csv"> {
  const form = formOf(template) ?? "users";
  const original = rowsOf(template) ?? [];
  if (form === "users") {
    // The template's entries passed `check`, or are a state's rows written by this function.
    const entries = Array.isArray(template.users) ? (template.users as UserRow[]) : [];
    const byKey = new Map(original.map((row, i) => [row.key, { row, entry: entries[i] }]));
    return {
      users: rows.map((row) => {
        const before = byKey.get(row.key);
        return before && sameRow(before.row, row) ? before.entry : userEntry(row, before?.entry);
      }),
    };
  }
  const text = String(template.csv);
  if (original.length === rows.length && original.every((row, i) => row.key === rows[i].key && sameRow(row, rows[i]))) return { csv: text };
  const header = parseCsv(text).headers;
  const columns = header.filter((h): h is BatchUserColumn => (BATCH_USER_COLUMNS as readonly string[]).includes(h));
  const groupColumns = header.filter((h) => GROUP_COLUMN.test(h)).length;
  return { csv: usersCsv(rows.map(batchRow), { columns, groupColumns }) };
}

/** A `users` entry for a row: the written one's username spelling, the row's values. */
function userEntry(row: Row, written: UserRow | undefined): UserRow {
  const entry: Record<string, unknown> = { username: written !== undefined && same.username(written.username, row.username) ? written.username : row.username };
  for (const field of USER_FIELDS) if (row.fields[field] !== undefined) entry[field] = row.fields[field];
  if (row.groups !== undefined) entry.groups = [...row.groups];
  // A row's fields hold each field's type (forcePasswordReset a boolean, the others text), as read from a checked entry.
  return entry as UserRow;
}

// --- the state -----------------------------------------------------------------------------------

/**
 * What `outputs()` builds: the declared inputs and the outputs, and `unconfirmed` (the provider's
 * own bookkeeping, see {@link outputs}; not an output programs read).
 */
export type UserSetState = KindOutputs<UserSetInputs, UserSetOutputs> & { readonly unconfirmed?: readonly string[] };

/**
 * The state: the declared inputs with the rows as `rows`, and the outputs. `unconfirmed` names
 * rows (among `rows`, without an id) whose import may or may not have been applied: Kasm's answer
 * was lost and the users could not be read back. The next update, refresh or destroy looks them up
 * by username first: found, they are the set's; not found, the next update imports them.
 */
export function outputs(
  inputs: UserSetInputs,
  rows: readonly Row[],
  userIds: Readonly<Record<string, string>>,
  unconfirmed: readonly string[] = [],
): UserSetState {
  const ids: Record<string, string> = {};
  for (const row of rows) if (userIds[row.key]) ids[row.key] = userIds[row.key];
  const keys = new Set(rows.map((row) => row.key));
  const pending = unconfirmed.filter((key) => !ids[key] && keys.has(key));
  return {
    ...declared(inputs, OTHER_INPUTS),
    ...render(inputs, rows),
    userIds: ids,
    count: rows.length - pending.length,
    ...(pending.length > 0 ? { unconfirmed: pending } : {}),
  };
}

/** The usernames of the state's rows whose import is not confirmed (see {@link outputs}). */
export function unconfirmedOf(props: Props): Set<string> {
  return new Set(Array.isArray(props.unconfirmed) ? props.unconfirmed.map(String) : []);
}

/** A copy of the state's `userIds` (username -> user id), to change as the writes go. */
export function userIdsOf(props: Props): Record<string, string> {
  return props.userIds && typeof props.userIds === "object" ? { ...(props.userIds as Record<string, string>) } : {};
}

/** `'alice', 'bob' and 3 more`: how messages name users. */
export function names(rows: readonly { username: string }[], limit = 20): string {
  const listed = rows.slice(0, limit).map((r) => `'${r.username}'`);
  return rows.length > limit ? `${listed.join(", ")} and ${rows.length - limit} more` : listed.join(", ");
}
