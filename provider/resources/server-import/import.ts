/**
 * `ServerImport`'s import: the rows in one `batch_create_server` request (Kasm validates every
 * row first and creates all of them or none), the new servers' ids by name, what an import whose
 * answer was lost committed (found by listing the servers, where the installation can), and the
 * errors of an import whose outcome is not known in full, or that Kasm refused (naming each
 * problem's row as the program declares it).
 */
import { csvCell } from "../../../permissions/bulk-rows";
import { KasmBadRequestError } from "../../api/errors/answers";
import type { Server } from "../../api/schemas/servers";
import { isTransient, mayHaveCommitted, waitBeforeLookingUp } from "../../api/retry";
import type { KindContext } from "../framework/types";
import { canonicalId } from "../../../permissions/planned-calls";
import { KasmDeclarationRefusedError, KasmOutcomeUnknownError } from "../framework/errors";
import { FIELD_NAMES, FIELDS, type Field, type Located, type ServerRow } from "./rows";

// --- the CSV -------------------------------------------------------------------------------------

/** The CSV for `batch_create_server`: name and ip_hostname, then every other column some row uses, in Kasm's order. */
export function importCsv(rows: readonly ServerRow[]): string {
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

// --- the import ----------------------------------------------------------------------------------

/** `3 servers`, `1 server`. */
function servers(count: number): string {
  return `${count} server${count === 1 ? "" : "s"}`;
}

/**
 * Import the rows in one request: Kasm creates all of them or none. Answers name -> new server id.
 * A refused import is an error listing every problem Kasm found, each with its row and code. The
 * import is never sent blindly a second time (Kasm cannot delete a server created twice).
 *
 * A failure that leaves the outcome unknown (a server error, a 429, a broken connection, a
 * timeout: a proxy may answer any of them after Kasm committed) is followed by the look-up that
 * finds what committed, when the installation can list its servers (a released Kasm, `kasm:apiNames
 * product`): the servers are listed before the import, and after the failure (and the wait the
 * retry settings give, or the answer's `Retry-After`) the servers that were not there before and
 * carry the rows' names are the import's. Found: they are the import's answer. Not found: nothing
 * was created, and the import is sent again after a transient failure, up to the client's retries.
 * The API documentation's `get_servers` reads one server by id and cannot list them: there such a
 * failure says so, with what to check before the next up imports the rows again.
 *
 * An import Kasm accepted whose answer lacks some of the new servers is a
 * {@link KasmOutcomeUnknownError} whose `knownIds` holds the ones it named, which the state must
 * keep (Kasm cannot delete servers, so forgetting them would leave them behind for good, and
 * importing their rows again would make a second server of each).
 */
export async function importRows(context: KindContext, rows: readonly Located[]): Promise<Map<string, string>> {
  const client = context.client();
  const policy = client.transport.policy;
  // What was there before, to tell the import's servers from others of the same name.
  const before = context.apiNames() === "product" ? new Set((await client.servers.listServers()).map((s) => canonicalId(s.server_id))) : undefined;
  let uncertain = false;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const result = await client.servers.batchCreateServer({ csv: importCsv(rows.map((l) => l.row)), view: "api", filename: "servers.csv" });
      return idsOf(rows, result.resources?.servers ?? []);
    } catch (error) {
      const refused = error instanceof KasmBadRequestError && error.validationErrors?.length ? error : undefined;
      // Refused the first time: nothing was created. Refused after an unknown outcome: the listing says whether an earlier attempt did it.
      if (refused && !uncertain) throw refusedImportError(refused, rows);
      if (!refused && !mayHaveCommitted(error)) throw error;
      if (before === undefined) throw notListable(rows, error as Error);
      uncertain = true;
      if (mayHaveCommitted(error)) await waitBeforeLookingUp(client.transport, "batch_create_server", error, attempt, "the imported servers");
      let now: readonly Server[];
      try {
        now = await client.servers.listServers();
      } catch (listing) {
        throw notReadBack(rows, error as Error, listing);
      }
      const found = newServersNamed(
        rows,
        now.filter((s) => !before.has(canonicalId(s.server_id))),
      );
      if (found.size === rows.length) {
        client.transport.log("info", `batch_create_server: the servers of an attempt whose answer was lost were found by name (${found.size})`);
        return found;
      }
      // Kasm imports all rows or none: some, and not all, means servers of these names were made beside the import.
      if (found.size > 0) throw partlyFound(rows, found, error as Error);
      if (refused) throw refusedImportError(refused, rows);
      // Nothing was created: sent again only after a failure worth another attempt, as often as the retry settings allow.
      if (attempt > policy.maxRetries || !isTransient(client.transport, error)) throw error;
    }
  }
}

/** The ids an accepted import answered, by row name; an error keeping the known ones when the answer lacks some. */
function idsOf(rows: readonly Located[], created: readonly Server[]): Map<string, string> {
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
    throw new KasmOutcomeUnknownError(
      `ServerImport: Kasm accepted the import but its answer lacks the server(s) ${missing.map((l) => `'${l.row.name}'`).join(", ")}: ` +
        `${ids.size} of ${rows.length} new servers are known and kept in the state, ${missing.length} not. They may exist in Kasm: check ` +
        `Infrastructure, Servers in the Kasm admin UI before running the update again (it imports the rows not in the state).`,
      ids,
    );
  return ids;
}

/** Among servers that were not there before the import, one of each row's name, by row name. */
function newServersNamed(rows: readonly Located[], fresh: readonly Server[]): Map<string, string> {
  const ids = new Map<string, string>();
  const unused = [...fresh];
  for (const { row } of rows) {
    const at = unused.findIndex((s) => typeof s.friendly_name === "string" && s.friendly_name.trim() === row.name);
    if (at >= 0) ids.set(row.name, canonicalId(unused.splice(at, 1)[0].server_id));
  }
  return ids;
}

/** `'ws-01', 'ws-02'`. */
function named(rows: readonly Located[]): string {
  return rows.map((l) => `'${l.row.name}'`).join(", ");
}

/** What to check before the next up, when whether the import committed is not known. */
const CHECK_FIRST =
  "Look for them in the Kasm admin UI (Infrastructure, Servers): if they are not there, run `pulumi up` again to import them; if they are, " +
  "remove them there first (the API cannot), or the next up makes a second server of each.";

/** The error of an import whose outcome is unknown where the installation cannot list its servers (`kasm:apiNames spec`). */
function notListable(rows: readonly Located[], error: Error): KasmOutcomeUnknownError {
  return new KasmOutcomeUnknownError(
    `ServerImport: the import of ${servers(rows.length)} (${named(rows)}) failed and its outcome is not known: ${error.message}. Kasm creates ` +
      `all rows of an import or none, but the API documentation's get_servers reads one server by id and cannot list them (a released Kasm, ` +
      `kasm:apiNames product, can: the provider then looks them up itself), so whether these were created cannot be checked: 0 of ` +
      `${rows.length} are confirmed, ${rows.length} left, and the state is as before. ${CHECK_FIRST}`,
    new Map(),
    error,
  );
}

/** The error of an import whose outcome is unknown and whose servers could not be listed afterwards. */
function notReadBack(rows: readonly Located[], error: Error, listing: unknown): KasmOutcomeUnknownError {
  const why = listing instanceof Error ? listing.message : String(listing);
  return new KasmOutcomeUnknownError(
    `ServerImport: the import of ${servers(rows.length)} (${named(rows)}) failed and its outcome is not known: ${error.message}. Listing the ` +
      `servers to find out failed too (${why}): 0 of ${rows.length} are confirmed, and the state is as before. ${CHECK_FIRST}`,
    new Map(),
    error,
  );
}

/** The error of an import after which servers of some of the rows' names, not all, are new in Kasm. */
function partlyFound(rows: readonly Located[], found: ReadonlyMap<string, string>, error: Error): KasmOutcomeUnknownError {
  const missing = rows.filter((l) => !found.has(l.row.name));
  return new KasmOutcomeUnknownError(
    `ServerImport: the import of ${servers(rows.length)} failed (${error.message}), and afterwards Kasm has new servers named as ${found.size} of the ` +
      `rows but none named ${named(missing)}; Kasm imports all rows or none, so these may have been made outside this import. Nothing is ` +
      `recorded and nothing is imported again. ${CHECK_FIRST}`,
    new Map(),
    error,
  );
}

/** The error for an import Kasm refused: every problem, with the row it is about as the program declares it. */
function refusedImportError(error: KasmBadRequestError, rows: readonly Located[]): KasmDeclarationRefusedError {
  const problems = (error.validationErrors ?? []).map((problem) => {
    const m = /^row (\d+)(?:, ([^:]+))?: (.*)$/s.exec(problem);
    if (!m) return problem;
    const located = rows[Number(m[1]) - 1];
    return `${located ? located.where : `row ${m[1]}`}${m[2] ? `, column ${m[2]}` : ""}: ${m[3]}`;
  });
  return new KasmDeclarationRefusedError(
    `ServerImport: Kasm refused the import (HTTP ${error.status} '${error.errorMessage ?? ""}'), so no server was created. ` +
      `${problems.length} problem(s):\n  - ${problems.join("\n  - ")}`,
    problems,
    error,
  );
}
