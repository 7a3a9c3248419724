/**
 * What a whole stack of Kasm resources needs of the API key.
 *
 * One resource's needs depend on the others: a User the stack creates is in no group and holds no
 * Global Admin until a GroupMembership or UserGroups of the same stack puts it into
 * Administrators, and then changing it needs Users Modify Admin. During preview the ids that link
 * them are not known yet, so resources are linked by their property dependencies instead: a
 * UserAttributes whose `userId` comes from a User of the stack acts on that User.
 *
 * This file resolves those links into references and facts, then asks the shared table
 * (`permissions/kind-table.ts`) what each resource needs.
 */
import {
  knowledgeFromFacts,
  referenceKey,
  resourcePermissionNeeds,
  type KasmKind,
  type KnownFacts,
  type PermissionKnowledge,
  type ResourceNeeds,
} from "../../permissions";
import { configFacts, type KeyConfig } from "./config";
import type { PolicyProps } from "../shared/inputs";
import { connectionOf, isUnknownValue, kindOf, rawProps, type ProviderOfResource } from "../shared/kasm";

/** A resource as a stack policy receives it (a subset of @pulumi/policy's `PolicyResource`). */
export interface StackResource {
  readonly type: string;
  readonly name: string;
  readonly urn: string;
  readonly props: unknown;
  /** Its provider (the installation of a native resource, see `connectionOf`). */
  readonly provider?: ProviderOfResource;
  /** The resources each property's value comes from. */
  readonly propertyDependencies?: Readonly<Record<string, readonly { readonly type: string; readonly urn: string }[]>>;
}

/** One Kasm resource of the stack, of kind `K`, with its user references resolved. */
export interface KindEntry<K extends KasmKind> {
  readonly kind: K;
  readonly name: string;
  readonly urn: string;
  /** The properties as given (unknown values included; `__` properties left out), typed as the kind declares them. */
  readonly props: PolicyProps<K>;
  /** The properties with `userId` replaced by a reference to the user, when it can be resolved. */
  readonly resolved: PolicyProps<K>;
}

/** One Kasm resource of the stack, of whichever kind: `entry.kind` narrows its properties' type. */
export type KasmEntry = { [K in KasmKind]: KindEntry<K> }[KasmKind];

/** A stack resource of kind `K` with its properties and their dependencies, before user references are resolved. */
interface Declared<K extends KasmKind> {
  readonly kind: K;
  readonly name: string;
  readonly urn: string;
  readonly props: PolicyProps<K>;
  readonly dependencies: NonNullable<StackResource["propertyDependencies"]>;
}
type AnyDeclared = { [K in KasmKind]: Declared<K> }[KasmKind];

/** The stack's Kasm resources and what each needs. */
export interface StackAnalysis {
  readonly entries: readonly (KasmEntry & { readonly needs: ResourceNeeds })[];
  readonly knowledge: PermissionKnowledge;
}

/** Kinds with a `userId` input naming the user they act on. */
const USER_TARGETED = [
  "UserAttributes",
  "GroupMembership",
  "UserGroups",
  "UserServerAssignment",
  "EgressProviderMapping",
  "EgressCredential",
] as const satisfies readonly KasmKind[];
type UserTargetedKind = (typeof USER_TARGETED)[number];

function isUserTargeted(r: AnyDeclared): r is Declared<UserTargetedKind> {
  return (USER_TARGETED as readonly KasmKind[]).includes(r.kind);
}

/** The reference of a User resource of the stack (its id is not known before it is created). */
function stackUserRef(urn: string): string {
  return referenceKey(`stack-user:${urn}`);
}

/**
 * Resolve the stack: its Kasm resources, their user references, and the facts the stack adds to
 * the config's (which users it creates, and whose Global Admin its group resources change).
 */
export function analyseStack(resources: readonly StackResource[], config: KeyConfig): StackAnalysis {
  const kasm = resources.flatMap((r): AnyDeclared[] => {
    const kind = kindOf(r);
    // The properties are the kind's as the engine hands them over (see PolicyProps).
    return kind ? [{ kind, name: r.name, urn: r.urn, props: rawProps(r.props), dependencies: r.propertyDependencies ?? {} } as AnyDeclared] : [];
  });

  // The stack's users, and every known name of each: its id once created, and its username.
  const byName = new Map<string, string>();
  const userUrns = new Set<string>();
  /** Users the stack creates; one it may adopt (`adopt` not false) may exist already, with groups. */
  const newUserUrns = new Set<string>();
  for (const r of kasm) {
    if (r.kind !== "User") continue;
    const ref = stackUserRef(r.urn);
    userUrns.add(r.urn);
    if (r.props.adopt === undefined || r.props.adopt === false) newUserUrns.add(r.urn);
    for (const value of [r.props.userId, r.props.username]) {
      if (typeof value === "string" && value !== "" && !isUnknownValue(value)) byName.set(referenceKey(value), ref);
    }
  }

  /** The reference of the user a resource's `userId` names: a user of the stack, a known id, or undefined when not known. */
  const userOf = (r: Declared<UserTargetedKind>): string | undefined => {
    const value: unknown = r.props.userId;
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string" && !isUnknownValue(value)) return byName.get(referenceKey(value)) ?? referenceKey(value);
    const from = (r.dependencies.userId ?? []).filter((d) => userUrns.has(d.urn));
    return from.length === 1 ? stackUserRef(from[0].urn) : undefined;
  };

  const entries = kasm.map((r): KasmEntry => {
    const user = r.kind === "User" ? stackUserRef(r.urn) : isUserTargeted(r) ? userOf(r) : undefined;
    const resolved = user === undefined ? r.props : { ...r.props, userId: user };
    // The same kind's properties, with `userId` resolved (TypeScript cannot follow the kind through the union).
    return { kind: r.kind, name: r.name, urn: r.urn, props: r.props, resolved } as KasmEntry;
  });

  // Config lists name users by id or username: a user of the stack may be named either way.
  const base = configFacts(config);
  const alias = (names: readonly string[] | undefined) => names && [...names, ...names.flatMap((n) => (byName.has(n) ? [byName.get(n)!] : []))];
  const configKnowledge = knowledgeFromFacts(base);

  // Whose Global Admin the stack's group resources change.
  const adminAfterStack = new Map<string, boolean | undefined>();
  let unattributedAdminGrant = false;
  const grant = (user: unknown, value: boolean | undefined) => {
    if (typeof user !== "string" || isUnknownValue(user)) {
      if (value !== false) unattributedAdminGrant = true;
      return;
    }
    const key = referenceKey(user);
    const previous = adminAfterStack.get(key);
    adminAfterStack.set(key, previous === true || value === true ? true : adminAfterStack.has(key) && previous === undefined ? undefined : value);
  };
  const isAdministrators = (group: unknown): boolean | undefined =>
    typeof group !== "string" || isUnknownValue(group) ? undefined : configKnowledge.groupIsAdministrators(referenceKey(group));
  for (const e of entries) {
    if (e.kind === "GroupMembership") {
      const admins = isAdministrators(e.resolved.groupId);
      if (admins !== false) grant(e.resolved.userId, admins);
    } else if (e.kind === "UserGroups") {
      const list = e.resolved.groupIds;
      let admins: boolean | undefined = Array.isArray(list) ? false : undefined;
      if (Array.isArray(list)) {
        for (const group of list) {
          const answer = isAdministrators(group);
          if (answer === true) {
            admins = true;
            break;
          }
          if (answer === undefined) admins = undefined;
        }
      }
      grant(e.resolved.userId, admins);
    }
  }

  const facts: KnownFacts = {
    ...base,
    globalAdminUsers: alias(base.globalAdminUsers),
    usersWithSessions: alias(base.usersWithSessions),
    newUsers: [...newUserUrns].map(stackUserRef),
    adminAfterStack,
    unattributedAdminGrant,
  };
  const knowledge = knowledgeFromFacts(facts);
  return {
    knowledge,
    entries: entries.map((e) => ({ ...e, needs: resourcePermissionNeeds(e.kind, e.resolved, knowledge) })),
  };
}

/**
 * The stack's resources by the installation their objects live on (a Kasm resource's
 * connection, see `connectionOf`; undefined for the default one, and for every resource that is not Kasm's), in
 * the stack's order: each installation is judged against its own key.
 */
export function byInstallation<R extends StackResource>(resources: readonly R[]): Map<string | undefined, R[]> {
  const groups = new Map<string | undefined, R[]>();
  for (const resource of resources) {
    const connection = kindOf(resource) ? connectionOf(resource) : undefined;
    const group = groups.get(connection);
    if (group) group.push(resource);
    else groups.set(connection, [resource]);
  }
  return groups;
}
