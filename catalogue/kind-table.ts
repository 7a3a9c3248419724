/**
 * What an API key needs to manage each kind of Kasm resource: for every lifecycle step (create,
 * read, update, delete), the public operations that kind's provider calls, the circumstances of
 * each call (its {@link OperationContext}), and so the permissions each call needs.
 *
 * THE PROVIDERS ARE THE TRUTH. Each row of {@link KIND_ROWS} restates what
 * `provider/resources/<kind>.ts` calls in that method, in the order it calls them. When a provider
 * changes the operations it calls, or when it calls them, its row here must change in the same
 * commit. `test/policy/consistency.test.ts` runs the real providers against the emulator with
 * random keys and random stacks and fails when a row and its provider disagree; the policy packs
 * (`policy/permissions`) read nothing else.
 *
 * What the rows leave out, on purpose:
 * - Lookups the API client makes only after a transient failure, to adopt what a failed create may
 *   have committed (`createOrAdopt`: get_user after create_user, get_staging_configs after
 *   create_staging_config, the egress reads after the egress creates). Each needs the View
 *   permission of the family whose Create the call needs, which dependency rule 1 already requires.
 * - `check`, which calls no operation.
 * - get_users in the reads of User, GroupMembership, UserGroups and UserServerAssignment: a refresh
 *   that reads many users serves them from get_users pages instead of a get_user each. The spec
 *   gives get_users the permissions of get_user (Users View, and Servers View for
 *   `assigned_servers`) and the same record, so the get_user rows stand for both.
 * - Images Modify Resources (special permission 3): no kind changes an image's compute settings
 *   (GPU count, cores, memory, CPU allocation, registry, volume mappings, run config, exec config),
 *   so no row needs it. {@link COMPUTE_SETTINGS_KINDS} is empty; a kind that touches them must add
 *   it to its row and to that list.
 *
 * @example
 * ```ts
 * const needs = resourcePermissionNeeds("GroupMembership", { userId, groupId: administratorsId }, knowledgeFromFacts({ administratorsGroupId: administratorsId }));
 * needs.create.requirements; // [{ all: ["Groups Modify", "Groups Modify System"], oneOf: [], reasons: [...] }]
 * ```
 */
import { canonicalId } from "./ids";
import { isUnknownValue } from "./values";
import { COMPUTE_SETTINGS_KINDS, LIFECYCLE_STEPS, type KasmKind, type LifecycleStep } from "./kinds";
import { serverImportRows, userSetRows } from "./bulk-rows";
import { closeUnderDependencies, effectivePermissions } from "./dependencies";
import { ADMINISTRATORS_GROUP, ALL_USERS_GROUP, type PermissionName } from "./names";
import {
  OPERATIONS,
  USER_FIELD_PERMISSIONS,
  requiredPermissions,
  type ContextFlag,
  type OperationContext,
  type OperationName,
  type Requirement,
} from "./operations";


/**
 * How a user or group is named in {@link PermissionKnowledge}: a Kasm id in its canonical form (32
 * lowercase hex digits), or any other text (a username, or a reference the caller makes up for an
 * object whose id is not known yet) trimmed and lowercased, as Kasm stores usernames.
 */
export function referenceKey(value: unknown): string {
  return canonicalId(value).trim().toLowerCase();
}

// --- what the props do not say ----------------------------------------------------------------

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

// --- what a step needs ---------------------------------------------------------------------------

/** A fact of the target Kasm that is not known, and the permissions a call would need if it held. */
export interface UndecidedFact {
  /** What is not known, in words (`whether user ... holds Global Admin`). */
  readonly fact: string;
  /** The permissions the call needs on top of its requirement if the fact holds. */
  readonly adds: readonly PermissionName[];
}

/** A field of get_user's answer that Kasm shows only with a View permission. */
export type UserField = keyof typeof USER_FIELD_PERMISSIONS;

/** One call a step makes. */
export interface PlannedCall {
  readonly operation: OperationName;
  /** Whether a Read Only key may make it. */
  readonly access: "read" | "write";
  /** The circumstances that are known. */
  readonly context: OperationContext;
  /**
   * What the call needs: the operation's permissions in that context, plus the View permission of
   * each answer field the provider reads (Kasm leaves a field out, rather than refusing the call,
   * when the key lacks it, and the provider then fails).
   */
  readonly requirement: Requirement;
  /** Fields of get_user's answer the provider reads. */
  readonly fields: readonly UserField[];
  /** When the call is made only in some cases: which (the pack counts it as made). */
  readonly condition?: string;
  /** Set when whether the call is made at all depends on a value not known: why. */
  readonly unsure?: string;
  /** Circumstances that are not known, with the permissions each would add. */
  readonly undecided: readonly UndecidedFact[];
}

/** What one lifecycle step needs. */
export interface StepNeeds {
  readonly step: LifecycleStep;
  /** The calls, in the order the provider makes them. */
  readonly calls: readonly PlannedCall[];
  /** The requirement of each call, in the same order. */
  readonly requirements: readonly Requirement[];
}

/** What each lifecycle step of one resource needs. */
export type ResourceNeeds = Readonly<Record<LifecycleStep, StepNeeds>>;

/** A three-valued context: `undefined` means not known. */
type Facts = Partial<Record<ContextFlag, boolean | undefined>>;

interface CallOptions {
  readonly fields?: readonly UserField[];
  readonly condition?: string;
  readonly unsure?: string;
  /** Words for each flag that may be undefined, for {@link UndecidedFact.fact}. */
  readonly explain?: Partial<Record<ContextFlag, string>>;
}

/** Build one planned call from three-valued facts. */
function plan(operation: OperationName, facts: Facts = {}, options: CallOptions = {}): PlannedCall {
  const context: Record<string, boolean> = {};
  const unknownFlags: ContextFlag[] = [];
  for (const [flag, value] of Object.entries(facts) as [ContextFlag, boolean | undefined][]) {
    if (value === true) context[flag] = true;
    else if (value === undefined) unknownFlags.push(flag);
  }
  const base = requiredPermissions(operation, context);
  const fields = options.fields ?? [];
  const all = [...base.all];
  const reasons = [...base.reasons];
  for (const field of fields) {
    const permission = USER_FIELD_PERMISSIONS[field];
    if (!all.includes(permission)) all.push(permission);
    reasons.push(`${permission}: the provider reads the user's ${field}, which Kasm shows only with ${permission}`);
  }
  const undecided: UndecidedFact[] = [];
  for (const flag of unknownFlags) {
    const adds = requiredPermissions(operation, { ...context, [flag]: true }).all.filter((p) => !all.includes(p));
    if (adds.length > 0) undecided.push({ fact: options.explain?.[flag] ?? flag, adds });
  }
  return {
    operation,
    access: OPERATIONS[operation].access,
    context,
    requirement: { all, oneOf: base.oneOf, reasons },
    fields,
    ...(options.condition ? { condition: options.condition } : {}),
    ...(options.unsure ? { unsure: options.unsure } : {}),
    undecided,
  };
}

/** A row: the calls of each step for one resource's properties. */
type Row = (props: Readonly<Record<string, unknown>>, knowledge: PermissionKnowledge) => Readonly<Record<LifecycleStep, PlannedCall[]>>;

/** A three-valued boolean property: true, false (absent counts as false), or undefined when not known. */
function flag(value: unknown): boolean | undefined {
  if (isUnknownValue(value)) return undefined;
  return value === true;
}

/** A user or group reference from a property, or undefined when not known. */
function ref(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "" || isUnknownValue(value)) return undefined;
  return referenceKey(value);
}

/** Whether a property is declared (given, known or not). */
function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/*
 * The words for facts that are not known. They name properties, never their values: a policy
 * must not print property values (secrets reach policies unwrapped).
 */
function adminFact(user: string | undefined, property = "userId"): string {
  return user === undefined
    ? `whether the user (${property}, not known yet) holds Global Admin`
    : `whether the user (${property}) holds Global Admin; list the users that do in globalAdminUserIds`;
}

function systemFact(group: string | undefined): string {
  return group === undefined
    ? "whether the group (groupId, not known yet) is a system group"
    : "whether the group (groupId) is a system group (All Users or Administrators); give their ids in systemGroupIds";
}

/** Global Admin of a user reference, undefined when the reference is not known. */
function isAdmin(knowledge: PermissionKnowledge, user: string | undefined, kind: KasmKind, step: LifecycleStep): boolean | undefined {
  return user === undefined ? undefined : knowledge.userIsGlobalAdmin(user, { kind, step });
}

/** The egress target of a mapping or credential, as three-valued facts for one step. */
function egressFacts(props: Readonly<Record<string, unknown>>, knowledge: PermissionKnowledge, kind: KasmKind, step: LifecycleStep): { facts: Facts; explain: Partial<Record<ContextFlag, string>> } {
  const user = ref(props.userId);
  const group = ref(props.groupId);
  const facts: Facts = {
    targetIsUser: given(props.userId),
    targetIsGroup: given(props.groupId),
    targetIsImage: given(props.imageId),
    targetUserIsGlobalAdmin: given(props.userId) ? isAdmin(knowledge, user, kind, step) : false,
    targetGroupIsSystem: given(props.groupId) ? (group === undefined ? undefined : knowledge.groupIsSystem(group)) : false,
  };
  return { facts, explain: { targetUserIsGlobalAdmin: adminFact(user), targetGroupIsSystem: systemFact(group) } };
}

/** The calls an `adopt` input adds to a create: made when adopt is true, unsure when it is not known. */
function adoptOptions(adopt: unknown, condition: string): CallOptions | undefined {
  const value = flag(adopt);
  if (value === false) return undefined;
  return value === true ? { condition } : { unsure: "whether adopt is set is not known yet", condition };
}

/**
 * The rows: for each kind, what its provider's create, read, update and delete call. Read each
 * next to `provider/resources/<kind>.ts`.
 */
export const KIND_ROWS: Readonly<Record<KasmKind, Row>> = {
  // provider/resources/user.ts
  User: (props, knowledge) => {
    const self = ref(props.userId) ?? ref(props.username);
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    const adoptTarget = adopt && { ...adopt, condition: "with adopt: true, when a user with that username exists" };
    // Sessions: a user listed in usersWithSessions has them; forceDelete says the program expects them.
    const force = flag(props.forceDelete);
    const listed = self !== undefined && knowledge.userHasSessions(self) === true;
    const sessions = force === true || listed ? true : force === undefined ? undefined : false;
    const admin = (step: LifecycleStep) => isAdmin(knowledge, self, "User", step);
    const explainAdmin = { targetUserIsGlobalAdmin: adminFact(self, "the User itself") };
    return {
      create: [
        ...(adopt ? [plan("get_user", {}, adopt), plan("update_user", { targetUserIsGlobalAdmin: admin("create") }, { ...adoptTarget!, explain: explainAdmin })] : []),
        plan("create_user", {}, adopt ? { condition: "unless adopt: true finds the user" } : {}),
      ],
      read: [plan("get_user")],
      update: [plan("update_user", { targetUserIsGlobalAdmin: admin("update") }, { condition: "when a field sent to Kasm changed", explain: explainAdmin })],
      delete: [
        plan(
          "delete_user",
          { targetUserIsGlobalAdmin: admin("delete"), targetUserHasSessions: sessions },
          {
            explain: {
              ...explainAdmin,
              targetUserHasSessions: "whether the user has running sessions (forceDelete is not known yet)",
            },
          },
        ),
      ],
    };
  },

  // provider/resources/user-set.ts
  UserSet: (props, knowledge) => {
    const rows = userSetRows(props, isUnknownValue);
    const rowsKnown = rows !== undefined && rows.rows.every((r) => r !== undefined && !isUnknownValue(r.groups) && !isUnknownValue(r.username));
    /** Whether some row answers `test` with true: true, false, or undefined when a row is not known. */
    const some = (test: (row: Readonly<Record<string, unknown>>) => boolean | undefined): boolean | undefined => {
      let result: boolean | undefined = rowsKnown ? false : undefined;
      for (const row of rows?.rows ?? []) {
        const answer = row === undefined ? undefined : test(row);
        if (answer === true) return true;
        if (answer === undefined) result = undefined;
      }
      return result;
    };
    const groupsOf = (row: Readonly<Record<string, unknown>>): unknown[] | undefined => (Array.isArray(row.groups) ? row.groups : row.groups === undefined ? [] : undefined);
    const listsGroup = (test: (name: string) => boolean) => (row: Readonly<Record<string, unknown>>) => {
      const groups = groupsOf(row);
      if (groups === undefined) return undefined;
      if (groups.some((g) => typeof g === "string" && !isUnknownValue(g) && test(g))) return true;
      return groups.some(isUnknownValue) ? undefined : false;
    };
    const hasGroups = some((row) => {
      const groups = groupsOf(row);
      return groups === undefined ? undefined : groups.length > 0;
    });
    const system = some(listsGroup((g) => g === ALL_USERS_GROUP || g === ADMINISTRATORS_GROUP));
    // A row that lists Administrators makes its user a Global Admin: changing or deleting it then needs Users Modify Admin.
    const makesAdmins = some(listsGroup((g) => g === ADMINISTRATORS_GROUP));
    const usernames = (rows?.rows ?? []).flatMap((r) => (r && typeof r.username === "string" && !isUnknownValue(r.username) ? [r.username] : []));
    const adopting = flag(props.adopt);
    // The set creates its users (in no group but its own and All Users) unless it adopts existing ones, which may hold Global Admin.
    const adminUser = (step: LifecycleStep) => {
      if (makesAdmins === true || adopting === false) return makesAdmins;
      let result: boolean | undefined = makesAdmins;
      for (const user of usernames) {
        const answer = knowledge.userIsGlobalAdmin(user, { kind: "UserSet", step });
        if (answer === true) return true;
        if (answer === undefined) result = undefined;
      }
      return result;
    };
    const force = flag(props.forceDelete);
    const listedWithSessions = usernames.some((u) => knowledge.userHasSessions(u) === true);
    const sessions = force === true || listedWithSessions ? true : force === undefined ? undefined : false;
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    const explain = {
      assignsGroups: "whether a row lists groups (the rows are not known yet; All Users or Administrators would also need Groups Modify System)",
      targetGroupIsSystem: "whether a row lists All Users or Administrators (the rows are not known yet)",
      targetUserIsGlobalAdmin: "whether a user of the set holds Global Admin (a row lists Administrators, or the user is listed in globalAdminUserIds)",
      targetUserHasSessions: "whether a user of the set has running sessions (forceDelete is not known yet)",
    };
    const groupFields: UserField[] = hasGroups === false ? [] : ["groups"];
    const importCall = (condition: string) => plan("batch_create_user", { assignsGroups: hasGroups, targetGroupIsSystem: system }, { explain, condition });
    const groupCalls = (condition: string, options: CallOptions = {}): PlannedCall[] => {
      // No row lists groups: the set never changes a membership.
      if (hasGroups === false) return [];
      const authoritative = props.groupsMode !== undefined && props.groupsMode !== "additive";
      return [
        plan("add_user_group", { targetGroupIsSystem: system }, { explain, condition, ...options }),
        ...(authoritative
          ? [plan("remove_user_group", { targetGroupIsSystem: system }, { explain, condition: `${condition}, groups the row leaves out (groupsMode authoritative)`, ...options })]
          : []),
      ];
    };
    const modify = (step: LifecycleStep, condition: string, options: CallOptions = {}) =>
      plan("update_user", { targetUserIsGlobalAdmin: adminUser(step) }, { explain, condition, ...options });
    return {
      create: [
        // The users pages: which usernames exist, and with adopt: true their groups.
        plan("get_users", {}, adopt ? { fields: groupFields } : {}),
        importCall(adopt ? "for the rows whose user does not exist yet" : "for every row"),
        ...(adopt ? [modify("create", "with adopt: true, for existing users whose fields differ", adopt), ...groupCalls("with adopt: true, for existing users' missing groups", adopt)] : []),
      ],
      // The users pages only (without Groups View the declared groups are kept).
      read: [plan("get_users", {}, { condition: "page by page" })],
      update: [
        plan("get_users", {}, { fields: groupFields, condition: "when rows are added or their groups change" }),
        importCall("for added rows"),
        modify("update", "for rows whose names, phone or organization changed"),
        ...groupCalls("for rows whose groups changed"),
        plan("delete_user", { targetUserIsGlobalAdmin: adminUser("update"), targetUserHasSessions: sessions }, { explain, condition: "for removed rows" }),
      ],
      delete: [plan("delete_user", { targetUserIsGlobalAdmin: adminUser("delete"), targetUserHasSessions: sessions }, { explain, condition: "for each user of the set" })],
    };
  },

  // provider/resources/user-attributes.ts
  UserAttributes: (props, knowledge) => {
    const user = ref(props.userId);
    const attributes = ["sshPublicKey", "defaultImage", "showTips", "toggleControlPanel", "autoLoginWs"].some((key) => given(props[key]));
    const write = (step: LifecycleStep, condition: string) =>
      plan("update_user_attributes", { targetUserIsGlobalAdmin: isAdmin(knowledge, user, "UserAttributes", step) }, { condition, explain: { targetUserIsGlobalAdmin: adminFact(user) } });
    return {
      create: [plan("get_attributes"), ...(attributes ? [write("create", "when an attribute is declared")] : [])],
      read: [plan("get_attributes")],
      update: attributes ? [write("update", "when a declared attribute changed")] : [],
      // Kasm has no delete: destroying only forgets the attributes.
      delete: [],
    };
  },

  // provider/resources/group-membership.ts
  GroupMembership: (props, knowledge) => {
    const group = ref(props.groupId);
    const system = group === undefined ? undefined : knowledge.groupIsSystem(group);
    const explain = { targetGroupIsSystem: systemFact(group) };
    return {
      create: [plan("add_user_group", { targetGroupIsSystem: system }, { explain })],
      read: [plan("get_user", {}, { fields: ["groups"] })],
      // Only `adopt` changes in place, and that calls nothing.
      update: [],
      delete: [plan("remove_user_group", { targetGroupIsSystem: system }, { explain })],
    };
  },

  // provider/resources/user-groups.ts
  UserGroups: (props, knowledge) => {
    const user = ref(props.userId);
    const listKnown = Array.isArray(props.groupIds);
    const groups = listKnown ? (props.groupIds as unknown[]).map(ref) : [];
    /** Whether some listed group answers `test` with true: true, false, or undefined when a group (or the list) is not known. */
    const some = (test: (group: string) => boolean | undefined): boolean | undefined => {
      if (!listKnown) return undefined;
      let result: boolean | undefined = false;
      for (const group of groups) {
        const answer = group === undefined ? undefined : test(group);
        if (answer === true) return true;
        if (answer === undefined) result = undefined;
      }
      return result;
    };
    const listsSystem = some((g) => knowledge.groupIsSystem(g));
    const listsAdministrators = some((g) => knowledge.groupIsAdministrators(g));
    // Create also removes the groups the user is in and the list leaves out (never All Users). A
    // user the stack creates is in none yet. Taking a user out of Administrators, which a user with
    // Global Admin is in, needs Groups Modify System.
    const inAdministrators = isAdmin(knowledge, user, "UserGroups", "create");
    const removesAdministrators =
      inAdministrators === false || listsAdministrators === true ? false : inAdministrators === true && listsAdministrators === false ? true : undefined;
    const isNew = user !== undefined && knowledge.userIsNew(user);
    const nonEmpty = listKnown ? groups.length > 0 : undefined;
    const unsureList = nonEmpty === undefined ? "whether groupIds lists any group is not known yet" : undefined;
    const listFact = listKnown
      ? "whether a listed group (not known yet, or not named in systemGroupIds) is a system group"
      : "whether groupIds (not known yet) lists a system group";
    const change = (operation: "add_user_group" | "remove_user_group", system: boolean | undefined, condition: string, fact: string, unsure?: string) =>
      plan(operation, { targetGroupIsSystem: system }, { condition, unsure, explain: { targetGroupIsSystem: fact } });
    const read = plan("get_user", {}, { fields: ["groups"] });
    const leaveFact = `whether the user (userId) is in Administrators (holds Global Admin), which groupIds${listKnown ? "" : " (not known yet)"} may leave out; list the users that do in globalAdminUserIds and the group ids in systemGroupIds`;
    return {
      create: [
        read,
        ...(isNew ? [] : [change("remove_user_group", removesAdministrators, "for each group the user is in that groupIds leaves out (All Users excepted)", leaveFact)]),
        ...(nonEmpty === false ? [] : [change("add_user_group", listsSystem, "for each listed group the user is not in yet", listFact, unsureList)]),
      ],
      read: [read],
      // Update brings the user's current groups to the new list: it may add or remove any listed group.
      update: [
        read,
        change("add_user_group", listsSystem, "for each listed group the user is not in", listFact),
        change("remove_user_group", listsSystem, "for each group the user is in that groupIds leaves out", listFact),
      ],
      delete: nonEmpty === false ? [] : [change("remove_user_group", listsSystem, "for each listed group", listFact, unsureList)],
    };
  },

  // provider/resources/user-server-assignment.ts
  UserServerAssignment: (props, knowledge) => {
    const user = ref(props.userId);
    const admin = (step: LifecycleStep) => isAdmin(knowledge, user, "UserServerAssignment", step);
    const explain = { targetUserIsGlobalAdmin: adminFact(user) };
    const read = plan("get_user", {}, { fields: ["assigned_servers"] });
    return {
      create: [read, plan("assign_user_server", { targetUserIsGlobalAdmin: admin("create") }, { condition: "unless the user is assigned already (and adopt: true)", explain })],
      read: [read],
      // Only `adopt` changes in place, and that calls nothing.
      update: [],
      delete: [plan("unassign_user_server", { targetUserIsGlobalAdmin: admin("delete") }, { explain })],
    };
  },

  // provider/resources/staging-config.ts
  StagingConfig: (props) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    return {
      create: [
        ...(adopt ? [plan("get_staging_configs", {}, adopt), plan("update_staging_config", {}, { ...adopt, condition: "with adopt: true, when the zone and image have a staging config" })] : []),
        plan("create_staging_config", {}, adopt ? { condition: "unless adopt: true finds a staging config" } : {}),
      ],
      read: [plan("get_staging_config")],
      update: [plan("update_staging_config", {}, { condition: "when a field sent to Kasm changed" })],
      delete: [plan("delete_staging_config")],
    };
  },

  // provider/resources/cast-config.ts
  CastConfig: () => ({
    create: [plan("create_cast_config")],
    // Kasm cannot read casting configs: refresh keeps the last known state and calls nothing.
    read: [],
    update: [plan("update_cast_config")],
    delete: [plan("delete_cast_config")],
  }),

  // provider/resources/server-drain.ts
  ServerDrain: () => ({
    create: [plan("set_drain_server")],
    read: [plan("get_servers")],
    update: [plan("set_drain_server")],
    // Destroy sets the server back to not draining.
    delete: [plan("set_drain_server")],
  }),

  // provider/resources/license-activation.ts
  LicenseActivation: () => ({
    create: [plan("activate")],
    // Kasm cannot read or remove licences; every change replaces (a new activation).
    read: [],
    update: [],
    delete: [],
  }),

  // provider/resources/server-import.ts
  ServerImport: (props, knowledge) => {
    // The users the rows assign (by username): undefined when the rows, or one of these usernames, are not known yet.
    const rows = serverImportRows(props, isUnknownValue);
    const rowsKnown = rows !== undefined && rows.rows.every((r) => r !== undefined);
    const assigned = (rows?.rows ?? []).flatMap((r) => (r === undefined || r.assignedUsername === undefined || r.assignedUsername === null || r.assignedUsername === "" ? [] : [r.assignedUsername]));
    const assignsUsers = assigned.length > 0 ? true : rowsKnown ? false : undefined;
    const admin = (step: LifecycleStep): boolean | undefined => {
      let result: boolean | undefined = rowsKnown ? false : undefined;
      for (const user of assigned) {
        const answer = typeof user === "string" && !isUnknownValue(user) ? knowledge.userIsGlobalAdmin(referenceKey(user), { kind: "ServerImport", step }) : undefined;
        if (answer === true) return true;
        if (answer === undefined) result = undefined;
      }
      return result;
    };
    const explain = {
      assignsUsers: "whether a row assigns a user (the rows are not known yet; a user with Global Admin would also need Users Modify Admin)",
      targetUserIsGlobalAdmin:
        "whether a user a row assigns (assignedUsername) holds Global Admin; list the users that do, by username, in globalAdminUserIds",
    };
    const importCall = (step: LifecycleStep, condition?: string) =>
      plan("batch_create_server", { assignsUsers, targetUserIsGlobalAdmin: assignsUsers === false ? false : admin(step) }, { explain, ...(condition ? { condition } : {}) });
    return {
      create: [importCall("create")],
      read: [plan("get_servers", {}, { condition: "once per server" })],
      // Kasm cannot update servers: added and changed rows are imported as new servers.
      update: [importCall("update", "when rows are added or changed")],
      // Kasm cannot delete servers: destroy only forgets them.
      delete: [],
    };
  },

  // provider/resources/egress-provider.ts
  EgressProvider: (props) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    return {
      create: [
        ...(adopt ? [plan("get_egress_providers", {}, adopt), plan("update_egress_provider", {}, { ...adopt, condition: "with adopt: true, when a provider has that name" })] : []),
        plan("create_egress_provider", {}, adopt ? { condition: "unless adopt: true finds the provider" } : {}),
      ],
      read: [plan("get_egress_providers")],
      update: [plan("update_egress_provider")],
      delete: [plan("delete_egress_provider")],
    };
  },

  // provider/resources/egress-gateway.ts
  EgressGateway: (props) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    return {
      create: [
        ...(adopt ? [plan("get_egress_gateways", {}, adopt), plan("update_egress_gateway", {}, { ...adopt, condition: "with adopt: true, when the provider has a gateway of that name" })] : []),
        plan("create_egress_gateway", {}, adopt ? { condition: "unless adopt: true finds the gateway" } : {}),
      ],
      read: [plan("get_egress_gateways")],
      update: [plan("update_egress_gateway")],
      delete: [plan("delete_egress_gateway")],
    };
  },

  // provider/resources/egress-provider-mapping.ts
  EgressProviderMapping: (props, knowledge) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    const target = (step: LifecycleStep) => egressFacts(props, knowledge, "EgressProviderMapping", step);
    const write = (operation: OperationName, step: LifecycleStep, options: CallOptions = {}) => {
      const { facts, explain } = target(step);
      return plan(operation, facts, { ...options, explain });
    };
    return {
      create: [
        ...(adopt
          ? [plan("get_egress_provider_mapping", {}, adopt), write("update_egress_provider_mapping", "create", { ...adopt, condition: "with adopt: true, when the provider has a mapping for the target" })]
          : []),
        write("create_egress_provider_mapping", "create", adopt ? { condition: "unless adopt: true finds the mapping" } : {}),
      ],
      read: [plan("get_egress_provider_mapping", {}, { condition: "once or twice: by provider, then all mappings" })],
      // Moving a mapping to another target also needs the old target's permissions; the pack sees only the new one.
      update: [write("update_egress_provider_mapping", "update")],
      delete: [write("delete_egress_provider_mapping", "delete")],
    };
  },

  // provider/resources/egress-credential.ts
  EgressCredential: (props, knowledge) => {
    const { facts, explain } = egressFacts(props, knowledge, "EgressCredential", "create");
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    return {
      // With adopt, a credential of that name is taken over as it is (Kasm cannot update it).
      create: [
        ...(adopt ? [plan("get_egress_credentials", {}, adopt)] : []),
        plan("create_egress_credential", facts, adopt ? { explain, condition: "unless adopt: true finds the credential" } : { explain }),
      ],
      read: [plan("get_egress_credentials", {}, { condition: "once or twice: by provider and name, then all credentials" })],
      // Kasm cannot change or delete a credential: every change replaces it, destroy only forgets it.
      update: [],
      delete: [],
    };
  },
};

/**
 * What each lifecycle step of a resource needs: the calls its provider makes, in order, with the
 * requirement of each (see {@link Requirement}).
 *
 * @param kind The resource's kind.
 * @param props Its properties (inputs, or the outputs that carry them); values may be unknown placeholders.
 * @param knowledge What the properties do not say (see {@link knowledgeFromFacts}).
 */
export function resourcePermissionNeeds(kind: KasmKind, props: Readonly<Record<string, unknown>>, knowledge: PermissionKnowledge): ResourceNeeds {
  const rows = KIND_ROWS[kind](props, knowledge);
  const needs = {} as Record<LifecycleStep, StepNeeds>;
  for (const step of LIFECYCLE_STEPS) {
    const calls = Object.freeze([...rows[step]]);
    needs[step] = Object.freeze({ step, calls, requirements: Object.freeze(calls.map((c) => c.requirement)) });
  }
  return Object.freeze(needs);
}

// --- judging a key -------------------------------------------------------------------------------

/** A key as a policy config describes it. */
export interface KeyDescription {
  readonly permissions: Iterable<PermissionName>;
  readonly readOnly?: boolean;
}

/** What one call lacks. */
export interface CallShortfall {
  readonly step: LifecycleStep;
  readonly call: PlannedCall;
  /** The key is Read Only and the call writes. */
  readonly refusedAsReadOnly: boolean;
  /** Needed permissions not in effect. */
  readonly missing: readonly PermissionName[];
}

/** A permission a call may need, depending on a fact that is not known. */
export interface UndecidedShortfall {
  readonly step: LifecycleStep;
  readonly call: PlannedCall;
  /** Why it is not known. */
  readonly fact: string;
  /** The permissions that would be missing. */
  readonly missing: readonly PermissionName[];
}

/** The verdict on one resource. */
export interface NeedsVerdict {
  /** Calls the key certainly cannot make (counting calls made only in some cases as made). */
  readonly shortfalls: readonly CallShortfall[];
  /** Calls the key may not be able to make, depending on what is not known. */
  readonly undecided: readonly UndecidedShortfall[];
  /** What to grant so that every shortfall goes: the missing permissions with their dependencies, less what the key holds. */
  readonly toGrant: readonly PermissionName[];
}

/** The missing permissions of one requirement against effective permissions (a oneOf with none in effect adds its held or first alternative). */
export function missingPermissions(requirement: Requirement, effective: ReadonlySet<PermissionName>, held: ReadonlySet<PermissionName>): PermissionName[] {
  const missing = requirement.all.filter((p) => !effective.has(p));
  if (requirement.oneOf.length > 0 && !requirement.oneOf.some((p) => effective.has(p))) {
    missing.push(requirement.oneOf.find((p) => held.has(p)) ?? requirement.oneOf[0]);
  }
  return missing;
}

/** Judge a key against what a resource needs: which calls it cannot make, which it may not, and what to grant. */
export function judgeNeeds(key: KeyDescription, needs: ResourceNeeds): NeedsVerdict {
  const held = new Set(key.permissions);
  const effective = effectivePermissions(held);
  const shortfalls: CallShortfall[] = [];
  const undecided: UndecidedShortfall[] = [];
  const toClose = new Set<PermissionName>();
  for (const step of LIFECYCLE_STEPS) {
    for (const call of needs[step].calls) {
      if (key.readOnly && call.access === "write") {
        if (call.unsure) undecided.push({ step, call, fact: `${call.unsure} (the key is Read Only)`, missing: [] });
        else shortfalls.push({ step, call, refusedAsReadOnly: true, missing: [] });
        continue;
      }
      const missing = missingPermissions(call.requirement, effective, held);
      if (missing.length > 0) {
        if (call.unsure) undecided.push({ step, call, fact: call.unsure, missing });
        else {
          shortfalls.push({ step, call, refusedAsReadOnly: false, missing });
          missing.forEach((p) => toClose.add(p));
          call.requirement.all.forEach((p) => toClose.add(p));
        }
      }
      for (const fact of call.undecided) {
        const lacking = fact.adds.filter((p) => !effective.has(p));
        if (lacking.length > 0) undecided.push({ step, call, fact: call.unsure ? `${fact.fact}; ${call.unsure}` : fact.fact, missing: lacking });
      }
    }
  }
  const toGrant = toClose.size === 0 ? [] : [...closeUnderDependencies(toClose)].filter((p) => !held.has(p) && !effective.has(p));
  return { shortfalls, undecided, toGrant };
}

/**
 * The smallest permission set, closed under the dependency rules, with which a key can make every
 * call of `needs` (each a resource's needs). A `oneOf` takes an alternative already in the set,
 * else one `prefer` holds, else its first. Permissions that depend on undecided facts are left out
 * (see {@link judgeNeeds} for them).
 */
export function minimalPermissions(needs: Iterable<ResourceNeeds>, prefer: Iterable<PermissionName> = []): Set<PermissionName> {
  const preferred = new Set(prefer);
  const all = new Set<PermissionName>();
  const oneOfs: (readonly PermissionName[])[] = [];
  for (const resource of needs) {
    for (const step of LIFECYCLE_STEPS) {
      for (const call of resource[step].calls) {
        call.requirement.all.forEach((p) => all.add(p));
        if (call.requirement.oneOf.length > 0) oneOfs.push(call.requirement.oneOf);
      }
    }
  }
  let closed = closeUnderDependencies(all);
  for (const choices of oneOfs) {
    if (choices.some((p) => closed.has(p))) continue;
    closed = closeUnderDependencies([...closed, choices.find((p) => preferred.has(p)) ?? choices[0]]);
  }
  return closed;
}
