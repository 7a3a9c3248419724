/**
 * The spec's permission dependency rules (1-10), as data.
 *
 * Kasm refuses a permission whose dependencies the key does not also hold: a key with
 * `Licenses View` but without `System View` cannot view licenses. So a permission is *effective*
 * only when it is held and every permission it depends on is effective, recursively. The emulator
 * authorises against effective permissions, and the policy packs report the missing dependencies.
 */
import { ALL_PERMISSIONS, PERMISSION_FAMILIES, type PermissionFamily, type PermissionName } from "./names";

/** One dependency: `permission` needs every permission of `needs`, by the spec's rule `rule`. */
export interface PermissionDependency {
  readonly rule: number;
  readonly permission: PermissionName;
  readonly needs: readonly PermissionName[];
  readonly description: string;
}

/** The spec's wording of each rule, by number. */
export const DEPENDENCY_RULES: Readonly<Record<number, string>> = {
  1: "A Modify, Create or Delete permission needs the matching View permission.",
  2: "Licenses View needs System View.",
  3: "Permissions View needs Groups View.",
  4: "Registries View needs Images View, System View and Agents View.",
  5: "Autoscale View, Autoscale Schedule View and DNS Providers View each need Server Pools View.",
  6: "VM Providers View needs Server Pools View and Autoscale View.",
  7: "Users Delete needs Users Modify, and Sessions Delete when the target has running sessions, and Users Modify Admin when the target has Global Admin.",
  8: "Egress Gateways Create, Modify, Delete and Egress Credentials Create, Modify, Delete each need Egress Providers Modify.",
  9: "Servers View and Server Templates View need Server Pools View and Zones View.",
  10: "Some UI elements are hidden when a related View permission is missing (no effect on the API).",
};

/**
 * The View permission an action of a family depends on under rule 1, or undefined.
 * `Modify IfMember` needs `View IfMember` and `Modify System`/`Delete System` need `View System`:
 * the matching View is the one with the same qualifier.
 */
function matchingView(family: PermissionFamily, action: string): PermissionName | undefined {
  if (!/^(Modify|Create|Delete)\b/.test(action)) return undefined;
  const actions: readonly string[] = PERMISSION_FAMILIES[family];
  const qualifier = action.replace(/^(Modify|Create|Delete)\s*/, "");
  for (const view of qualifier ? [`View ${qualifier}`, "View"] : ["View"]) {
    if (actions.includes(view)) return `${family} ${view}` as PermissionName;
  }
  return undefined;
}

function buildDependencies(): PermissionDependency[] {
  const deps: PermissionDependency[] = [];
  const add = (rule: number, permission: PermissionName, needs: PermissionName[]) =>
    deps.push({ rule, permission, needs, description: DEPENDENCY_RULES[rule] });

  for (const [family, actions] of Object.entries(PERMISSION_FAMILIES) as [PermissionFamily, readonly string[]][]) {
    for (const action of actions) {
      const view = matchingView(family, action);
      if (view) add(1, `${family} ${action}` as PermissionName, [view]);
    }
  }
  add(2, "Licenses View", ["System View"]);
  add(3, "Permissions View", ["Groups View"]);
  add(4, "Registries View", ["Images View", "System View", "Agents View"]);
  for (const p of ["Autoscale View", "Autoscale Schedule View", "DNS Providers View"] as const) add(5, p, ["Server Pools View"]);
  add(6, "VM Provider View", ["Server Pools View", "Autoscale View"]);
  add(7, "Users Delete", ["Users Modify"]);
  for (const family of ["Egress Gateways", "Egress Credentials"] as const) {
    for (const action of ["Create", "Modify", "Delete"] as const) add(8, `${family} ${action}`, ["Egress Providers Modify"]);
  }
  add(9, "Servers View", ["Server Pools View", "Zones View"]);
  add(9, "Server Templates View", ["Server Pools View", "Zones View"]);
  return deps;
}

/** Every static dependency of rules 1-9 (rule 7's contextual parts live in the operation table). */
export const PERMISSION_DEPENDENCIES: readonly PermissionDependency[] = Object.freeze(buildDependencies());

const NEEDS = new Map<PermissionName, PermissionDependency[]>();
for (const dep of PERMISSION_DEPENDENCIES) {
  const list = NEEDS.get(dep.permission) ?? [];
  list.push(dep);
  NEEDS.set(dep.permission, list);
}

/** The direct dependencies of one permission, with the rule behind each. */
export function dependenciesOf(permission: PermissionName): readonly PermissionDependency[] {
  return NEEDS.get(permission) ?? [];
}

/** A held permission that lacks one of its dependencies. */
export interface DependencyViolation {
  readonly rule: number;
  readonly permission: PermissionName;
  readonly missing: PermissionName;
  readonly message: string;
}

/**
 * The dependency rules a set of held permissions breaks: each held permission whose direct
 * dependency is not held. `Global Admin` holds everything, so it breaks none.
 */
export function dependencyViolations(held: Iterable<PermissionName>): DependencyViolation[] {
  const set = new Set(held);
  if (set.has("Global Admin")) return [];
  const violations: DependencyViolation[] = [];
  for (const permission of ALL_PERMISSIONS) {
    if (!set.has(permission)) continue;
    for (const dep of dependenciesOf(permission)) {
      for (const missing of dep.needs) {
        if (set.has(missing)) continue;
        violations.push({
          rule: dep.rule,
          permission,
          missing,
          message: `'${permission}' needs '${missing}' (rule ${dep.rule}: ${dep.description})`,
        });
      }
    }
  }
  return violations;
}

/**
 * The permissions that take effect: held, with every dependency effective in turn.
 * `Global Admin` makes every permission effective.
 */
export function effectivePermissions(held: Iterable<PermissionName>): Set<PermissionName> {
  const set = new Set(held);
  if (set.has("Global Admin")) return new Set(ALL_PERMISSIONS);
  const memo = new Map<PermissionName, boolean>();
  const effective = (p: PermissionName): boolean => {
    const known = memo.get(p);
    if (known !== undefined) return known;
    memo.set(p, false); // the rules have no cycles; this guards against one being added by mistake
    const ok = set.has(p) && dependenciesOf(p).every((d) => d.needs.every(effective));
    memo.set(p, ok);
    return ok;
  };
  return new Set(ALL_PERMISSIONS.filter(effective));
}

/** The smallest superset of `permissions` that satisfies every dependency rule. */
export function closeUnderDependencies(permissions: Iterable<PermissionName>): Set<PermissionName> {
  const closed = new Set<PermissionName>();
  const visit = (p: PermissionName) => {
    if (closed.has(p)) return;
    closed.add(p);
    for (const dep of dependenciesOf(p)) dep.needs.forEach(visit);
  };
  for (const p of permissions) visit(p);
  return closed;
}
