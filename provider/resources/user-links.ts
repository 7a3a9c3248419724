/**
 * Helpers shared by the kinds that hang off one user: `UserAttributes`, `GroupMembership`,
 * `UserGroups` and `UserServerAssignment`. Not a kind itself.
 *
 * What they have in common: ids given in either form (hex or hyphenated) and compared
 * canonically, ids of two parts (`<userId>:<groupId>`), and the user record of `get_user`, whose
 * `groups` and `assigned_servers` lists Kasm only shows to a key with the matching View permission.
 *
 * `GroupMembership` and `UserServerAssignment` are one shape, a link between a user and another
 * object, and share their provider: {@link defineUserLink}.
 */
import type { z } from "zod";
import { KasmAlreadyMemberError, KasmNotMemberError } from "../api/errors/answers";
import type { AssignedServer, User as KasmUser } from "../api/schemas/users";
import type { Group } from "../api/schemas/groups";
import type { KasmClient, UserList } from "../api/client";
import { ALL_USERS_GROUP } from "../../permissions/names";
import { closeUnderDependencies } from "../../permissions/dependencies";
import type { KasmKind } from "../../permissions/kinds";
import { pairId, canonicalId, type KindCalls } from "../../permissions/planned-calls";
import { ADOPT, declared, keepSpelling, same, declareFields, type DeclaredFields, USER_KEY } from "./framework/fields";
import { GONE, isNotFound, defineKind, type KindFields, type KindOutputs } from "./framework/define-kind";
import { KasmId } from "./framework/check-wording";
import { KasmReadPermissionError, missingUserError } from "./framework/errors";
import { NO_OUTPUTS, type KindTexts, type RefreshedInputs } from "./framework/types";

/** Kasm's answer to adding a user to a group twice: `User (<u>) is already a member of group (<g>)`. */
export function isAlreadyMember(error: unknown): boolean {
  return error instanceof KasmAlreadyMemberError;
}

/** Kasm's answer to removing a user from a group it is not in: `User (<u>) is not a member of group (<g>)`. */
export function isNotMember(error: unknown): boolean {
  return error instanceof KasmNotMemberError;
}

/** The name of the group every user belongs to implicitly. */
export const ALL_USERS = ALL_USERS_GROUP;

/**
 * The groups of a user from `get_user`. Kasm leaves the list out when the key lacks Groups View,
 * and then membership cannot be read: say what to grant rather than report the user as in no group.
 */
export function groupsOf(user: KasmUser): readonly Group[] {
  if (user.groups === undefined)
    throw new KasmReadPermissionError(
      `Kasm did not return the groups of user ${user.user_id}: the API key needs Groups View to read group membership. ` + `Grant the API key: Groups View.`,
      ["Groups View"],
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
  if (user.assigned_servers === undefined) {
    const toGrant = [...closeUnderDependencies(["Servers View"])];
    throw new KasmReadPermissionError(
      `Kasm did not return the servers assigned to user ${user.user_id}: the API key needs Servers View to read server ` +
        `assignments. Grant the API key: ${toGrant.join(", ")}.`,
      toGrant,
    );
  }
  return user.assigned_servers;
}

// --- links between a user and another object ------------------------------------------------------

/** The inputs every link has: the user, the other object's id under its own name, and `adopt`. */
export type UserLinkInputs<OtherField extends string> = { userId: string; adopt?: boolean } & { [K in OtherField]: string };

/** The docs a link kind writes itself; the arguments and inputs are the same for every link (and no link has outputs). */
export type UserLinkDocs = Omit<KindTexts, "arguments">;

/** How a link kind's docs and messages name the link and the other object. */
export interface UserLinkNouns {
  /** The link with its article: `a membership`, `an assignment`. */
  readonly aLink: string;
  /** The other object: `group`, `server`. */
  readonly other: string;
}

/** What names the other end of a link, for its field declarations ({@link userLinkFields}). */
export interface UserLinkEnd<OtherField extends string> {
  /** The input naming the other object: `groupId`, `serverId`. */
  readonly otherField: OtherField;
  /** The kind whose id output gives {@link otherField} (`Group`), when a kind manages such objects. */
  readonly otherKind?: KasmKind;
  /** How the docs name the link and the other object. */
  readonly nouns: UserLinkNouns;
}

/**
 * The inputs of a link, each declared once (see `declareFields`): `userId` and the other object's
 * id (`groupId`, `serverId`), which name the link (a link cannot be moved: both replace), and
 * `adopt`, which steers nothing. The same for every link but the other end's name and nouns.
 */
export function userLinkFields<OtherField extends string>(end: UserLinkEnd<OtherField>): DeclaredFields<UserLinkDeclarations<OtherField>> {
  const linkNoun = end.nouns.aLink.replace(/^an? /, "");
  const theLink = `the ${linkNoun}`;
  const declarations = {
    userId: {
      ...USER_KEY,
      wire: false,
      doc: `The user (32 hex digits or a hyphenated UUID). Changing it replaces ${theLink}.`,
    },
    [end.otherField]: {
      type: KasmId,
      role: "key",
      equal: same.id,
      replaces: true,
      ...(end.otherKind === undefined ? {} : { refersTo: end.otherKind }),
      wire: false,
      doc: `The ${end.nouns.other} (32 hex digits or a hyphenated UUID). Changing it replaces ${theLink}.`,
    },
    adopt: {
      ...ADOPT,
      doc:
        `No effect: ${end.nouns.aLink} that exists already in Kasm is the declared one (it has nothing but its two ends), so ` +
        `the create records it without a write, with adopt or without. Kept so that programs that set it keep working. Two ` +
        `declarations of one ${linkNoun} are refused by the hardening policy pack's conflicting-declarations policy.`,
    },
  };
  // The computed key is the other end's name: the declarations are those of UserLinkDeclarations.
  return declareFields(declarations as unknown as UserLinkDeclarations<OtherField>);
}

/** The field declarations of a link whose other end is `OtherField` (see {@link userLinkFields}); ids travel in operations of their own. */
export type UserLinkDeclarations<OtherField extends string> = {
  readonly userId: { readonly type: typeof KasmId; readonly role: "key"; readonly doc: string; readonly wire: false };
  readonly adopt: { readonly type: z.ZodOptional<z.ZodBoolean>; readonly role: "provider"; readonly doc: string };
} & { readonly [K in OtherField]: { readonly type: typeof KasmId; readonly role: "key"; readonly doc: string; readonly wire: false } };

/**
 * What differs between two kinds of link (a user in a group, a user assigned to a server): the
 * rest, from the id `<userId>:<otherId>` to refresh through the user's record, is {@link defineUserLink}'s.
 */
export interface UserLinkDefinition<OtherField extends string> {
  /** The kind, as messages name it: `GroupMembership`, `UserServerAssignment`. */
  readonly kind: string;
  /** The kind's inputs, each declared once ({@link userLinkFields}). */
  readonly fields: KindFields<UserLinkInputs<OtherField>>;
  /** What the SDK and the native schema say of the kind, besides what every link says. */
  readonly docs: UserLinkDocs;
  /** The input naming the other object: `groupId`, `serverId`. */
  readonly otherField: OtherField;
  /** The list of the user's record that holds the link (`groups`, `assigned_servers`). */
  readonly userList: UserList;
  /** What each step of the link calls: its kind's calls declaration (see `KindMethods.calls`). */
  readonly calls: KindCalls;
  /**
   * The ids of the objects the user is linked to, as Kasm spells them in the user's record (which
   * says what to grant when the key cannot see the list).
   */
  linkedIds(user: KasmUser): readonly string[];
  /** Write the link (both ids canonical). */
  add(client: KasmClient, userId: string, otherId: string): Promise<void>;
  /**
   * Whether an error of `add` says the link exists already, for a Kasm operation that refuses a
   * second add: the link is then there, as declared. Such an add also reports a missing user, and
   * finds a link the key cannot see in the user's record. Without it (Kasm accepts a second add),
   * the user's record must show the link for the create to send no write.
   */
  isAlreadyLinked?(error: unknown): boolean;
  /** Remove the link (the two parts of the resource's id). */
  unlink(client: KasmClient, userId: string, otherId: string): Promise<void>;
  /** Whether an error of `unlink` says there is no such link any more. */
  isUnlinked(error: unknown): boolean;
}

/**
 * The provider of a link between a user and another object. Both ids replace: a link cannot be
 * moved. A link that exists already is recorded as it is, without a write (`adopt` has no
 * effect): it has nothing but its two ends, so finding it is the declared state. Refresh reads the link through the user's record (from the refresh's get_users pages when
 * many users are read together, see UserReads) and drops the resource when the user is gone or no
 * longer linked; destroying a link that is already gone succeeds.
 */
export function defineUserLink<OtherField extends string>(link: UserLinkDefinition<OtherField>) {
  type Inputs = UserLinkInputs<OtherField>;
  const inputKeys: (keyof Inputs & string)[] = ["userId", link.otherField, "adopt"];
  const outputs = (inputs: RefreshedInputs<Inputs>): KindOutputs<Inputs, Record<never, never>> => declared(inputs, inputKeys);
  // The other object's id as the user's record spells it, when the user has the link.
  const linkedId = (user: KasmUser, otherId: string): string | undefined => link.linkedIds(user).find((id) => same.id(id, otherId));
  // Whether the user's record shows the link. A list the key cannot see counts as no link where
  // the add finds an existing one itself (isAlreadyLinked); elsewhere linkedIds says what to grant.
  const isShownLinked = (user: KasmUser, otherId: string): boolean => {
    if (user[link.userList] === undefined && link.isAlreadyLinked) return false;
    return linkedId(user, otherId) !== undefined;
  };
  const docs: KindTexts = { ...link.docs, arguments: `The arguments of a ${link.kind}.` };
  return defineKind<Inputs, Record<never, never>>({
    fields: link.fields,
    outputs: NO_OUTPUTS,
    docs,
    // Only `adopt` can change in place, and it steers nothing after the create.
    sendsNothingWhen: "never",
    calls: link.calls,

    async create(inputs, context) {
      const userId = canonicalId(inputs.userId);
      const otherId = canonicalId(inputs[link.otherField]);
      const done = { id: pairId(userId, otherId), outs: outputs(inputs) };
      // A link that exists is the declared state, whoever made it: an add of an earlier `up` whose
      // answer was lost (committed, then a 5xx, a timeout or a broken connection), or one made
      // outside Pulumi. The user is read first, so that finding it sends no write; `adopt` changes
      // nothing. Two declarations of one link are the hardening pack's to refuse
      // (conflicting-declarations), before anything is applied.
      const client = context.client();
      const user = await client.users.findUser({ user_id: userId });
      if (!user && !link.isAlreadyLinked) throw missingUserError(context, link.kind, userId);
      if (user && isShownLinked(user, otherId)) return done;
      try {
        await link.add(client, userId, otherId);
      } catch (error) {
        // Kasm refuses a second add: the link exists (the user's list hidden from the key, or added since the read).
        if (!link.isAlreadyLinked?.(error)) throw error;
      }
      return done;
    },

    async read(id, state, context) {
      const [userId, otherId] = id.split(":");
      const user = await context.client().userReads.read(userId, [link.userList]);
      if (!user) return GONE;
      const otherAsKasmHasIt = linkedId(user, otherId);
      if (otherAsKasmHasIt === undefined) return GONE;
      const current: Record<string, unknown> = { ...outputs(state) };
      current.userId = keepSpelling(state.userId ?? userId, user.user_id);
      current[link.otherField] = keepSpelling(state[link.otherField] ?? otherId, otherAsKasmHasIt);
      // The two ids, each as declared or as Kasm spells it: the inputs' types.
      const inputs = current as RefreshedInputs<Inputs>;
      return { id: pairId(user.user_id, otherAsKasmHasIt), props: outputs(inputs), inputs };
    },

    async update(_id, _olds, news) {
      return { outs: outputs(news) };
    },

    async delete(id, _state, context) {
      const [userId, otherId] = id.split(":");
      try {
        await link.unlink(context.client(), userId, otherId);
      } catch (error) {
        // No such link any more, or the user or the other object is gone: the link is gone, as asked.
        if (link.isUnlinked(error) || isNotFound(error)) return;
        throw error;
      }
    },
  });
}
