/**
 * What the EgressGateway provider (`./egress-gateway.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { declareCalls, namedObjectRow } from "../../permissions/planned-calls";

/**
 * What each step of an EgressGateway calls.
 */
export const egressGatewayCalls = declareCalls("EgressGateway", (props) =>
  namedObjectRow(props.adopt, {
    list: "get_egress_gateways",
    create: "create_egress_gateway",
    update: "update_egress_gateway",
    remove: "delete_egress_gateway",
    found: "the provider has a gateway of that name",
    noun: "gateway",
  }),
);
