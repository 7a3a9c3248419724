/**
 * `user-set-administrators`: a UserSet does not put users into Administrators.
 *
 * Why: members of Administrators hold Global Admin over the whole deployment. Granting it in a bulk
 * list, among ordinary accounts, is easy to miss in review; an administrator is better declared on
 * its own (a `User` with a `GroupMembership`), where the grant is visible. The message names the
 * rows by position (`users[2]`, `csv row 3`), never by their values.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { rowLabel, userSetRows } from "../../catalogue/bulk-rows";
import { EXEMPT_PROPERTY, forKind, isUnknownValue, type Tri } from "./common";
import { listWords } from "../shared/kasm";

export const NAME = "user-set-administrators";

/** Kasm's built-in group of Global Admins, as batch imports name it. */
const ADMINISTRATORS = "administrators";

/** Whether one row puts its user into Administrators: undefined when its groups are not known. */
function makesAdministrator(row: Readonly<Record<string, unknown>> | undefined): Tri {
  if (row === undefined || isUnknownValue(row.groups)) return undefined;
  if (!Array.isArray(row.groups)) return false;
  let result: Tri = false;
  for (const group of row.groups) {
    if (isUnknownValue(group)) result = undefined;
    else if (typeof group === "string" && group.trim().toLowerCase() === ADMINISTRATORS) return true;
  }
  return result;
}

export const userSetAdministrators: ResourceValidationPolicy = {
  name: NAME,
  description: "A UserSet does not put users into Administrators (Global Admin); administrators are declared one by one.",
  enforcementLevel: "advisory",
  severity: "high",
  tags: ["kasm", "users", "hardening"],
  remediationSteps: "Remove Administrators from the rows' groups and declare each administrator as a User with a GroupMembership, or exempt the resource.",
  configSchema: { properties: { ...EXEMPT_PROPERTY } },
  validateResource: forKind("UserSet", (props) => {
    const rows = userSetRows(props, isUnknownValue);
    if (!rows) return { undecided: "its rows (csv or users) are not known yet" };
    const verdicts = rows.rows.map(makesAdministrator);
    const flagged = verdicts.flatMap((v, i) => (v === true ? [rowLabel(rows.source, "users", i)] : []));
    if (flagged.length > 0)
      return {
        violation:
          `${listWords(flagged)} put${flagged.length === 1 ? "s its user" : " their users"} into Administrators, which holds Global Admin over the whole deployment. ` +
          `Declare administrators one by one (a User with a GroupMembership).`,
      };
    return verdicts.some((v) => v === undefined) ? { undecided: "the groups of some rows are not known yet" } : null;
  }),
};
