/**
 * The kind rows of users and their groups (see `catalogue/kind-table.ts`): User, UserSet,
 * UserAttributes, GroupMembership, UserGroups, UserServerAssignment. Read each next to
 * `provider/resources/<kind>.ts`.
 */
import { isUnknownValue } from "../values";
import type { LifecycleStep } from "../kinds";
import { userSetRows, type BulkRowOf } from "../bulk-rows";
import { ADMINISTRATORS_GROUP, ALL_USERS_GROUP } from "../names";
import {
  adminFact,
  adoptOptions,
  flag,
  given,
  isAdmin,
  plan,
  ref,
  systemFact,
  USER_ATTRIBUTE_PROPERTIES,
  type CallOptions,
  type PlannedCall,
  type Rows,
  type UserField,
} from "./plan";

/** The rows of the user kinds. */
export const USER_ROWS = {
  // provider/resources/user.ts
  User: (props, knowledge) => {
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
      // The username is looked up first, with adopt or without (provider/resources/kit/adoption.ts, findFirst).
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
  },

  // provider/resources/user-set/
  UserSet: (props, knowledge) => {
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
  },

  // provider/resources/user-attributes.ts
  UserAttributes: (props, knowledge) => {
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
  },

  // provider/resources/group-membership.ts
  GroupMembership: (props, knowledge) => {
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
  },

  // provider/resources/user-groups.ts
  UserGroups: (props, knowledge) => {
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
  },

  // provider/resources/user-server-assignment.ts
  UserServerAssignment: (props, knowledge) => {
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
  },
} satisfies Rows<"User" | "UserSet" | "UserAttributes" | "GroupMembership" | "UserGroups" | "UserServerAssignment">;
