/** Operations of the groups area: add a user to a group, remove a user from a group. */
import { callCountingAsDone } from "../recovery";
import { Empty } from "../schemas/common";
import type { GroupMembership } from "../schemas/groups";
import type { KasmApi } from "../transport";

/**
 * Add a user to a group (`add_user_group`; needs Groups Modify, and Groups Modify System for All
 * Users or Administrators).
 *
 * If a retried attempt answers that the user is already a member, an earlier attempt added it: done.
 *
 * @throws {@link KasmBadRequestError} `User (<u>) is already a member of group (<g>)` on a first attempt.
 * @throws {@link KasmNotFoundError} `Invalid User ID (...)` or `Invalid Group ID (...)`.
 */
export async function addUserGroup(api: KasmApi, membership: GroupMembership): Promise<void> {
  await callCountingAsDone(api.transport, "add_user_group", membershipBody(membership), Empty, (error) =>
    /\bis already a member\b/i.test(error.errorMessage ?? ""),
  );
}

/**
 * Remove a user from a group (`remove_user_group`; same permissions).
 *
 * If a retried attempt answers that the user is not a member, an earlier attempt removed it: done.
 */
export async function removeUserGroup(api: KasmApi, membership: GroupMembership): Promise<void> {
  await callCountingAsDone(api.transport, "remove_user_group", membershipBody(membership), Empty, (error) =>
    /\bis not a member\b/i.test(error.errorMessage ?? ""),
  );
}

function membershipBody(membership: GroupMembership) {
  return { target_user: { user_id: membership.user_id }, target_group: { group_id: membership.group_id } };
}
