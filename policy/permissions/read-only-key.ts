/**
 * `read-only-key`: a Read Only API key cannot apply a Kasm resource whose provider writes.
 *
 * Kasm's Read Only setting overrides the key's permissions and allows read operations only.
 * Whether a resource's provider writes depends on that resource alone (its calls come from the
 * shared table, `permissions/kind-table.ts`): nearly every resource writes when created; a
 * UserAttributes that declares no attribute is the exception (it only reads). A stack policy
 * reporting on each resource, as `resource-needs-permissions` is, so that a config it cannot use
 * is reported once, on the stack (see `readPolicyConfig`), and a preview judges both together.
 */
import { knowledgeFromFacts, LIFECYCLE_STEPS, resourcePermissionNeeds } from "../../permissions";
import { keyPolicy, parseInstallationKeys, parseKeyConfig, readPolicyConfig } from "./config";
import { byInstallation } from "./stack";
import { kindOf, label, rawProps, undecidable } from "../shared/kasm";

export const NAME = "read-only-key";

/** Nothing about the target Kasm changes whether a call writes. */
const NO_KNOWLEDGE = knowledgeFromFacts({});

/** The `read-only-key` policy: the rule above, on each Kasm resource, against its own installation's key. */
export const readOnlyKey = keyPolicy({
  name: NAME,
  description: "A Read Only API key cannot apply Kasm resources: Kasm allows it read operations only, whatever its permissions.",
  enforcementLevel: "mandatory",
  severity: "high",
  remediationSteps: "Apply the stack with a key that is not Read Only; keep Read Only keys for `pulumi preview` and refresh.",
  validateStack: (args, reportViolation) => {
    const raw = args.getConfig<Record<string, unknown>>();
    const keys = readPolicyConfig(NAME, reportViolation, () => parseInstallationKeys(NAME, raw, parseKeyConfig));
    if (keys === undefined) return;
    if (!args.resources.some((r) => kindOf(r))) args.notApplicable("the stack has no Kasm resources");
    const undecided: string[] = [];
    // Each resource against the key of its own installation (resource-needs-permissions reports one the config lacks).
    for (const [connection, resources] of byInstallation(args.resources)) {
      if (!keys.of(connection)?.readOnly) continue;
      const key = connection === undefined ? "The API key" : `The API key of connection '${connection}'`;
      for (const resource of resources) {
        const kind = kindOf(resource);
        if (!kind) continue;
        const needs = resourcePermissionNeeds(kind, rawProps(resource.props), NO_KNOWLEDGE);
        const writes = LIFECYCLE_STEPS.flatMap((step) => needs[step].calls.filter((c) => c.access === "write").map((call) => ({ step, call })));
        const certain = writes.filter((w) => !w.call.unsure);
        if (certain.length > 0) {
          const calls = certain.map((w) => `${w.step} calls ${w.call.operation}`).join(", ");
          reportViolation(`${key} is Read Only, so it cannot apply ${label(kind, resource.name)}: ${calls}, which write.`, resource.urn);
        } else if (writes.length > 0) {
          undecided.push(`whether the Read Only key can apply ${label(kind, resource.name)}: ${writes[0].call.unsure}`);
        }
      }
    }
    if (undecided.length > 0) throw undecidable(`could not decide ${undecided.join("; ")}`);
  },
});
