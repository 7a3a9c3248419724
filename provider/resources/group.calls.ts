/**
 * What the Group provider (`./group.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { declareCalls, namedObjectRow } from "../../permissions/planned-calls";

/**
 * What each step of a Group calls.
 * Its operations are a released Kasm's operations: kasm:apiNames product.
 */
export const groupCalls = declareCalls("Group", (props) =>
  // The name is looked up first, with adopt or without (provider/resources/framework/define-kind.ts, findFirst).
  namedObjectRow(props.adopt, {
    list: "get_groups",
    create: "create_group",
    update: "update_group",
    remove: "delete_group",
    found: "a group has that name",
    noun: "group",
  }),
);
