/**
 * How a host's `check` ends, in either host (Pulumi's dynamic-provider host through
 * `connections.ts`, the native provider through `native/lifecycle.ts`): the kind's failures as the
 * engine may print them, and, when there are none and the inputs change anything, the one read of
 * the installation before a change (`installation-check.ts`). The hosts hand it the kind's own
 * properties: what only a host adds (the dynamic host's hidden inputs) is stripped before.
 */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { withoutPreviewNotes } from "../../../permissions/kinds";
import { installationProblem } from "./installation-check";
import type { KindContext, Props } from "./types";

/**
 * The failures a host's `check` reports for the kind's check result: the kind's own, each as the
 * engine may print it ({@link withoutSecretProperty}); or, when there are none and the checked
 * inputs change anything, the failure of the installation's one read before a change, so that a
 * change the installation could not take fails in the preview, and a preview without change
 * sends no request.
 *
 * @param kind The resource's kind.
 * @param olds The state's inputs (none for a create), the kind's own properties.
 * @param checked The kind's check result, its `inputs` set.
 * @param context The method's context, whose connection is read.
 */
export async function failuresBeforePlan(
  kind: string,
  secrets: readonly string[],
  olds: Props,
  checked: pulumi.dynamic.CheckResult,
  context: KindContext,
): Promise<pulumi.dynamic.CheckFailure[]> {
  const failures = (checked.failures ?? []).map((failure) => withoutSecretProperty(secrets, failure));
  if (failures.length > 0 || !changes(kind, olds, (checked.inputs ?? {}) as Props)) return failures;
  const unreachable = await installationProblem(context);
  return unreachable === undefined ? [] : [{ property: "", reason: unreachable }];
}

/**
 * A check failure as the engine may print it: one about a secret input names no property (its
 * reason names it), because the Pulumi CLI prints the property's value beside the reason, which
 * for a secret is the secret itself (`property password value {&{{...}}} has a problem: ...`).
 */
export function withoutSecretProperty(secrets: readonly string[], failure: pulumi.dynamic.CheckFailure): pulumi.dynamic.CheckFailure {
  return secrets.includes(failure.property.split(/[.[]/)[0]) ? { property: "", reason: failure.reason } : failure;
}

/**
 * Whether checked inputs of `kind` differ from the previous ones (a create has none): only then is
 * the installation read before the plan, so that a preview without change sends no request. A
 * note an earlier version's check left in the state is not a change (see `PREVIEW_NOTES`).
 */
function changes(kind: string, olds: Props, checked: Props): boolean {
  return !isDeepStrictEqual(withoutPreviewNotes(kind, olds), withoutPreviewNotes(kind, checked));
}
