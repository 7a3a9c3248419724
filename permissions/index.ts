/**
 * The Kasm permission catalogue: names, dependency rules, and what every public operation needs.
 *
 * One source of truth for the emulator (which enforces it), the API client (which names the
 * permissions of a refused call) and the policy packs (which check a stack before it is applied).
 *
 * @example
 * ```ts
 * const verdict = authorize({ permissions: ["Users View", "Users Modify"] }, "update_user", { targetUserIsGlobalAdmin: true });
 * verdict.allowed; // false
 * verdict.toGrant; // ["Users Modify Admin"]
 * ```
 */
import { closeUnderDependencies, effectivePermissions } from "./dependencies";
import type { PermissionName } from "./names";
import { OPERATIONS, requiredPermissions, type OperationContext, type OperationName } from "./operations";

export * from "./names";
export * from "./dependencies";
export * from "./operations";
export * from "./kinds";
export * from "./kind-table";
// The ids and unknown values that every reader of a property value shares, from the readers' module (not all of it).
export { KASM_ID_PATTERN, KASM_ID_MESSAGE, isKasmId, canonicalId, sameId, pairId, UNKNOWN, UNKNOWN_SENTINELS, isUnknownValue } from "./planned-calls";
export * from "./product";

/** What a key holds. */
export interface KeyPermissions {
  readonly permissions: Iterable<PermissionName>;
  /** The key's Read Only setting: it overrides the permissions and allows read operations only. */
  readonly readOnly?: boolean;
}

/** The verdict on one call. */
export interface Authorization {
  readonly allowed: boolean;
  /** Refused because the key is Read Only and the operation writes. */
  readonly refusedAsReadOnly: boolean;
  /** Needed permissions that are not in effect (not held, or held without their dependencies). */
  readonly missing: readonly PermissionName[];
  /** What to grant the key so the call is allowed: the missing permissions and their dependencies, less what it holds. */
  readonly toGrant: readonly PermissionName[];
  /** Why contextual permissions were needed. */
  readonly reasons: readonly string[];
}

/** Decide whether a key may call `operation` in `context`, and what it lacks if not. */
export function authorize(key: KeyPermissions, operation: OperationName, context: OperationContext = {}): Authorization {
  const held = new Set(key.permissions);
  const requirement = requiredPermissions(operation, context);
  if (key.readOnly && OPERATIONS[operation].access !== "read") {
    return { allowed: false, refusedAsReadOnly: true, missing: [], toGrant: [], reasons: ["the key is Read Only"] };
  }
  const effective = effectivePermissions(held);
  const missing = requirement.all.filter((p) => !effective.has(p));
  const needed: PermissionName[] = [...requirement.all];
  if (requirement.oneOf.length > 0 && !requirement.oneOf.some((p) => effective.has(p))) {
    // Suggest the alternative that is closest to being in effect: one already held, else the first.
    const pick = requirement.oneOf.find((p) => held.has(p)) ?? requirement.oneOf[0];
    missing.push(pick);
    needed.push(pick);
  }
  const toGrant = missing.length === 0 ? [] : [...closeUnderDependencies(needed)].filter((p) => !held.has(p));
  return { allowed: missing.length === 0, refusedAsReadOnly: false, missing, toGrant, reasons: requirement.reasons };
}
