/**
 * The policies of the permissions pack, without serving them: `index.ts` serves them as a policy
 * pack, and tests import them from here.
 */
import type { Policies } from "@pulumi/policy";
import { keyPermissionDependencies } from "./key-permission-dependencies";
import { leastPrivilegePolicy } from "./least-privilege";
import { readOnlyKey } from "./read-only-key";
import { resourceNeedsPermissions } from "./resource-needs-permissions";

/** The pack's name, as `pulumi preview --policy-pack` reports it. */
export const PACK_NAME = "kasm-permissions";

/** Every policy of the pack. */
export const policies: Policies = [keyPermissionDependencies, resourceNeedsPermissions, readOnlyKey, leastPrivilegePolicy];

export { keyPermissionDependencies, leastPrivilegePolicy, readOnlyKey, resourceNeedsPermissions };
