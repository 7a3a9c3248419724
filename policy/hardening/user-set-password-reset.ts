/**
 * `user-set-password-reset`: a UserSet makes its local users choose their own password at first
 * login (`forcePasswordReset: true`).
 *
 * Why: users created in bulk start with a password someone else set or handed out; until they
 * change it, whoever knows it can sign in as them. Users of another realm (`ldap`, `oidc`, `saml`)
 * sign in through their directory and are not flagged. The message names the rows by position
 * (`users[2]`, `csv row 3 (line 4)`), never by their values.
 */
import type { BulkRowOf } from "../../permissions/bulk-rows";
import { bulkRowsRule, isUnknownValue, type Tri } from "./common";

/** Whether one row is a local user not forced to reset its password: undefined when a value it needs is not known. */
function keepsGivenPassword(row: BulkRowOf<"UserSet"> | undefined): Tri {
  if (row === undefined || isUnknownValue(row.realm)) return undefined;
  const realm = typeof row.realm === "string" && row.realm.trim() !== "" ? row.realm.trim().toLowerCase() : "local";
  if (realm !== "local") return false;
  if (isUnknownValue(row.forcePasswordReset)) return undefined;
  return row.forcePasswordReset !== true;
}

/** The `user-set-password-reset` policy: the rule above, on each UserSet. */
export const userSetPasswordReset = bulkRowsRule({
  name: "user-set-password-reset",
  kind: "UserSet",
  description: "Local users of a UserSet must set their own password at first login (forcePasswordReset: true).",
  severity: "medium",
  area: "users",
  remediationSteps: "Set forcePasswordReset: true on the local users' rows (force_password_reset in the CSV).",
  flagsRow: keepsGivenPassword,
  violation: (rows, count) =>
    `${rows} ${count === 1 ? "is a local user" : "are local users"} without forcePasswordReset: ` +
    `they keep the password they were given until they change it. Set forcePasswordReset: true.`,
  someNotKnown: "the realm or forcePasswordReset of some rows is not known yet",
});
