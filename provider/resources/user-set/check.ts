/**
 * `UserSet`'s `check`: the inputs schema, then every row of `users` or `csv` on its own, each
 * problem named by row and field (`users[3].realm: ...`) or row and column (`csv row 4, column
 * realm: ...`), before any request is sent. Values not known during preview are skipped.
 */
import type * as pulumi from "@pulumi/pulumi";
import { csvBoolean, parseCsv, rowLabel, type CsvTable } from "../../../catalogue/bulk-rows";
import { BATCH_USER_COLUMNS } from "../../api";
import { checkInputs, isUnknown, snakeCase, type Props } from "../kit";
import { CUT_AT_64, GROUP_COLUMN, REALMS, USER_FIELDS, UserSetInputs, type UserField } from "./fields";

// --- types ---------------------------------------------------------------------------------------

/** One problem `check` reports: the input it is about, and the message. */
type Failure = pulumi.dynamic.CheckFailure;

/** The keys a `users` entry may have. */
const ROW_KEYS = ["username", ...USER_FIELDS, "groups"] as const;

/** The columns of Kasm's user import besides the numbered group columns. */
const CSV_COLUMNS: readonly string[] = BATCH_USER_COLUMNS;

// --- helpers: one value ----------------------------------------------------------------------------

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

/**
 * Remembers the first row of each username (as Kasm stores it: lowercase) and answers, for a
 * later row with the same one, the label of the first.
 */
function firstRowOfUsername(): (username: string, label: string) => string | undefined {
  const first = new Map<string, string>();
  return (username, label) => {
    const key = username.trim().toLowerCase();
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, label);
    return earlier;
  };
}

// --- helpers: the two forms ----------------------------------------------------------------------

/** Validate the rows of `users`, reporting `users[3].realm: ...`. Values unknown during preview are skipped. */
function checkUserRows(users: readonly unknown[]): Failure[] {
  const failures: Failure[] = [];
  const seenBefore = firstRowOfUsername();
  users.forEach((entry, i) => {
    const at = rowLabel("array", "users", i);
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
      const first = problem ? undefined : seenBefore(String(username), at);
      if (problem) failures.push({ property: `${at}.username`, reason: `${at}.username: ${problem}` });
      else if (first !== undefined)
        failures.push({
          property: `${at}.username`,
          reason: `${at}.username: '${String(username).trim()}' is also ${first} (Kasm lowercases usernames); list each user once`,
        });
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

/** Problems of a CSV's header line: unknown or repeated columns, and a missing username column. */
function headerProblems(header: readonly string[]): string[] {
  const failures: string[] = [];
  if (header.length === 0) failures.push("csv is empty: the first line must be the header, such as username,first_name,last_name,email,group_1");
  const seenColumns = new Set<string>();
  for (const column of header) {
    if (!CSV_COLUMNS.includes(column) && !GROUP_COLUMN.test(column))
      failures.push(`csv header, column ${column || "(empty)"}: unknown column; Kasm's columns are ${CSV_COLUMNS.join(", ")}, group_1, group_2, ...`);
    else if (seenColumns.has(column)) failures.push(`csv header, column ${column}: the column appears twice`);
    seenColumns.add(column);
  }
  if (header.length > 0 && !header.includes("username")) failures.push("csv header: the username column is required");
  return failures;
}

/** Validate a `csv` input, reporting `csv row 4 (line 5), column realm: ...` (rows count from 1 after the header, as Kasm's report does; the line is the editor's). */
function checkCsv(text: string): Failure[] {
  let csv: CsvTable;
  try {
    csv = parseCsv(text);
  } catch (error) {
    return [{ property: "csv", reason: `csv cannot be parsed: ${(error as Error).message}. Write one header line, then one line per user, comma-separated.` }];
  }
  const failures = headerProblems(csv.headers);
  const seenBefore = firstRowOfUsername();
  csv.records.forEach((values, i) => {
    const at = rowLabel("csv", "users", i, csv.lines[i]);
    const cell = (column: string) => (values[csv.headers.indexOf(column)] ?? "").trim();
    if (csv.headers.includes("username")) {
      const username = cell("username");
      const problem = usernameProblem(username);
      const first = problem ? undefined : seenBefore(username, at);
      if (problem) failures.push(`${at}, column username: ${problem}`);
      else if (first !== undefined) failures.push(`${at}, column username: '${username}' is also on ${first} (Kasm lowercases usernames); list each user once`);
    }
    for (const field of USER_FIELDS) {
      const column = snakeCase(field);
      if (!csv.headers.includes(column) || cell(column) === "") continue;
      const problem =
        field === "forcePasswordReset"
          ? typeof csvBoolean(cell(column)) === "boolean"
            ? undefined
            : `'${cell(column)}' is not a boolean: write true or false (or yes, no, 1, 0)`
          : fieldProblem(field, cell(column));
      if (problem) failures.push(`${at}, column ${column}: ${problem}`);
    }
    const seenGroups = new Set<string>();
    for (const column of csv.headers.filter((h) => GROUP_COLUMN.test(h))) {
      if (cell(column) === "") continue;
      const problem = groupProblem(cell(column), seenGroups);
      if (problem) failures.push(`${at}, column ${column}: ${problem}`);
    }
  });
  return failures.map((reason) => ({ property: "csv", reason }));
}

// --- check ---------------------------------------------------------------------------------------

/** `check` of a UserSet: the schema, exactly one of `users` and `csv`, then every row. */
export function checkUserSet(news: Props): pulumi.dynamic.CheckResult {
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
}
