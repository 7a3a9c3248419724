/**
 * What the GroupMembership provider (`./group-membership.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { declareCalls, plan, ref, systemFact } from "../../permissions/planned-calls";

/**
 * What each step of a GroupMembership calls.
 */
export const groupMembershipCalls = declareCalls("GroupMembership", (props, knowledge) => {
  const group = ref(props.groupId);
  const system = group === undefined ? undefined : knowledge.groupIsSystem(group);
  const explain = { targetGroupIsSystem: systemFact(group) };
  return {
    // The user is read first: a membership that exists is recorded as it is, without a write, with
    // adopt or without (see provider/resources/group-membership.ts).
    create: [plan("get_user", {}, { fields: ["groups"] }), plan("add_user_group", { targetGroupIsSystem: system }, { explain })],
    read: [plan("get_user", {}, { fields: ["groups"] })],
    // Only `adopt` changes in place, and that calls nothing.
    update: [],
    delete: [plan("remove_user_group", { targetGroupIsSystem: system }, { explain })],
  };
});
