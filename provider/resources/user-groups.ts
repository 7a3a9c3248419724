/**
 * `UserGroups`: the exact set of Kasm groups one user belongs to, besides All Users.
 * Authoritative: groups the program does not list are removed from the user.
 *
 * API: get_user (whose `groups` list needs Groups View) to read, add_user_group and
 * remove_user_group to change. The id is the user's id; `userId` replaces, `groupIds` updates in
 * place (order and id form do not matter). All Users is implicit: every user is in it, UserGroups
 * never adds or removes it, and listing it is refused by check. Create and update add the missing
 * groups and remove the extra ones (removals first, so a change never grants more than both the
 * old and the new set); when a change fails after others succeeded, the resource keeps the groups
 * as they are in Kasm, and the next update finishes the work. Refresh reports the current set, so
 * a group added or removed in the Kasm UI shows as drift. Destroying removes the declared groups
 * (never All Users) and leaves the user; it succeeds when the user is gone. Adding to or removing
 * from Administrators needs Groups Modify System.
 *
 * Never mix UserGroups with `GroupMembership` for the same user: each would undo the other's
 * changes on every update.
 */
import { z } from "zod";
import { KasmUnknownUserError } from "../api/errors/answers";
import type { User as KasmUser } from "../api/schemas/users";
import type { KasmClient } from "../api/client";
import { canonicalId } from "../../permissions/planned-calls";
import { declared, inputNames, keepSpelling, same, declareFields, USER_KEY } from "./framework/fields";
import { GONE, initializationFailure, isNotFound, defineKind, type KindOutputs } from "./framework/define-kind";
import { KasmId } from "./framework/check-wording";
import { KasmUnsupportedInputError, missingUserError } from "./framework/errors";
import { type KindContext, type KindTexts, NO_OUTPUTS, type Props, type RefreshedInputs } from "./framework/types";
import { userGroupsCalls } from "./user-groups.calls";
import { ALL_USERS, allUsersGroupId, groupsOf, isAlreadyMember, isNotMember } from "./user-links";

// --- types ---------------------------------------------------------------------------------------

/** Each input of a UserGroups, declared once: its type, role, rule, doc and how it is sent. */
const USER_GROUPS_FIELDS = declareFields({
  // `userId` names another user's groups.
  userId: {
    ...USER_KEY,
    doc: "The user (32 hex digits or a hyphenated UUID). Changing it replaces the resource.",
  },
  // The set itself changes in place; it is sent by a membership operation per group, never as a body.
  groupIds: {
    type: z.array(KasmId).superRefine((ids, ctx) => {
      const seen = new Map<string, number>();
      ids.forEach((id, index) => {
        const canonical = canonicalId(id);
        const first = seen.get(canonical);
        if (first === undefined) seen.set(canonical, index);
        else ctx.addIssue({ code: "custom", message: `lists group ${canonical} twice (entries ${first} and ${index}); list each group once` });
      });
    }),
    role: "sent",
    equal: same.idSet,
    refersTo: "Group",
    doc:
      "Every group the user belongs to besides All Users; `[]` for none. Order and id form (hex or " +
      "hyphenated) do not matter; each group once. All Users is implicit and refused here.",
  },
});

/** The inputs of a UserGroups. */
export const UserGroupsInputs = USER_GROUPS_FIELDS.schema;
export type UserGroupsInputs = z.infer<typeof UserGroupsInputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the UserGroups kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "The exact set of groups of one Kasm user, besides All Users (which every user is in, and which " +
    "this resource never adds or removes). Authoritative: groups not listed are removed from the " +
    "user, and refresh shows a group added or removed in the Kasm UI as drift that the next update " +
    "reverts. Destroying it removes the listed groups from the user. Changing Administrators needs " +
    "the API key to hold Groups Modify System.\n\nNever mix it with GroupMembership for the same user: " +
    "the two would undo each other's changes on every update.",
  arguments: "The arguments of a UserGroups.",
  example: ['new kasm.UserGroups("alice", { userId: alice.userId, groupIds: [engineeringGroupId, oncallGroupId] });'].join("\n"),
  limits: "authoritative set of groups besides All Users; do not mix with `GroupMembership`",
};

// --- helpers -------------------------------------------------------------------------------------

function allUsersReason(allUsersId: string): string {
  return `${ALL_USERS} (${allUsersId}) is implicit: every user belongs to it and UserGroups never adds or removes it. ` + `Leave it out of groupIds.`;
}

/** The user, or a clear error when there is none. */
async function userOf(context: KindContext, userId: string): Promise<KasmUser> {
  const user = await context.client().users.findUser({ user_id: userId });
  if (!user) throw missingUserError(context, "UserGroups", userId);
  return user;
}

/** The user's groups besides All Users, canonical ids. */
function currentGroupIds(user: KasmUser): string[] {
  return groupsOf(user)
    .filter((g) => g.name !== ALL_USERS)
    .map((g) => canonicalId(g.group_id));
}

/** Refuse a list with All Users (check does too, but it cannot when the lookup was not possible then). */
function refuseAllUsers(user: KasmUser, groupIds: readonly unknown[]): void {
  const allUsers = allUsersGroupId(user);
  if (allUsers !== undefined && groupIds.some((id) => same.id(id, allUsers)))
    throw new KasmUnsupportedInputError(`UserGroups groupIds: ${allUsersReason(allUsers)}`);
}

/**
 * Kasm's set of ids as the program would write it: the declared spelling and order for the ids
 * that are in Kasm, then Kasm's ids that the program does not list. So refresh shows no false change.
 */
function spelledLikeDeclared(declaredIds: unknown, kasmIds: readonly string[]): string[] {
  const inKasm = new Set(kasmIds.map(canonicalId));
  const listed = Array.isArray(declaredIds) ? declaredIds.map(String).filter((id) => inKasm.has(canonicalId(id))) : [];
  const listedCanonical = new Set(listed.map(canonicalId));
  return [...listed, ...kasmIds.map(canonicalId).filter((id) => !listedCanonical.has(id))];
}

function outputs(inputs: RefreshedInputs<UserGroupsInputs>): KindOutputs<UserGroupsInputs, Record<never, never>> {
  return declared(inputs, inputNames(UserGroupsInputs));
}

/** The outcome of {@link converge}: the set as it is now, how many changes were made, and what stopped it. */
interface Convergence {
  readonly now: string[];
  readonly changes: number;
  readonly error?: unknown;
}

/** Bring the user's groups besides All Users from `current` to `desired` (canonical ids): removals first, then additions. */
async function converge(client: KasmClient, userId: string, current: readonly string[], desired: readonly string[]): Promise<Convergence> {
  const groups = client.groups;
  const now = new Set(current);
  const want = new Set(desired);
  const removals = [...now].filter((id) => !want.has(id)).sort();
  const additions = [...want].filter((id) => !now.has(id)).sort();
  let changes = 0;
  try {
    for (const group_id of removals) {
      try {
        await groups.removeUserGroup({ user_id: userId, group_id });
      } catch (error) {
        // Someone removed it meanwhile: the outcome is the one wanted.
        if (!isNotMember(error)) throw error;
      }
      now.delete(group_id);
      changes += 1;
    }
    for (const group_id of additions) {
      try {
        await groups.addUserGroup({ user_id: userId, group_id });
      } catch (error) {
        if (!isAlreadyMember(error)) throw error;
      }
      now.add(group_id);
      changes += 1;
    }
    return { now: [...now], changes };
  } catch (error) {
    return { now: [...now], changes, error };
  }
}

/**
 * Apply the declared set; when a change failed after others succeeded, throw an initialisation
 * failure carrying the groups as they are in Kasm (read again; else as far as the changes went),
 * so that the state matches Kasm and the next update finishes the work.
 */
async function apply(context: KindContext, id: string, inputs: UserGroupsInputs): Promise<void> {
  const client = context.client();
  const userId = canonicalId(inputs.userId);
  const user = await userOf(context, userId);
  const groupIds = inputs.groupIds;
  refuseAllUsers(user, groupIds);
  const result = await converge(client, userId, currentGroupIds(user), groupIds.map(canonicalId));
  if (result.error === undefined) return;
  if (result.changes === 0) throw result.error;
  let now = result.now;
  try {
    now = currentGroupIds(await userOf(context, userId));
  } catch {
    // Keep what the successful changes left.
  }
  throw initializationFailure(id, { ...outputs(inputs), groupIds: spelledLikeDeclared(groupIds, now) }, result.error);
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of UserGroups; every update brings Kasm's set to the declared one. */
export const userGroupsProvider = defineKind<UserGroupsInputs>({
  fields: USER_GROUPS_FIELDS,
  outputs: NO_OUTPUTS,
  docs: DOCS,
  sendsNothingWhen: "never",

  extraCheck(result, news, _olds, context) {
    if (result.failures?.length) return result;
    const { groupIds } = news;
    if (!Array.isArray(groupIds) || groupIds.length === 0) return result;
    // Which id is All Users is only known to Kasm, and check sends no request (it runs on every
    // preview and up): refuse it here when this process has seen the id already (in any user
    // record it read or created, such as the user's own create in the same up); otherwise create
    // and update refuse it, before changing anything.
    const allUsers = context.existingClient()?.userReads.allUsersGroupId;
    if (allUsers !== undefined && groupIds.some((id) => same.id(id, allUsers)))
      return { inputs: news, failures: [{ property: "groupIds", reason: allUsersReason(allUsers) }] };
    return result;
  },
  calls: userGroupsCalls,

  async create(inputs, context) {
    const id = canonicalId(inputs.userId);
    await apply(context, id, inputs);
    return { id, outs: outputs(inputs) };
  },

  async read(id, props, context) {
    // From the refresh's get_users pages when many users are read together (see UserReads).
    const user = await context.client().userReads.read(canonicalId(id), ["groups"]);
    if (!user) return GONE;
    const inputs: Props = {
      userId: keepSpelling(props.userId ?? id, user.user_id),
      groupIds: spelledLikeDeclared(props.groupIds, currentGroupIds(user)),
    };
    return { id: canonicalId(user.user_id), props: outputs(inputs), inputs };
  },

  async update(id, _olds, news, _changedFields, context) {
    // Always against Kasm's current set, not the state's: drift since the last refresh is reverted too.
    await apply(context, id, news);
    return { outs: outputs(news) };
  },

  async delete(id, props, context) {
    const userId = canonicalId(id);
    const groupIds = Array.isArray(props.groupIds) ? [...new Set(props.groupIds.map(canonicalId))].sort() : [];
    for (const group_id of groupIds) {
      try {
        await context.client().groups.removeUserGroup({ user_id: userId, group_id });
      } catch (error) {
        // Not a member any more, or the group is gone: nothing to remove. The user is gone: done.
        if (isNotMember(error)) continue;
        if (isNotFound(error)) {
          if (error instanceof KasmUnknownUserError) return;
          continue;
        }
        throw error;
      }
    }
  },
});
