/**
 * What the UserAttributes provider (`./user-attributes.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import type { LifecycleStep } from "../../permissions/kinds";
import { adminFact, declareCalls, given, isAdmin, plan, ref, USER_ATTRIBUTE_PROPERTIES } from "../../permissions/planned-calls";

/**
 * What each step of an UserAttributes calls.
 */
export const userAttributesCalls = declareCalls("UserAttributes", (props, knowledge) => {
  const user = ref(props.userId);
  const attributes = USER_ATTRIBUTE_PROPERTIES.some((key) => given(props[key]));
  const write = (step: LifecycleStep, condition: string) =>
    plan(
      "update_user_attributes",
      { targetUserIsGlobalAdmin: isAdmin(knowledge, user, "UserAttributes", step) },
      { condition, explain: { targetUserIsGlobalAdmin: adminFact(user) } },
    );
  return {
    create: [plan("get_attributes"), ...(attributes ? [write("create", "when a declared attribute differs from Kasm's")] : [])],
    read: [plan("get_attributes")],
    update: attributes ? [write("update", "when a declared attribute changed")] : [],
    // Kasm has no delete: destroying only forgets the attributes.
    delete: [],
  };
});
