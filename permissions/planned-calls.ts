/**
 * The building blocks of the kinds' calls declarations: what one step of a resource needs (its
 * planned calls), {@link plan} to build a call from three-valued facts, {@link declareCalls} to
 * name a kind's declaration, and the small readers of properties the declarations share. The
 * declarations themselves lie beside the kinds they describe (`provider/resources/<kind>.calls.ts`,
 * or `calls.ts` in a kind's folder), and `kind-table.ts` assembles them into `KIND_ROWS`.
 *
 * And what the declarations ask that a resource's properties do not say about the target Kasm
 * ({@link PermissionKnowledge}: is this group a system group, does this user hold Global Admin,
 * ...), how users and groups are named when asking it ({@link referenceKey}), and the knowledge
 * built from plain facts ({@link knowledgeFromFacts}), as the policy packs build it from their config.
 *
 * And the two things every reader of a property value must know, which those readers are built
 * on and the provider, the lookups and the policy packs share with them: how Kasm ids are written
 * ({@link canonicalId}, the one id pattern and normaliser outside the emulator), and the values
 * Pulumi's engine puts in place of what it does not know yet ({@link isUnknownValue}). They live
 * here, with the readers that need both, so that reading a property is one module; like the rest
 * of it, they are free of zod and of the provider's runtime.
 */
import type { PreviewNoteOf, KasmKind, LifecycleStep, WORKSPACE_RESOURCE_PROPERTIES } from "./kinds";
import type { PermissionName } from "./names";
import {
  OPERATIONS,
  USER_FIELD_PERMISSIONS,
  requiredPermissions,
  type ContextFlag,
  type OperationContext,
  type OperationName,
  type Requirement,
} from "./operations";

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
export type Facts = Partial<Record<ContextFlag, boolean | undefined>>;

/** How a call is made: the answer fields it reads, when it is made, and words for what is not known. */
export interface CallOptions {
  readonly fields?: readonly UserField[];
  readonly condition?: string;
  readonly unsure?: string;
  /** Words for each flag that may be undefined, for {@link UndecidedFact.fact}. */
  readonly explain?: Partial<Record<ContextFlag, string>>;
}

/** Build one planned call from three-valued facts. */
export function plan(operation: OperationName, facts: Facts = {}, options: CallOptions = {}): PlannedCall {
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

/**
 * The properties each kind's row reads, by name. A calls declaration imports nothing of the
 * provider's runtime (the policy packs load it without zod or the client), so it names them here; `test/types/row-properties.test-d.ts` checks every name against the kind's
 * declared inputs and outputs (and the notes a native preview adds, `PREVIEW_NOTES`), so a misspelt or renamed property fails to compile there, and a
 * row that reads a property not named here fails to compile here.
 */
export interface RowProperties {
  readonly User: "userId" | "username" | "adopt" | "forceDelete";
  readonly UserSet: "users" | "csv" | "adopt" | "forceDelete" | "groupsMode";
  readonly UserAttributes: "userId" | (typeof USER_ATTRIBUTE_PROPERTIES)[number];
  readonly GroupMembership: "userId" | "groupId";
  readonly UserGroups: "userId" | "groupIds";
  readonly UserServerAssignment: "userId";
  readonly StagingConfig: "adopt";
  readonly CastConfig: "groupId" | "castConfigId" | "adopt" | PreviewNoteOf<"CastConfig">;
  readonly ServerDrain: never;
  readonly LicenseActivation: never;
  readonly ServerImport: "servers" | "csv";
  readonly Group: "adopt";
  readonly EgressProvider: "adopt";
  readonly EgressGateway: "adopt";
  readonly EgressProviderMapping: EgressTargetProperty;
  readonly EgressCredential: EgressTargetProperty | "adopt";
  readonly Workspace: "adopt" | "imageId" | (typeof WORKSPACE_RESOURCE_PROPERTIES)[number] | PreviewNoteOf<"Workspace">;
  readonly GroupWorkspace: "groupId";
  readonly WorkspaceRegistry: "adopt" | "autoUpdate";
}

/** The attributes a UserAttributes writes with update_user_attributes (its other input, `userId`, names the user). */
export const USER_ATTRIBUTE_PROPERTIES = ["sshPublicKey", "defaultImage", "showTips", "toggleControlPanel", "autoLoginWs"] as const;

/** What an egress mapping or credential is for: one user, group or image. */
type EgressTargetProperty = "userId" | "groupId" | "imageId";

/** A kind's properties as its row reads them: the names {@link RowProperties} gives, values as the policy sees them. */
export type RowProps<K extends KasmKind> = { readonly [P in RowProperties[K]]?: unknown };

/** A row: the calls of each step for one resource of kind `K`, from its properties. */
export type Row<K extends KasmKind = KasmKind> = (props: RowProps<K>, knowledge: PermissionKnowledge) => Readonly<Record<LifecycleStep, PlannedCall[]>>;

/** The rows of some kinds, each typed by its kind's properties. */
export type Rows<K extends KasmKind> = { readonly [Kind in K]: Row<Kind> };

/**
 * What a kind's provider calls, declared once beside the kind: for one resource's properties,
 * the calls each lifecycle step makes, in order ({@link Row}). The permissions table
 * (`KIND_ROWS`) is assembled from these, and the provider's client refuses, in each step, an
 * operation its kind's declaration does not list for that step (`provider/resources/framework/connections.ts`).
 */
export interface KindCalls<K extends KasmKind = KasmKind> {
  /** The kind, as the catalogue names it. */
  readonly kind: K;
  /** The calls of each step, for one resource's properties. */
  readonly steps: Row<K>;
}

/** A kind's calls declaration (see {@link KindCalls}). */
export function declareCalls<K extends KasmKind>(kind: K, steps: Row<K>): KindCalls<K> {
  return Object.freeze({ kind, steps });
}

/** A three-valued boolean property: true, false (absent counts as false), or undefined when not known. */
export function flag(value: unknown): boolean | undefined {
  if (isUnknownValue(value)) return undefined;
  return value === true;
}

/** A user or group reference from a property, or undefined when not known. */
export function ref(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "" || isUnknownValue(value)) return undefined;
  return referenceKey(value);
}

/** Whether a property is declared (given, known or not). */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/*
 * The words for facts that are not known. They name properties, never their values: a policy
 * must not print property values (secrets reach policies unwrapped).
 */
/** The words for not knowing whether a user (named by `property`) holds Global Admin. */
export function adminFact(user: string | undefined, property = "userId"): string {
  return user === undefined
    ? `whether the user (${property}, not known yet) holds Global Admin; list the users that do in globalAdminUserIds (by username for users the stack declares), and the pack decides it during the update, once the id is known`
    : `whether the user (${property}) holds Global Admin; list the users that do in globalAdminUserIds`;
}

/**
 * The words for what a dynamic resource's preview cannot tell: Pulumi's dynamic-provider host takes
 * no part in previews, so a stack policy sees an update's new inputs as its outputs, the same as a
 * create's, and never what the update changes (see `PREVIEW_NOTES` in permissions/kinds.ts).
 */
export const DYNAMIC_PREVIEW =
  "a dynamic resource's preview shows a policy its new inputs only; the native provider's preview of an update says what it changes (or grant the permission)";

/** The words for not knowing whether a group is a system group. */
export function systemFact(group: string | undefined): string {
  return group === undefined
    ? "whether the group (groupId, not known yet) is a system group (All Users or Administrators); give their ids in systemGroupIds, and the pack decides it during the update, once the id is known"
    : "whether the group (groupId) is a system group (All Users or Administrators); give their ids in systemGroupIds";
}

/** Global Admin of a user reference, undefined when the reference is not known. */
export function isAdmin(knowledge: PermissionKnowledge, user: string | undefined, kind: KasmKind, step: LifecycleStep): boolean | undefined {
  return user === undefined ? undefined : knowledge.userIsGlobalAdmin(user, { kind, step });
}

/** The egress target of a mapping or credential, as three-valued facts for one step. */
export function egressFacts(
  props: RowProps<"EgressProviderMapping" | "EgressCredential">,
  knowledge: PermissionKnowledge,
  kind: KasmKind,
  step: LifecycleStep,
): { facts: Facts; explain: Partial<Record<ContextFlag, string>> } {
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
export function adoptOptions(adopt: unknown, condition: string): CallOptions | undefined {
  const value = flag(adopt);
  if (value === false) return undefined;
  return value === true ? { condition } : { unsure: "whether adopt is set is not known yet", condition };
}

/** The operations and words of a {@link namedObjectRow}. */
export interface NamedObject {
  /** The listing the key is looked up in, first, with adopt or without; also the read. */
  readonly list: OperationName;
  readonly create: OperationName;
  readonly update: OperationName;
  readonly remove: OperationName;
  /** What a take-over finds, for the update's condition: `a group has that name`. */
  readonly found: string;
  /** The object, for the create's condition: `group`. */
  readonly noun: string;
}

/**
 * The row of a kind whose object is found by its natural key in a listing (a group, an egress
 * provider or gateway): the create looks the key up first, with adopt or without (the kind's
 * `findFirst`), and with adopt updates what it finds instead of creating; read lists; update and
 * delete are one call each.
 */
export function namedObjectRow(adoptInput: unknown, how: NamedObject): Readonly<Record<LifecycleStep, PlannedCall[]>> {
  const adopt = adoptOptions(adoptInput, "with adopt: true");
  return {
    create: [
      plan(how.list),
      ...(adopt ? [plan(how.update, {}, { ...adopt, condition: `with adopt: true, when ${how.found} that differs from the program` })] : []),
      plan(how.create, {}, adopt ? { condition: `unless adopt: true finds the ${how.noun}` } : {}),
    ],
    read: [plan(how.list)],
    update: [plan(how.update)],
    delete: [plan(how.remove)],
  };
}

// --- what is known of the target Kasm ---------------------------------------------------------------

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

// --- Kasm ids ---------------------------------------------------------------------------------------

/*
 * Kasm ids as the provider, the lookups and the policy packs read them: the one id pattern and
 * the one normaliser outside the emulator (the emulator keeps its own on purpose, so that it
 * models the product independently and the two cannot share a mistake).
 *
 * Kasm writes ids as 32 lowercase hexadecimal digits; some answers (notably `user_id` in
 * `get_users`) and many programs write them as hyphenated UUIDs, and either may be upper case.
 * All of these name the same object.
 *
 * Free of zod: a program's SDK loads them, and the schema that reads ids on the wire is the
 * client's (`Id`, provider/api/schemas/common.ts), built on this pattern and normaliser.
 */

/** A Kasm id as it may be written: 32 hexadecimal digits, or a hyphenated UUID, in either case. */
export const KASM_ID_PATTERN = /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** What a program reads when an input is not a Kasm id. */
export const KASM_ID_MESSAGE = "must be a Kasm id: 32 hexadecimal digits, or a hyphenated UUID";

/** Whether `value` is a Kasm id in any of its spellings. */
export function isKasmId(value: unknown): value is string {
  return typeof value === "string" && KASM_ID_PATTERN.test(value.trim());
}

/**
 * The canonical form of a Kasm id: 32 lowercase hexadecimal digits, no hyphens. A value that is
 * not an id in any spelling (a username, a reference made up for an object not created yet) comes
 * back unchanged; null and undefined come back as "".
 *
 * @example canonicalId("6E1A5C0C-1F4B-4F6A-9F52-35E1C0A2B3D4") // "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4"
 */
export function canonicalId(value: unknown): string {
  const text = String(value ?? "");
  const trimmed = text.trim();
  return KASM_ID_PATTERN.test(trimmed) ? trimmed.replace(/-/g, "").toLowerCase() : text;
}

/** Whether two values name the same Kasm object, whatever the spelling of their ids. */
export function sameId(a: unknown, b: unknown): boolean {
  return a != null && b != null && canonicalId(a) === canonicalId(b);
}

/**
 * The resource id of an object named by two others (a membership: user and group; a group's
 * workspace: group and image): their canonical ids, joined by a colon.
 */
export function pairId(first: unknown, second: unknown): string {
  return `${canonicalId(first)}:${canonicalId(second)}`;
}

// --- values not known yet ---------------------------------------------------------------------------

/*
 * Values Pulumi's engine puts in place of what it does not know yet, shared by the provider (which
 * leaves them out of validation) and the policy packs (which leave them undecided).
 */

/** The placeholder a dynamic provider sees for a value not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * Pulumi's placeholders for values not known during preview (one per type, as the engine sends
 * them; the string one is also what dynamic providers see).
 */
export const UNKNOWN_SENTINELS: readonly string[] = Object.freeze([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // boolean
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
  UNKNOWN, // string
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
  "030794c1-ac77-496b-92df-f27374a8bd58", // asset
  "e48ece36-62e2-4504-bad9-02848725956a", // archive
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
]);

/** Whether a value is not known yet (a placeholder of the engine's). Values inside arrays are looked at by the caller. */
export function isUnknownValue(value: unknown): boolean {
  return typeof value === "string" && UNKNOWN_SENTINELS.includes(value);
}
