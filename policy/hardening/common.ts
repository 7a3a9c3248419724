/**
 * What the hardening policies share: their common config (`exemptResources`), three-valued logic
 * for values not known during preview, reading the properties they look at, and
 * {@link resourceRule}, the skeleton of a policy that judges one resource of one kind, and
 * {@link bulkRowsRule}, one that judges a bulk resource's rows one by one.
 *
 * Each rule is written as a three-valued condition: true (a violation), false (compliant), or
 * unknown (a value it needs is not known yet). An unknown condition becomes an advisory "could
 * not decide" (see `undecidable`), never a crash and never a silent pass.
 */
import type { PolicyConfigSchema, ResourceValidationArgs, ResourceValidationPolicy, ReportViolation } from "@pulumi/policy";
import { rowLabel, serverImportRows, userSetRows, type BulkRowOf, type BulkRows } from "../../permissions/bulk-rows";
import { containsUnknown, isUnknownValue, label, listWords, undecidable, type KasmKind } from "../shared/kasm";
import { inputsOf, type PolicyInputs } from "../shared/inputs";

/** A three-valued boolean: `undefined` is not known yet. */
export type Tri = boolean | undefined;

/** `and`, `or` and `not` over {@link Tri}: a known answer wins over one not known, as in SQL. */
export const tri = {
  and(...values: Tri[]): Tri {
    if (values.some((v) => v === false)) return false;
    return values.every((v) => v === true) ? true : undefined;
  },
  or(...values: Tri[]): Tri {
    if (values.some((v) => v === true)) return true;
    return values.every((v) => v === false) ? false : undefined;
  },
  not(value: Tri): Tri {
    return value === undefined ? undefined : !value;
  },
};

/** A boolean property: true, false (absent counts as false, Kasm's default), or undefined when not known. */
export function flag(value: unknown): Tri {
  if (isUnknownValue(value)) return undefined;
  return value === true;
}

/** Whether a property is set (given, not null and not empty): undefined when not known. */
export function isSet(value: unknown): Tri {
  if (isUnknownValue(value)) return undefined;
  return value !== undefined && value !== null && value !== "";
}

/** A list property with at least one entry: undefined when the list is not known. */
export function nonEmptyList(value: unknown): Tri {
  if (isUnknownValue(value)) return undefined;
  return Array.isArray(value) && value.length > 0;
}

/** A number property, undefined when not known, null when absent. */
export function numberOf(value: unknown): number | null | undefined {
  if (isUnknownValue(value)) return undefined;
  return typeof value === "number" ? value : null;
}

/** The config every hardening policy takes. */
export const EXEMPT_PROPERTY: PolicyConfigSchema["properties"] = {
  exemptResources: {
    type: "array",
    items: { type: "string" },
    description: "Names of resources (their Pulumi names) this rule does not apply to, each a decision someone made and can explain.",
  },
};

/** Whether a resource is exempted by name in a policy's config. */
export function isExempt(config: Record<string, unknown>, name: string): boolean {
  return Array.isArray(config.exemptResources) && config.exemptResources.includes(name);
}

/** What a rule answers: a violation message, `undecided` with what it lacked, or null (compliant). */
export type Verdict = { readonly violation?: string; readonly undecided?: string } | null;

/** What a hardening resource policy states: its rule and the words around it. */
export interface ResourceRuleSpec<K extends KasmKind> {
  /** The policy's name, as config files and messages spell it. */
  readonly name: string;
  /** The one kind it looks at. */
  readonly kind: K;
  /** What a compliant resource does, in one sentence (Pulumi prints it above each violation). */
  readonly description: string;
  /** The default level: advisory unless the rule catches a certain mistake. */
  readonly enforcementLevel?: "advisory" | "mandatory";
  /** How much harm a violation allows. */
  readonly severity: "low" | "medium" | "high";
  /** The area it belongs to, between the tags `kasm` and `hardening` (`casting`, `users`, ...). */
  readonly area: string;
  /** What to change, in one sentence. */
  readonly remediationSteps: string;
  /** Its tuning properties; `exemptResources` is added to every rule. */
  readonly config?: PolicyConfigSchema["properties"];
  /**
   * The rule, on the inputs of one resource that is not exempt. Inputs may be absent or not known
   * yet: read them with {@link flag}, {@link isSet}, {@link numberOf}, ... (or `isUnknownValue`).
   */
  check(inputs: PolicyInputs<K>, config: Record<string, unknown>): Verdict;
}

/**
 * A hardening resource policy from its rule: it looks at resources of `kind` only, skips those
 * named in `exemptResources`, reports a violation as `Kind 'name': message`, and turns an
 * undecided verdict into an advisory "could not decide" (see {@link undecidable}).
 */
export function resourceRule<K extends KasmKind>(spec: ResourceRuleSpec<K>): ResourceValidationPolicy {
  const { name, kind, description, severity, remediationSteps, check } = spec;
  return {
    name,
    description,
    enforcementLevel: spec.enforcementLevel ?? "advisory",
    severity,
    tags: ["kasm", spec.area, "hardening"],
    remediationSteps,
    configSchema: { properties: { ...EXEMPT_PROPERTY, ...spec.config } },
    validateResource: (args: ResourceValidationArgs, reportViolation: ReportViolation): void => {
      const inputs = inputsOf(kind, args);
      if (!inputs) return;
      const config = args.getConfig<Record<string, unknown>>();
      if (isExempt(config, args.name)) return;
      const result = check(inputs, config);
      if (!result) return;
      if (result.violation) reportViolation(`${label(kind, args.name)}: ${result.violation}`);
      else if (result.undecided) throw undecidable(`could not decide for ${label(kind, args.name)}: ${result.undecided}`);
    },
  };
}

/** The verdict of a three-valued condition: a violation, nothing, or undecided. */
export function verdict(condition: Tri, violation: string, unknown: string): Verdict {
  if (condition === true) return { violation };
  if (condition === undefined) return { undecided: unknown };
  return null;
}

/** The bulk kinds, whose rows a rule may judge one by one: where each keeps its rows. */
const BULK_KINDS = {
  UserSet: { rows: userSetRows, arrayKey: "users" },
  ServerImport: { rows: serverImportRows, arrayKey: "servers" },
} as const;

/** A bulk kind: its rows are judged one by one by a {@link bulkRowsRule}. */
export type BulkKind = keyof typeof BULK_KINDS;

/** What a row-by-row hardening policy states: the words of any rule, its judgement of one row, and what its verdicts say. */
export interface BulkRowsRuleSpec<K extends BulkKind> extends Omit<ResourceRuleSpec<K>, "check"> {
  /** Whether one row breaks the rule: `undefined` for a row, or a value it needs, not known yet. */
  flagsRow(row: BulkRowOf<K> | undefined): Tri;
  /** The violation, given the flagged rows already joined (`users[0] and csv row 3`) and how many. */
  violation(rows: string, count: number): string;
  /** Undecided: no row is flagged, but a value some rows need is not known. */
  readonly someNotKnown: string;
}

/**
 * A hardening policy judged row by row on a bulk resource (a UserSet's users, a ServerImport's
 * servers), from either form of its rows (the array, or the CSV). Flagged rows are named by
 * position (`users[2]`, `csv row 3 (line 4)`), never by their values; rows not known yet leave
 * the rule undecided.
 */
export function bulkRowsRule<K extends BulkKind>(spec: BulkRowsRuleSpec<K>): ResourceValidationPolicy {
  const { flagsRow, violation, someNotKnown, ...words } = spec;
  const { rows: rowsOf, arrayKey } = BULK_KINDS[spec.kind];
  return resourceRule<K>({
    ...words,
    check(inputs) {
      const rows = rowsOf(inputs, isUnknownValue) as BulkRows<BulkRowOf<K>> | undefined;
      if (!rows) return { undecided: `its rows (csv or ${arrayKey}) are not known yet` };
      const verdicts = rows.rows.map(flagsRow);
      const flagged = verdicts.flatMap((v, i) => (v === true ? [i] : []));
      if (flagged.length > 0) return { violation: violation(rowsLabel(rows.source, arrayKey, flagged, rows.lines), flagged.length) };
      return verdicts.some((v) => v === undefined) ? { undecided: someNotKnown } : null;
    },
  });
}

/** The most runs of rows a message lists before it counts the rest. */
const MAX_RUNS_LISTED = 8;

/**
 * How a message names several rows, never by their values, and briefly: three or more consecutive
 * rows as one run (`csv rows 1 to 150 (lines 2 to 151)`, `users[0] to users[149]`), at most {@link MAX_RUNS_LISTED} runs, then
 * how many rows are left (`and 40 more rows`). `indexes` are ascending.
 */
export function rowsLabel(source: BulkRows["source"], arrayKey: string, indexes: readonly number[], lines?: readonly number[]): string {
  const runs: [number, number][] = [];
  const flagged = new Set(indexes);
  for (const i of indexes) {
    const last = runs[runs.length - 1];
    // Three rows or more in a row make a run; two are named each ("servers[2] and servers[3]").
    if (last && i === last[1] + 1 && (last[1] > last[0] || flagged.has(i + 1))) last[1] = i;
    else runs.push([i, i]);
  }
  const run = ([from, to]: [number, number]) => {
    if (from === to) return rowLabel(source, arrayKey, from, lines?.[from]);
    if (source === "array") return `${rowLabel(source, arrayKey, from)} to ${rowLabel(source, arrayKey, to)}`;
    return `csv rows ${from + 1} to ${to + 1}${lines ? ` (lines ${lines[from]} to ${lines[to]})` : ""}`;
  };
  const listed = runs.slice(0, MAX_RUNS_LISTED).map(run);
  const left = runs.slice(MAX_RUNS_LISTED).reduce((n, [from, to]) => n + to - from + 1, 0);
  return left > 0 ? `${listed.join(", ")} and ${left} more row${left === 1 ? "" : "s"}` : listWords(listed);
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) as a time, or undefined when it is not that form. */
export function parseUtc(value: unknown): Date | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Re-exported for the rules, which read values through this module. */
export { containsUnknown, isUnknownValue };
