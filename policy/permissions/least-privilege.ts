/**
 * `least-privilege`: the smallest permission set the stack needs, closed under Kasm's dependency
 * rules, and what the pipeline's API key holds beyond it.
 *
 * The set is the union of what every call of every resource's create, read, update and delete
 * needs (the shared table, `catalogue/kind-table.ts`), with each dependency added.
 * Permissions needed only if an undecided fact holds are listed apart. Advisory: it reports when
 * the key holds more than the stack needs (or lacks some of it), and always when the config gives
 * no permissions (then it says what to grant a new key). `reportWhenMinimal` reports a key that
 * holds exactly the set too.
 *
 * Lookups (getZone, getImage, getUser, ...) are not resources: the program calls them itself and
 * no policy sees them. A real program gives a StagingConfig its zone and image from getZoneOutput
 * and getImageOutput, so Zones View and Images View are needed though no resource calls for them.
 * The policy never advises dropping what a lookup needs (`catalogue/lookups.ts`),
 * unless the config names the lookups the program calls (`lookups`, `[]` for none); then it also
 * counts their needs in the set.
 */
import { ALL_PERMISSIONS, closeUnderDependencies, effectivePermissions, type PermissionName } from "../../catalogue";
import { judgeNeeds, minimalPermissions } from "../../catalogue";
import { LOOKUP_NAMES, lookupNeeds, lookupPermissions, type LookupName } from "../../catalogue/lookups";
import { keyPolicy, LEAST_PRIVILEGE_PROPERTIES, parseInstallationKeys, parseKeyConfig, parseLookups, type KeyConfig, type LookupConfig } from "./config";
import { analyseStack, byInstallation, type StackAnalysis } from "./stack";
import { kindOf, listWords, quoted } from "../shared/kasm";

export const NAME = "least-privilege";

/** The minimal set of a stack, and how a key compares with it. */
export interface LeastPrivilege {
  /** What the stack needs, closed under the dependency rules (with the lookups the config names, when it names them). */
  readonly minimal: readonly PermissionName[];
  /** Needed only if a fact that is not known holds. */
  readonly ifUndecided: readonly PermissionName[];
  /** What the lookups the program may call need, beyond the two sets above, closed under the dependency rules. */
  readonly forLookups: readonly PermissionName[];
  /** Held beyond the minimal set and beyond what undecided facts and lookups may need. */
  readonly extra: readonly PermissionName[];
  /** Held only because a lookup the program may call needs it (kept, not advised away). */
  readonly keptForLookups: readonly PermissionName[];
  /** In the minimal set but not in effect for the key. */
  readonly lacking: readonly PermissionName[];
}

/** Permissions in the order of the spec's table. */
function inCatalogueOrder(permissions: Iterable<PermissionName>): PermissionName[] {
  const set = new Set(permissions);
  return ALL_PERMISSIONS.filter((p) => set.has(p));
}

/**
 * Compare a key with what the stack needs. `Global Admin` counts as one extra permission.
 *
 * @param lookups The lookups the program calls, as the config names them; by default every lookup
 *   may be called, and what they need is kept (`keptForLookups`) but not counted as needed.
 */
export function leastPrivilege(analysis: ReturnType<typeof analyseStack>, held: readonly PermissionName[], lookups: LookupConfig = { names: LOOKUP_NAMES, assumed: true }): LeastPrivilege {
  const needs = analysis.entries.map((e) => e.needs);
  const resources = minimalPermissions(needs, held);
  const forLookupsAll = lookupPermissions(lookups.names, [...resources, ...held]);
  // Lookups the config names are needed as surely as the resources' calls.
  const minimal = lookups.assumed ? resources : closeUnderDependencies([...resources, ...forLookupsAll]);
  // What undecided facts would add (with their dependencies), judged against a key that holds exactly the minimal set.
  const undecided = needs.flatMap((n) => judgeNeeds({ permissions: minimal }, n).undecided.flatMap((u) => u.missing));
  const ifUndecided = new Set([...closeUnderDependencies([...minimal, ...undecided])].filter((p) => !minimal.has(p)));
  const forLookups = new Set([...forLookupsAll].filter((p) => !minimal.has(p) && !ifUndecided.has(p)));
  const effective = effectivePermissions(held);
  return {
    minimal: inCatalogueOrder(minimal),
    ifUndecided: inCatalogueOrder(ifUndecided),
    forLookups: inCatalogueOrder(forLookups),
    extra: held.filter((p) => !minimal.has(p) && !ifUndecided.has(p) && !forLookups.has(p)),
    keptForLookups: held.filter((p) => forLookups.has(p)),
    lacking: inCatalogueOrder(minimal).filter((p) => !effective.has(p)),
  };
}

/**
 * What each lookup needs, in words, lookups with the same needs together:
 * `getImage, getImages: 'Images View'; getServer: 'Servers View' or 'Agents View'`.
 */
export function describeLookupNeeds(lookups: readonly LookupName[]): string {
  const groups = new Map<string, LookupName[]>();
  for (const lookup of lookups) {
    const n = lookupNeeds(lookup);
    const call = [...(n.all.length ? [quoted(n.all)] : []), ...(n.oneOf.length ? [n.oneOf.map((p) => `'${p}'`).join(" or ")] : [])].join(" and ");
    const fields = n.fields.length ? ` (and ${quoted(n.fields.map((f) => f.permission))} to see ${listWords(n.fields.map((f) => f.field))} in the user records)` : "";
    const text = `${call}${fields}`;
    groups.set(text, [...(groups.get(text) ?? []), lookup]);
  }
  return [...groups].map(([text, names]) => `${names.join(", ")}: ${text}`).join("; ");
}

/** `the key ...` as the start of a sentence: `The key ...`. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Every lookup, as possibly called: what `lookups` means when the config leaves it out. */
const ALL_LOOKUPS: LookupConfig = { names: LOOKUP_NAMES, assumed: true };

/**
 * The report for one installation's resources and key, or undefined when the key holds exactly
 * what they need and `reportWhenMinimal` is off.
 */
function leastPrivilegeMessage(analysis: StackAnalysis, config: KeyConfig, lookups: LookupConfig, reportWhenMinimal: boolean): string | undefined {
  const result = leastPrivilege(analysis, config.permissions ?? [], lookups);
  const named = lookups.assumed ? "" : lookups.names.length ? ` and the lookups named in lookups (${lookups.names.join(", ")})` : "";
  const needed = `The stack's Kasm resources${named} need exactly: ${result.minimal.length ? quoted(result.minimal) : "no permission"} (closed under the dependency rules)`;
  const maybe = result.ifUndecided.length ? `; and, depending on facts the pack could not decide: ${quoted(result.ifUndecided)}` : "";
  /** What policies cannot see: the lookups, what each needs, and `kept`, the key's permissions kept for them. */
  const lookupNote = (kept: readonly PermissionName[], ending: string) =>
    ` Lookups are not resources, and policies cannot see which ones the program calls: ${describeLookupNeeds(LOOKUP_NAMES)} (each with its dependencies).` +
    `${kept.length ? ` The key's ${quoted(kept)} ${kept.length > 1 ? "are" : "is"} kept for them.` : ""} ${ending}`;
  if (!config.permissions) {
    const lookupsPart = lookups.assumed
      ? lookupNote([], "Add what the lookups the program calls need, or name them in lookups ([] for none) to have them counted.")
      : "";
    return `${needed}${maybe}. The config gives no permissions: grant a new key that set.${lookupsPart}`;
  }
  const parts: string[] = [];
  if (result.extra.length) parts.push(`the key also holds ${quoted(result.extra)}, which the stack does not need`);
  if (result.lacking.length) parts.push(`the key lacks ${quoted(result.lacking)} (see resource-needs-permissions${lookups.assumed ? "" : ", and the lookups named in lookups"})`);
  if (parts.length === 0 && !reportWhenMinimal) return undefined;
  return (
    `${needed}${maybe}. ${parts.length ? `${sentence(parts.join("; "))}.` : "The key holds exactly that."}` +
    (result.keptForLookups.length ? lookupNote(result.keptForLookups, "Name the lookups the program calls in lookups ([] for none) to be told which of them it needs.") : "")
  );
}

/** The `least-privilege` policy: the report above, one per installation of the stack. */
export const leastPrivilegePolicy = keyPolicy({
  name: NAME,
  description:
    "Reports the smallest permission set the stack needs (closed under Kasm's dependency rules) and the key's permissions beyond it. " +
    "Policies cannot see lookups (getZone, getImage, getUser, ...): what they need is never called unneeded unless `lookups` names the lookups the program calls.",
  enforcementLevel: "advisory",
  severity: "low",
  moreTags: ["least-privilege"],
  remediationSteps: "Give the pipeline's key the reported set and remove the rest.",
  ownConfig: LEAST_PRIVILEGE_PROPERTIES,
  validateStack: (args, reportViolation) => {
    const raw = args.getConfig<Record<string, unknown>>();
    const keys = parseInstallationKeys(NAME, raw, parseKeyConfig);
    const lookups = parseLookups(NAME, raw.lookups);
    if (!args.resources.some((r) => kindOf(r))) args.notApplicable("the stack has no Kasm resources");
    // One report per installation, for its own key. `lookups` describes the program as a whole and
    // cannot say which installation a lookup reads: for a named connection every lookup is taken as
    // possibly called, so their permissions are never reported as unneeded there.
    for (const [connection, resources] of byInstallation(args.resources)) {
      // A connection the config does not describe: resource-needs-permissions reports it.
      const key = keys.of(connection);
      if (key === undefined) continue;
      const analysis = analyseStack(resources, key);
      if (analysis.entries.length === 0) continue;
      const message = leastPrivilegeMessage(analysis, key, connection === undefined ? lookups : ALL_LOOKUPS, raw.reportWhenMinimal === true);
      if (message !== undefined) reportViolation(connection === undefined ? message : `Connection '${connection}': ${message}`);
    }
  },
});
