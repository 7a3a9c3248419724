/**
 * `GroupMembership`: one user in one Kasm group. Additive: it manages this one membership and
 * leaves the user's other groups alone.
 *
 * API: add_user_group, remove_user_group, and get_user (whose `groups` list needs Groups View) to
 * read. The id is `<userId>:<groupId>` (canonical ids). Both inputs replace: a membership cannot
 * be moved. A membership that exists already is recorded as it is, without a write (the user is
 * read first), whoever made it: an add of an earlier `up` whose answer was lost, or the Kasm UI;
 * `adopt` has no effect. Two resources declaring one membership (two GroupMemberships, or one
 * beside a UserGroups of the user) are refused by the hardening pack's conflicting-declarations
 * policy, before anything is applied. Refresh drops
 * the resource when the user is gone or no longer in the group; destroying a membership that is
 * already gone succeeds. Adding to or removing from All Users or Administrators needs Groups
 * Modify System.
 *
 * Do not declare a GroupMembership for a user whose groups a `UserGroups` manages: UserGroups is
 * authoritative and would remove the membership on its next update, and each would keep undoing
 * the other.
 */
import { z } from "zod";
import { canonicalId } from "../../permissions/planned-calls";
import { defineUserLink, groupsOf, isAlreadyMember, isNotMember, userLinkFields, type UserLinkDocs } from "./user-links";
import { groupMembershipCalls } from "./group-membership.calls";

// --- types ---------------------------------------------------------------------------------------

/** Each input of a GroupMembership, declared once (see {@link userLinkFields}): the user, the group, and `adopt`. */
const GROUP_MEMBERSHIP_FIELDS = userLinkFields({ otherField: "groupId", otherKind: "Group", nouns: { aLink: "a membership", other: "group" } });

/** The inputs of a GroupMembership. */
export const GroupMembershipInputs = GROUP_MEMBERSHIP_FIELDS.schema;
export type GroupMembershipInputs = z.infer<typeof GroupMembershipInputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the GroupMembership kind, besides what every link says (see {@link defineUserLink}). */
const DOCS: UserLinkDocs = {
  description:
    "One user in one Kasm group. Additive: the user's other groups are left alone. Destroying it " +
    "removes the user from the group. Adding to or removing from All Users or Administrators needs " +
    "the API key to hold Groups Modify System.\n\nDo not use it for a user whose groups a UserGroups " +
    "manages: UserGroups is authoritative and the two would undo each other's changes on every " +
    "update.",
  example: ['new kasm.GroupMembership("alice-engineering", { userId: alice.userId, groupId: engineeringGroupId });'].join("\n"),
  notImported: "a user's memberships are declared with the user (UserSet rows, or UserGroups with --users each)",
  limits: "additive; do not mix with `UserGroups` for one user",
};

// --- provider ------------------------------------------------------------------------------------

/** The provider of GroupMembership: a link between a user and a group (see {@link defineUserLink}). */
export const groupMembershipProvider = defineUserLink({
  kind: "GroupMembership",
  fields: GROUP_MEMBERSHIP_FIELDS,
  docs: DOCS,
  otherField: "groupId",
  userList: "groups",
  calls: groupMembershipCalls,
  linkedIds: (user) => groupsOf(user).map((group) => group.group_id),

  async add(client, user_id, group_id) {
    await client.groups.addUserGroup({ user_id, group_id });
  },

  // Kasm refuses a second add ("already a member"), and answers for an unknown user or group.
  isAlreadyLinked: isAlreadyMember,

  async unlink(client, userId, groupId) {
    await client.groups.removeUserGroup({ user_id: canonicalId(userId), group_id: canonicalId(groupId) });
  },

  // Not a member any more (the user or group being gone is Kasm's not-found, which the link handles too).
  isUnlinked: isNotMember,
});
