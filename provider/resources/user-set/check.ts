/**
 * `UserSet`'s `check`: the inputs schema, then every row of `users` or `csv` on its own, each
 * problem named by row and field (`users[3].realm: ...`) or row and column (`csv row 4, column
 * realm: ...`), before any request is sent. Values not known during preview are skipped.
 */
import type * as pulumi from "@pulumi/pulumi";
import { parseCsv, rowLabel, type CsvTable } from "../../../permissions/bulk-rows";
import { BATCH_USER_COLUMNS } from "../../api/schemas/users";
import { checkInputs, didYouMean, isUnknown, rowIssues } from "../framework/check-wording";
import { snakeCase } from "../framework/fields";
import type { Props } from "../framework/types";
import { GROUP_COLUMN, USER_FIELDS, UserSetInputs, userRowSchema } from "./fields";

// --- types ---------------------------------------------------------------------------------------

/** One problem `check` reports: the input it is about, and the message. */
type Failure = pulumi.dynamic.CheckFailure;

/** The keys a `users` entry may have (the row schema's), in the order problems are reported. */
const ROW_KEYS: readonly string[] = Object.keys(userRowSchema(false).shape);

/** The columns of Kasm's user import besides the numbered group columns. */
const CSV_COLUMNS: readonly string[] = BATCH_USER_COLUMNS;

/** A problem of one row: the field (and the entry of `groups`) it is about, and the message; or a key that is no field. */
interface RowProblem {
  readonly field: string;
  readonly group?: number;
  readonly message: string;
  readonly notAField?: true;
}

// --- helpers: one row ----------------------------------------------------------------------------

/** The problems of one row by the row schema ({@link userRowSchema}; see {@link rowIssues}). */
function rowProblems(entry: Readonly<Record<string, unknown>>, schema: ReturnType<typeof userRowSchema>): RowProblem[] {
  return rowIssues(schema, entry).map(({ field, within, message, notAField }) => ({
    field,
    group: typeof within[0] === "number" ? within[0] : undefined,
    message,
    ...(notAField ? { notAField } : {}),
  }));
}

/**
 * A row's problems in the order `check` reports them: a key that is no field first, then the
 * fields in Kasm's column order, a list's entries in their order (zod reports a repeated group
 * after the entries' own problems).
 */
function inReportOrder(problems: readonly RowProblem[]): RowProblem[] {
  const position = (p: RowProblem) => (p.notAField ? -1 : ROW_KEYS.indexOf(p.field) * 1e6 + (p.group ?? -1));
  return [...problems].sort((a, b) => position(a) - position(b));
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
  const schema = userRowSchema(false);
  const seenBefore = firstRowOfUsername();
  users.forEach((entry, i) => {
    const at = rowLabel("array", "users", i);
    if (isUnknown(entry) && typeof entry !== "object") return;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      failures.push({ property: at, reason: `${at} must be an object such as { username: "alice", email: "alice@example.com" }` });
      return;
    }
    const row = entry as Record<string, unknown>;
    const problems = rowProblems(row, schema);
    if (!problems.some((p) => p.field === "username") && typeof row.username === "string" && !isUnknown(row.username)) {
      const first = seenBefore(row.username, at);
      if (first !== undefined)
        problems.push({ field: "username", message: `'${row.username.trim()}' is also ${first} (Kasm lowercases usernames); list each user once` });
    }
    for (const problem of inReportOrder(problems)) {
      const property = `${at}.${problem.field}${problem.group === undefined ? "" : `[${problem.group}]`}`;
      failures.push({ property, reason: rowReason(at, property, problem) });
    }
  });
  return failures;
}

/** The message of a problem of a `users` entry, led by where it is. */
function rowReason(at: string, property: string, problem: RowProblem): string {
  if (problem.notAField)
    return problem.field === "password"
      ? `${property}: a UserSet sets no passwords (Kasm's import has none, and the state would hold them). ` +
          `Give the user a password with the User kind or in the Kasm UI, sign in through an identity provider, or set forcePasswordReset.`
      : `${property}: unknown field${didYouMean(problem.field, ROW_KEYS)}; the fields are ${ROW_KEYS.join(", ")}`;
  // A `groups` that is no list is one problem of the whole field.
  if (problem.field === "groups" && problem.group === undefined) return `${at}.groups ${problem.message}`;
  return `${property}: ${problem.message}`;
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
  const schema = userRowSchema(true);
  const seenBefore = firstRowOfUsername();
  const groupColumns = csv.headers.filter((h) => GROUP_COLUMN.test(h));
  csv.records.forEach((values, i) => {
    const at = rowLabel("csv", "users", i, csv.lines[i]);
    const cell = (column: string) => (values[csv.headers.indexOf(column)] ?? "").trim();
    // The row in the fields of a `users` entry: the declared cells, and the filled group columns.
    const entry: Record<string, unknown> = {};
    if (csv.headers.includes("username")) entry.username = cell("username");
    for (const field of USER_FIELDS) if (csv.headers.includes(snakeCase(field)) && cell(snakeCase(field)) !== "") entry[field] = cell(snakeCase(field));
    const filledGroupColumns = groupColumns.filter((column) => cell(column) !== "");
    if (filledGroupColumns.length > 0) entry.groups = filledGroupColumns.map(cell);
    // Without a username column, the header's problem says so once.
    const problems = rowProblems(entry, schema).filter((p) => p.field !== "username" || csv.headers.includes("username"));
    if (csv.headers.includes("username") && !problems.some((p) => p.field === "username")) {
      const first = seenBefore(cell("username"), at);
      if (first !== undefined)
        problems.push({ field: "username", message: `'${cell("username")}' is also on ${first} (Kasm lowercases usernames); list each user once` });
    }
    for (const problem of inReportOrder(problems)) {
      const column = problem.group === undefined ? snakeCase(problem.field) : filledGroupColumns[problem.group];
      failures.push(`${at}, column ${column}: ${problem.message}`);
    }
  });
  return failures.map((reason) => ({ property: "csv", reason }));
}

// --- check ---------------------------------------------------------------------------------------

/** `check` of a UserSet: the schema, exactly one of `users` and `csv`, then every row. */
export function checkUserSet(news: Props): pulumi.dynamic.CheckResult {
  const { csv, users } = news;
  // The inputs' schema without the rows of a `users` list (a list of none stands for them), so
  // that each row's problems are reported once, named by its row, below.
  const failures: Failure[] = [...(checkInputs(UserSetInputs, Array.isArray(users) ? { ...news, users: [] } : news).failures ?? [])];
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
