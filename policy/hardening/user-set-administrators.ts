/**
 * `user-set-administrators`: a UserSet does not put users into Administrators.
 *
 * Why: members of Administrators hold Global Admin over the whole deployment. Granting it in a bulk
 * list, among ordinary accounts, is easy to miss in review; an administrator is better declared on
 * its own (a `User` with a `GroupMembership`), where the grant is visible. The message names the
 * rows by position (`users[2]`, `csv row 3 (line 4)`), never by their values.
 */
import type { BulkRowOf } from "../../permissions/bulk-rows";
import { bulkRowsRule, isUnknownValue, type Tri } from "./common";

/** Kasm's built-in group of Global Admins, as batch imports name it. */
const ADMINISTRATORS = "administrators";

/** Whether one row puts its user into Administrators: undefined when its groups are not known. */
function makesAdministrator(row: BulkRowOf<"UserSet"> | undefined): Tri {
  if (row === undefined || isUnknownValue(row.groups)) return undefined;
  if (!Array.isArray(row.groups)) return false;
  let result: Tri = false;
  for (const group of row.groups) {
    if (isUnknownValue(group)) result = undefined;
    else if (typeof group === "string" && group.trim().toLowerCase() === ADMINISTRATORS) return true;
  }
  return result;
}

/** The `user-set-administrators` policy: the rule above, on each UserSet. */
export const userSetAdministrators = bulkRowsRule({
  name: "user-set-administrators",
  kind: "UserSet",
  description: "A UserSet does not put users into Administrators (Global Admin); administrators are declared one by one.",
  severity: "high",
  area: "users",
  remediationSteps: "Remove Administrators from the rows' groups and declare each administrator as a User with a GroupMembership, or exempt the resource.",
  flagsRow: makesAdministrator,
  violation: (rows, count) =>
    `${rows} put${count === 1 ? "s its user" : " their users"} into Administrators, which holds Global Admin over the whole deployment. ` +
    `Declare administrators one by one (a User with a GroupMembership).`,
  someNotKnown: "the groups of some rows are not known yet",
});
