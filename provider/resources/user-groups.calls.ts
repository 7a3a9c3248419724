/**
 * What the UserGroups provider (`./user-groups.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { declareCalls, isAdmin, plan, ref } from "../../permissions/planned-calls";

/**
 * What each step of an UserGroups calls.
 */
export const userGroupsCalls = declareCalls("UserGroups", (props, knowledge) => {
  const user = ref(props.userId);
  const listKnown = Array.isArray(props.groupIds);
  const groups = listKnown ? (props.groupIds as unknown[]).map(ref) : [];
  /** Whether some listed group answers `test` with true: true, false, or undefined when a group (or the list) is not known. */
  const some = (test: (group: string) => boolean | undefined): boolean | undefined => {
    if (!listKnown) return undefined;
    let result: boolean | undefined = false;
    for (const group of groups) {
      const answer = group === undefined ? undefined : test(group);
      if (answer === true) return true;
      if (answer === undefined) result = undefined;
    }
    return result;
  };
  const listsSystem = some((g) => knowledge.groupIsSystem(g));
  const listsAdministrators = some((g) => knowledge.groupIsAdministrators(g));
  // Create also removes the groups the user is in and the list leaves out (never All Users). A
  // user the stack creates is in none yet. Taking a user out of Administrators, which a user with
  // Global Admin is in, needs Groups Modify System.
  const inAdministrators = isAdmin(knowledge, user, "UserGroups", "create");
  const removesAdministrators =
    inAdministrators === false || listsAdministrators === true ? false : inAdministrators === true && listsAdministrators === false ? true : undefined;
  const isNew = user !== undefined && knowledge.userIsNew(user);
  const nonEmpty = listKnown ? groups.length > 0 : undefined;
  const unsureList = nonEmpty === undefined ? "whether groupIds lists any group is not known yet" : undefined;
  const listFact = listKnown
    ? "whether a listed group (not known yet, or not named in systemGroupIds) is a system group"
    : "whether groupIds (not known yet) lists a system group";
  const change = (operation: "add_user_group" | "remove_user_group", system: boolean | undefined, condition: string, fact: string, unsure?: string) =>
    plan(operation, { targetGroupIsSystem: system }, { condition, unsure, explain: { targetGroupIsSystem: fact } });
  const read = plan("get_user", {}, { fields: ["groups"] });
  const leaveFact = `whether the user (userId) is in Administrators (holds Global Admin), which groupIds${listKnown ? "" : " (not known yet)"} may leave out; list the users that do in globalAdminUserIds and the group ids in systemGroupIds`;
  return {
    create: [
      read,
      ...(isNew
        ? []
        : [change("remove_user_group", removesAdministrators, "for each group the user is in that groupIds leaves out (All Users excepted)", leaveFact)]),
      ...(nonEmpty === false ? [] : [change("add_user_group", listsSystem, "for each listed group the user is not in yet", listFact, unsureList)]),
    ],
    read: [read],
    // Update brings the user's current groups to the new list: it may add or remove any listed group.
    update: [
      read,
      change("add_user_group", listsSystem, "for each listed group the user is not in", listFact),
      change("remove_user_group", listsSystem, "for each group the user is in that groupIds leaves out", listFact),
    ],
    delete: nonEmpty === false ? [] : [change("remove_user_group", listsSystem, "for each listed group", listFact, unsureList)],
  };
});
