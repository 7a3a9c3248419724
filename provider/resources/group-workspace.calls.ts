/**
 * What the GroupWorkspace provider (`./group-workspace.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { declareCalls, plan, ref, systemFact } from "../../permissions/planned-calls";

/**
 * What each step of a GroupWorkspace calls.
 */
export const groupWorkspaceCalls = declareCalls("GroupWorkspace", (props, knowledge) => {
  const group = ref(props.groupId);
  const system = group === undefined ? undefined : knowledge.groupIsSystem(group);
  const explain = { targetGroupIsSystem: systemFact(group) };
  return {
    // The group's images are read first (an authorization there is recorded as it is, adopt or not) and again after the add.
    create: [
      plan("get_images_group"),
      plan("add_images_group", { targetGroupIsSystem: system }, { explain, condition: "unless the group lists the image already" }),
      plan("get_images_group", {}, { condition: "after the add" }),
    ],
    read: [plan("get_images_group")],
    // Only `adopt` changes in place, and that calls nothing.
    update: [],
    delete: [plan("remove_images_group", { targetGroupIsSystem: system }, { explain })],
  };
});
