/**
 * `server-import-shared-credentials`: an SSH server of a ServerImport either lets each user connect
 * with their own SSH key (`useUserPrivateKey: true`) or uses single sign-on
 * (`connectionCredentialType: SSO`), rather than STATIC credentials, Kasm's default.
 *
 * Why: with STATIC credentials and no user key, every user the server is given to logs in with the
 * same stored account, so the server's own logs cannot tell them apart and one leaked credential
 * opens the server to everyone. The message names the rows by position (`servers[2]`,
 * `csv row 3 (line 4)`), never by their values.
 */
import type { BulkRowOf } from "../../permissions/bulk-rows";
import { bulkRowsRule, isUnknownValue, type Tri } from "./common";

/** Whether one row is an SSH server with shared STATIC credentials: undefined when a value it needs is not known. */
function sharesCredentials(row: BulkRowOf<"ServerImport"> | undefined): Tri {
  if (row === undefined) return undefined;
  const { connectionType, connectionCredentialType, useUserPrivateKey } = row;
  if ([connectionType, connectionCredentialType, useUserPrivateKey].some(isUnknownValue)) return undefined;
  if (typeof connectionType !== "string" || connectionType.trim().toUpperCase() !== "SSH") return false;
  const credentials =
    typeof connectionCredentialType === "string" && connectionCredentialType.trim() !== "" ? connectionCredentialType.trim().toUpperCase() : "STATIC";
  return credentials === "STATIC" && useUserPrivateKey !== true;
}

/** The `server-import-shared-credentials` policy: the rule above, on each ServerImport. */
export const serverImportSharedCredentials = bulkRowsRule({
  name: "server-import-shared-credentials",
  kind: "ServerImport",
  description: "An SSH server imported with ServerImport uses each user's own SSH key or single sign-on, not one STATIC account shared by every user.",
  severity: "medium",
  area: "servers",
  remediationSteps: "Set useUserPrivateKey: true on the row (each user connects with the SSH key of their user attributes), or connectionCredentialType: SSO.",
  flagsRow: sharesCredentials,
  violation: (rows, count) =>
    `${rows} ${count === 1 ? "is an SSH server" : "are SSH servers"} with STATIC credentials (Kasm's default) and without useUserPrivateKey: ` +
    `every user connects as the same stored account. Set useUserPrivateKey: true, or connectionCredentialType: SSO.`,
  someNotKnown: "the connection settings of some rows are not known yet",
});
