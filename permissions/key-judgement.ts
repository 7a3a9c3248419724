/**
 * Judging a key against what resources need ({@link ResourceNeeds}, from
 * `resourcePermissionNeeds` in `permissions/kind-table.ts`): which calls it cannot make, which it
 * may not, what to grant, and the smallest permission set a stack needs.
 */
import { LIFECYCLE_STEPS, type LifecycleStep } from "./kinds";
import { closeUnderDependencies, effectivePermissions } from "./dependencies";
import type { PermissionName } from "./names";
import type { Requirement } from "./operations";
import type { PlannedCall, ResourceNeeds } from "./planned-calls";

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
          for (const p of [...missing, ...call.requirement.all]) toClose.add(p);
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
        for (const p of call.requirement.all) all.add(p);
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
