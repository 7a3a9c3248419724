/**
 * A policy pack's registry: one entry per policy, in the order the pack serves them. Everything
 * that lists a pack's policies is derived from it: the list `new PolicyPack` serves, the policy
 * table of policy/README.md (a test compares them), and the tests that run each policy through
 * Pulumi's analyzer (a test fails for a registered policy without one).
 */
import type { EnforcementLevel, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";

/** A policy the packs serve: one that judges each resource, or one that judges the whole stack. */
export type KasmPolicy = ResourceValidationPolicy | StackValidationPolicy;

/** One registered policy. */
export interface PolicyEntry {
  /** The policy's name, as config files and messages spell it. */
  readonly name: string;
  /** Its default enforcement level (config files may change it). */
  readonly level: EnforcementLevel;
  /** Whether it judges one resource at a time or the whole stack. */
  readonly scope: "resource" | "stack";
  /** What it checks, in one line: the README's words for it. */
  readonly summary: string;
  /** Its own config, in one line (the README's last column); empty when it has none beyond the common one. */
  readonly settings: string;
  /** The policy itself. */
  readonly policy: KasmPolicy;
}

/**
 * An entry for `policy`: its name, level and scope are read from the policy itself, so that they
 * are written once.
 *
 * @param summary What it checks, in one line.
 * @param settings Its own config, in one line ("" when none).
 */
export function registered(policy: KasmPolicy, summary: string, settings = ""): PolicyEntry {
  return {
    name: policy.name,
    level: policy.enforcementLevel ?? "advisory",
    scope: "validateStack" in policy ? "stack" : "resource",
    summary,
    settings,
    policy,
  };
}

/**
 * The config properties `policy` declares beyond `common` (those every policy of its pack takes,
 * which the README states once): the README's last column names them.
 */
export function settingsBeyond(policy: KasmPolicy, common: ReadonlySet<string>): string[] {
  return Object.keys(policy.configSchema?.properties ?? {}).filter((name) => !common.has(name));
}

/** How a pack's policy table in policy/README.md is written: its header row and one row per entry. */
export interface ReadmeTable {
  /** The header row, exactly as the README writes it. */
  readonly header: string;
  /** The row of one entry, exactly as the README writes it. */
  row(entry: PolicyEntry): string;
}

/** A Markdown table row from its cells, an empty cell written as a single space (`| a | |`). */
export function markdownRow(cells: readonly string[]): string {
  return `|${cells.map((cell) => (cell ? ` ${cell} ` : " ")).join("|")}|`;
}

/** The rows of a README table for a registry, header and separator first. */
export function readmeTableLines(table: ReadmeTable, registry: readonly PolicyEntry[]): string[] {
  const columns = table.header.split("|").length - 2;
  return [table.header, `|${"---|".repeat(columns)}`, ...registry.map((entry) => table.row(entry))];
}
