/**
 * `UserSet`'s import: new users in one `batch_create_user` request (Kasm validates every row first
 * and creates all of them or none), the ids of the created users, and the errors that name rows as
 * the program wrote them.
 */
import { KasmBadRequestError, KasmServerError, KasmTransportError, type User as KasmUser } from "../../api";
import { kasmClient } from "../../runtime";
import { camelCase } from "../kit";
import { GROUP_COLUMN, type Row } from "./fields";
import { batchRow, names } from "./rows";

// --- types ---------------------------------------------------------------------------------------

/** What {@link importRows} did: the created users by username, and an error once users were created. */
export interface Imported {
  readonly created: Map<string, KasmUser>;
  /** Set when the import succeeded but a later lookup of ids failed: the created users must not be forgotten. */
  readonly error?: unknown;
}

// --- errors --------------------------------------------------------------------------------------

/** The error for rows whose username exists in Kasm when `adopt` is not set. */
export function existingUsersError(rows: readonly Row[]): Error {
  return new Error(
    `UserSet: ${rows.length === 1 ? "user" : `${rows.length} users`} ${names(rows)} already exist${rows.length === 1 ? "s" : ""} in Kasm ` +
      `(${rows.map((r) => r.label).slice(0, 5).join(", ")}${rows.length > 5 ? ", ..." : ""}). Nothing was created. Set \`adopt: true\` ` +
      `to take them over and bring them to the declared fields and groups, or leave them out of the set.`,
  );
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

// --- the import ----------------------------------------------------------------------------------

/**
 * Import `rows` in one request. Throws only when nothing was created: a refused import names
 * every problem with the row it is on, as the program wrote it.
 */
export async function importRows(rows: readonly Row[]): Promise<Imported> {
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
