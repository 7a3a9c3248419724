/**
 * What the UserSet provider (`./index.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import type { LifecycleStep } from "../../../permissions/kinds";
import { ADMINISTRATORS_GROUP, ALL_USERS_GROUP } from "../../../permissions/names";
import { userSetRows, type BulkRowOf } from "../../../permissions/bulk-rows";
import { adoptOptions, declareCalls, flag, isUnknownValue, plan, type CallOptions, type PlannedCall, type UserField } from "../../../permissions/planned-calls";

/**
 * What each step of an UserSet calls.
 */
export const userSetCalls = declareCalls("UserSet", (props, knowledge) => {
  const rows = userSetRows(props, isUnknownValue);
  const rowsKnown = rows !== undefined && rows.rows.every((r) => r !== undefined && !isUnknownValue(r.groups) && !isUnknownValue(r.username));
  /** Whether some row answers `test` with true: true, false, or undefined when a row is not known. */
  const some = (test: (row: BulkRowOf<"UserSet">) => boolean | undefined): boolean | undefined => {
    let result: boolean | undefined = rowsKnown ? false : undefined;
    for (const row of rows?.rows ?? []) {
      const answer = row === undefined ? undefined : test(row);
      if (answer === true) return true;
      if (answer === undefined) result = undefined;
    }
    return result;
  };
  const groupsOf = (row: BulkRowOf<"UserSet">): unknown[] | undefined => (Array.isArray(row.groups) ? row.groups : row.groups === undefined ? [] : undefined);
  const listsGroup = (test: (name: string) => boolean) => (row: BulkRowOf<"UserSet">) => {
    const groups = groupsOf(row);
    if (groups === undefined) return undefined;
    if (groups.some((g) => typeof g === "string" && !isUnknownValue(g) && test(g))) return true;
    return groups.some(isUnknownValue) ? undefined : false;
  };
  const hasGroups = some((row) => {
    const groups = groupsOf(row);
    return groups === undefined ? undefined : groups.length > 0;
  });
  const system = some(listsGroup((g) => g === ALL_USERS_GROUP || g === ADMINISTRATORS_GROUP));
  // A row that lists Administrators makes its user a Global Admin: changing or deleting it then needs Users Modify Admin.
  const makesAdmins = some(listsGroup((g) => g === ADMINISTRATORS_GROUP));
  const usernames = (rows?.rows ?? []).flatMap((r) => (r && typeof r.username === "string" && !isUnknownValue(r.username) ? [r.username] : []));
  const adopting = flag(props.adopt);
  // The set creates its users (in no group but its own and All Users) unless it adopts existing ones, which may hold Global Admin.
  const adminUser = (step: LifecycleStep) => {
    if (makesAdmins === true || adopting === false) return makesAdmins;
    let result: boolean | undefined = makesAdmins;
    for (const user of usernames) {
      const answer = knowledge.userIsGlobalAdmin(user, { kind: "UserSet", step });
      if (answer === true) return true;
      if (answer === undefined) result = undefined;
    }
    return result;
  };
  const force = flag(props.forceDelete);
  const listedWithSessions = usernames.some((u) => knowledge.userHasSessions(u) === true);
  const sessions = force === true || listedWithSessions ? true : force === undefined ? undefined : false;
  const adopt = adoptOptions(props.adopt, "with adopt: true");
  const explain = {
    assignsGroups: "whether a row lists groups (the rows are not known yet; All Users or Administrators would also need Groups Modify System)",
    targetGroupIsSystem: "whether a row lists All Users or Administrators (the rows are not known yet)",
    targetUserIsGlobalAdmin: "whether a user of the set holds Global Admin (a row lists Administrators, or the user is listed in globalAdminUserIds)",
    targetUserHasSessions: "whether a user of the set has running sessions (forceDelete is not known yet)",
  };
  const groupFields: UserField[] = hasGroups === false ? [] : ["groups"];
  const importCall = (condition: string) => plan("batch_create_user", { assignsGroups: hasGroups, targetGroupIsSystem: system }, { explain, condition });
  const groupCalls = (condition: string, options: CallOptions = {}): PlannedCall[] => {
    // No row lists groups: the set never changes a membership.
    if (hasGroups === false) return [];
    const authoritative = props.groupsMode !== undefined && props.groupsMode !== "additive";
    return [
      plan("add_user_group", { targetGroupIsSystem: system }, { explain, condition, ...options }),
      ...(authoritative
        ? [
            plan(
              "remove_user_group",
              { targetGroupIsSystem: system },
              { explain, condition: `${condition}, groups the row leaves out (groupsMode authoritative)`, ...options },
            ),
          ]
        : []),
    ];
  };
  const modify = (step: LifecycleStep, condition: string, options: CallOptions = {}) =>
    plan("update_user", { targetUserIsGlobalAdmin: adminUser(step) }, { explain, condition, ...options });
  return {
    create: [
      // The users pages: which usernames exist, and with adopt: true their groups.
      plan("get_users", {}, adopt ? { fields: groupFields } : {}),
      importCall(adopt ? "for the rows whose user does not exist yet" : "for every row"),
      ...(adopt
        ? [
            modify("create", "with adopt: true, for existing users whose fields differ", adopt),
            ...groupCalls("with adopt: true, for existing users' missing groups", adopt),
          ]
        : []),
    ],
    // The users pages only (without Groups View the declared groups are kept).
    read: [plan("get_users", {}, { condition: "page by page" })],
    update: [
      plan("get_users", {}, { fields: groupFields, condition: "when rows are added or their groups change" }),
      importCall("for added rows"),
      modify("update", "for rows whose names, phone or organization changed"),
      ...groupCalls("for rows whose groups changed"),
      plan("delete_user", { targetUserIsGlobalAdmin: adminUser("update"), targetUserHasSessions: sessions }, { explain, condition: "for removed rows" }),
    ],
    delete: [
      plan(
        "delete_user",
        { targetUserIsGlobalAdmin: adminUser("delete"), targetUserHasSessions: sessions },
        { explain, condition: "for each user of the set" },
      ),
    ],
  };
});
