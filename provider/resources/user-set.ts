/**
 * `UserSet`: many Kasm users as one resource, created through Kasm's CSV import.
 *
 * API: batch_create_user (one request for every new user; Kasm validates every row first and
 * creates nothing when one is invalid; the only call that sets email, realm, city, state, country
 * and force_password_reset), get_users pages (1,000 users a page, or one username-filtered call
 * per user when that takes fewer requests: existence before an import, ids, groups, refresh),
 * update_user, add_user_group / remove_user_group, delete_user.
 *
 * The users are given either as `users` (a list) or as `csv` (Kasm's import format). Rows are
 * matched by username, in any case (Kasm lowercases usernames). The id of the set is its own
 * (Kasm has no such object); `userIds` maps each username to its user's id.
 *
 * - create: reads the users pages once (existing usernames are refused unless `adopt`, before
 *   anything is written), imports every new user in one request, then brings adopted users to
 *   the declared fields and groups.
 * - diff: from the state alone, row by row; a no-change `up` sends no request.
 * - update, in this order: imports added rows in one request, adopts existing ones, `update_user`
 *   for changed names, phone and organization, group changes, `delete_user` for removed rows;
 *   every check and read comes before the first write. Kasm cannot change realm, email, city,
 *   state, country or force_password_reset of an existing user: a change to one of them is not
 *   applied, and a warning says so. A user deleted in Kasm since the last refresh leaves the set
 *   (with a warning) and the next up imports it again.
 * - read: the users pages, never one request per user. Deleted users drop out of the set (and
 *   come back on the next up); names, phone, organization, realm and groups show drift; email,
 *   city, state, country and force_password_reset are not in Kasm's user records, so drift in
 *   them cannot be seen. A user renamed in Kasm drops out of the set too (with a warning naming
 *   it, when every page was read).
 * - delete: `delete_user` per user (`forceDelete` ends their sessions).
 *
 * Groups are named. The import takes names; adding or removing a group of an existing user needs
 * its id, which the API only shows inside user records (`groups: [{name, group_id}]`, with Groups
 * View): the provider learns the ids from the users it reads, and `groupIds` supplies the ones no
 * user shows yet. `groupsMode` `additive` (default) only adds the listed groups; `authoritative`
 * also removes the others, except All Users. A row that lists no groups (no `groups`, or a CSV
 * without group columns) leaves that user's groups alone.
 *
 * Passwords: an import sets none, and this kind never holds one. Users sign in through an
 * identity provider (realm ldap, oidc or saml), or get a password through the `User` kind or
 * Kasm's UI; `forcePasswordReset` makes a user choose a new one at the next sign-in.
 *
 * When a step fails after users were created, the error keeps them in the state
 * (`initializationFailure`), so nothing is orphaned and the next up finishes the work.
 */
import { randomUUID } from "node:crypto";
import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import {
  BATCH_USER_COLUMNS,
  KasmBadRequestError,
  KasmServerError,
  KasmTransportError,
  type BatchUserColumn,
  type BatchUserRow,
  type User as KasmUser,
} from "../api";
import { usersCsv } from "../api/batch-csv";
import { warn } from "../engine-log";
import { kasmClient } from "../runtime";
import {
  camelCase,
  canonicalId,
  checkInputs,
  declared,
  initializationFailure,
  isNotFound,
  isUnknown,
  KasmId,
  same,
  snakeCase,
  type KindProvider,
  type Props,
} from "./kit";
import { ALL_USERS } from "./user-links";

// --- types ---------------------------------------------------------------------------------------

/** The realms Kasm's import accepts. */
export const REALMS = ["ldap", "local", "oidc", "saml"] as const;

/** The fields of one user of the set besides `username` and `groups`, in Kasm's column order. */
export const USER_FIELDS = [
  "realm",
  "firstName",
  "lastName",
  "phoneNumber",
  "organization",
  "forcePasswordReset",
  "city",
  "state",
  "country",
  "email",
] as const;
/** A field of one user of the set besides `username` and `groups`. */
export type UserField = (typeof USER_FIELDS)[number];

/** Fields `update_user` can change, with its name for each. */
const UPDATABLE: Readonly<Partial<Record<UserField, "first_name" | "last_name" | "phone" | "organization">>> = {
  firstName: "first_name",
  lastName: "last_name",
  phoneNumber: "phone",
  organization: "organization",
};

/** Fields only the import sets: `update_user` has no field for them. */
export const IMPORT_ONLY_FIELDS: readonly UserField[] = ["realm", "email", "city", "state", "country", "forcePasswordReset"];

/** Fields of Kasm's user record (get_users), by the set's name: the ones whose drift refresh can see. */
const READABLE: Readonly<Partial<Record<UserField, "realm" | "first_name" | "last_name" | "phone" | "organization">>> = {
  realm: "realm",
  ...UPDATABLE,
};

/** Kasm cuts these to 64 characters; longer values would show as drift forever. */
const CUT_AT_64: readonly UserField[] = ["firstName", "lastName", "phoneNumber", "organization"];

/** The inputs of a UserSet, as far as zod checks them; the rows are checked one by one in `check`. */
export const UserSetInputs = z.strictObject({
  csv: z.string().optional(),
  users: z.array(z.unknown()).optional(),
  groupsMode: z.enum(["additive", "authoritative"]).optional(),
  /** Destroy users even with running sessions, ending them. */
  forceDelete: z.boolean().optional(),
  /** Take over users whose username exists already instead of failing. */
  adopt: z.boolean().optional(),
  /** Group name -> id, for groups no user shows yet. */
  groupIds: z.record(z.string().min(1, "a group name must not be empty"), KasmId).optional(),
});
/** The inputs of a UserSet (the rows themselves are checked by `check`). */
export type UserSetInputs = z.infer<typeof UserSetInputs>;

/** What the provider adds to the inputs. */
export interface UserSetOutputs {
  /** Username (as Kasm stores it: lowercase) -> user id. */
  readonly userIds: Record<string, string>;
  readonly count: number;
}

/** Inputs that are not the users themselves. */
const OTHER_INPUTS = ["groupsMode", "forceDelete", "adopt", "groupIds"] as const;

/** One user of the set, whichever way it was given. */
interface Row {
  /** As written, trimmed. */
  readonly username: string;
  /** As Kasm stores it: lowercase. */
  readonly key: string;
  /** The declared fields (a CSV's empty cells are not declared). Realm is lowercase. */
  readonly fields: Partial<Record<UserField, string | boolean>>;
  /** The declared group names, each once; undefined when the row leaves groups alone. */
  readonly groups?: readonly string[];
  /** Where the row is, for messages: `users[3]` or `csv row 4`. */
  readonly label: string;
}

/** How a set's rows were given. */
type Form = "users" | "csv";

/** Messages for `check`, by property. */
type Failure = { property: string; reason: string };

// --- check ---------------------------------------------------------------------------------------

const CSV_COLUMNS: readonly string[] = BATCH_USER_COLUMNS;
const GROUP_COLUMN = /^group_([1-9]\d*)$/;
const BOOLEAN_CELLS = new Map([
  ["true", true],
  ["yes", true],
  ["1", true],
  ["false", false],
  ["no", false],
  ["0", false],
]);

const ROW_KEYS = ["username", ...USER_FIELDS, "groups"] as const;

/** Validate the rows of `users`, reporting `users[3].realm: ...`. Values unknown during preview are skipped. */
function checkUserRows(users: readonly unknown[]): Failure[] {
  const failures: Failure[] = [];
  const firstIndex = new Map<string, number>();
  users.forEach((entry, i) => {
    const at = `users[${i}]`;
    if (isUnknown(entry) && typeof entry !== "object") return;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      failures.push({ property: at, reason: `${at} must be an object such as { username: "alice", email: "alice@example.com" }` });
      return;
    }
    const row = entry as Record<string, unknown>;
    for (const key of Object.keys(row)) {
      if ((ROW_KEYS as readonly string[]).includes(key) || row[key] === undefined) continue;
      const reason =
        key === "password"
          ? `${at}.password: a UserSet sets no passwords (Kasm's import has none, and the state would hold them). ` +
            `Give the user a password with the User kind or in the Kasm UI, sign in through an identity provider, or set forcePasswordReset.`
          : `${at}.${key}: unknown field; the fields are ${ROW_KEYS.join(", ")}`;
      failures.push({ property: `${at}.${key}`, reason });
    }
    const username = row.username;
    if (!isUnknown(username)) {
      const problem = usernameProblem(username);
      if (problem) failures.push({ property: `${at}.username`, reason: `${at}.username: ${problem}` });
      else {
        const key = String(username).trim().toLowerCase();
        const first = firstIndex.get(key);
        if (first === undefined) firstIndex.set(key, i);
        else
          failures.push({
            property: `${at}.username`,
            reason: `${at}.username: '${String(username).trim()}' is also users[${first}] (Kasm lowercases usernames); list each user once`,
          });
      }
    }
    for (const field of USER_FIELDS) {
      const value = row[field];
      if (value === undefined || value === null || isUnknown(value)) continue;
      const problem = fieldProblem(field, value);
      if (problem) failures.push({ property: `${at}.${field}`, reason: `${at}.${field}: ${problem}` });
    }
    const groups = row.groups;
    if (groups !== undefined && !isUnknown(groups)) {
      if (!Array.isArray(groups)) failures.push({ property: `${at}.groups`, reason: `${at}.groups must be a list of group names` });
      else {
        const seen = new Set<string>();
        groups.forEach((group, g) => {
          if (isUnknown(group)) return;
          const problem = groupProblem(group, seen);
          if (problem) failures.push({ property: `${at}.groups[${g}]`, reason: `${at}.groups[${g}]: ${problem}` });
        });
      }
    }
  });
  return failures;
}

function usernameProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return "username is required";
  if (typeof value !== "string") return "must be a string";
  if (value.trim() === "") return "username is required (it is empty)";
  if (/\s/.test(value.trim())) return "a username cannot contain white space";
  return undefined;
}

function fieldProblem(field: UserField, value: unknown): string | undefined {
  if (field === "forcePasswordReset") return typeof value === "boolean" ? undefined : "must be true or false";
  if (typeof value !== "string") return "must be a string";
  if (field === "realm" && value.trim() !== "" && !(REALMS as readonly string[]).includes(value.trim().toLowerCase()))
    return `'${value}' is not one of ${REALMS.join(", ")}`;
  if (CUT_AT_64.includes(field) && value.trim().length > 64) return "Kasm keeps at most 64 characters";
  return undefined;
}

function groupProblem(group: unknown, seen: Set<string>): string | undefined {
  if (typeof group !== "string" || group.trim() === "") return "must be a group name (not empty)";
  if (seen.has(group.trim())) return `lists group '${group.trim()}' twice; list each group once`;
  seen.add(group.trim());
  return undefined;
}

/** A CSV as parsed: the header, and each data row by column. */
interface ParsedCsv {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

function readCsv(text: string): ParsedCsv {
  const records = parseCsv(text, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  const [header = [], ...rows] = records;
  return { header: header.map((h) => h.trim()), rows };
}

/** Validate a `csv` input, reporting `csv row 4, column realm: ...` (rows count from 1 after the header, as Kasm's report does). */
function checkCsv(text: string): Failure[] {
  let csv: ParsedCsv;
  try {
    csv = readCsv(text);
  } catch (error) {
    return [{ property: "csv", reason: `csv cannot be parsed: ${(error as Error).message}. Write one header line, then one line per user, comma-separated.` }];
  }
  const failures: string[] = [];
  if (csv.header.length === 0) failures.push("csv is empty: the first line must be the header, such as username,first_name,last_name,email,group_1");
  const seenColumns = new Set<string>();
  for (const column of csv.header) {
    if (!CSV_COLUMNS.includes(column) && !GROUP_COLUMN.test(column))
      failures.push(`csv header, column ${column || "(empty)"}: unknown column; Kasm's columns are ${CSV_COLUMNS.join(", ")}, group_1, group_2, ...`);
    else if (seenColumns.has(column)) failures.push(`csv header, column ${column}: the column appears twice`);
    seenColumns.add(column);
  }
  if (csv.header.length > 0 && !csv.header.includes("username")) failures.push("csv header: the username column is required");
  const firstRow = new Map<string, number>();
  csv.rows.forEach((values, i) => {
    const at = `csv row ${i + 1}`;
    const cell = (column: string) => (values[csv.header.indexOf(column)] ?? "").trim();
    if (csv.header.includes("username")) {
      const username = cell("username");
      const problem = usernameProblem(username);
      if (problem) failures.push(`${at}, column username: ${problem}`);
      else {
        const key = username.toLowerCase();
        const first = firstRow.get(key);
        if (first === undefined) firstRow.set(key, i + 1);
        else failures.push(`${at}, column username: '${username}' is also on csv row ${first} (Kasm lowercases usernames); list each user once`);
      }
    }
    for (const field of USER_FIELDS) {
      const column = snakeCase(field);
      if (!csv.header.includes(column) || cell(column) === "") continue;
      const problem =
        field === "forcePasswordReset"
          ? BOOLEAN_CELLS.has(cell(column).toLowerCase())
            ? undefined
            : `'${cell(column)}' is not a boolean: write true or false (or yes, no, 1, 0)`
          : fieldProblem(field, cell(column));
      if (problem) failures.push(`${at}, column ${column}: ${problem}`);
    }
    const seenGroups = new Set<string>();
    for (const column of csv.header.filter((h) => GROUP_COLUMN.test(h))) {
      if (cell(column) === "") continue;
      const problem = groupProblem(cell(column), seenGroups);
      if (problem) failures.push(`${at}, column ${column}: ${problem}`);
    }
  });
  return failures.map((reason) => ({ property: "csv", reason }));
}

// --- rows ----------------------------------------------------------------------------------------

/** The form the rows were given in, or undefined when neither is known. */
function formOf(props: Props): Form | undefined {
  if (props.users !== undefined) return "users";
  if (props.csv !== undefined) return "csv";
  return undefined;
}

/** The rows of inputs that passed `check`; undefined while they are not known (preview). */
function rowsOf(props: Props): Row[] | undefined {
  if (isUnknown(props.users) || isUnknown(props.csv)) return undefined;
  if (Array.isArray(props.users)) return props.users.map((entry, i) => userRow(entry as Record<string, unknown>, `users[${i}]`));
  if (typeof props.csv === "string") return csvRows(props.csv);
  return [];
}

function userRow(entry: Record<string, unknown>, label: string): Row {
  const username = String(entry.username).trim();
  const fields: Row["fields"] = {};
  for (const field of USER_FIELDS) {
    const value = entry[field];
    if (value === undefined) continue;
    // A field Kasm has cleared reads back as null: declared, and empty.
    if (typeof value === "boolean") fields[field] = value;
    else fields[field] = field === "realm" ? String(value ?? "").trim().toLowerCase() : String(value ?? "").trim();
  }
  const groups = Array.isArray(entry.groups) ? [...new Set(entry.groups.map((g) => String(g).trim()))] : undefined;
  return { username, key: username.toLowerCase(), fields, groups, label };
}

function csvRows(text: string): Row[] {
  const csv = readCsv(text);
  const groupColumns = csv.header.filter((h) => GROUP_COLUMN.test(h));
  return csv.rows.map((values, i) => {
    const cell = (column: string) => (values[csv.header.indexOf(column)] ?? "").trim();
    const username = cell("username");
    const fields: Row["fields"] = {};
    for (const field of USER_FIELDS) {
      const value = csv.header.includes(snakeCase(field)) ? cell(snakeCase(field)) : "";
      if (value === "") continue;
      if (field === "forcePasswordReset") fields[field] = BOOLEAN_CELLS.get(value.toLowerCase()) ?? false;
      else fields[field] = field === "realm" ? value.toLowerCase() : value;
    }
    // With group columns, every row manages its groups (an empty row: none besides All Users).
    const groups = groupColumns.length > 0 ? [...new Set(groupColumns.map(cell).filter((g) => g !== ""))] : undefined;
    return { username, key: username.toLowerCase(), fields, groups, label: `csv row ${i + 1}` };
  });
}

/** The row as a line of Kasm's import. */
function batchRow(row: Row): BatchUserRow {
  const line: BatchUserRow = { username: row.key };
  for (const field of USER_FIELDS) {
    const value = row.fields[field];
    if (value === undefined || value === "") continue;
    (line as Record<string, unknown>)[snakeCase(field)] = value;
  }
  if (row.groups?.length) line.groups = [...row.groups];
  return line;
}

/** Whether two rows declare the same fields and groups (the username's case aside). */
function sameRow(a: Row, b: Row): boolean {
  return changedFields(a, b).length === 0 && !groupsChanged(a, b);
}

/** The fields whose declaration or value differs between `old` and `now`. */
function changedFields(old: Row, now: Row): UserField[] {
  return USER_FIELDS.filter((f) => (old.fields[f] === undefined) !== (now.fields[f] === undefined) || !same.value(old.fields[f], now.fields[f]));
}

function groupsChanged(old: Row, now: Row): boolean {
  if ((old.groups === undefined) !== (now.groups === undefined)) return true;
  return !same.set(old.groups, now.groups);
}

/**
 * `rows` in the form of `template` (the inputs they came from): the `users` list keeps each
 * entry as written where the row is unchanged, and a `csv` is written again only when it differs,
 * keeping the template's columns.
 */
function render(template: Props, rows: readonly Row[]): Props {
  const form = formOf(template) ?? "users";
  const original = rowsOf(template) ?? [];
  if (form === "users") {
    const entries = Array.isArray(template.users) ? (template.users as Record<string, unknown>[]) : [];
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
  const header = readCsv(text).header;
  const columns = header.filter((h): h is BatchUserColumn => CSV_COLUMNS.includes(h));
  const groupColumns = header.filter((h) => GROUP_COLUMN.test(h)).length;
  return { csv: usersCsv(rows.map(batchRow), { columns, groupColumns }) };
}

/** A `users` entry for a row: the written one's username spelling, the row's values. */
function userEntry(row: Row, written: Record<string, unknown> | undefined): Record<string, unknown> {
  const entry: Record<string, unknown> = { username: written !== undefined && same.username(written.username, row.username) ? written.username : row.username };
  for (const field of USER_FIELDS) if (row.fields[field] !== undefined) entry[field] = row.fields[field];
  if (row.groups !== undefined) entry.groups = [...row.groups];
  return entry;
}

/** The state: the declared inputs with the rows as `rows`, and the outputs. */
function outputs(inputs: Props, rows: readonly Row[], userIds: Readonly<Record<string, string>>): Props {
  const ids: Record<string, string> = {};
  for (const row of rows) if (userIds[row.key]) ids[row.key] = userIds[row.key];
  return { ...declared(inputs, OTHER_INPUTS), ...render(inputs, rows), userIds: ids, count: rows.length };
}

function userIdsOf(props: Props): Record<string, string> {
  return props.userIds && typeof props.userIds === "object" ? { ...(props.userIds as Record<string, string>) } : {};
}

function names(rows: readonly { username: string }[], limit = 20): string {
  const listed = rows.slice(0, limit).map((r) => `'${r.username}'`);
  return rows.length > limit ? `${listed.join(", ")} and ${rows.length - limit} more` : listed.join(", ");
}

// --- groups --------------------------------------------------------------------------------------

/** Group name -> id, from the users' records and the `groupIds` input (which wins). */
function groupIndex(records: Iterable<KasmUser>, groupIds: unknown): Map<string, string> {
  const index = new Map<string, string>();
  for (const user of records) for (const group of user.groups ?? []) if (!index.has(group.name)) index.set(group.name, canonicalId(group.group_id));
  if (groupIds && typeof groupIds === "object") for (const [name, id] of Object.entries(groupIds)) index.set(name, canonicalId(id));
  return index;
}

/** One membership change. */
interface GroupChange {
  readonly key: string;
  readonly userId: string;
  readonly groupId: string;
  readonly add: boolean;
}

/**
 * The membership changes that bring `record` to the row's groups: the missing ones added, and in
 * authoritative mode the others (but All Users) removed. Throws, before anything is written, when
 * a group to add has no known id, or when Kasm did not show the user's groups.
 */
function groupChanges(row: Row, record: KasmUser, mode: string, index: Map<string, string>, unknownGroups: Map<string, string[]>): GroupChange[] {
  if (row.groups === undefined) return [];
  if (record.groups === undefined)
    throw new Error(
      `UserSet: Kasm did not return the groups of '${row.username}', so its groups cannot be reconciled: ` +
        `the API key needs Groups View to read group membership. Grant the API key: Groups View.`,
    );
  const current = new Map(record.groups.map((g) => [g.name, canonicalId(g.group_id)]));
  const changes: GroupChange[] = [];
  for (const name of row.groups) {
    if (current.has(name)) continue;
    const groupId = index.get(name);
    if (groupId === undefined) unknownGroups.set(name, [...(unknownGroups.get(name) ?? []), row.username]);
    else changes.push({ key: row.key, userId: canonicalId(record.user_id), groupId, add: true });
  }
  if (mode === "authoritative")
    for (const [name, groupId] of current)
      if (name !== ALL_USERS && !row.groups.includes(name)) changes.push({ key: row.key, userId: canonicalId(record.user_id), groupId, add: false });
  return changes;
}

function unknownGroupsError(unknown: Map<string, string[]>): Error {
  const listed = [...unknown].map(([name, users]) => `'${name}' (for ${names(users.map((username) => ({ username })), 5)})`);
  return new Error(
    `UserSet: the id${unknown.size === 1 ? " of group" : "s of groups"} ${listed.join(", ")} ${unknown.size === 1 ? "is" : "are"} unknown. Kasm's API cannot list groups, and no user it showed is in ` +
      `${unknown.size === 1 ? "that group" : "those groups"}; adding an existing user to a group needs its id. Give the id in ` +
      `\`groupIds\` (for example groupIds: { "${[...unknown.keys()][0]}": "<group id>" }): Kasm's admin UI lists groups under ` +
      `Access Management, Groups, and a group's id is in the address of its page. ` +
      `New users of the set need no id: the import takes group names.`,
  );
}

async function applyGroupChange(change: GroupChange): Promise<void> {
  const groups = kasmClient().groups;
  try {
    if (change.add) await groups.addUserGroup({ user_id: change.userId, group_id: change.groupId });
    else await groups.removeUserGroup({ user_id: change.userId, group_id: change.groupId });
  } catch (error) {
    // Someone made the same change meanwhile: the outcome is the one wanted.
    const message = error instanceof KasmBadRequestError ? (error.errorMessage ?? "") : "";
    if (change.add ? /\bis already a member\b/i.test(message) : /\bis not a member\b/i.test(message)) return;
    throw error;
  }
}

// --- requests ------------------------------------------------------------------------------------

/** How many per-user requests run at once. */
const CONCURRENCY = 8;

/**
 * Run `work` for every item, a few at a time. Stops starting new items after the first failure,
 * lets the running ones finish, and reports which items succeeded and the first error.
 */
async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<{ done: T[]; error?: unknown }> {
  const done: T[] = [];
  let error: unknown;
  let next = 0;
  const worker = async () => {
    while (error === undefined && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
        done.push(item);
      } catch (e) {
        error ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return { done, error };
}

/** The error for rows whose username exists in Kasm when `adopt` is not set. */
function existingUsersError(rows: readonly Row[]): Error {
  return new Error(
    `UserSet: ${rows.length === 1 ? "user" : `${rows.length} users`} ${names(rows)} already exist${rows.length === 1 ? "s" : ""} in Kasm ` +
      `(${rows.map((r) => r.label).slice(0, 5).join(", ")}${rows.length > 5 ? ", ..." : ""}). Nothing was created. Set \`adopt: true\` ` +
      `to take them over and bring them to the declared fields and groups, or leave them out of the set.`,
  );
}

/** What {@link importRows} did: the created users by username, and an error once users were created. */
interface Imported {
  readonly created: Map<string, KasmUser>;
  /** Set when the import succeeded but a later lookup of ids failed: the created users must not be forgotten. */
  readonly error?: unknown;
}

/**
 * Import `rows` in one request. Throws only when nothing was created: a refused import names
 * every problem with the row it is on, as the program wrote it.
 */
async function importRows(rows: readonly Row[]): Promise<Imported> {
  const created = new Map<string, KasmUser>();
  if (rows.length === 0) return { created };
  const client = kasmClient();
  try {
    const answer = await client.users.importUsers(rows.map(batchRow), { view: "api" });
    for (const user of answer.resources?.users ?? []) created.set(user.username.toLowerCase(), user);
  } catch (error) {
    if (error instanceof KasmBadRequestError && error.validationErrors?.length) throw refusedImportError(rows, error.validationErrors);
    // Kasm refused it: nothing was created. No answer, or a server error: the import is not
    // repeated (it could create the users twice), but it may have been applied; Kasm imports all
    // rows or none, so the pages say which.
    if (!(error instanceof KasmServerError || error instanceof KasmTransportError)) throw error;
    const imported = await importedAnyway(rows).catch(() => undefined);
    if (imported === undefined || imported.size === 0) throw error;
    return { created: imported, ...(imported.size < rows.length ? { error } : {}) };
  }
  // The import answers with the created users; should a release leave some out, the pages have them.
  const missing = rows.filter((row) => !created.has(row.key));
  if (missing.length === 0) return { created };
  try {
    const { users } = await client.users.getUsersNamed(missing.map((r) => r.key));
    for (const user of users) if (missing.some((r) => r.key === user.username.toLowerCase())) created.set(user.username.toLowerCase(), user);
  } catch (error) {
    return { created, error };
  }
  const unseen = missing.filter((row) => !created.has(row.key));
  if (unseen.length === 0) return { created };
  return {
    created,
    error: new Error(
      `UserSet: Kasm imported the users but did not show ${names(unseen)} afterwards; they are not in the set. ` +
        `Run the update again with \`adopt: true\` to take them over if they exist.`,
    ),
  };
}

/** The users of `rows` that exist now (they did not before the import), by username. */
async function importedAnyway(rows: readonly Row[]): Promise<Map<string, KasmUser>> {
  const { users } = await kasmClient().users.getUsersNamed(rows.map((r) => r.key));
  const wanted = new Set(rows.map((r) => r.key));
  return new Map(users.filter((u) => wanted.has(u.username.toLowerCase())).map((u) => [u.username.toLowerCase(), u]));
}

/** Kasm's `row 2, group_1: CSV_ERROR_011 ...` in the program's terms: `users[4] ('carol').groups[0]: ...`. */
function refusedImportError(rows: readonly Row[], problems: readonly string[]): Error {
  const lines = problems.map((problem) => {
    const match = /^row (\d+)(?:, ([^:]+))?: (.*)$/s.exec(problem);
    const row = match ? rows[Number(match[1]) - 1] : undefined;
    if (!match || !row) return problem;
    const column = match[2];
    if (row.label.startsWith("csv")) return `${row.label} ('${row.username}')${column ? `, column ${column}` : ""}: ${match[3]}`;
    const group = column ? GROUP_COLUMN.exec(column) : null;
    const field = column ? (group ? `.groups[${Number(group[1]) - 1}]` : `.${camelCase(column)}`) : "";
    return `${row.label} ('${row.username}')${field}: ${match[3]}`;
  });
  return new Error(
    `UserSet: Kasm refused the import (Failed to import CSV file data) and created no user. ` +
      `Fix ${lines.length === 1 ? "this problem" : `these ${lines.length} problems`} and run again:\n  ${lines.join("\n  ")}`,
  );
}

/** The `update_user` body for the updatable fields among `fields`, or undefined when there are none. */
function userUpdate(row: Row, fields: readonly UserField[]): Record<string, string> | undefined {
  const body: Record<string, string> = {};
  for (const field of fields) {
    const name = UPDATABLE[field];
    const value = row.fields[field];
    if (name && value !== undefined) body[name] = String(value);
  }
  return Object.keys(body).length ? body : undefined;
}

/** Adopted rows: bring names, phone and organization to the declared values; what cannot be changed is listed. */
function adoptionUpdate(row: Row, record: KasmUser, unchangeable: string[]): Record<string, string> | undefined {
  const differing = USER_FIELDS.filter((field) => {
    const value = row.fields[field];
    if (value === undefined) return false;
    const readable = READABLE[field];
    return readable === undefined || String(record[readable] ?? "") !== String(value);
  });
  const notSet = differing.filter((f) => IMPORT_ONLY_FIELDS.includes(f));
  if (notSet.length) unchangeable.push(`'${row.username}' (${notSet.join(", ")})`);
  return userUpdate(row, differing);
}

function unchangeableWarning(id: string, what: string, entries: readonly string[]): string {
  return (
    `UserSet ${id}: ${what}: ${entries.slice(0, 20).join(", ")}${entries.length > 20 ? ` and ${entries.length - 20} more` : ""}. ` +
    `Kasm's API sets realm, email, city, state, country and force_password_reset only when it imports a user ` +
    `(update_user has no such fields), so Kasm keeps its values. Change them in the Kasm UI, or remove the users from the ` +
    `set in one update and add them back in the next (this deletes and re-creates them, with their settings and sessions).`
  );
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of `UserSet`. */
export const userSetProvider: KindProvider = {
  async check(_olds, news) {
    const result = checkInputs(UserSetInputs, news);
    const failures: Failure[] = [...(result.failures ?? [])];
    const { csv, users } = news;
    if (csv !== undefined && users !== undefined && !isUnknown(csv) && !isUnknown(users))
      failures.push({ property: "csv", reason: "give the users either as `csv` or as `users`, not both" });
    else if (csv === undefined && users === undefined)
      failures.push({
        property: "users",
        reason: "the users are required: give them as `users` (a list of { username, ... }) or as `csv` (Kasm's import format, header first)",
      });
    if (Array.isArray(users)) failures.push(...checkUserRows(users));
    if (typeof csv === "string" && !isUnknown(csv)) failures.push(...checkCsv(csv));
    return failures.length ? { inputs: news, failures } : { inputs: news };
  },

  /** From the state alone: rows by username, then the other inputs. Nothing replaces the set. */
  async diff(_id, olds, news) {
    const before = rowsOf(olds) ?? [];
    const after = rowsOf(news);
    let changes = after === undefined || formOf(olds) !== formOf(news) || before.length !== after.length;
    if (!changes && after) {
      const byKey = new Map(before.map((row) => [row.key, row]));
      changes = after.some((row) => {
        const old = byKey.get(row.key);
        return old === undefined || !sameRow(old, row);
      });
    }
    for (const key of OTHER_INPUTS) if (!same.value(olds[key], news[key]) || isUnknown(news[key])) changes = true;
    return { changes, replaces: [], deleteBeforeReplace: false };
  },

  async create(inputs) {
    const id = randomUUID().replace(/-/g, "");
    const rows = rowsOf(inputs) ?? [];
    const client = kasmClient();
    const { users: seen } = rows.length > 0 ? await client.users.getUsersNamed(rows.map((r) => r.key)) : { users: [] };
    const existing = new Map(seen.map((u) => [u.username.toLowerCase(), u]));
    const adopted = rows.filter((row) => existing.has(row.key));
    if (adopted.length > 0 && inputs.adopt !== true) throw existingUsersError(adopted);

    // Everything about adopted users is worked out before anything is written.
    const index = groupIndex(seen, inputs.groupIds);
    const unknownGroups = new Map<string, string[]>();
    const unchangeable: string[] = [];
    const mode = String(inputs.groupsMode ?? "additive");
    const plans = adopted.map((row) => {
      const record = existing.get(row.key)!;
      return { row, record, update: adoptionUpdate(row, record, unchangeable), groups: groupChanges(row, record, mode, index, unknownGroups) };
    });
    if (unknownGroups.size > 0) throw unknownGroupsError(unknownGroups);

    const toCreate = rows.filter((row) => !existing.has(row.key));
    const imported = await importRows(toCreate);
    const userIds: Record<string, string> = {};
    for (const [key, user] of imported.created) userIds[key] = canonicalId(user.user_id);
    if (imported.error !== undefined)
      throw initializationFailure(id, outputs(inputs, rows.filter((row) => userIds[row.key] !== undefined), userIds), imported.error);

    const { error } = await eachLimited(plans, async (plan) => {
      const userId = canonicalId(plan.record.user_id);
      if (plan.update) await client.users.updateUser({ user_id: userId, username: plan.row.key, ...plan.update });
      for (const change of plan.groups) await applyGroupChange(change);
      userIds[plan.row.key] = userId;
    });
    if (error !== undefined) {
      // Adopted users not yet brought to the declared state stay out of the set: the next up adopts them again.
      const inSet = rows.filter((row) => userIds[row.key] !== undefined);
      if (inSet.length === 0) throw error;
      throw initializationFailure(id, outputs(inputs, inSet, userIds), error);
    }
    if (unchangeable.length) await warn(unchangeableWarning(id, "adopted users keep values that only an import sets", unchangeable));
    return { id, outs: outputs(inputs, rows, userIds) };
  },

  /**
   * The users pages: users deleted in Kasm drop out (and come back on the next up); drift in
   * names, phone, organization, realm and groups shows as a change back to the program's values.
   */
  async read(id, props) {
    const rows = rowsOf(props) ?? [];
    const userIds = userIdsOf(props);
    if (rows.length === 0) return { id, props: outputs(props, [], userIds), inputs: { ...declared(props, OTHER_INPUTS), ...render(props, []) } };
    const { users } = await kasmClient().users.getUsersNamed(rows.map((r) => r.key));
    const byId = new Map(users.map((u) => [canonicalId(u.user_id), u]));
    const mode = String(props.groupsMode ?? "additive");
    const refreshed: Row[] = [];
    const renamed: string[] = [];
    for (const row of rows) {
      const userId = userIds[row.key];
      const record = userId ? byId.get(canonicalId(userId)) : undefined;
      // Deleted in Kasm (or re-created there under the same name, with another id): it drops out of
      // the set, and the next up imports it again (or, for a re-created one, refuses it unless `adopt`).
      if (!record) continue;
      if (record.username.toLowerCase() !== row.key) {
        renamed.push(`'${row.username}' (now '${record.username}', id ${canonicalId(record.user_id)})`);
        continue;
      }
      refreshed.push(currentRow(row, record, mode));
    }
    if (rows.some((row) => row.groups !== undefined) && users.some((u) => u.groups === undefined))
      await warn(
        `UserSet ${id}: Kasm did not return the users' groups, so drift in group membership cannot be seen: ` +
          `the API key needs Groups View to read group membership. Grant the API key: Groups View.`,
      );
    if (renamed.length)
      await warn(
        `UserSet ${id}: ${renamed.join(", ")} ${renamed.length === 1 ? "was" : "were"} renamed in Kasm, so the set no longer manages ` +
          `${renamed.length === 1 ? "it" : "them"}; the next up creates the declared usernames again. To keep a renamed user instead, ` +
          `rename it back in Kasm and add it with \`adopt: true\`.`,
      );
    const state = outputs(props, refreshed, userIds);
    const inputs: Props = { ...declared(props, OTHER_INPUTS), ...(formOf(props) === "csv" ? { csv: state.csv } : { users: state.users }) };
    return { id, props: state, inputs };
  },

  async update(id, olds, news) {
    const client = kasmClient();
    const before = rowsOf(olds) ?? [];
    const after = rowsOf(news) ?? [];
    const userIds = userIdsOf(olds);
    const oldByKey = new Map(before.filter((r) => userIds[r.key]).map((r) => [r.key, r]));
    const newKeys = new Set(after.map((r) => r.key));
    const added = after.filter((row) => !oldByKey.has(row.key));
    const removed = [...oldByKey.values()].filter((row) => !newKeys.has(row.key));
    const kept = after.filter((row) => oldByKey.has(row.key));
    const mode = String(news.groupsMode ?? "additive");
    const modeTightened = mode === "authoritative" && String(olds.groupsMode ?? "additive") !== "authoritative";
    const regroup = kept.filter((row) => row.groups !== undefined && (modeTightened || groupsChanged(oldByKey.get(row.key)!, row)));

    // Reads first: which added users exist already, the users' current groups, and group ids.
    const unchangeable: string[] = [];
    /** Users of the set deleted in Kasm since the last refresh: they leave the set, and the next up imports them again. */
    const gone = new Set<string>();
    let adoptPlans: { row: Row; record: KasmUser; update?: Record<string, string>; groups: GroupChange[] }[] = [];
    let groupWork: GroupChange[] = [];
    let toCreate = added;
    if (added.length > 0 || regroup.length > 0) {
      const { users: seen } = await client.users.getUsersNamed([...added, ...regroup].map((r) => r.key));
      const byName = new Map(seen.map((u) => [u.username.toLowerCase(), u]));
      const byId = new Map(seen.map((u) => [canonicalId(u.user_id), u]));
      const existing = added.filter((row) => byName.has(row.key));
      if (existing.length > 0 && news.adopt !== true) throw existingUsersError(existing);
      toCreate = added.filter((row) => !byName.has(row.key));
      const index = groupIndex(seen, news.groupIds);
      const unknownGroups = new Map<string, string[]>();
      adoptPlans = existing.map((row) => {
        const record = byName.get(row.key)!;
        return { row, record, update: adoptionUpdate(row, record, unchangeable), groups: groupChanges(row, record, mode, index, unknownGroups) };
      });
      for (const row of regroup) {
        const record = byId.get(canonicalId(userIds[row.key]));
        if (record) groupWork.push(...groupChanges(row, record, mode, index, unknownGroups));
        else gone.add(row.key);
      }
      if (unknownGroups.size > 0) throw unknownGroupsError(unknownGroups);
    }

    // The state as far as the writes went, kept by username.
    const applied = new Map<string, Row>(before.filter((r) => userIds[r.key]).map((r) => [r.key, r]));
    const fail = (error: unknown): never => {
      const rows = [...applied.values()].filter((row) => !gone.has(row.key));
      throw initializationFailure(id, outputs(news, rows, userIds), error);
    };

    // 1. New users, in one import (a refused import changed nothing).
    const imported = await importRows(toCreate);
    for (const row of toCreate) {
      const user = imported.created.get(row.key);
      if (!user) continue;
      userIds[row.key] = canonicalId(user.user_id);
      applied.set(row.key, row);
    }
    if (imported.error !== undefined) fail(imported.error);

    // 2. Adopted users.
    const adoption = await eachLimited(adoptPlans, async (plan) => {
      const userId = canonicalId(plan.record.user_id);
      if (plan.update) await client.users.updateUser({ user_id: userId, username: plan.row.key, ...plan.update });
      for (const change of plan.groups) await applyGroupChange(change);
      userIds[plan.row.key] = userId;
      applied.set(plan.row.key, plan.row);
    });
    if (adoption.error !== undefined) fail(adoption.error);

    // 3. Changed names, phone and organization; what update_user cannot change is only reported.
    const changes = kept.flatMap((row) => {
      const old = oldByKey.get(row.key)!;
      const fields = USER_FIELDS.filter((f) => row.fields[f] !== undefined && !same.value(old.fields[f], row.fields[f]));
      const notSet = fields.filter((f) => IMPORT_ONLY_FIELDS.includes(f));
      if (notSet.length) unchangeable.push(`'${row.username}' (${notSet.join(", ")})`);
      const body = userUpdate(row, fields);
      return body ? [{ row, body }] : [];
    });
    const updates = await eachLimited(changes, async ({ row, body }) => {
      try {
        await client.users.updateUser({ user_id: userIds[row.key], username: row.key, ...body });
      } catch (error) {
        if (!isNotFound(error)) throw error;
        gone.add(row.key);
        return;
      }
      // Groups are applied next: until then the row keeps its old groups.
      applied.set(row.key, { ...row, groups: applied.get(row.key)?.groups });
    });
    if (updates.error !== undefined) fail(updates.error);

    // 4. Group changes of kept users.
    const grouping = await eachLimited(groupWork, async (change) => {
      try {
        await applyGroupChange(change);
      } catch (error) {
        if (!isUserGone(error)) throw error;
        gone.add(change.key);
      }
    });
    if (grouping.error !== undefined) fail(grouping.error);
    for (const row of kept) if (!gone.has(row.key)) applied.set(row.key, row);

    // 5. Removed users.
    const deletion = await eachLimited(removed, async (row) => {
      await deleteOne(row.username, userIds[row.key], news.forceDelete === true);
      applied.delete(row.key);
      delete userIds[row.key];
    });
    if (deletion.error !== undefined) fail(deletion.error);

    if (unchangeable.length) await warn(unchangeableWarning(id, "these changes were not applied", unchangeable));
    if (gone.size > 0) {
      const goneRows = after.filter((row) => gone.has(row.key));
      for (const row of goneRows) delete userIds[row.key];
      await warn(
        `UserSet ${id}: ${names(goneRows)} ${goneRows.length === 1 ? "was" : "were"} deleted in Kasm since the last refresh, so ` +
          `${goneRows.length === 1 ? "it is" : "they are"} out of the set now; the next up imports ${goneRows.length === 1 ? "it" : "them"} again.`,
      );
    }
    return { outs: outputs(news, after.filter((row) => !gone.has(row.key)), userIds) };
  },

  async delete(_id, props) {
    const rows = rowsOf(props) ?? [];
    const userIds = userIdsOf(props);
    const force = props.forceDelete === true;
    const targets = rows.filter((row) => userIds[row.key]);
    const failures: string[] = [];
    let busy = 0;
    // Every user is attempted, so that one failure does not hold back the others; the next destroy retries what is left.
    await eachLimited(targets, async (row) => {
      try {
        await deleteOne(row.username, userIds[row.key], force);
      } catch (error) {
        if (/still has running sessions/.test((error as Error).message)) busy += 1;
        failures.push(`'${row.username}': ${(error as Error).message}`);
      }
    });
    if (failures.length === 0) return;
    const advice = busy > 0 ? " Set `forceDelete: true` to end the sessions and delete the users, or end the sessions first." : "";
    throw new Error(`UserSet: ${failures.length} of ${targets.length} users could not be deleted:\n  ${failures.slice(0, 20).join("\n  ")}${advice}`);
  },
};

/** `record`'s current values for the fields the row declares that Kasm's record shows, and its groups. */
function currentRow(row: Row, record: KasmUser, mode: string): Row {
  const fields: Row["fields"] = { ...row.fields };
  for (const field of USER_FIELDS) {
    const name = READABLE[field];
    if (name === undefined || fields[field] === undefined || !(name in record)) continue;
    const value = String(record[name] ?? "");
    // Kasm's realm is lowercase; keep the declared spelling when it is the same realm.
    fields[field] = field === "realm" ? value.toLowerCase() : value;
  }
  let groups = row.groups;
  // Without Groups View the record has no groups: membership cannot be read, and the declared groups stay.
  if (groups !== undefined && record.groups !== undefined) {
    const current = record.groups.map((g) => g.name);
    const listed = groups.filter((g) => current.includes(g));
    groups = mode === "authoritative" ? [...listed, ...current.filter((g) => g !== ALL_USERS && !listed.includes(g))] : listed;
  }
  return { ...row, fields, groups };
}

/** Whether a Kasm error says the user of a membership change does not exist (rather than the group). */
function isUserGone(error: unknown): boolean {
  return isNotFound(error) && /\bUser ID\b|\bunknown user\b/i.test((error as KasmBadRequestError).errorMessage ?? "");
}

/** Delete one user; one that is gone already counts as deleted. */
async function deleteOne(username: string, userId: string, force: boolean): Promise<void> {
  try {
    await kasmClient().users.deleteUser({ user_id: userId, force });
  } catch (error) {
    if (isNotFound(error)) return;
    const message = (error as { errorMessage?: string }).errorMessage ?? "";
    if (/kasms and 'force' option not set/i.test(message))
      throw new Error(
        `User '${username}' still has running sessions, and Kasm refuses to delete a user with sessions. ` +
          `Set \`forceDelete: true\` to end the sessions and delete the user, or end the sessions first.`,
      );
    throw error;
  }
}
