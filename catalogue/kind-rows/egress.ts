/**
 * The kind rows of egress (see `catalogue/kind-table.ts`): EgressProvider, EgressGateway,
 * EgressProviderMapping, EgressCredential; and Group, a named object of the same shape (create
 * or adopt by name, read from a list). Read each next to `provider/resources/<kind>.ts`.
 */
import type { LifecycleStep } from "../kinds";
import type { OperationName } from "../operations";
import { adoptOptions, egressFacts, plan, type CallOptions, type Rows } from "./plan";

/** The rows of the egress kinds. */
export const EGRESS_ROWS = {
  // provider/resources/group.ts (a released Kasm's operations: kasm:apiNames product)
  Group: (props) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    return {
      // The name is looked up first, with adopt or without (provider/resources/kit/adoption.ts, findFirst).
      create: [
        plan("get_groups"),
        ...(adopt ? [plan("update_group", {}, { ...adopt, condition: "with adopt: true, when a group has that name that differs from the program" })] : []),
        plan("create_group", {}, adopt ? { condition: "unless adopt: true finds the group" } : {}),
      ],
      read: [plan("get_groups")],
      update: [plan("update_group")],
      delete: [plan("delete_group")],
    };
  },

  // provider/resources/egress-provider.ts. Each egress kind looks its key up first, with adopt or
  // without: no source says how Kasm answers a duplicate, and a server error would make the
  // client's recovery take the existing object for its own create.
  EgressProvider: (props) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    return {
      create: [
        plan("get_egress_providers"),
        ...(adopt ? [plan("update_egress_provider", {}, { ...adopt, condition: "with adopt: true, when a provider has that name that differs from the program" })] : []),
        plan("create_egress_provider", {}, adopt ? { condition: "unless adopt: true finds the provider" } : {}),
      ],
      read: [plan("get_egress_providers")],
      update: [plan("update_egress_provider")],
      delete: [plan("delete_egress_provider")],
    };
  },

  // provider/resources/egress-gateway.ts
  EgressGateway: (props) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    return {
      create: [
        plan("get_egress_gateways"),
        ...(adopt ? [plan("update_egress_gateway", {}, { ...adopt, condition: "with adopt: true, when the provider has a gateway of that name that differs from the program" })] : []),
        plan("create_egress_gateway", {}, adopt ? { condition: "unless adopt: true finds the gateway" } : {}),
      ],
      read: [plan("get_egress_gateways")],
      update: [plan("update_egress_gateway")],
      delete: [plan("delete_egress_gateway")],
    };
  },

  // provider/resources/egress-provider-mapping.ts
  EgressProviderMapping: (props, knowledge) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    const target = (step: LifecycleStep) => egressFacts(props, knowledge, "EgressProviderMapping", step);
    const write = (operation: OperationName, step: LifecycleStep, options: CallOptions = {}) => {
      const { facts, explain } = target(step);
      return plan(operation, facts, { ...options, explain });
    };
    return {
      create: [
        plan("get_egress_provider_mapping"),
        ...(adopt
          ? [write("update_egress_provider_mapping", "create", { ...adopt, condition: "with adopt: true, when the provider has a mapping for the target that differs from the program" })]
          : []),
        write("create_egress_provider_mapping", "create", adopt ? { condition: "unless adopt: true finds the mapping" } : {}),
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
