/**
 * Users and their attributes, with their group memberships and server assignments.
 *
 * Users refer to groups, images (a default image) and servers, and are capped by named-user
 * licenses: those models are passed in. What other areas keep about a user (sessions, egress
 * mappings and credentials) is reached through {@link UserDependents}, so that this model imports
 * none of them.
 */
import { randomBytes } from "node:crypto";
import { AlreadyExists, InvalidRequest, MissingParameters, UnknownObject } from "../errors";
import { byId, canonicalId, hashSecret, newId, newSalt, parseTime, timestamp, type Table } from "./common";
import type { GroupRecord, GroupsModel } from "./groups";
import type { ImagesModel } from "./images";
import type { LicensesModel } from "./licenses";
import type { ServerRecord, ServersModel } from "./servers";

/** A user as stored: the wire's fields plus the password hash, memberships and assignments. */
export interface UserRecord {
  user_id: string;
  username: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  organization: string | null;
  notes: string | null;
  locked: boolean;
  disabled: boolean;
  anonymous: boolean;
  realm: "ldap" | "local" | "oidc" | "saml";
  created: string;
  last_session: string | null;
  two_factor: boolean;
  program_id: string | null;
  password_salt: string;
  password_hash: string;
  force_password_reset: boolean;
  email: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  oidc_id: string | null;
  saml_id: string | null;
  group_ids: string[];
  server_ids: string[];
}

/** A user's attributes (preferences), one record per user. */
export interface UserAttributesRecord {
  user_attributes_id: string;
  user_id: string;
  ssh_public_key: string | null;
  show_tips: boolean;
  toggle_control_panel: boolean;
  default_image: string | null;
  auto_login_ws: boolean | null;
}

/** The part of the state this model owns. */
export interface UsersTables {
  users: Table<UserRecord>;
  userAttributes: Table<UserAttributesRecord>;
}

/** Fields of `target_user` accepted by create_user and update_user. */
export interface UserInput {
  username?: string;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  organization?: string | null;
  notes?: string | null;
  locked?: boolean;
  disabled?: boolean;
  password?: string;
  realm?: UserRecord["realm"];
  email?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  force_password_reset?: boolean;
  anonymous?: boolean;
}

/** The filters of get_users. */
export interface UserQuery {
  page: number;
  pageSize: number;
  anonymous: boolean;
  anonymousOnly: boolean;
  sortBy?: "username" | "created" | "last_session";
  sortDirection: "asc" | "desc";
  filters: { id: string; value: unknown }[];
}

/** What other areas keep about a user: asked before a user is deleted or logged out, told after. */
export interface UserDependents {
  /** How many sessions the user runs. */
  sessionCount(userId: string): number;
  /** End every session of the user. */
  endSessions(userId: string): void;
  /** Drop what else refers to the user, as the product's foreign keys cascade. */
  forgetUser(userId: string): void;
}

/** The models users refer to. */
export interface UsersDependencies {
  groups: GroupsModel;
  images: ImagesModel;
  servers: ServersModel;
  licenses: LicensesModel;
  dependents: UserDependents;
}

/** Text fields of a user that the product cuts to 64 characters. */
const USER_TEXT_LIMIT = 64;

function cut(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.slice(0, USER_TEXT_LIMIT);
}

/** The users, their attributes, memberships and assignments, and the rules that change them. */
export class UsersModel {
  /** user_id by username: lookups by name are the hot path of most clients. */
  private readonly usernames = new Map<string, string>();

  constructor(
    private readonly tables: UsersTables,
    private readonly deps: UsersDependencies,
  ) {
    for (const user of Object.values(tables.users)) this.usernames.set(user.username, user.user_id);
  }

  // --- lookups --------------------------------------------------------------------------------

  /** The user named `username` (trimmed, any case), if any. */
  userByName(username: string): UserRecord | undefined {
    const id = this.usernames.get(username.trim().toLowerCase());
    return id === undefined ? undefined : this.tables.users[id];
  }

  /** A user by id in either form; undefined when the id is malformed or unknown. */
  user(id: unknown): UserRecord | undefined {
    return byId(this.tables.users, id);
  }

  /** Whether the user holds Global Admin: members of Administrators do. */
  isGlobalAdmin(user: UserRecord): boolean {
    return user.group_ids.includes(this.deps.groups.administratorsGroup.group_id);
  }

  /** The users assigned to a server. */
  usersOfServer(serverId: string): UserRecord[] {
    return Object.values(this.tables.users).filter((u) => u.server_ids.includes(serverId));
  }

  /** get_user: by user_id (which must parse as a UUID) or by username. */
  findUser(target: { user_id?: unknown; username?: unknown } | undefined): UserRecord {
    if (!target) throw new InvalidRequest("Invalid Request");
    let user: UserRecord | undefined;
    if (target.user_id !== undefined && target.user_id !== null) user = this.user(target.user_id);
    else if (typeof target.username === "string") user = this.userByName(target.username);
    if (!user) throw new InvalidRequest("Invalid Request");
    return user;
  }

  /** A user that an operation acts on, with the product's "Unknown user" wording when absent. */
  requireUser(id: unknown, wording: "Unknown User" | "Unknown user" | "Invalid User ID" = "Unknown user"): UserRecord {
    const user = this.user(id);
    if (user) return user;
    if (wording === "Unknown User") throw new UnknownObject("Unknown User");
    throw new UnknownObject(`${wording} (${String(id ?? "")})`);
  }

  /** get_users: filters, sorting and paging. */
  queryUsers(query: UserQuery): { users: UserRecord[]; total: number } {
    let users = Object.values(this.tables.users);
    if (query.anonymousOnly) users = users.filter((u) => u.anonymous);
    else if (!query.anonymous) users = users.filter((u) => !u.anonymous);
    for (const filter of query.filters) users = users.filter(userFilter(filter));
    if (query.sortBy) {
      const key = query.sortBy;
      const sign = query.sortDirection === "asc" ? 1 : -1;
      users.sort((a, b) => sign * compareNullable(a[key], b[key]));
    }
    const total = users.length;
    const start = query.page * query.pageSize;
    return { users: users.slice(start, start + query.pageSize), total };
  }

  // --- create, update, delete -----------------------------------------------------------------

  /** create_user: usernames are trimmed, lowercased and unique; the user joins All Users. */
  createUser(input: UserInput, extraGroupIds: string[] = []): UserRecord {
    const username = input.username?.trim().toLowerCase();
    if (!username) throw new MissingParameters();
    if (this.userByName(username)) throw new AlreadyExists(`Error creating user (${username}): (User already exists)`);
    this.checkNamedUserSeats(1);
    const user = this.buildUser(username, input, extraGroupIds);
    this.insertUser(user);
    return user;
  }

  /** A user record, not yet stored: batch creation builds all of them before storing any. */
  buildUser(username: string, input: UserInput, extraGroupIds: string[] = []): UserRecord {
    const salt = newSalt();
    const user_id = newId();
    return {
      user_id,
      username,
      first_name: cut(input.first_name),
      last_name: cut(input.last_name),
      phone: cut(input.phone),
      organization: cut(input.organization),
      notes: input.notes ?? null,
      locked: input.locked ?? false,
      disabled: input.disabled ?? false,
      anonymous: input.anonymous ?? false,
      realm: input.realm ?? "local",
      created: timestamp(),
      last_session: null,
      two_factor: false,
      program_id: null,
      // The public API does not require a password: a random one is set, as the product does.
      password_salt: salt,
      password_hash: hashSecret(input.password ?? randomBytes(18).toString("base64url"), salt),
      force_password_reset: input.force_password_reset ?? false,
      email: input.email ?? null,
      city: input.city ?? null,
      state: input.state ?? null,
      country: input.country ?? null,
      oidc_id: null,
      saml_id: null,
      group_ids: [...new Set([this.deps.groups.allUsersGroup.group_id, ...extraGroupIds])],
      server_ids: [],
    };
  }

  /** Store a built user with its attributes record. */
  insertUser(user: UserRecord): void {
    this.tables.users[user.user_id] = user;
    this.usernames.set(user.username, user.user_id);
    const user_attributes_id = newId();
    this.tables.userAttributes[user.user_id] = {
      user_attributes_id,
      user_id: user.user_id,
      ssh_public_key: null,
      show_tips: true,
      toggle_control_panel: true,
      default_image: null,
      auto_login_ws: null,
    };
  }

  /** Refuse `adding` new users beyond the seats of Per Named User licenses (anonymous users take none). */
  checkNamedUserSeats(adding: number): void {
    const named = Object.values(this.tables.users).filter((u) => !u.anonymous).length;
    this.deps.licenses.checkNamedUserSeats(named, adding);
  }

  /** update_user: changes only the fields sent. A new username must stay unique. */
  updateUser(userId: unknown, input: UserInput): UserRecord {
    const user = this.requireUser(userId, "Unknown User");
    let username = user.username;
    if (input.username !== undefined) {
      username = input.username.trim().toLowerCase();
      if (!username) throw new InvalidRequest("Invalid Request: username must not be empty");
      const other = this.userByName(username);
      if (other && other.user_id !== user.user_id) throw new AlreadyExists(`Error updating user (${username}): (User already exists)`);
    }
    this.usernames.delete(user.username);
    this.usernames.set(username, user.user_id);
    user.username = username;
    if (input.first_name !== undefined) user.first_name = cut(input.first_name);
    if (input.last_name !== undefined) user.last_name = cut(input.last_name);
    if (input.phone !== undefined) user.phone = cut(input.phone);
    if (input.organization !== undefined) user.organization = cut(input.organization);
    if (input.notes !== undefined) user.notes = input.notes;
    if (input.locked !== undefined) user.locked = input.locked;
    if (input.disabled !== undefined) user.disabled = input.disabled;
    if (input.password !== undefined) {
      user.password_salt = newSalt();
      user.password_hash = hashSecret(input.password, user.password_salt);
    }
    return user;
  }

  /** delete_user: refused while the user has sessions, unless forced; then the sessions go too. */
  deleteUser(userId: unknown, force: boolean): void {
    const user = this.requireUser(userId);
    const sessions = this.deps.dependents.sessionCount(user.user_id);
    if (sessions > 0 && !force) throw new InvalidRequest(`Users contains (${sessions}) kasms and 'force' option not set to True`);
    this.deps.dependents.endSessions(user.user_id);
    this.deps.dependents.forgetUser(user.user_id);
    delete this.tables.userAttributes[user.user_id];
    delete this.tables.users[user.user_id];
    this.usernames.delete(user.username);
  }

  /** logout_user: ends every session of the user. */
  logoutUser(userId: unknown): void {
    const user = this.requireUser(userId);
    this.deps.dependents.endSessions(user.user_id);
  }

  // --- attributes -----------------------------------------------------------------------------

  /**
   * A deleted image is no user's default image any more. 1.15's foreign key deletes the whole
   * attributes row; the emulator keeps the user's other attributes (emulator/README.md).
   */
  forgetDefaultImage(imageId: string): void {
    for (const attributes of Object.values(this.tables.userAttributes)) if (attributes.default_image === imageId) attributes.default_image = null;
  }

  /** get_user_attributes: the attributes record of a user. */
  attributesOf(userId: unknown): UserAttributesRecord {
    const user = this.requireUser(userId);
    return this.tables.userAttributes[user.user_id];
  }

  /** update_user_attributes: changes the fields sent; a default image must exist. */
  updateAttributes(userId: unknown, input: Partial<Omit<UserAttributesRecord, "user_attributes_id" | "user_id">>): UserAttributesRecord {
    const attributes = this.attributesOf(userId);
    let defaultImage = attributes.default_image;
    if (input.default_image !== undefined) {
      if (input.default_image === null || input.default_image === "") defaultImage = null;
      else defaultImage = this.deps.images.requireImage(input.default_image).image_id;
    }
    attributes.default_image = defaultImage;
    if (input.ssh_public_key !== undefined) attributes.ssh_public_key = input.ssh_public_key;
    if (input.show_tips !== undefined) attributes.show_tips = input.show_tips;
    if (input.toggle_control_panel !== undefined) attributes.toggle_control_panel = input.toggle_control_panel;
    if (input.auto_login_ws !== undefined) attributes.auto_login_ws = input.auto_login_ws;
    return attributes;
  }

  // --- server assignments ---------------------------------------------------------------------

  /** The user and server of an assignment, with the product's wording for an unknown one. */
  assignmentParties(userId: unknown, serverId: unknown): { user: UserRecord; server: ServerRecord } {
    const user = this.requireUser(userId, "Invalid User ID");
    const server = this.deps.servers.requireServer(serverId);
    return { user, server };
  }

  /** assign_user_server: many-to-many; assigning twice leaves one assignment. */
  assignUserServer(userId: unknown, serverId: unknown): { user_id: string; server_id: string } {
    const { user, server } = this.assignmentParties(userId, serverId);
    if (!user.server_ids.includes(server.server_id)) user.server_ids.push(server.server_id);
    return { user_id: user.user_id, server_id: server.server_id };
  }

  /** unassign_user_server: refused when the user is not assigned to the server. */
  unassignUserServer(userId: unknown, serverId: unknown): void {
    const { user, server } = this.assignmentParties(userId, serverId);
    if (!user.server_ids.includes(server.server_id)) throw new InvalidRequest(`User (${user.user_id}) is not assigned to server (${server.server_id})`);
    user.server_ids = user.server_ids.filter((id) => id !== server.server_id);
  }

  // --- group memberships ----------------------------------------------------------------------

  /** The user and group of a membership call, with the product's wording for an unknown one. */
  membershipParties(userId: unknown, groupId: unknown): { user: UserRecord; group: GroupRecord } {
    const user = this.requireUser(userId, "Invalid User ID");
    const group = this.deps.groups.requireGroup(groupId);
    return { user, group };
  }

  /** add_user_group: refused when the user is already a member. */
  addUserToGroup(userId: unknown, groupId: unknown): void {
    const { user, group } = this.membershipParties(userId, groupId);
    if (user.group_ids.includes(group.group_id)) throw new InvalidRequest(`User (${user.user_id}) is already a member of group (${group.group_id})`);
    user.group_ids.push(group.group_id);
  }

  /** The members of a group, by username (get_users_group). */
  membersOf(groupId: string): UserRecord[] {
    return Object.values(this.tables.users)
      .filter((u) => u.group_ids.includes(groupId))
      .sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
  }

  /** Take every member out of a deleted group. */
  leaveGroup(groupId: string): void {
    for (const user of Object.values(this.tables.users)) user.group_ids = user.group_ids.filter((id) => id !== groupId);
  }

  /** remove_user_group: refused when the user is not a member. */
  removeUserFromGroup(userId: unknown, groupId: unknown): void {
    const { user, group } = this.membershipParties(userId, groupId);
    if (!user.group_ids.includes(group.group_id)) throw new InvalidRequest(`User (${user.user_id}) is not a member of group (${group.group_id})`);
    user.group_ids = user.group_ids.filter((id) => id !== group.group_id);
  }
}

function compareNullable(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** One get_users filter as a predicate. Unknown filter ids were refused by the handler. */
function userFilter(filter: { id: string; value: unknown }): (u: UserRecord) => boolean {
  const { id, value } = filter;
  switch (id) {
    case "username":
      return (u) => u.username.includes(String(value).toLowerCase());
    case "locked":
      return (u) => u.locked === value;
    case "disabled":
      return (u) => u.disabled === value;
    case "created": {
      const range = value as { from?: string; to?: string };
      const from = range.from ? parseTime(range.from) : undefined;
      const to = range.to ? parseTime(range.to) : undefined;
      return (u) => {
        const created = parseTime(u.created)!;
        return (!from || created >= from) && (!to || created <= to);
      };
    }
    case "exclude_group": {
      const groupId = canonicalId(value);
      return (u) => !groupId || !u.group_ids.includes(groupId);
    }
    case "oidc_id":
      return (u) => u.oidc_id === value;
    case "saml_id":
      return (u) => u.saml_id === value;
    default:
      return () => true;
  }
}
