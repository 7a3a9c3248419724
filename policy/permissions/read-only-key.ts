/**
 * `read-only-key`: a Read Only API key cannot apply a Kasm resource whose provider writes.
 *
 * Kasm's Read Only setting overrides the key's permissions and allows read operations only. A
 * resource policy: whether a resource's provider writes depends on that resource alone (its
 * calls come from the shared table, `catalogue/kind-table.ts`). Nearly every resource
 * writes when created; a UserAttributes that declares no attribute is the exception (it only
 * reads).
 */
import { knowledgeFromFacts, LIFECYCLE_STEPS, resourcePermissionNeeds } from "../../catalogue";
import { keyPolicy, parseInstallationKeys, parseKeyConfig, readConfigOnce } from "./config";
import { connectionOf, kindOf, label, rawProps, undecidable } from "../shared/kasm";

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
  validateResource: (args, reportViolation) => {
    const kind = kindOf(args);
    if (!kind) return;
    const raw = args.getConfig<Record<string, unknown>>();
    // The key of the resource's own installation (resource-needs-permissions reports one the config
    // lacks). The whole config is read for every resource, so that a problem anywhere in it is
    // reported whichever resource comes first, and once (see readConfigOnce).
    const connection = connectionOf(args);
    const config = readConfigOnce(NAME, raw, () => parseInstallationKeys(NAME, raw, parseKeyConfig).of(connection));
    if (!config?.readOnly) return;
    const needs = resourcePermissionNeeds(kind, rawProps(args.props), NO_KNOWLEDGE);
    const writes = LIFECYCLE_STEPS.flatMap((step) => needs[step].calls.filter((c) => c.access === "write").map((call) => ({ step, call })));
    const certain = writes.filter((w) => !w.call.unsure);
    if (certain.length > 0) {
      const calls = certain.map((w) => `${w.step} calls ${w.call.operation}`).join(", ");
      reportViolation(`The API key is Read Only, so it cannot apply ${label(kind, args.name)}: ${calls}, which write.`);
    } else if (writes.length > 0) {
      throw undecidable(`could not decide whether the Read Only key can apply ${label(kind, args.name)}: ${writes[0].call.unsure}`);
    }
  },
});
