/**
 * What a resource's properties do not say about the target Kasm (is this group a system group,
 * does this user hold Global Admin, ...), and how users and groups are named when asking it.
 * The kind rows (`permissions/kind-rows/`) ask it; the policy packs build it from their config.
 */
import { canonicalId } from "./ids";
import type { KasmKind, LifecycleStep } from "./kinds";

/**
 * How a user or group is named in {@link PermissionKnowledge}: a Kasm id in its canonical form (32
 * lowercase hex digits), or any other text (a username, or a reference the caller makes up for an
 * object whose id is not known yet) trimmed and lowercased, as Kasm stores usernames.
 */
export function referenceKey(value: unknown): string {
  return canonicalId(value).trim().toLowerCase();
}

/**
 * Facts about the target Kasm that a resource's properties do not carry, asked for by reference
 * ({@link referenceKey}). Every answer may be `undefined`: not known, and then the permissions
 * that depend on it are reported as undecided, never assumed.
 */
export interface PermissionKnowledge {
  /** Whether a group is a system group (All Users or Administrators). */
  groupIsSystem(group: string): boolean | undefined;
  /** Whether a group is Administrators (whose members hold Global Admin). */
  groupIsAdministrators(group: string): boolean | undefined;
  /** Whether a user holds Global Admin when `step` of a resource of `kind` acts on it. */
  userIsGlobalAdmin(user: string, at: { readonly kind: KasmKind; readonly step: LifecycleStep }): boolean | undefined;
  /** Whether a user has running sessions when it is deleted. */
  userHasSessions(user: string): boolean | undefined;
  /** Whether a user is created by the same stack (so, when created, it is in no group but All Users). */
  userIsNew(user: string): boolean;
}

/** Plain facts to build a {@link PermissionKnowledge} from (see {@link knowledgeFromFacts}). */
export interface KnownFacts {
  /** The id of All Users in the target Kasm. */
  readonly allUsersGroupId?: string;
  /** The id of Administrators in the target Kasm. */
  readonly administratorsGroupId?: string;
  /**
   * Users (ids or usernames) known to hold Global Admin, that is to be members of Administrators.
   * Left out: not known, so whether any user holds it is undecided. Given: the others do not.
   */
  readonly globalAdminUsers?: readonly string[];
  /** Users (ids or usernames) that have running sessions when they are deleted. Others have none. */
  readonly usersWithSessions?: readonly string[];
  /** Users the stack creates (its User resources, by whatever reference the caller uses for them). */
  readonly newUsers?: readonly string[];
  /**
   * Users whose Global Admin the stack's own group resources change: `true` for a user a
   * GroupMembership or UserGroups puts into Administrators, `false` for one a UserGroups takes out
   * of it, `undefined` for one whose groups change in a way not known yet.
   */
  readonly adminAfterStack?: ReadonlyMap<string, boolean | undefined>;
  /** Some group resource of the stack puts a user not known yet into Administrators: no user can be said not to hold Global Admin. */
  readonly unattributedAdminGrant?: boolean;
}

/**
 * A {@link PermissionKnowledge} from plain facts.
 *
 * Global Admin over time: a user's group resources (GroupMembership, UserGroups) take effect once
 * they are created. So their user holds the Global Admin they give (or lacks what they take) for
 * every operation of the stack's other resources on that user and for the update of its User;
 * not when its User is created (before them), nor when it is deleted (after them: destroying
 * them takes the membership away again). A user the stack creates holds nothing else.
 */
export function knowledgeFromFacts(facts: KnownFacts): PermissionKnowledge {
  const allUsers = facts.allUsersGroupId ? referenceKey(facts.allUsersGroupId) : undefined;
  const administrators = facts.administratorsGroupId ? referenceKey(facts.administratorsGroupId) : undefined;
  const admins = facts.globalAdminUsers ? new Set(facts.globalAdminUsers.map(referenceKey)) : undefined;
  const withSessions = new Set((facts.usersWithSessions ?? []).map(referenceKey));
  const newUsers = new Set((facts.newUsers ?? []).map(referenceKey));
  const after = new Map<string, boolean | undefined>();
  for (const [user, value] of facts.adminAfterStack ?? []) after.set(referenceKey(user), value);

  const before = (user: string): boolean | undefined => {
    if (admins?.has(user)) return true;
    if (newUsers.has(user)) return facts.unattributedAdminGrant ? undefined : false;
    if (admins === undefined || facts.unattributedAdminGrant) return undefined;
    return false;
  };

  return {
    groupIsSystem(group) {
      const key = referenceKey(group);
      if (key === allUsers || key === administrators) return true;
      return allUsers !== undefined && administrators !== undefined ? false : undefined;
    },
    groupIsAdministrators(group) {
      const key = referenceKey(group);
      if (administrators !== undefined) return key === administrators;
      return key === allUsers ? false : undefined;
    },
    userIsGlobalAdmin(user, at) {
      const key = referenceKey(user);
      const base = before(key);
      // The group resources themselves act on the user as it was before them.
      if (!after.has(key) || at.kind === "GroupMembership" || at.kind === "UserGroups") return base;
      const changed = after.get(key);
      if (at.kind === "User" && (at.step === "create" || at.step === "read")) return base;
      if (at.kind === "User" && at.step === "delete") return changed === undefined && base !== false ? undefined : false;
      return changed;
    },
    userHasSessions(user) {
      return withSessions.has(referenceKey(user));
    },
    userIsNew(user) {
      return newUsers.has(referenceKey(user));
    },
  };
}
