/**
 * The kind rows of egress (see `catalogue/kind-table.ts`): EgressProvider, EgressGateway,
 * EgressProviderMapping, EgressCredential; and Group, a named object of the same shape (create
 * or adopt by name, read from a list). Read each next to `provider/resources/<kind>.ts`.
 */
import type { LifecycleStep } from "../kinds";
import type { OperationName } from "../operations";
import { adoptOptions, egressFacts, namedObjectRow, plan, type CallOptions, type Rows } from "./plan";

/** The rows of the egress kinds. */
export const EGRESS_ROWS = {
  // provider/resources/group.ts (a released Kasm's operations: kasm:apiNames product)
  Group: (props) =>
    // The name is looked up first, with adopt or without (provider/resources/kit/adoption.ts, findFirst).
    namedObjectRow(props.adopt, {
      list: "get_groups",
      create: "create_group",
      update: "update_group",
      remove: "delete_group",
      found: "a group has that name",
      noun: "group",
    }),

  // provider/resources/egress-provider.ts. Each egress kind looks its key up first, with adopt or
  // without: no source says how Kasm answers a duplicate, and a server error would make the
  // client's recovery take the existing object for its own create.
  EgressProvider: (props) =>
    namedObjectRow(props.adopt, {
      list: "get_egress_providers",
      create: "create_egress_provider",
      update: "update_egress_provider",
      remove: "delete_egress_provider",
      found: "a provider has that name",
      noun: "provider",
    }),

  // provider/resources/egress-gateway.ts
  EgressGateway: (props) =>
    namedObjectRow(props.adopt, {
      list: "get_egress_gateways",
      create: "create_egress_gateway",
      update: "update_egress_gateway",
      remove: "delete_egress_gateway",
      found: "the provider has a gateway of that name",
      noun: "gateway",
    }),

  // provider/resources/egress-provider-mapping.ts
  EgressProviderMapping: (props, knowledge) => {
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
  },

  // provider/resources/egress-credential.ts
  EgressCredential: (props, knowledge) => {
    const { facts, explain } = egressFacts(props, knowledge, "EgressCredential", "create");
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    return {
      // With adopt, a credential of that name is taken over as it is (Kasm cannot update it).
      create: [
        plan("get_egress_credentials"),
        plan("create_egress_credential", facts, adopt ? { explain, condition: "unless adopt: true finds the credential" } : { explain }),
      ],
      read: [plan("get_egress_credentials", {}, { condition: "once or twice: by provider and name, then all credentials" })],
      // Kasm cannot change or delete a credential: every change replaces it, destroy only forgets it.
      update: [],
      delete: [],
    };
  },
} satisfies Rows<"Group" | "EgressProvider" | "EgressGateway" | "EgressProviderMapping" | "EgressCredential">;
