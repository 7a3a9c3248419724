/**
 * What the ServerImport provider (`./index.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import type { LifecycleStep } from "../../../permissions/kinds";
import { serverImportRows } from "../../../permissions/bulk-rows";
import { declareCalls, isUnknownValue, plan, referenceKey } from "../../../permissions/planned-calls";

/**
 * What each step of a ServerImport calls.
 */
export const serverImportCalls = declareCalls("ServerImport", (props, knowledge) => {
  // The users the rows assign (by username): undefined when the rows, or one of these usernames, are not known yet.
  const rows = serverImportRows(props, isUnknownValue);
  const rowsKnown = rows !== undefined && rows.rows.every((r) => r !== undefined);
  const assigned = (rows?.rows ?? []).flatMap((r) =>
    r === undefined || r.assignedUsername === undefined || r.assignedUsername === null || r.assignedUsername === "" ? [] : [r.assignedUsername],
  );
  const assignsUsers = assigned.length > 0 ? true : rowsKnown ? false : undefined;
  const admin = (step: LifecycleStep): boolean | undefined => {
    let result: boolean | undefined = rowsKnown ? false : undefined;
    for (const user of assigned) {
      const answer =
        typeof user === "string" && !isUnknownValue(user) ? knowledge.userIsGlobalAdmin(referenceKey(user), { kind: "ServerImport", step }) : undefined;
      if (answer === true) return true;
      if (answer === undefined) result = undefined;
    }
    return result;
  };
  const explain = {
    assignsUsers: "whether a row assigns a user (the rows are not known yet; a user with Global Admin would also need Users Modify Admin)",
    targetUserIsGlobalAdmin: "whether a user a row assigns (assignedUsername) holds Global Admin; list the users that do, by username, in globalAdminUserIds",
  };
  const importCall = (step: LifecycleStep, condition?: string) =>
    plan(
      "batch_create_server",
      { assignsUsers, targetUserIsGlobalAdmin: assignsUsers === false ? false : admin(step) },
      { explain, ...(condition ? { condition } : {}) },
    );
  // With kasm:apiNames product the servers are listed before the import, so that an import whose answer is lost is found (server-import/import.ts).
  const listing = (condition: string) => plan("get_servers", {}, { condition });
  return {
    create: [listing("with kasm:apiNames product: every server, before the import"), importCall("create")],
    read: [plan("get_servers", {}, { condition: "once per server" })],
    // Kasm cannot update servers: added and changed rows are imported as new servers.
    update: [
      listing("with kasm:apiNames product, when rows are added or changed: every server, before the import"),
      importCall("update", "when rows are added or changed"),
    ],
    // Kasm cannot delete servers: destroy only forgets them.
    delete: [],
  };
});
