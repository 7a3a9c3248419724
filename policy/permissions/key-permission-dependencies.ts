/**
 * `key-permission-dependencies`: the pipeline's API key, as the config describes it, satisfies
 * Kasm's permission dependency rules.
 *
 * Kasm does not let a permission take effect without the permissions it depends on (rules 1-9 of
 * the spec; rule 10 only hides UI elements): a key with Users Modify but without Users View
 * cannot modify users. Rule 7's part about sessions is checked against the config: Users Delete
 * needs Sessions Delete when the config lists users that will have sessions when deleted. The
 * other contextual parts (Users Modify Admin for users with Global Admin, special permission 2;
 * the system groups of special permission 1; Images Modify Resources, special permission 3)
 * depend on which objects a change touches, so resource-needs-permissions checks them resource
 * by resource: a key that never touches an admin needs no Users Modify Admin.
 *
 * Advisory by default: a broken dependency only matters for a call that needs the permission, and
 * resource-needs-permissions (mandatory) reports exactly those.
 */
import { dependencyViolations, DEPENDENCY_RULES, type PermissionName } from "../../permissions";
import { keyPolicy, parseInstallationKeys, parseKeyConfigWithPermissions, readPolicyConfig } from "./config";
import { installationWords, kindOf } from "../shared/kasm";

export const NAME = "key-permission-dependencies";

/** One broken rule: the rule, the permission held, and the one it lacks. */
export interface KeyRuleViolation {
  readonly rule: string;
  readonly permission: PermissionName;
  readonly missing: PermissionName;
  readonly message: string;
}

/** Every rule the described key breaks. */
export function keyRuleViolations(permissions: readonly PermissionName[], config: { usersWithSessions: readonly string[] }): KeyRuleViolation[] {
  const held = new Set(permissions);
  if (held.has("Global Admin")) return [];
  const found: KeyRuleViolation[] = dependencyViolations(held).map((v) => ({
    rule: `rule ${v.rule}`,
    permission: v.permission,
    missing: v.missing,
    message: v.message,
  }));
  if (held.has("Users Delete") && config.usersWithSessions.length > 0 && !held.has("Sessions Delete"))
    found.push({
      rule: "rule 7",
      permission: "Users Delete",
      missing: "Sessions Delete",
      message:
        `'Users Delete' needs 'Sessions Delete' for users with running sessions, and the config lists some in usersWithSessions ` +
        `(rule 7: ${DEPENDENCY_RULES[7]})`,
    });
  return found;
}

/** The `key-permission-dependencies` policy: the rules above, on the key of each installation the config describes. */
export const keyPermissionDependencies = keyPolicy({
  name: NAME,
  description: "The API key's permissions satisfy Kasm's dependency rules (1-10) and the contextual rules the config makes relevant.",
  enforcementLevel: "advisory",
  severity: "medium",
  remediationSteps: "Grant the key each missing permission the message names (or remove the permission that needs it).",
  requiresPermissions: true,
  validateStack: (args, reportViolation) => {
    const raw = args.getConfig<Record<string, unknown>>();
    const keys = readPolicyConfig(NAME, reportViolation, () => parseInstallationKeys(NAME, raw, parseKeyConfigWithPermissions));
    if (keys === undefined) return;
    if (!args.resources.some((r) => kindOf(r))) args.notApplicable("the stack has no Kasm resources");
    // In a fleet (the config describes other installations), the default installation's key is named too.
    const topKey = keys.named.size > 0 ? `The API key of ${installationWords(undefined)}` : "The API key";
    for (const v of keyRuleViolations(keys.top.permissions, keys.top)) reportViolation(`${topKey} breaks ${v.rule}: ${v.message}.`);
    for (const [connection, key] of keys.named)
      for (const v of keyRuleViolations(key.permissions, key)) reportViolation(`The API key of connection '${connection}' breaks ${v.rule}: ${v.message}.`);
  },
});
