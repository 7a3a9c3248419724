/**
 * What the EgressProviderMapping provider (`./egress-provider-mapping.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import type { LifecycleStep } from "../../permissions/kinds";
import type { OperationName } from "../../permissions/operations";
import { declareCalls, egressFacts, plan, type CallOptions } from "../../permissions/planned-calls";

/**
 * What each step of an EgressProviderMapping calls.
 */
export const egressProviderMappingCalls = declareCalls("EgressProviderMapping", (props, knowledge) => {
  const target = (step: LifecycleStep) => egressFacts(props, knowledge, "EgressProviderMapping", step);
  const write = (operation: OperationName, step: LifecycleStep, options: CallOptions = {}) => {
    const { facts, explain } = target(step);
    return plan(operation, facts, { ...options, explain });
  };
  return {
    // The mapping of the provider and target is taken over when there is one, with adopt or without (AdoptionRules.alwaysTakesOver).
    create: [
      plan("get_egress_provider_mapping"),
      write("update_egress_provider_mapping", "create", { condition: "when the provider has a mapping for the target that differs from the program" }),
      write("create_egress_provider_mapping", "create", { condition: "unless the provider has a mapping for the target" }),
    ],
    read: [plan("get_egress_provider_mapping", {}, { condition: "once or twice: by provider, then all mappings" })],
    // Moving a mapping to another target also needs the old target's permissions; the pack sees only the new one.
    update: [write("update_egress_provider_mapping", "update")],
    delete: [write("delete_egress_provider_mapping", "delete")],
  };
});
