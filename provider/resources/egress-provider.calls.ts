/**
 * What the EgressProvider provider (`./egress-provider.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { declareCalls, namedObjectRow } from "../../permissions/planned-calls";

/**
 * What each step of an EgressProvider calls.
 * Each egress kind looks its key up first, with adopt or without: no source says how Kasm answers
 * a duplicate, and a server error would make the client's recovery take the existing object for
 * its own create.
 */
export const egressProviderCalls = declareCalls("EgressProvider", (props) =>
  namedObjectRow(props.adopt, {
    list: "get_egress_providers",
    create: "create_egress_provider",
    update: "update_egress_provider",
    remove: "delete_egress_provider",
    found: "a provider has that name",
    noun: "provider",
  }),
);
