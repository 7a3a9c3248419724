/**
 * The registry of the permissions pack (see `policy/shared/registry.ts`): every policy once, with
 * the README's words for it. `index.ts` serves {@link policies} as the pack; tests import it from
 * here.
 */
import type { Policies } from "@pulumi/policy";
import { markdownRow, registered, settingsBeyond, type KasmPolicy, type PolicyEntry, type ReadmeTable } from "../shared/registry";
import { KEY_POLICY_PROPERTIES } from "./config";
import { keyPermissionDependencies } from "./key-permission-dependencies";
import { leastPrivilegePolicy } from "./least-privilege";
import { readOnlyKey } from "./read-only-key";
import { resourceNeedsPermissions } from "./resource-needs-permissions";

/** The pack's name, as `pulumi preview --policy-pack` reports it. */
export const PACK_NAME = "kasm-permissions";

/** The pack's description, as `pulumi preview` shows it. */
export const PACK_DESCRIPTION = "Checks that the pipeline's Kasm API key holds every permission the stack's Kasm resources need, with Kasm's dependency rules.";

/** The config every policy of the pack takes (the key, see `keyPolicy`), which the README states once for all. */
const COMMON_SETTINGS = new Set(Object.keys(KEY_POLICY_PROPERTIES ?? {}));

/** A policy's own config properties, beyond the key's (`` `lookups` ``). */
export function ownSettings(policy: KasmPolicy): string[] {
  return settingsBeyond(policy, COMMON_SETTINGS);
}

/**
 * A policy's entry. Its last column is "the key", which every policy takes, then the policy's own
 * config properties, read from the policy so that a renamed property cannot leave the README behind.
 */
function registeredKeyPolicy(policy: KasmPolicy, summary: string): PolicyEntry {
  return registered(policy, summary, ["the key", ...ownSettings(policy).map((name) => `\`${name}\``)].join("; "));
}

/** Every policy of the pack, in the order it serves them: what each checks, and its own config. */
export const REGISTRY: readonly PolicyEntry[] = [
  registeredKeyPolicy(
    keyPermissionDependencies,
    "The key's permissions satisfy dependency rules 1-9 (rule 10 only hides UI), and rule 7's sessions part when `usersWithSessions` is given. Each violation names the rule and the missing permission.",
  ),
  registeredKeyPolicy(
    resourceNeedsPermissions,
    "Every Kasm resource can be created, read, updated and deleted with the key. Each violation is reported on its resource and names the operation, the missing permissions and what to grant (closed under the dependency rules). A stack policy because one resource's needs depend on others (a `GroupMembership` or `UserGroups` into Administrators makes its user a Global Admin, so later changes to that user need Users Modify Admin).",
  ),
  registeredKeyPolicy(
    readOnlyKey,
    "A Read Only key cannot apply a resource whose provider writes. One violation per resource; `resource-needs-permissions` judges the permissions alone and leaves this cause to it, so a Read Only key that also lacks permissions gets one violation from each, each naming its own fix.",
  ),
  registeredKeyPolicy(
    leastPrivilegePolicy,
    "The smallest permission set the stack needs, closed under the dependency rules, and what the key holds beyond it (or lacks). Without `permissions`, it says what to grant a new key. Never calls a permission a lookup needs unneeded, unless `lookups` says the program does not call that lookup.",
  ),
];

/** Every policy of the pack, as `new PolicyPack` takes them. */
export const policies: Policies = REGISTRY.map((entry) => entry.policy);

/** The pack's table in policy/README.md. */
export const README_TABLE: ReadmeTable = {
  header: "| Policy | Kind | Default | What it checks | Its own config |",
  row: (entry) => markdownRow([`\`${entry.name}\``, entry.scope, entry.level, entry.summary, entry.settings]),
};
