/**
 * Helpers shared by the kinds that hang off one user: `UserAttributes`, `GroupMembership`,
 * `UserGroups` and `UserServerAssignment`. Not a kind itself.
 *
 * What they have in common: ids given in either form (hex or hyphenated) and compared
 * canonically, ids of two parts (`<userId>:<groupId>`), and the user record of `get_user`, whose
 * `groups` and `assigned_servers` lists Kasm only shows to a key with the matching View permission.
 */
import type { AssignedServer, Group, User as KasmUser } from "../api";
import { ALL_USERS_GROUP, closeUnderDependencies } from "../../catalogue";
import { canonicalId } from "./kit";

/** The id of an object that links two others: `<first>:<second>`, both canonical. */
export function pairId(first: unknown, second: unknown): string {
  return `${canonicalId(first)}:${canonicalId(second)}`;
}

/** The name of the group every user belongs to implicitly. */
export const ALL_USERS = ALL_USERS_GROUP;

/**
 * The groups of a user from `get_user`. Kasm leaves the list out when the key lacks Groups View,
 * and then membership cannot be read: say what to grant rather than report the user as in no group.
 */
export function groupsOf(user: KasmUser): readonly Group[] {
  if (user.groups === undefined)
    throw new Error(
      `Kasm did not return the groups of user ${user.user_id}: the API key needs Groups View to read group membership. ` +
        `Grant the API key: Groups View.`,
    );
  return user.groups;
}

/** The id of All Users as it appears among the user's groups; undefined when the user is not in it. */
export function allUsersGroupId(user: KasmUser): string | undefined {
  return groupsOf(user).find((g) => g.name === ALL_USERS)?.group_id;
}

/**
 * The servers assigned to a user from `get_user`. Kasm leaves the list out when the key lacks
 * Servers View (which needs Server Pools View and Zones View).
 */
export function assignedServersOf(user: KasmUser): readonly AssignedServer[] {
  if (user.assigned_servers === undefined)
    throw new Error(
      `Kasm did not return the servers assigned to user ${user.user_id}: the API key needs Servers View to read server ` +
        `assignments. Grant the API key: ${[...closeUnderDependencies(["Servers View"])].join(", ")}.`,
    );
  return user.assigned_servers;
}
