/**
 * `conflicting-declarations` (mandatory): no two resources of the stack manage the same Kasm
 * object, and no `GroupMembership` sits beside a `UserGroups` of the same user.
 *
 * Kasm has one attributes record per user, one group list per user, one membership per user and
 * group, one draining flag per server and one staging config per zone and image. Two resources
 * declaring the same one do not fail together: they take turns. Each update overwrites the
 * other's values, a `UserGroups` removes the memberships a `GroupMembership` adds (and the
 * membership adds them back), destroying one takes the object away while the other still declares
 * it. A link (a membership, an assignment of a server, a group's workspace, an egress provider
 * mapping) has nothing but its two ends, so the second create takes the link the first made as its
 * own, without an error. Only a second `StagingConfig` create without `adopt` meets an error, and
 * only at `up`, after the other resources of the change are applied. So this is a stack policy,
 * mandatory: it stops the preview before anything is applied, and it is the one guard against two
 * declarations of one link.
 *
 * What it compares. Ids are compared in their canonical form (32 lowercase hexadecimal digits),
 * so a hyphenated, upper-case spelling of the same id is the same object. During a preview the id
 * of a user the same stack creates is not known yet; the policy then follows the value to where
 * it comes from (its property dependencies): two resources whose `userId` is the `userId` of the
 * same `User` of the stack act on the same user, and a user the stack creates (without `adopt`)
 * is no existing user. What it cannot see: other ids not known yet (a group, zone, image or
 * server id that is the output of a resource not created yet; lookups such as `getZoneOutput`
 * run during the preview and give known ids), and objects declared by another stack or managed
 * outside Pulumi. For a pair it cannot decide it says so, as an advisory "could not decide", and
 * still reports every pair it could decide.
 */
import type { StackValidationPolicy } from "@pulumi/policy";
import { EXEMPT_PROPERTY, isExempt, tri, type Tri } from "./common";
import { referenceKey } from "../../permissions";
import type { KindInputs, PolicyProps } from "../shared/inputs";
import { connectionOf, isUnknownValue, kindOf, label, rawProps, undecidable, type KasmKind, type RawProps } from "../shared/kasm";

export const NAME = "conflicting-declarations";

/** A resource of one of the kinds this policy compares. */
interface Entry {
  readonly kind: KasmKind;
  readonly name: string;
  readonly urn: string;
  readonly props: RawProps;
  /** The connection of the installation its object lives on (see `connectionOf`). */
  readonly connection: string | undefined;
  /** property -> the URNs of the resources its value comes from. */
  readonly from: Readonly<Record<string, readonly string[]>>;
}

/** Two kinds that must not both declare the same object, keyed by `keys`. */
interface Rule {
  readonly kinds: readonly [KasmKind, KasmKind];
  /**
   * The properties that name the object; the pair conflicts when every one names the same object.
   * Each is an input of both kinds (see {@link rule}).
   */
  readonly keys: readonly string[];
  /**
   * Keys a resource of the rule may leave out (an egress provider mapping's target is one of
   * `userId`, `groupId` and `imageId`): two that both leave one out agree on it, one that leaves it
   * out and one that sets it do not.
   */
  readonly optional?: readonly string[];
  /** What both manage, for the message: `the attributes of the same user`. */
  readonly what: string;
  /** What happens if both are applied. */
  readonly why: string;
  /** The way out. */
  readonly fix: string;
}

/** A rule whose keys are checked, when compiled, against both kinds' declared inputs. */
function rule<A extends KasmKind, B extends KasmKind>(
  definition: Omit<Rule, "kinds" | "keys" | "optional"> & {
    readonly kinds: readonly [A, B];
    readonly keys: readonly (keyof KindInputs[A] & keyof KindInputs[B] & string)[];
    readonly optional?: readonly (keyof KindInputs[A] & keyof KindInputs[B] & string)[];
  },
): Rule {
  return definition;
}

/**
 * Two declarations of one link of `kind`, named by its two ends (`keys`): a link has nothing but
 * them, so the second create records the link the first made (no error), and destroying either
 * removes it.
 */
function linkRule<K extends KasmKind>(kind: K, keys: readonly (keyof KindInputs[K] & string)[], what: string): Rule {
  return rule({
    kinds: [kind, kind],
    keys,
    what,
    why: "both record the one link Kasm has (the second create finds it made and takes it as its own), and destroying either removes it while the other still declares it",
    fix: "Keep one of them.",
  });
}

const RULES: readonly Rule[] = [
  rule({
    kinds: ["UserAttributes", "UserAttributes"],
    keys: ["userId"],
    what: "the attributes of the same user",
    why: "each update overwrites the other's values",
    fix: "Declare one UserAttributes per user.",
  }),
  rule({
    kinds: ["UserGroups", "UserGroups"],
    keys: ["userId"],
    what: "the groups of the same user",
    why: "each sets the user's groups exactly and removes the groups the other lists",
    fix: "Declare one UserGroups per user, with every group in its groupIds.",
  }),
  rule({
    kinds: ["UserGroups", "GroupMembership"],
    keys: ["userId"],
    what: "the groups of the same user",
    why: "UserGroups sets the user's groups exactly and removes the membership the GroupMembership adds, which adds it back: each undoes the other",
    fix: "Put the group in the UserGroups' groupIds and remove the GroupMembership, or manage this user with GroupMemberships only.",
  }),
  linkRule("GroupMembership", ["userId", "groupId"], "the same membership (the same user in the same group)"),
  linkRule("UserServerAssignment", ["userId", "serverId"], "the same assignment (the same user and server)"),
  linkRule("GroupWorkspace", ["groupId", "imageId"], "the same authorization (the same group and workspace)"),
  rule({
    kinds: ["EgressProviderMapping", "EgressProviderMapping"],
    keys: ["egressProviderId", "userId", "groupId", "imageId"],
    optional: ["userId", "groupId", "imageId"],
    what: "the same egress provider mapping (the same provider and target)",
    why: "Kasm keeps one mapping per provider and target: both take it over, each update sets its gateways and enabled to its own values, and destroying either deletes it while the other still declares it",
    fix: "Keep one EgressProviderMapping per provider and target.",
  }),
  rule({
    kinds: ["ServerDrain", "ServerDrain"],
    keys: ["serverId"],
    what: "the draining of the same server",
    why: "each sets the server's draining flag to its own value, and destroying either stops the draining the other declares",
    fix: "Declare one ServerDrain per server.",
  }),
  rule({
    kinds: ["StagingConfig", "StagingConfig"],
    keys: ["zoneId", "imageId"],
    what: "the staging config of the same zone and image",
    why: "Kasm keeps one per zone and image: the second create fails (or, with adopt, both manage one staging config and overwrite each other's settings)",
    fix: "Keep one StagingConfig per zone and image.",
  }),
];

const KINDS = new Set<KasmKind>(RULES.flatMap((r) => r.kinds));

/** How the stack's own users are named: their canonical id once known, else a reference to their resource. */
interface StackUsers {
  /** canonical id -> the User resource's URN. */
  readonly byId: ReadonlyMap<string, string>;
  /** URNs of the stack's User resources. */
  readonly urns: ReadonlySet<string>;
  /** URNs of Users that may adopt an existing user (`adopt` true or not known yet): their id may be any existing user's. */
  readonly adopting: ReadonlySet<string>;
}

/** What a reference property names: an existing object by canonical id, a User of the stack, or not known. */
type Target = { readonly id: string } | { readonly stackUser: string } | undefined;

function targetOf(entry: Entry, property: string, users: StackUsers): Target {
  const value = entry.props[property];
  if (typeof value === "string" && value !== "" && !isUnknownValue(value)) {
    const id = referenceKey(value);
    const urn = property === "userId" ? users.byId.get(id) : undefined;
    return urn ? { stackUser: urn } : { id };
  }
  if (property !== "userId") return undefined;
  // Not known yet: the value of a User's userId is that user, whatever its id turns out to be.
  const sources = (entry.from[property] ?? []).filter((urn) => users.urns.has(urn));
  return sources.length === 1 ? { stackUser: sources[0] } : undefined;
}

/** Whether two targets are the same object. */
function sameTarget(a: Target, b: Target, users: StackUsers): Tri {
  if (a === undefined || b === undefined) return undefined;
  if ("id" in a && "id" in b) return a.id === b.id;
  if ("stackUser" in a && "stackUser" in b) return a.stackUser === b.stackUser;
  // A user the stack creates is a new user, unlike any that exists; one it may adopt could be any.
  const stackUser = "stackUser" in a ? a.stackUser : (b as { stackUser: string }).stackUser;
  return users.adopting.has(stackUser) ? undefined : false;
}

/** Whether two resources agree on a key either may leave out (see {@link Rule.optional}). */
function sameOptional(a: Entry, b: Entry, property: string, users: StackUsers): Tri {
  const leftOut = (entry: Entry) => entry.props[property] === undefined || entry.props[property] === null;
  if (leftOut(a) || leftOut(b)) return leftOut(a) && leftOut(b);
  return sameTarget(targetOf(a, property, users), targetOf(b, property, users), users);
}

export const conflictingDeclarations: StackValidationPolicy = {
  name: NAME,
  description:
    "No two resources manage the same Kasm object: one UserAttributes and one UserGroups (not mixed with GroupMembership) per user, one GroupMembership per user " +
    "and group, one UserServerAssignment per user and server, one GroupWorkspace per group and workspace, one EgressProviderMapping per provider and target, " +
    "one ServerDrain per server, one StagingConfig per zone and image, within each installation. Ids compare in any spelling; a userId not known during preview is followed to " +
    "the User of the stack it comes from; other values not known yet give an advisory 'could not decide'.",
  enforcementLevel: "mandatory",
  severity: "high",
  tags: ["kasm", "users", "groups", "staging", "servers", "workspaces", "egress", "correctness"],
  remediationSteps: "Keep one resource per Kasm object; for a user, manage its groups with one UserGroups or with GroupMemberships, not both.",
  configSchema: { properties: { ...EXEMPT_PROPERTY } },
  validateStack: (args, reportViolation) => {
    const config = args.getConfig<Record<string, unknown>>();
    const byId = new Map<string, string>();
    const urns = new Set<string>();
    const adopting = new Set<string>();
    const entries: Entry[] = [];
    for (const r of args.resources) {
      const kind = kindOf(r);
      if (!kind) continue;
      const props = rawProps(r.props);
      if (kind === "User") {
        const user: PolicyProps<"User"> = props;
        urns.add(r.urn);
        if (user.adopt !== undefined && user.adopt !== false) adopting.add(r.urn);
        if (typeof user.userId === "string" && user.userId !== "" && !isUnknownValue(user.userId)) byId.set(referenceKey(user.userId), r.urn);
        continue;
      }
      if (!KINDS.has(kind) || isExempt(config, r.name)) continue;
      const from = Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([property, deps]) => [property, deps.map((d) => d.urn)]));
      entries.push({ kind, name: r.name, urn: r.urn, props, connection: connectionOf(r), from });
    }
    if (entries.length < 2) args.notApplicable("the stack has fewer than two resources of the kinds this policy compares");
    // The CLI registers resources in parallel, so the order they arrive in changes from run to run:
    // compared in URN order, a pair is named, and reported, the same way every time.
    entries.sort((p, q) => (p.urn < q.urn ? -1 : p.urn > q.urn ? 1 : 0));
    const users: StackUsers = { byId, urns, adopting };

    const undecided: string[] = [];
    for (let j = 1; j < entries.length; j++) {
      for (let i = 0; i < j; i++) {
        // Objects of two installations (kasm.Connection, or two native providers) are two objects, whatever their keys.
        if (entries[i].connection !== entries[j].connection) continue;
        for (const rule of RULES) {
          const [x, y] = rule.kinds;
          const pair =
            entries[i].kind === x && entries[j].kind === y
              ? [entries[i], entries[j]]
              : entries[i].kind === y && entries[j].kind === x
                ? [entries[j], entries[i]]
                : undefined;
          if (!pair) continue;
          const [a, b] = pair;
          const answers = rule.keys.map((key) =>
            rule.optional?.includes(key) ? sameOptional(a, b, key, users) : sameTarget(targetOf(a, key, users), targetOf(b, key, users), users),
          );
          const same = tri.and(...answers);
          const names = `${label(a.kind, a.name)} and ${label(b.kind, b.name)}`;
          const keys = rule.keys.join(" and ");
          const unknownKeys = rule.keys.filter((_, k) => answers[k] === undefined);
          if (same === true) {
            // Two resources of one kind can share a name under different parents: then the URN tells them apart.
            const urns = a.name === b.name ? ` (${a.urn} and ${b.urn})` : "";
            // On the second of the pair: the rule's second kind (the one its fix removes), or the later URN of one kind.
            reportViolation(`${names}${urns} both manage ${rule.what} (${keys}): ${rule.why}. ${rule.fix}`, b.urn);
          } else if (same === undefined) {
            undecided.push(
              `whether ${names} manage ${rule.what}: their ${unknownKeys.join(" and ")} cannot be compared yet ` +
                `(a value not known during preview that is not the userId of one User of this stack, or a User that may adopt an existing user)`,
            );
          }
        }
      }
    }
    if (undecided.length > 0) throw undecidable(`could not decide ${undecided.join("; ")}`);
  },
};
