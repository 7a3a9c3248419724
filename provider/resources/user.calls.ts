/**
 * What the User provider (`./user.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import type { LifecycleStep } from "../../permissions/kinds";
import { adminFact, adoptOptions, declareCalls, flag, isAdmin, plan, ref } from "../../permissions/planned-calls";

/**
 * What each step of an User calls.
 */
export const userCalls = declareCalls("User", (props, knowledge) => {
  const self = ref(props.userId) ?? ref(props.username);
  const adopt = adoptOptions(props.adopt, "with adopt: true");
  const adoptTarget = adopt && {
    ...adopt,
    condition: "with adopt: true, when a user with that username exists and differs from the program (or a password is declared)",
  };
  // Sessions: a user listed in usersWithSessions has them; forceDelete says the program expects them.
  const force = flag(props.forceDelete);
  const listed = self !== undefined && knowledge.userHasSessions(self) === true;
  const sessions = force === true || listed ? true : force === undefined ? undefined : false;
  const admin = (step: LifecycleStep) => isAdmin(knowledge, self, "User", step);
  const explainAdmin = { targetUserIsGlobalAdmin: adminFact(self, "the User itself") };
  return {
    // The username is looked up first, with adopt or without (provider/resources/framework/define-kind.ts, findFirst).
    create: [
      plan("get_user"),
      ...(adopt ? [plan("update_user", { targetUserIsGlobalAdmin: admin("create") }, { ...adoptTarget!, explain: explainAdmin })] : []),
      plan("create_user", {}, adopt ? { condition: "unless adopt: true finds the user" } : {}),
    ],
    read: [plan("get_user")],
    update: [plan("update_user", { targetUserIsGlobalAdmin: admin("update") }, { condition: "when a field sent to Kasm changed", explain: explainAdmin })],
    delete: [
      plan(
        "delete_user",
        { targetUserIsGlobalAdmin: admin("delete"), targetUserHasSessions: sessions },
        {
          explain: {
            ...explainAdmin,
            targetUserHasSessions: "whether the user has running sessions (forceDelete is not known yet)",
          },
        },
      ),
    ],
  };
});
