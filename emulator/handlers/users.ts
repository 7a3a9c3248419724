/**
 * Users: create, read, list, update, delete, log out, attributes, server assignments, login links.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { USER_FIELD_PERMISSIONS } from "../../permissions";
import { InvalidRequest, UnknownObject } from "../errors";
import { ASSIGNED_SERVER, SESSION_SUMMARY, USER, USER_ATTRIBUTES, USER_GROUP, USER_SERVER_ASSIGNMENT } from "../fields";
import { timestamp, type SessionRecord, type Store, type UserAttributesRecord, type UserRecord } from "../store";
import type { Caller } from "../auth";
import type { ApiNames } from "../vocabulary";
import { bool, id, int, parse, Reply, text, type Call, type Handler } from "./common";

// --- wire shapes ---------------------------------------------------------------------------------

const TargetUser = z.object({
  user_id: id.optional(),
  username: z.string().optional(),
  first_name: text.optional(),
  last_name: text.optional(),
  phone: text.optional(),
  organization: text.optional(),
  notes: text.optional(),
  locked: bool.optional(),
  disabled: bool.optional(),
  password: z.string().optional(),
});

const UserRef = z.object({ user_id: id.optional(), username: z.string().optional() });

const FILTER_IDS = ["username", "locked", "disabled", "created", "exclude_group", "oidc_id", "saml_id"] as const;

const UsersQuery = z.object({
  page: int.refine((n) => n >= 0, "must be 0 or more").optional(),
  page_size: int.refine((n) => n >= 1 && n <= 1000, "must be from 1 to 1000").optional(),
  anonymous: bool.optional(),
  anonymous_only: bool.optional(),
  sort_by: z.enum(["username", "created", "last_session"]).nullable().optional(),
  sort_direction: z.enum(["asc", "desc"]).optional(),
  filters: z
    .array(
      z.discriminatedUnion("id", [
        z.object({ id: z.literal("username"), value: z.string() }),
        z.object({ id: z.literal("locked"), value: bool }),
        z.object({ id: z.literal("disabled"), value: bool }),
        z.object({ id: z.literal("created"), value: z.object({ from: z.string().optional(), to: z.string().optional() }) }),
        z.object({ id: z.literal("exclude_group"), value: z.string() }),
        z.object({ id: z.literal("oidc_id"), value: z.string() }),
        z.object({ id: z.literal("saml_id"), value: z.string() }),
      ]),
      { error: `filters: each filter is {id, value} with id one of ${FILTER_IDS.join(", ")}` },
    )
    .optional(),
});

const TargetAttributes = z.object({
  user_id: id.optional(),
  auto_login_ws: bool.nullable().optional(),
  default_image: text.optional(),
  show_tips: bool.optional(),
  toggle_control_panel: bool.optional(),
  ssh_public_key: text.optional(),
});

// --- serialisers ---------------------------------------------------------------------------------

/**
 * A user record as the API shows it to `caller`: groups, sessions, assigned servers and company
 * only when the key has the View permission the spec names for each.
 */
export function userJson(store: Store, user: UserRecord, caller: Caller, observedFields: boolean): Record<string, unknown> {
  const shown = (field: keyof typeof USER_FIELD_PERMISSIONS) => caller.has(USER_FIELD_PERMISSIONS[field]);
  return USER.form(
    {
      user_id: user.user_id,
      username: user.username,
      first_name: user.first_name,
      last_name: user.last_name,
      phone: user.phone,
      organization: user.organization,
      notes: user.notes,
      locked: user.locked,
      disabled: user.disabled,
      anonymous: user.anonymous,
      realm: user.realm,
      created: user.created,
      last_session: user.last_session,
      two_factor: user.two_factor,
      program_id: user.program_id,
      hash: createHash("sha256").update(user.user_id).update(user.password_hash).digest("hex"),
      groups: shown("groups")
        ? user.group_ids.map((gid) => USER_GROUP.form({ name: store.groups.group(gid)?.name, group_id: gid }, observedFields))
        : undefined,
      wss: shown("wss") ? store.sessions.sessionsOf(user.user_id).map((s) => sessionSummary(s, observedFields)) : undefined,
      assigned_servers: shown("assigned_servers")
        ? user.server_ids.map((sid) => {
            const server = store.servers.server(sid);
            return ASSIGNED_SERVER.form(
              {
                server_id: sid,
                hostname: server?.hostname ?? null,
                friendly_name: server?.friendly_name ?? null,
                server_assignment_enabled: true,
              },
              observedFields,
            );
          })
        : undefined,
      company: shown("company") ? {} : undefined,
    },
    observedFields,
  );
}

/** The session summary inside a user record. */
function sessionSummary(s: SessionRecord, observedFields: boolean) {
  return SESSION_SUMMARY.form(s, observedFields);
}

/** A user's attributes (get_attributes). */
function attributesJson(a: UserAttributesRecord, observedFields: boolean) {
  return USER_ATTRIBUTES.form(a, observedFields);
}

// --- handlers ------------------------------------------------------------------------------------

/** The text fields the product's create_user strips (1.15's data access layer); update_user does not. */
const STRIPPED_ON_CREATE = ["first_name", "last_name", "phone", "organization"] as const;

const createUser: Handler = ({ body, store, caller, observedFields, apiNames }) => {
  const target = parse(TargetUser, body.target_user, "target_user");
  if (apiNames === "product") {
    // The product keeps a value only when it is not empty, and then stripped: "" becomes null.
    for (const field of STRIPPED_ON_CREATE) {
      const value = target[field];
      target[field] = value ? value.trim() : null;
    }
  }
  const user = store.users.createUser(target);
  return { user: userJson(store, user, caller, observedFields) };
};

const getUser: Handler = ({ body, store, caller, observedFields }) => {
  const target = body.target_user === undefined ? undefined : parse(UserRef, body.target_user, "target_user");
  return { user: userJson(store, store.users.findUser(target), caller, observedFields) };
};

/**
 * get_users. In product mode, as 1.15 did: pages only when both page and page_size are sent
 * (otherwise every user), a filter with a false or empty value is not applied, and no matching
 * user answers `{}` (with `page` when one was sent).
 */
const getUsers: Handler = ({ body, store, caller, observedFields, apiNames }) => {
  const q = parse(UsersQuery, body, "");
  const product = apiNames === "product";
  const paged = !product || (q.page !== undefined && !!q.page_size);
  const { users, total } = store.users.queryUsers({
    page: paged ? (q.page ?? 0) : 0,
    pageSize: paged ? (q.page_size ?? 100) : Number.MAX_SAFE_INTEGER,
    anonymous: q.anonymous ?? false,
    anonymousOnly: q.anonymous_only ?? false,
    sortBy: q.sort_by ?? undefined,
    sortDirection: q.sort_direction ?? "desc",
    filters: product ? (q.filters ?? []).filter((f) => !!f.value) : (q.filters ?? []),
  });
  const json: Record<string, unknown> = product && users.length === 0 ? {} : { users: users.map((u) => userJson(store, u, caller, observedFields)), total };
  // The product echoes `page` only when the caller sent one.
  if (q.page !== undefined) json.page = q.page;
  return json;
};

/** Whether the user an operation targets holds Global Admin (unknown users are left to the store to refuse). */
function targetIsAdmin(store: Store, userId: unknown): boolean {
  const user = store.users.user(userId);
  return !!user && store.users.isGlobalAdmin(user);
}

const updateUser: Handler = ({ body, store, caller, observedFields }) => {
  const target = parse(TargetUser, body.target_user, "target_user");
  if (!target.user_id) throw new InvalidRequest("Invalid Request: target_user.user_id is required");
  caller.require("update_user", { targetUserIsGlobalAdmin: targetIsAdmin(store, target.user_id) });
  const { user_id, ...fields } = target;
  return { user: userJson(store, store.users.updateUser(user_id, fields), caller, observedFields) };
};

const deleteUser: Handler = ({ body, store, caller }) => {
  const target = parse(UserRef, body.target_user, "target_user");
  const force = parse(bool.optional(), body.force, "force") ?? false;
  const user = store.users.user(target.user_id);
  caller.require("delete_user", {
    targetUserIsGlobalAdmin: targetIsAdmin(store, target.user_id),
    targetUserHasSessions: !!user && store.sessions.sessionsOf(user.user_id).length > 0,
  });
  store.users.deleteUser(target.user_id, force);
  return {};
};

const logoutUser: Handler = ({ body, store }) => {
  const target = parse(UserRef, body.target_user, "target_user");
  store.users.logoutUser(target.user_id);
  return {};
};

const getAttributes: Handler = ({ body, store, observedFields, apiNames }) => {
  const target = parse(UserRef, body.target_user, "target_user");
  const user = requireUserAs(store, target.user_id, apiNames, "No user found with name/id");
  return { user_attributes: attributesJson(store.users.attributesOf(user.user_id), observedFields) };
};

/**
 * The user an operation names, or its refusal of an unknown one: in product mode in 1.15's words,
 * which differ by operation (`No user found with id: (<id>)` from get_login, `No user found with
 * name/id: (<id>)` from get_attributes; its public_api.py and compiled admin_api.py); otherwise
 * the emulator's `Unknown user (<id>)`, as the documentation's other user operations answer.
 */
function requireUserAs(store: Store, userId: unknown, apiNames: ApiNames, productWords: string): UserRecord {
  const user = store.users.user(userId);
  if (user) return user;
  if (apiNames === "product") throw new UnknownObject(`${productWords}: (${String(userId ?? "")})`);
  return store.users.requireUser(userId);
}

const updateUserAttributes: Handler = ({ body, store, caller, apiNames }) => {
  const target = parse(TargetAttributes, body.target_user_attributes, "target_user_attributes");
  // 1.15 (client_api.py) reads the user before the permission, and words an unknown one its own way.
  if (apiNames === "product" && !store.users.user(target.user_id)) throw new UnknownObject("Missing or invalid user");
  caller.require("update_user_attributes", { targetUserIsGlobalAdmin: targetIsAdmin(store, target.user_id) });
  const { user_id, ...fields } = target;
  store.users.updateAttributes(user_id, fields);
  return {};
};

const Assignment = z.object({
  target_user: z.object({ user_id: id.optional() }).optional(),
  target_server: z.object({ server_id: id.optional() }).optional(),
});

const assignUserServer: Handler = ({ body, store, caller, observedFields }) => {
  const { target_user, target_server } = parse(Assignment, body, "");
  caller.require("assign_user_server", { targetUserIsGlobalAdmin: targetIsAdmin(store, target_user?.user_id) });
  const assignment = store.users.assignUserServer(target_user?.user_id, target_server?.server_id);
  return { user_server_assignment: USER_SERVER_ASSIGNMENT.form(assignment, observedFields) };
};

const unassignUserServer: Handler = ({ body, store, caller }) => {
  const { target_user, target_server } = parse(Assignment, body, "");
  caller.require("unassign_user_server", { targetUserIsGlobalAdmin: targetIsAdmin(store, target_user?.user_id) });
  store.users.unassignUserServer(target_user?.user_id, target_server?.server_id);
  return new Reply(204);
};

const getLogin: Handler = ({ body, store, baseUrl, apiNames }: Call) => {
  const target = parse(UserRef, body.target_user, "target_user");
  const user = requireUserAs(store, target.user_id, apiNames, "No user found with id");
  user.last_session = timestamp();
  const token = randomBytes(16).toString("hex");
  return { url: `${baseUrl}/#/staticlogin/?token=${token}&username=${encodeURIComponent(user.username)}` };
};

/** The handlers of this area, by operation. */
export const userHandlers = {
  create_user: createUser,
  get_user: getUser,
  get_users: getUsers,
  update_user: updateUser,
  delete_user: deleteUser,
  logout_user: logoutUser,
  get_attributes: getAttributes,
  update_user_attributes: updateUserAttributes,
  assign_user_server: assignUserServer,
  unassign_user_server: unassignUserServer,
  get_login: getLogin,
} satisfies Record<string, Handler>;
