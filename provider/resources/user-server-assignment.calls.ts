/**
 * What the UserServerAssignment provider (`./user-server-assignment.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import type { LifecycleStep } from "../../permissions/kinds";
import { adminFact, declareCalls, isAdmin, plan, ref } from "../../permissions/planned-calls";

/**
 * What each step of an UserServerAssignment calls.
 */
export const userServerAssignmentCalls = declareCalls("UserServerAssignment", (props, knowledge) => {
  const user = ref(props.userId);
  const admin = (step: LifecycleStep) => isAdmin(knowledge, user, "UserServerAssignment", step);
  const explain = { targetUserIsGlobalAdmin: adminFact(user) };
  const read = plan("get_user", {}, { fields: ["assigned_servers"] });
  return {
    create: [read, plan("assign_user_server", { targetUserIsGlobalAdmin: admin("create") }, { condition: "unless the user is assigned already", explain })],
    read: [read],
    // Only `adopt` changes in place, and that calls nothing.
    update: [],
    delete: [plan("unassign_user_server", { targetUserIsGlobalAdmin: admin("delete") }, { explain })],
  };
});
