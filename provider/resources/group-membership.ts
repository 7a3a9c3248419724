/**
 * `GroupMembership`: one user in one Kasm group. Additive: it manages this one membership and
 * leaves the user's other groups alone.
 *
 * API: add_user_group, remove_user_group, and get_user (whose `groups` list needs Groups View) to
 * read. The id is `<userId>:<groupId>` (canonical ids). Both inputs replace: a membership cannot
 * be moved. An existing membership is an error unless `adopt: true` takes it over; the error says
 * first to keep one resource when another declares it (a second GroupMembership, or a UserGroups
 * of the user, whose create made it), since adopting would leave both fighting. Refresh drops
 * the resource when the user is gone or no longer in the group; destroying a membership that is
 * already gone succeeds. Adding to or removing from All Users or Administrators needs Groups
 * Modify System.
 *
 * Do not declare a GroupMembership for a user whose groups a `UserGroups` manages: UserGroups is
 * authoritative and would remove the membership on its next update, and each would keep undoing
 * the other.
 */
import { z } from "zod";
import { KasmBadRequestError } from "../api";
import { kasmClient } from "../runtime";
import {
  alreadyExistsError,
  canonicalId,
  checkInputs,
  declared,
  diffInputs,
  GONE,
  isNotFound,
  KasmId,
  keepSpelling,
  same,
  type FieldRule,
  type KindProvider,
  type Props,
} from "./kit";
import { groupsOf, pairId } from "./user-links";

// --- types ---------------------------------------------------------------------------------------

/** The inputs of a GroupMembership. */
export const GroupMembershipInputs = z.strictObject({
  userId: KasmId,
  groupId: KasmId,
  /** Take over an existing membership instead of failing. */
  adopt: z.boolean().optional(),
});
export type GroupMembershipInputs = z.infer<typeof GroupMembershipInputs>;

/** The membership's key: both parts replace, as a membership cannot be moved. */
const KEY_FIELDS: Readonly<Record<string, FieldRule>> = {
  userId: { equal: same.id, replaces: true },
  groupId: { equal: same.id, replaces: true },
};

/** Inputs that only steer the provider. */
const PROVIDER_FIELDS: Readonly<Record<string, FieldRule>> = { adopt: {} };

const INPUT_FIELDS = { ...KEY_FIELDS, ...PROVIDER_FIELDS };

// --- helpers -------------------------------------------------------------------------------------

function membership(props: Props) {
  return { user_id: canonicalId(props.userId), group_id: canonicalId(props.groupId) };
}

/**
 * Who else may have made the membership: in one `up`, two resources' creates run side by side,
 * so the second of two declarations meets the first's membership.
 */
const DECLARED_BY = "another GroupMembership of this user and group, or a UserGroups of this user, in this stack or another";

/** `User (<u>) is already a member of group (<g>)`. */
function isAlreadyMember(error: unknown): boolean {
  return error instanceof KasmBadRequestError && /\bis already a member\b/i.test(error.errorMessage ?? "");
}

/** `User (<u>) is not a member of group (<g>)`. */
function isNotMember(error: unknown): boolean {
  return error instanceof KasmBadRequestError && /\bis not a member\b/i.test(error.errorMessage ?? "");
}

function outputs(inputs: Props): Props {
  return declared(inputs, Object.keys(INPUT_FIELDS));
}

// --- provider ------------------------------------------------------------------------------------

export const groupMembershipProvider: KindProvider = {
  async check(_olds, news) {
    return checkInputs(GroupMembershipInputs, news);
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, INPUT_FIELDS);
  },

  async create(inputs) {
    const target = membership(inputs);
    try {
      await kasmClient().groups.addUserGroup(target);
    } catch (error) {
      if (!isAlreadyMember(error)) throw error;
      if (!inputs.adopt)
        throw alreadyExistsError("GroupMembership", `of user ${target.user_id} in group ${target.group_id}`, error, DECLARED_BY);
      // Adopted: the user is a member, which is all this resource declares.
    }
    return { id: pairId(target.user_id, target.group_id), outs: outputs(inputs) };
  },

  async read(id, props) {
    const [userId, groupId] = id.split(":");
    // From the refresh's get_users pages when many users are read together (see UserReads).
    const user = await kasmClient().userReads.read(userId, ["groups"]);
    if (!user) return GONE;
    const group = groupsOf(user).find((g) => same.id(g.group_id, groupId));
    if (!group) return GONE;
    const inputs: Props = { ...declared(props, Object.keys(INPUT_FIELDS)) };
    inputs.userId = keepSpelling(props.userId ?? userId, user.user_id);
    inputs.groupId = keepSpelling(props.groupId ?? groupId, group.group_id);
    return { id: pairId(user.user_id, group.group_id), props: outputs(inputs), inputs };
  },

  async update(_id, _olds, news) {
    // Only `adopt` can change in place, and it steers nothing after the create.
    return { outs: outputs(news) };
  },

  async delete(id) {
    const [userId, groupId] = id.split(":");
    try {
      await kasmClient().groups.removeUserGroup(membership({ userId, groupId }));
    } catch (error) {
      // Not a member any more, or the user or group is gone: the membership is gone, as asked.
      if (isNotMember(error) || isNotFound(error)) return;
      throw error;
    }
  },
};
