/**
 * `ServerImport`'s import: the rows in one `batch_create_server` request (Kasm validates every
 * row first and creates all of them or none), the new servers' ids by name, and the errors of an
 * import whose outcome is not known in full, or that Kasm refused (naming each problem's row as
 * the program declares it).
 */
import { csvCell } from "../../../catalogue/bulk-rows";
import { KasmBadRequestError, KasmServerError, KasmTransportError, type Server } from "../../api";
import type { KindContext } from "../kit/types";
import { canonicalId, KasmDeclarationRefusedError, KasmOutcomeUnknownError } from "../kit";
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
 * import is never sent twice (Kasm cannot delete a server created twice): a failure that leaves its
 * outcome unknown says so, with what to check before the next up imports the rows again.
 *
 * An import Kasm accepted whose answer lacks some of the new servers is a
 * {@link KasmOutcomeUnknownError} whose `knownIds` holds the ones it named, which the state must
 * keep (Kasm cannot delete servers, so forgetting them would leave them behind for good, and
 * importing their rows again would make a second server of each).
 */
export async function importRows(context: KindContext, rows: readonly Located[]): Promise<Map<string, string>> {
  let result;
  try {
    result = await context.client().servers.batchCreateServer({ csv: importCsv(rows.map((l) => l.row)), view: "api", filename: "servers.csv" });
  } catch (error) {
    if (error instanceof KasmBadRequestError && error.validationErrors?.length) throw refusedImportError(error, rows);
    if (error instanceof KasmServerError || error instanceof KasmTransportError)
      throw new KasmOutcomeUnknownError(
        `ServerImport: the import of ${servers(rows.length)} (${rows.map((l) => `'${l.row.name}'`).join(", ")}) failed and its outcome is not known: ` +
          `${error.message}. Kasm creates all rows of an import or none, but the API cannot list servers, so whether these were created cannot be ` +
          `checked: 0 of ${rows.length} are confirmed, ${rows.length} left, and the state is as before. Look for them in the Kasm admin UI ` +
          `(Infrastructure, Servers): if they are not there, run \`pulumi up\` again to import them; if they are, remove them there first ` +
          `(the API cannot), or the next up makes a second server of each.`,
        new Map(),
        error,
      );
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
    throw new KasmOutcomeUnknownError(
      `ServerImport: Kasm accepted the import but its answer lacks the server(s) ${missing.map((l) => `'${l.row.name}'`).join(", ")}: ` +
        `${ids.size} of ${rows.length} new servers are known and kept in the state, ${missing.length} not. They may exist in Kasm: check ` +
        `Infrastructure, Servers in the Kasm admin UI before running the update again (it imports the rows not in the state).`,
      ids,
    );
  return ids;
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

