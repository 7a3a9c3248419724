/**
 * Kinds that only a released Kasm's operations manage (groups, workspaces, a group's workspaces):
 * the API documentation's vocabulary has no operation for them, so with `apiNames` `spec` their
 * `check` refuses them before any plan, naming the setting and the way out.
 */
import type * as pulumi from "@pulumi/pulumi";
import { howToSet, settingRef } from "../../api/config";
import type { KindContext } from "./types";

/** What a product-only kind's refusal says about it. */
export interface ProductOnly {
  /** The kind, as the program names it (`Group`). */
  readonly kind: string;
  /** Which operations it needs, in words with their names (`group operations (create_group, ...)`). */
  readonly operations: string;
  /** What to do instead on an installation that does not have them (`manage the group in the Kasm UI ...`). */
  readonly otherwise: string;
}

/**
 * The check result, with the refusal of a product-only kind added when the connection speaks the
 * spec's vocabulary. The refusal is about the resource as a whole, not one input: named as the
 * check names other such failures.
 */
export function refusedWithoutProductOperations(result: pulumi.dynamic.CheckResult, context: KindContext, kind: ProductOnly): pulumi.dynamic.CheckResult {
  if (context.apiNames() === "product") return result;
  const names = context.settingNames;
  const reason =
    `a ${kind.kind} needs a released Kasm's ${kind.operations}, which the API documentation's vocabulary does not have, and ` +
    `${settingRef(names, "apiNames")} is "spec". If the installation is a released Kasm (1.15 or later), ${names.provider === undefined ? "run" : "set"} ` +
    `${howToSet(names, "apiNames", "product")}; otherwise ${kind.otherwise}.`;
  return { ...result, failures: [...(result.failures ?? []), { property: "(inputs)", reason }] };
}
