/**
 * `least-privilege`: the smallest permission set the stack needs, closed under Kasm's dependency
 * rules, and what the pipeline's API key holds beyond it.
 *
 * The set is the union of what every call of every resource's create, read, update and delete
 * needs (the shared table, `permissions/kind-table.ts`), with each dependency added.
 * Permissions needed only if an undecided fact holds are listed apart. Advisory: it reports when
 * the key holds more than the stack needs (or lacks some of it), and always when the config gives
 * no permissions (then it says what to grant a new key). `reportWhenMinimal` reports a key that
 * holds exactly the set too.
 *
 * Lookups (getZone, getImage, getUser, ...) are not resources: the program calls them itself and
 * no policy sees them. A real program gives a StagingConfig its zone and image from getZoneOutput
 * and getImageOutput, so Zones View and Images View are needed though no resource calls for them.
 * The policy never advises dropping what a lookup needs (`permissions/lookups.ts`),
 * unless the config names the lookups the program calls (`lookups`, `[]` for none); then it also
 * counts their needs in the set.
 */
import { ALL_PERMISSIONS, closeUnderDependencies, effectivePermissions, type PermissionName } from "../../permissions";
import { judgeNeeds, minimalPermissions } from "../../permissions";
import { LOOKUP_NAMES, lookupPermissions, type LookupName } from "../../permissions/lookups";
import {
  keyPolicy,
  LEAST_PRIVILEGE_PROPERTIES,
  parseInstallationKeys,
  parseKeyConfig,
  parseLookups,
  readPolicyConfig,
  type KeyConfig,
  type LookupConfig,
} from "./config";
import { analyseStack, byInstallation, type StackAnalysis } from "./stack";
import { installationWords, kindOf, quoted } from "../shared/kasm";

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
export function leastPrivilege(
  analysis: ReturnType<typeof analyseStack>,
  held: readonly PermissionName[],
  lookups: LookupConfig = { names: LOOKUP_NAMES, assumed: true },
): LeastPrivilege {
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
 * The lookups that may need each of `kept` (directly, or as a dependency of what they need):
 * `'Images View' (getImage, getImages)`.
 */
export function keptForWhichLookups(kept: readonly PermissionName[], lookups: readonly LookupName[]): string {
  return kept
    .map((permission) => {
      const needing = lookups.filter((lookup) => lookupPermissions([lookup]).has(permission));
      return `'${permission}' (${needing.length ? needing.join(", ") : "a dependency of what lookups need"})`;
    })
    .join(", ");
}

/** The most permissions the first line lists; more go to the list below it. */
const MAX_INLINE = 5;

/** `n permission(s)`. */
function permissionCount(n: number): string {
  return `${n} permission${n === 1 ? "" : "s"}`;
}

/** Every lookup, as possibly called: what `lookups` means when the config leaves it out. */
const ALL_LOOKUPS: LookupConfig = { names: LOOKUP_NAMES, assumed: true };

/** What the message tells of lookups when the config does not name them: where to read their needs, and how to have them counted. */
const NAME_THE_LOOKUPS =
  "Policies cannot see which lookups the program calls: name them in `lookups` ([] for none) to have their permissions counted " +
  "(what each needs: 'Lookups are invisible to policies' in pulumi-kasm's policy README).";

/**
 * The report for one installation's resources and key, or undefined when the key holds exactly
 * what they need and `reportWhenMinimal` is off. Short first: one line saying what to do (drop,
 * grant, or nothing), then the detail as a list, one kind of permission a line.
 *
 * @param installation How the first line names the installation (`Connection 'prod': `), or "" when the stack has only the default one.
 */
function leastPrivilegeMessage(
  analysis: StackAnalysis,
  config: KeyConfig,
  lookups: LookupConfig,
  reportWhenMinimal: boolean,
  installation: string,
): string | undefined {
  const result = leastPrivilege(analysis, config.permissions ?? [], lookups);
  const named = lookups.assumed ? "" : lookups.names.length ? ` and the lookups named in lookups (${lookups.names.join(", ")})` : "";
  const details = [
    `- Needed (closed under the dependency rules) by the stack's Kasm resources${named}: ${result.minimal.length ? quoted(result.minimal) : "none"}`,
  ];
  if (result.ifUndecided.length) details.push(`- Needed only if facts the pack could not decide hold: ${quoted(result.ifUndecided)}`);
  let headline: string;
  if (!config.permissions) {
    headline = `The config gives no permissions: grant a new key the ${permissionCount(result.minimal.length)} needed below.`;
    if (lookups.assumed) details.push(`- Lookups are not counted. ${NAME_THE_LOOKUPS}`);
  } else {
    const todo: string[] = [];
    // A wide key's extras go to the list, so that the first line stays one line.
    const [extraInline, extraListed] =
      result.extra.length <= MAX_INLINE ? [`: ${quoted(result.extra)}`, []] : [" (listed below)", [`- Not needed: ${quoted(result.extra)}`]];
    if (result.extra.length) todo.push(`drop ${permissionCount(result.extra.length)} the stack does not need${extraInline}`);
    if (result.lacking.length)
      todo.push(
        `grant the key the ${permissionCount(result.lacking.length)} it lacks: ${quoted(result.lacking)} (resource-needs-permissions${lookups.assumed ? "" : " and the lookups named in lookups"} say which need them)`,
      );
    details.push(...extraListed);
    if (todo.length === 0 && !reportWhenMinimal) return undefined;
    headline = todo.length ? `${sentence(todo.join("; "))}.` : "The key holds exactly what the stack needs.";
    if (result.keptForLookups.length)
      details.push(`- Kept, as lookups the program may call need them: ${keptForWhichLookups(result.keptForLookups, LOOKUP_NAMES)}. ${NAME_THE_LOOKUPS}`);
  }
  return [`${installation}${installation ? lowerFirst(headline) : headline}`, ...details].join("\n");
}

/** `the key ...` as the start of a sentence: `The key ...`. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `The key ...` as the rest of a sentence: `the key ...`. */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
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
    const config = readPolicyConfig(NAME, reportViolation, () => ({
      keys: parseInstallationKeys(NAME, raw, parseKeyConfig),
      lookups: parseLookups(NAME, raw.lookups),
    }));
    if (config === undefined) return;
    const { keys, lookups } = config;
    if (!args.resources.some((r) => kindOf(r))) args.notApplicable("the stack has no Kasm resources");
    const installations = byInstallation(args.resources);
    // In a fleet every report names its installation; a stack of the default installation alone needs no name.
    const fleet = keys.named.size > 0 || [...installations.keys()].some((c) => c !== undefined);
    // One report per installation, for its own key. `lookups` describes the program as a whole and
    // cannot say which installation a lookup reads: for a named connection every lookup is taken as
    // possibly called, so their permissions are never reported as unneeded there.
    for (const [connection, resources] of installations) {
      // A connection the config does not describe: resource-needs-permissions reports it.
      const key = keys.of(connection);
      if (key === undefined) continue;
      const analysis = analyseStack(resources, key);
      if (analysis.entries.length === 0) continue;
      const installation = connection !== undefined ? `Connection '${connection}': ` : fleet ? `${sentence(installationWords(undefined))}: ` : "";
      const message = leastPrivilegeMessage(analysis, key, connection === undefined ? lookups : ALL_LOOKUPS, raw.reportWhenMinimal === true, installation);
      if (message !== undefined) reportViolation(message);
    }
  },
});
