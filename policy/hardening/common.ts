/**
 * What the hardening policies share: their common config (`exemptResources`), three-valued logic
 * for values not known during preview, and reading the properties they look at.
 *
 * Each rule is written as a three-valued condition: true (a violation), false (compliant), or
 * unknown (a value it needs is not known yet). An unknown condition becomes an advisory "could
 * not decide" (see `undecidable`), never a crash and never a silent pass.
 */
import type { PolicyConfigSchema, ResourceValidationArgs, ReportViolation } from "@pulumi/policy";
import { containsUnknown, isUnknownValue, kindOf, label, rawProps, undecidable, type KasmKind, type RawProps } from "../shared/kasm";

/** A three-valued boolean: `undefined` is not known yet. */
export type Tri = boolean | undefined;

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
export function flag(props: RawProps, key: string): Tri {
  const value = props[key];
  if (isUnknownValue(value)) return undefined;
  return value === true;
}

/** Whether a property is set (given and not null): undefined when not known. */
export function isSet(props: RawProps, key: string): Tri {
  const value = props[key];
  if (isUnknownValue(value)) return undefined;
  return value !== undefined && value !== null && value !== "";
}

/** A list property with at least one entry: undefined when the list is not known. */
export function nonEmptyList(props: RawProps, key: string): Tri {
  const value = props[key];
  if (isUnknownValue(value)) return undefined;
  return Array.isArray(value) && value.length > 0;
}

/** A number property, undefined when not known, null when absent. */
export function numberOf(props: RawProps, key: string): number | null | undefined {
  const value = props[key];
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

/**
 * The body of a hardening resource policy for one kind: `rule` answers with a violation message,
 * null (compliant), or `undefined` when it could not decide, with what it lacked.
 */
export function forKind(
  kind: KasmKind,
  rule: (props: RawProps, config: Record<string, unknown>, name: string) => { violation?: string; undecided?: string } | null,
) {
  return (args: ResourceValidationArgs, reportViolation: ReportViolation): void => {
    if (kindOf(args) !== kind) return;
    const config = args.getConfig<Record<string, unknown>>();
    if (isExempt(config, args.name)) return;
    const result = rule(rawProps(args.props), config, args.name);
    if (!result) return;
    if (result.violation) reportViolation(`${label(kind, args.name)}: ${result.violation}`);
    else if (result.undecided) throw undecidable(`could not decide for ${label(kind, args.name)}: ${result.undecided}`);
  };
}

/** The verdict of a three-valued condition: a violation, nothing, or undecided. */
export function verdict(condition: Tri, violation: string, unknown: string): { violation?: string; undecided?: string } | null {
  if (condition === true) return { violation };
  if (condition === undefined) return { undecided: unknown };
  return null;
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

export { containsUnknown, isUnknownValue, label, rawProps };
