/** Schemas of the users area: user records, their attributes, server assignments and the batch user import. */
import { z } from "zod";
import { BatchResult } from "./batch";
import { fromApiFields } from "../records";
import { AnyObject, Bool, Id, Int, ListParams, NullableId, NullableString, Timestamp, nullable } from "./common";
import { Group } from "./groups";
import { SessionSummary } from "./sessions";
import { USER_CSV_COLUMNS } from "../../../permissions/bulk-rows";

/** A server assigned to a user (needs Servers View to be listed). */
export const AssignedServer = z.object({
  server_id: Id.describe("The server's id (32 hex digits)."),
  hostname: NullableString.optional().describe("The server's hostname."),
  friendly_name: NullableString.optional().describe("The server's friendly name."),
  server_assignment_enabled: nullable(Bool).optional().describe("Whether server assignment is enabled on the server."),
});
/** A server assigned to a user. */
export type AssignedServer = z.infer<typeof AssignedServer>;

/**
 * A user. `user_id` and `username` are always present; the other fields depend on the operation
 * and on the key's permissions (`groups` needs Groups View, `wss` Sessions View,
 * `assigned_servers` Servers View, `company` Companies View).
 */
export const User = z.object({
  user_id: Id.describe("The user's id (32 hex digits)."),
  username: z.string().describe("The user's login name, which Kasm stores trimmed and in lower case."),
  first_name: NullableString.optional().describe("The user's first name."),
  last_name: NullableString.optional().describe("The user's last name."),
  phone: NullableString.optional().describe("The user's phone number."),
  organization: NullableString.optional().describe("The user's organization."),
  notes: NullableString.optional().describe("Administrators' notes about the user."),
  locked: Bool.optional().describe("Whether the account is locked."),
  disabled: Bool.optional().describe("Whether the account is disabled."),
  anonymous: Bool.optional().describe("Whether the user is an ephemeral one that a casting link created."),
  realm: NullableString.optional().describe("The user's realm: `ldap`, `local`, `oidc` or `saml`."),
  created: nullable(Timestamp).optional().describe("When the user was created (`YYYY-MM-DD HH:MM:SS.ffffff`)."),
  last_session: nullable(Timestamp).optional().describe("When the user last had a session (`YYYY-MM-DD HH:MM:SS.ffffff`); null when there is none."),
  two_factor: nullable(Bool).optional().describe("Whether the user has two-factor authentication. Returned by `getUser`."),
  program_id: NullableString.optional().describe("The user's program id. Returned by `getUser`."),
  /** A secret: the lookups describe it with the record's secrets (provider/lookups/secrets.ts). */
  hash: NullableString.optional(),
  groups: z.array(Group).optional().describe("The groups the user belongs to. Listed only when the API key holds Groups View."),
  wss: z.array(SessionSummary).optional().describe("The user's active sessions. Listed only when the API key holds Sessions View."),
  assigned_servers: z
    .array(AssignedServer)
    .optional()
    .describe("The servers assigned to the user. Listed only when the API key holds Servers View, and never by Kasm 1.15."),
  company: AnyObject.nullable()
    .optional()
    .describe(
      "The user's company, whose fields Kasm does not document; `{}` when the user belongs to none. " + "Listed only when the API key holds Companies View.",
    ),
});
/** A user. */
export type User = z.infer<typeof User>;

/**
 * A user's settings by the names a program declares them (a User's inputs), as the record shows
 * them: the username, and the fields the record holds of the others. The password is never among
 * them. One mapping for the User kind (refresh, take-over) and for `kasm-import`, which writes it
 * for `--users each`.
 */
export function userShown(user: User) {
  return {
    username: user.username,
    ...fromApiFields(user, ["firstName", "lastName", "phone", "organization", "locked", "disabled"]),
  };
}

/** A user as returned by the batch import, which adds account details (`crypt_*` come masked). */
export const BatchUser = User.extend({
  failed_pw_attempts: nullable(Int).optional(),
  email: NullableString.optional(),
  city: NullableString.optional(),
  state: NullableString.optional(),
  country: NullableString.optional(),
  company_id: NullableId.optional(),
  saml_id: NullableString.optional(),
  oidc_id: NullableString.optional(),
  password_set_date: NullableString.optional(),
  custom_attribute_1: NullableString.optional(),
  custom_attribute_2: NullableString.optional(),
  custom_attribute_3: NullableString.optional(),
});
/** A user as returned by the batch import. */
export type BatchUser = z.infer<typeof BatchUser>;

/** The writable fields of a user (`target_user` of create and update), plus the password. */
const UserFields = User.pick({
  username: true,
  first_name: true,
  last_name: true,
  phone: true,
  organization: true,
  locked: true,
  disabled: true,
}).extend({
  /** Optional: without one the server sets a random password. A secret: never logged. */
  password: z.string().optional(),
});

/** `target_user` of `create_user`: a username and any other writable field. */
export const NewUser = UserFields.partial().required({ username: true });
/** `target_user` of `create_user`. */
export type NewUser = z.infer<typeof NewUser>;

/**
 * `target_user` of `update_user`: the user's id and the fields to change. Send `username` as
 * well: some releases refuse an update without it. Names, phone and organization are cut to 64
 * characters by the server.
 */
export const UserUpdate = UserFields.partial().extend({ user_id: Id });
/** `target_user` of `update_user`. */
export type UserUpdate = z.infer<typeof UserUpdate>;

/** How to find one user for `get_user`: by id or by username. */
export const UserLookup = z.union([z.object({ user_id: Id }), z.object({ username: z.string() })]);
/** How to find one user for `get_user`: by id or by username. */
export type UserLookup = z.infer<typeof UserLookup>;

/** Filter ids accepted by `get_users`. */
export const UserFilterId = z.enum(["username", "locked", "disabled", "created", "exclude_group", "oidc_id", "saml_id"]);
/** Filter ids accepted by `get_users`. */
export type UserFilterId = z.infer<typeof UserFilterId>;

/** Parameters of `get_users` (page size defaults to 100, at most 1000). */
export const GetUsersParams = ListParams.extend({
  sort_by: z.enum(["username", "created", "last_session"]),
  filters: z.array(z.object({ id: UserFilterId, value: z.unknown() })),
  anonymous: z.boolean(),
  anonymous_only: z.boolean(),
}).partial();
/** Parameters of `get_users`. */
export type GetUsersParams = z.infer<typeof GetUsersParams>;

/**
 * The answer of `get_users`: one page of users and the total count. A released Kasm (1.15)
 * answers a page with no matching user as `{}` (with `page` when one was asked): no users.
 */
export const UserPage = z.object({
  users: z.array(User).default([]),
  total: Int.optional(),
  /** Present only when `page` was sent. */
  page: Int.optional(),
});
/** The answer of `get_users`. */
export type UserPage = z.infer<typeof UserPage>;

/** Parameters of `delete_user`. */
export const DeleteUserParams = z.object({
  user_id: Id,
  /** Delete the user's sessions first; without it the call fails while the user has sessions. */
  force: z.boolean().optional(),
});
/** Parameters of `delete_user`. */
export type DeleteUserParams = z.infer<typeof DeleteUserParams>;

/** A user's attributes (`get_attributes`). */
export const UserAttributes = z.object({
  user_attributes_id: z.string().optional(),
  user_id: Id,
  ssh_public_key: NullableString.optional(),
  show_tips: nullable(Bool).optional(),
  toggle_control_panel: nullable(Bool).optional(),
  /** An image id. */
  default_image: NullableId.optional(),
  auto_login_ws: nullable(Bool).optional(),
});
/** A user's attributes. */
export type UserAttributes = z.infer<typeof UserAttributes>;

/**
 * A user's attributes by the names a program declares them (a UserAttributes' inputs), as the
 * record shows them, null where it shows none. One mapping for the UserAttributes kind (refresh,
 * the comparison of a create) and for `kasm-import`, which writes the attributes of each user who
 * holds more than a new user's (in this order).
 */
export function userAttributesShown(attributes: UserAttributes) {
  return {
    sshPublicKey: attributes.ssh_public_key ?? null,
    showTips: attributes.show_tips ?? null,
    toggleControlPanel: attributes.toggle_control_panel ?? null,
    autoLoginWs: attributes.auto_login_ws ?? null,
    defaultImage: attributes.default_image ?? null,
  };
}

/**
 * `target_user_attributes` of `update_user_attributes`: the user's id and the attributes to change.
 * `ssh_public_key` is a field of the record that the spec's update body does not list; Kasm
 * accepts it, and without it the key could only be set in the UI.
 */
export const UserAttributesUpdate = UserAttributes.pick({
  auto_login_ws: true,
  default_image: true,
  show_tips: true,
  toggle_control_panel: true,
  ssh_public_key: true,
})
  .partial()
  .extend({ user_id: Id });
/** `target_user_attributes` of `update_user_attributes`. */
export type UserAttributesUpdate = z.infer<typeof UserAttributesUpdate>;

/** Which user and which server, for `assign_user_server` and `unassign_user_server`. */
export const UserServerAssignment = z.object({
  user_id: Id,
  server_id: Id,
});
/** Which user and which server. */
export type UserServerAssignment = z.infer<typeof UserServerAssignment>;

/** The answer of `batch_create_user`: the created users are under `resources.users`. */
export const BatchUsersResult = BatchResult(z.object({ users: z.array(BatchUser) }));
/** The answer of `batch_create_user`. */
export type BatchUsersResult = z.infer<typeof BatchUsersResult>;

/**
 * One user of a CSV import (`batch_create_user`), by column. Values are written as given; empty
 * or absent ones leave the column empty (Kasm's default: realm `local`, no groups). `groups` are
 * group names, written as `group_1`, `group_2`, ...
 */
export const BatchUserRow = z.object({
  username: z.string(),
  realm: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  phone_number: z.string().optional(),
  organization: z.string().optional(),
  force_password_reset: z.boolean().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  country: z.string().optional(),
  email: z.string().optional(),
  groups: z.array(z.string()).optional(),
});
/** One user of a CSV import. */
export type BatchUserRow = z.infer<typeof BatchUserRow>;

/**
 * The columns of Kasm's user import, before the numbered `group_N` columns, in Kasm's order: the
 * permission catalogue's list, which the permission table and the policy packs read rows by too.
 */
export const BATCH_USER_COLUMNS = USER_CSV_COLUMNS;
/** A column of Kasm's user import other than `group_N`. */
export type BatchUserColumn = (typeof BATCH_USER_COLUMNS)[number];

/** The most users `get_users` returns in one page. */
export const MAX_USERS_PAGE_SIZE = 1000;
