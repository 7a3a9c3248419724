/**
 * `UserSet`'s import: new users in one `batch_create_user` request (Kasm validates every row first
 * and creates all of them or none), the ids of the created users, and the errors that name rows as
 * the program wrote them.
 */
import { KasmBadRequestError } from "../../api/errors/answers";
import type { User as KasmUser } from "../../api/schemas/users";
import { isTransient, mayHaveCommitted, waitBeforeLookingUp } from "../../api/retry";
import type { KindContext } from "../framework/types";
import { camelCase } from "../framework/fields";
import { KasmDeclarationRefusedError, KasmNotAdoptedError, KasmOutcomeUnknownError } from "../framework/errors";
import { GROUP_COLUMN, type Row } from "./fields";
import { batchRow, names } from "./rows";

// --- types ---------------------------------------------------------------------------------------

/** What {@link importRows} did: the created users by username, and an error once users were created. */
export interface Imported {
  readonly created: Map<string, KasmUser>;
  /** Set when some users were created (or may have been) but not all: the created users must not be forgotten. */
  readonly error?: unknown;
  /**
   * Rows whose import may or may not have been applied: Kasm's answer was lost and the users
   * could not be read back. They are kept in the state as unconfirmed (see `outputs`), and the
   * next run looks them up by username before it imports anything.
   */
  readonly unconfirmed: readonly Row[];
}

// --- errors --------------------------------------------------------------------------------------

/** The error for rows whose username exists in Kasm when `adopt` is not set. */
export function existingUsersError(rows: readonly Row[]): KasmNotAdoptedError {
  return new KasmNotAdoptedError(
    `UserSet: ${rows.length === 1 ? "user" : `${rows.length} users`} ${names(rows)} already exist${rows.length === 1 ? "s" : ""} in Kasm ` +
      `(${rows
        .map((r) => r.label)
        .slice(0, 5)
        .join(", ")}${rows.length > 5 ? ", ..." : ""}). Nothing was created. Set \`adopt: true\` ` +
      `to take them over and bring them to the declared fields and groups, or leave them out of the set.`,
  );
}

/** Kasm's `row 2, group_1: CSV_ERROR_011 ...` in the program's terms: `users[4] ('carol').groups[0]: ...`. */
function refusedImportError(rows: readonly Row[], problems: readonly string[], cause: unknown): KasmDeclarationRefusedError {
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
  return new KasmDeclarationRefusedError(
    `UserSet: Kasm refused the import (Failed to import CSV file data) and created no user. ` +
      `Fix ${lines.length === 1 ? "this problem" : `these ${lines.length} problems`} and run again:\n  ${lines.join("\n  ")}`,
    lines,
    cause,
  );
}

// --- the import ----------------------------------------------------------------------------------

/**
 * Import `rows` in one request. Throws only when nothing was created: a refused import names
 * every problem with the row it is on, as the program wrote it.
 *
 * A failure that leaves the outcome unknown (a server error, a 429, a broken connection, a
 * timeout: a proxy may answer any of them after Kasm committed) is never answered by sending the
 * same import blindly: after the wait the retry settings give (or the answer's `Retry-After`), the
 * users pages say which rows exist now (Kasm imports all rows or none, and none of them existed
 * before), and only the rows Kasm does not have are imported again, after a transient failure and
 * up to the client's retries. When the pages cannot be read either, the rows are answered as
 * unconfirmed.
 */
export async function importRows(context: KindContext, rows: readonly Row[]): Promise<Imported> {
  const created = new Map<string, KasmUser>();
  if (rows.length === 0) return { created, unconfirmed: [] };
  const client = context.client();
  const policy = client.transport.policy;
  /** The end of an import that did not create every row: an error when it created none. */
  const stop = (error: unknown): Imported => {
    if (created.size === 0) throw error;
    return { created, error, unconfirmed: [] };
  };
  let left: readonly Row[] = rows;
  let uncertain = false;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await client.users.importUsers(left.map(batchRow), { view: "api" });
      for (const user of answer.resources?.users ?? []) created.set(user.username.toLowerCase(), user);
      break;
    } catch (error) {
      const refused = error instanceof KasmBadRequestError && error.validationErrors?.length ? error.validationErrors : undefined;
      // Refused the first time: nothing was created. Refused after an unknown outcome: the pages say whether an earlier attempt did it.
      if (refused && !uncertain) throw refusedImportError(left, refused, error);
      if (!refused && !mayHaveCommitted(error)) return stop(error);
      uncertain = true;
      if (mayHaveCommitted(error)) await waitBeforeLookingUp(client.transport, "batch_create_user", error, attempt, "the imported users");
      const found = await importedAnyway(context, left).catch(() => undefined);
      if (found === undefined) return { created, error, unconfirmed: left };
      for (const [key, user] of found) created.set(key, user);
      left = left.filter((row) => !created.has(row.key));
      if (left.length === 0) return { created, unconfirmed: [] };
      if (refused) return stop(refusedImportError(left, refused, error));
      // Imported again only after a failure worth another attempt, and as often as the retry settings allow.
      if (attempt > policy.maxRetries || !isTransient(client.transport, error)) return stop(error);
    }
  }
  // The import answers with the created users; should a release leave some out, the pages have them.
  const missing = rows.filter((row) => !created.has(row.key));
  if (missing.length === 0) return { created, unconfirmed: [] };
  try {
    const { users } = await client.users.getUsersNamed(missing.map((r) => r.key));
    const wanted = new Set(missing.map((r) => r.key));
    for (const user of users) if (wanted.has(user.username.toLowerCase())) created.set(user.username.toLowerCase(), user);
  } catch (error) {
    return { created, error, unconfirmed: missing };
  }
  const unseen = missing.filter((row) => !created.has(row.key));
  if (unseen.length === 0) return { created, unconfirmed: [] };
  return {
    created,
    unconfirmed: [],
    error: new KasmOutcomeUnknownError(
      `UserSet: Kasm imported the users but did not show ${names(unseen)} afterwards; they are not in the set. ` +
        `Run the update again with \`adopt: true\` to take them over if they exist.`,
    ),
  };
}

/** The users of `rows` that exist now (they did not before the import), by username. */
async function importedAnyway(context: KindContext, rows: readonly Row[]): Promise<Map<string, KasmUser>> {
  const { users } = await context.client().users.getUsersNamed(rows.map((r) => r.key));
  const wanted = new Set(rows.map((r) => r.key));
  return new Map(users.filter((u) => wanted.has(u.username.toLowerCase())).map((u) => [u.username.toLowerCase(), u]));
}

// --- messages of a run that stopped short --------------------------------------------------------

/** The failure line of an import that did not create every row (`unconfirmed` of them may have been). */
export function importFailure(error: unknown, notCreated: number, unconfirmed: number): string {
  const message = error instanceof Error ? error.message : String(error);
  if (unconfirmed > 0)
    return `the import of ${unconfirmed} user${unconfirmed === 1 ? "" : "s"}: ${message} (Kasm's answer was lost and the users could not be read back)`;
  return `the import of ${notCreated} user${notCreated === 1 ? "" : "s"}: ${message}`;
}

/** What the message says about rows whose import is unconfirmed. */
export function unconfirmedNotes(count: number): string[] {
  if (count === 0) return [];
  return [
    `Whether Kasm created ${count} of the new users is not known: the next run looks them up by username first, ` +
      `keeps the ones Kasm has and imports only the others.`,
  ];
}
