/**
 * `user-set-password-reset`: a UserSet makes its local users choose their own password at first
 * login (`forcePasswordReset: true`).
 *
 * Why: users created in bulk start with a password someone else set or handed out; until they
 * change it, whoever knows it can sign in as them. Users of another realm (`ldap`, `oidc`, `saml`)
 * sign in through their directory and are not flagged. The message names the rows by position
 * (`users[2]`, `csv row 3`), never by their values.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { rowLabel, userSetRows } from "../../catalogue/bulk-rows";
import { EXEMPT_PROPERTY, forKind, isUnknownValue, type Tri } from "./common";
import { listWords } from "../shared/kasm";

export const NAME = "user-set-password-reset";

/** Whether one row is a local user not forced to reset its password: undefined when a value it needs is not known. */
function keepsGivenPassword(row: Readonly<Record<string, unknown>> | undefined): Tri {
  if (row === undefined || isUnknownValue(row.realm)) return undefined;
  const realm = typeof row.realm === "string" && row.realm.trim() !== "" ? row.realm.trim().toLowerCase() : "local";
  if (realm !== "local") return false;
  if (isUnknownValue(row.forcePasswordReset)) return undefined;
  return row.forcePasswordReset !== true;
}

export const userSetPasswordReset: ResourceValidationPolicy = {
  name: NAME,
  description: "Local users of a UserSet must set their own password at first login (forcePasswordReset: true).",
  enforcementLevel: "advisory",
  severity: "medium",
  tags: ["kasm", "users", "hardening"],
  remediationSteps: "Set forcePasswordReset: true on the local users' rows (force_password_reset in the CSV).",
  configSchema: { properties: { ...EXEMPT_PROPERTY } },
  validateResource: forKind("UserSet", (props) => {
    const rows = userSetRows(props, isUnknownValue);
    if (!rows) return { undecided: "its rows (csv or users) are not known yet" };
    const verdicts = rows.rows.map(keepsGivenPassword);
    const flagged = verdicts.flatMap((v, i) => (v === true ? [rowLabel(rows.source, "users", i)] : []));
    if (flagged.length > 0)
      return {
        violation:
          `${listWords(flagged)} ${flagged.length === 1 ? "is a local user" : "are local users"} without forcePasswordReset: ` +
          `they keep the password they were given until they change it. Set forcePasswordReset: true.`,
      };
    return verdicts.some((v) => v === undefined) ? { undecided: "the realm or forcePasswordReset of some rows is not known yet" } : null;
  }),
};
