/**
 * `least-privilege`: the smallest permission set the stack needs, closed under Kasm's dependency
 * rules, and what the pipeline's API key holds beyond it.
 *
 * The set is the union of what every call of every resource's create, read, update and delete
 * needs (the shared table, `provider/permissions/resources.ts`), with each dependency added.
 * Permissions needed only if an undecided fact holds are listed apart. Advisory: it reports when
 * the key holds more than the stack needs (or lacks some of it), and always when the config gives
 * no permissions (then it says what to grant a new key). `reportWhenMinimal` reports a key that
 * holds exactly the set too.
 */
import type { StackValidationPolicy } from "@pulumi/policy";
import { ALL_PERMISSIONS, closeUnderDependencies, effectivePermissions, type PermissionName } from "../../provider/permissions";
import { judgeNeeds, minimalPermissions } from "../../provider/permissions/resources";
import { KEY_CONFIG_PROPERTIES, parseKeyConfig } from "./config";
import { analyseStack } from "./stack";
import { quoted } from "../shared/kasm";

export const NAME = "least-privilege";

/** The minimal set of a stack, and how a key compares with it. */
export interface LeastPrivilege {
  /** What the stack needs, closed under the dependency rules. */
  readonly minimal: readonly PermissionName[];
  /** Needed only if a fact that is not known holds. */
  readonly ifUndecided: readonly PermissionName[];
  /** Held beyond the minimal set (and beyond what undecided facts may need). */
  readonly extra: readonly PermissionName[];
  /** In the minimal set but not in effect for the key. */
  readonly lacking: readonly PermissionName[];
}

/** Permissions in the order of the spec's table. */
function inCatalogueOrder(permissions: Iterable<PermissionName>): PermissionName[] {
  const set = new Set(permissions);
  return ALL_PERMISSIONS.filter((p) => set.has(p));
}

/** Compare a key with what the stack needs. `Global Admin` counts as one extra permission. */
export function leastPrivilege(analysis: ReturnType<typeof analyseStack>, held: readonly PermissionName[]): LeastPrivilege {
  const needs = analysis.entries.map((e) => e.needs);
  const minimal = minimalPermissions(needs, held);
  // What undecided facts would add (with their dependencies), judged against a key that holds exactly the minimal set.
  const undecided = needs.flatMap((n) => judgeNeeds({ permissions: minimal }, n).undecided.flatMap((u) => u.missing));
  const ifUndecided = new Set([...closeUnderDependencies([...minimal, ...undecided])].filter((p) => !minimal.has(p)));
  const effective = effectivePermissions(held);
  return {
    minimal: inCatalogueOrder(minimal),
    ifUndecided: inCatalogueOrder(ifUndecided),
    extra: held.filter((p) => !minimal.has(p) && !ifUndecided.has(p)),
    lacking: inCatalogueOrder(minimal).filter((p) => !effective.has(p)),
  };
}

export const leastPrivilegePolicy: StackValidationPolicy = {
  name: NAME,
  description: "Reports the smallest permission set the stack needs (closed under Kasm's dependency rules) and the key's permissions beyond it.",
  enforcementLevel: "advisory",
  severity: "low",
  tags: ["kasm", "permissions", "least-privilege"],
  remediationSteps: "Give the pipeline's key the reported set and remove the rest.",
  configSchema: {
    properties: {
      ...KEY_CONFIG_PROPERTIES,
      reportWhenMinimal: { type: "boolean", default: false, description: "Report the set even when the key holds exactly it." },
    },
  },
  validateStack: (args, reportViolation) => {
    const raw = args.getConfig<Record<string, unknown>>();
    const config = parseKeyConfig(NAME, raw);
    const analysis = analyseStack(args.resources, config);
    if (analysis.entries.length === 0) args.notApplicable("the stack has no Kasm resources");
    const result = leastPrivilege(analysis, config.permissions ?? []);
    const needed = `The stack's Kasm resources need exactly: ${result.minimal.length ? quoted(result.minimal) : "no permission"} (closed under the dependency rules)`;
    const maybe = result.ifUndecided.length ? `; and, depending on facts the pack could not decide: ${quoted(result.ifUndecided)}` : "";
    if (!config.permissions) {
      reportViolation(`${needed}${maybe}. The config gives no permissions: grant a new key that set.`);
      return;
    }
    const parts: string[] = [];
    if (result.extra.length) parts.push(`the key also holds ${quoted(result.extra)}, which the stack does not need`);
    if (result.lacking.length) parts.push(`the key lacks ${quoted(result.lacking)} (see resource-needs-permissions)`);
    if (parts.length > 0 || raw.reportWhenMinimal === true) reportViolation(`${needed}${maybe}. ${parts.length ? `${parts.join("; ")}.` : "The key holds exactly that."}`);
  },
};
