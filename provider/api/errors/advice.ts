/**
 * What an error tells its reader to do: the permissions to grant (from the shared permission
 * catalogue, with their dependencies), the seats a license lacks, and the settings of the
 * connection that failed (its own keys: `kasm-prod:apiKey`, `KASM_PROD_API_KEY`). Apart from the
 * classes because the advice is the part that changes with the catalogue and the settings, while
 * a class only says which advice its meaning gets.
 */
import { closeUnderDependencies } from "../../../permissions/dependencies";
import { isOperationName, OPERATIONS, requiredPermissions, type ContextualRequirement, type OperationContext } from "../../../permissions/operations";
import type { PermissionName } from "../../../permissions/names";
import { configKey, DEFAULT_SETTING_NAMES, envVar, howToSet, settingRef, type SettingNames } from "../config";
import type { LicenseLimited } from "./messages";

/** What a refused call needs, for the fields and message of `KasmPermissionError`. */
export interface PermissionAdvice {
  /** Every one of these is needed. */
  all: PermissionName[];
  /** When not empty, one of these is needed as well. */
  oneOf: PermissionName[];
  /** The permissions above with everything they depend on: what to grant the key. */
  toGrant: PermissionName[];
  /** Permissions needed only in some circumstances, with the circumstance. */
  mayAlsoNeed: string[];
  /** All of it in words, for the message. */
  text: string;
}

/** Where a connection's API key and secret are set, for a message. */
export function credentialSettings(names: SettingNames = DEFAULT_SETTING_NAMES): string {
  if (names.provider !== undefined)
    return `\`apiKey\` and \`apiKeySecret\` of provider \`${names.provider}\` (or ${envVar(names, "apiKey")} and ${envVar(names, "apiKeySecret")} where the provider leaves them out)`;
  return `${settingRef(names, "apiKey", true)} and ${settingRef(names, "apiKeySecret", true)}, or ${envVar(names, "apiKey")} and ${envVar(names, "apiKeySecret")}`;
}

/** Which seats are used up and what to do, in plain words; no permission advice (the key is not at fault). */
export function licenseAdvice(limited: LicenseLimited | undefined): string {
  const notTheKey = "This is not about the API key's permissions.";
  if (limited === "user")
    return (
      "The license's named-user seats are all used (a Per Named User license counts every user). Activate more seats " +
      "(a LicenseActivation, or Diagnostics > System Info > Licenses in the Kasm UI) or delete users that are no longer " +
      `needed, then try again. ${notTheKey}`
    );
  if (limited === "feature")
    return (
      "The installation's license does not include the feature this operation uses (Kasm's Community Edition lacks " +
      "several, such as session staging and casting). Activate a license that includes it (a LicenseActivation, or " +
      `Diagnostics > System Info > Licenses in the Kasm UI), or leave the feature out of the program. ${notTheKey}`
    );
  if (limited === "session")
    return (
      "The license's concurrent sessions are all in use (5 on the Community Edition, without a license; otherwise the " +
      "seats of the Per Concurrent Session licenses). End sessions that are no longer needed or activate more seats, " +
      `then try again. ${notTheKey}`
    );
  return `The license's seats are used up. Activate more seats or free some, then try again. ${notTheKey}`;
}

/** How to switch the wire vocabulary of the connection `names` describes, for messages. */
export function switchAdvice(to: "spec" | "product", names: SettingNames = DEFAULT_SETTING_NAMES): string {
  if (names.provider !== undefined) return `Set ${howToSet(names, "apiNames", to)}`;
  return (
    `Set ${configKey(names, "apiNames")} to "${to}" (\`pulumi config set ${configKey(names, "apiNames")} ${to}\`, ` +
    `or ${envVar(names, "apiNames")}=${to} for the client and lookups)`
  );
}

/** What to tell a user whose call was refused with 403, from the shared permission catalogue. */
export function permissionAdvice(operation: string, context: OperationContext): PermissionAdvice {
  if (!isOperationName(operation)) return { all: [], oneOf: [], toGrant: [], mayAlsoNeed: [], text: "The API key lacks a permission this operation needs." };
  const spec = OPERATIONS[operation];
  const requirement = requiredPermissions(operation, context);
  const all = [...requirement.all];
  const oneOf = [...requirement.oneOf];
  // With a choice, suggest the first alternative in the list of what to grant.
  const toGrant = [...closeUnderDependencies([...all, ...oneOf.slice(0, 1)])];
  const applied = new Set<PermissionName>(all);
  const mayAlsoNeed = (spec.contextual ?? [])
    .filter((rule: ContextualRequirement) => rule.add.some((p) => !applied.has(p)))
    .map((rule: ContextualRequirement) => `${rule.add.join(", ")} when ${rule.reason}`);

  const parts = [`The API key needs all of: ${toGrant.join(", ")}`];
  if (oneOf.length > 1) parts[0] += ` (any one of ${oneOf.join(" or ")} will do, with its dependencies)`;
  parts[0] += "; grant those it lacks";
  const dependencies = toGrant.filter((p) => !all.includes(p) && !oneOf.includes(p));
  if (dependencies.length > 0) parts.push(`${dependencies.join(", ")} ${dependencies.length === 1 ? "is" : "are"} needed by the permission dependency rules`);
  if (mayAlsoNeed.length > 0) parts.push(`It may also need ${mayAlsoNeed.join("; ")}`);
  if (spec.access === "write") parts.push("A key with the Read Only setting is refused every write operation whatever its permissions");
  return { all, oneOf, toGrant, mayAlsoNeed, text: `${parts.join(". ")}.` };
}
