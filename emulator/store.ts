/**
 * The emulator's state and its rules.
 *
 * A `Store` is built fresh per emulator instance from a seed (or a data file) and owns every
 * object. Its methods enforce the domain rules of the spec and throw the wire errors of
 * `errors.ts`. Each method validates everything first and changes state only after, so a refused
 * request never leaves a half-applied change. Records are kept in the wire's own field names;
 * handlers decide what a response shows.
 */
import { COMMUNITY_CONCURRENT_SESSIONS } from "../catalogue/product";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { ADMINISTRATORS_GROUP, ALL_USERS_GROUP, SYSTEM_GROUP_NAMES, type PermissionName } from "../catalogue";
import {
  ActivationRefused,
  AlreadyExists,
  InvalidRequest,
  LicenseLimitExceeded,
  MissingParameters,
  UnknownObject,
} from "./errors";

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

/** An API key as the administrator configured it. The secret is kept as a salted hash. */
export interface ApiKeyRecord {
  api_key_id: string;
  name: string;
  key: string;
  secret_salt: string;
  secret_hash: string;
  permissions: PermissionName[];
  read_only: boolean;
  /** `YYYY-MM-DD HH:MM:SS` (UTC) or an ISO 8601 time; null for a key that never expires. */
  expires: string | null;
}

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

export interface UserAttributesRecord {
  user_attributes_id: string;
  user_id: string;
  ssh_public_key: string | null;
  show_tips: boolean;
  toggle_control_panel: boolean;
  default_image: string | null;
  auto_login_ws: boolean | null;
}

export interface GroupRecord {
  group_id: string;
  name: string;
  description: string | null;
  priority: number;
  is_system: boolean;
}

export interface ImageRecord {
  image_id: string;
  name: string;
  friendly_name: string;
  description: string;
  enabled: boolean;
  available: boolean;
  memory: number;
  cores: number;
  cpu_allocation_method: string;
  x_res: number;
  y_res: number;
  ctr_registry: string | null;
  ctr_user: string | null;
  ctr_token: string | null;
  hash: string | null;
  volume_mappings: Record<string, unknown>;
  run_config: Record<string, unknown>;
  persistent_profile_config: Record<string, unknown>;
  persistent_profile_path: string | null;
  exec_config: Record<string, { cmd: string; environment?: Record<string, string> }>;
  restrict_to_network: boolean;
  restrict_to_zone: boolean;
  restrict_to_server: boolean;
  zone_id: string | null;
  server_id: string | null;
  network_name: string | null;
  image_src: string;
}

export interface ZoneRecord {
  zone_id: string;
  zone_name: string;
  auto_scaling_enabled: boolean;
  cloud_enabled: boolean;
  cloud_region: string;
  cloud_access_key_id: string;
  cloud_secret_access_key: string;
  vm_agent_image_id: string | null;
}

export interface ServerPoolRecord {
  server_pool_id: string;
  server_pool_name: string;
  server_pool_type: string;
}

export interface ServerRecord {
  server_id: string;
  created: string;
  server_type: string;
  hostname: string;
  friendly_name: string | null;
  port: number;
  connection_type: string;
  connection_credential_type: string;
  connection_username: string | null;
  connection_password: string | null;
  connection_private_key: string | null;
  connection_passphrase: string | null;
  use_user_private_key: boolean;
  zone_id: string;
  server_pool_id: string | null;
  enabled: boolean;
  is_draining: boolean;
  labels: string[];
  max_simultaneous_sessions: number;
  max_simultaneous_users: number;
  operational_status: string;
}

export interface SessionRecord {
  ws_id: string;
  user_id: string | null;
  image_id: string;
  server_id: string | null;
  start_date: string;
  keepalive_date: string;
  expiration_date: string;
  operational_status: string;
  share_id: string;
  session_token: string;
  staging_config_id: string | null;
}

export interface RecordingRecord {
  recording_id: string;
  ws_id: string;
  account_id: string;
  duration: number;
  timestamp: number;
}

export interface StagingConfigRecord {
  staging_config_id: string;
  zone_id: string;
  image_id: string;
  num_sessions: number;
  num_current_sessions: number;
  expiration: number;
  allow_ws_audio: boolean;
  allow_ws_uploads: boolean;
  allow_ws_downloads: boolean;
  allow_ws_clipboard_down: boolean;
  allow_ws_clipboard_up: boolean;
  allow_ws_microphone: boolean;
}

export interface CastConfigRecord {
  cast_config_id: string;
  casting_config_name: string;
  image_id: string | null;
  key: string;
  allowed_referrers: string[];
  limit_sessions: boolean;
  session_remaining: number;
  limit_ips: boolean;
  ip_request_limit: number;
  ip_request_seconds: number;
  error_url: string | null;
  enable_sharing: boolean;
  disable_control_panel: boolean;
  disable_tips: boolean;
  disable_fixed_res: boolean;
  allow_anonymous: boolean;
  group_id: string | null;
  require_recaptcha: boolean;
  ws_url: string | null;
  dynamic_ws_url: boolean;
  dynamic_ctr_network: boolean;
  allow_resume: boolean;
  enforce_client_settings: boolean;
  allow_ws_audio: boolean;
  allow_ws_uploads: boolean;
  allow_ws_downloads: boolean;
  allow_ws_clipboard_down: boolean;
  allow_ws_clipboard_up: boolean;
  allow_ws_microphone: boolean;
  allow_ws_sharing: boolean;
  ws_audio_default_on: boolean;
  ws_ime_mode_default_on: boolean;
  valid_until: string | null;
}

export type EgressProviderType = "wireguard" | "openvpn" | "custom";

export interface EgressProviderRecord {
  egress_provider_id: string;
  created: string;
  name: string;
  egress_provider_type: EgressProviderType;
  enabled: boolean;
}

export interface EgressGatewayRecord {
  egress_gateway_id: string;
  egress_provider_id: string;
  name: string;
  enabled: boolean;
  country: string | null;
  city: string | null;
  config: string | null;
  active_connections: number;
}

/** The one object an egress mapping or credential applies to. */
export interface EgressTarget {
  user_id: string | null;
  group_id: string | null;
  image_id: string | null;
}

export interface EgressMappingRecord extends EgressTarget {
  egress_provider_mapping_id: string;
  egress_provider_id: string;
  enabled: boolean;
  created: string;
  allow_all_gateways: boolean;
  selected_gateways: string[];
}

export interface EgressCredentialRecord extends EgressTarget {
  egress_credential_id: string;
  egress_provider_id: string;
  name: string;
  username: string | null;
  password: string | null;
  enabled: boolean;
  allow_all_gateways: boolean;
  selected_gateways: string[];
  wireguard_private_key: string | null;
  mesh_key: string | null;
  limit_active_connections: boolean;
  active_connection_limit: number;
  active_connections: number;
  custom_credential: string | null;
}

/** A licence entitlement: an activation key and the seats it still has to give. */
export interface ActivationKeyRecord {
  activation_key: string;
  seats: number;
  seats_used: number;
  license_type: string;
  sku: string;
  expiration: string;
  features: Record<string, boolean>;
}

export interface LicenseRecord {
  license_id: string;
  expiration: string;
  issued_at: string;
  issued_to: string | null;
  limit: number;
  is_verified: boolean;
  license_type: string;
  sku: string;
  features: Record<string, boolean>;
}

/** Everything the emulator knows. Plain JSON: it is what `--data` persists and `/__emulator/state` shows. */
export interface State {
  apiKeys: Record<string, ApiKeyRecord>;
  users: Record<string, UserRecord>;
  userAttributes: Record<string, UserAttributesRecord>;
  groups: Record<string, GroupRecord>;
  images: Record<string, ImageRecord>;
  zones: Record<string, ZoneRecord>;
  serverPools: Record<string, ServerPoolRecord>;
  servers: Record<string, ServerRecord>;
  sessions: Record<string, SessionRecord>;
  recordings: Record<string, RecordingRecord>;
  stagingConfigs: Record<string, StagingConfigRecord>;
  castConfigs: Record<string, CastConfigRecord>;
  egressProviders: Record<string, EgressProviderRecord>;
  egressGateways: Record<string, EgressGatewayRecord>;
  egressMappings: Record<string, EgressMappingRecord>;
  egressCredentials: Record<string, EgressCredentialRecord>;
  activationKeys: Record<string, ActivationKeyRecord>;
  licenses: Record<string, LicenseRecord>;
}

/** An empty state: no objects at all (the system groups are added by the Store). */
export function emptyState(): State {
  return {
    apiKeys: {},
    users: {},
    userAttributes: {},
    groups: {},
    images: {},
    zones: {},
    serverPools: {},
    servers: {},
    sessions: {},
    recordings: {},
    stagingConfigs: {},
    castConfigs: {},
    egressProviders: {},
    egressGateways: {},
    egressMappings: {},
    egressCredentials: {},
    activationKeys: {},
    licenses: {},
  };
}

// ---------------------------------------------------------------------------------------------
// Identifiers, times and secrets
// ---------------------------------------------------------------------------------------------

/** A new identifier in the product's form: 32 lowercase hex characters. */
export function newId(): string {
  return randomUUID().replace(/-/g, "");
}

const HEX_ID = /^[0-9a-f]{32}$/;

/**
 * The canonical form of an identifier sent by a client: hex and hyphenated UUIDs are the same
 * object. Returns undefined for anything that is not a UUID in either form.
 */
export function canonicalId(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const hex = value.trim().toLowerCase().replace(/-/g, "");
  return HEX_ID.test(hex) ? hex : undefined;
}

/** A timestamp as the product writes it: `str(datetime)`, UTC, microseconds, no zone. */
export function timestamp(date: Date = new Date()): string {
  const iso = date.toISOString(); // 2020-11-12T14:29:25.808Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}

/**
 * Parse a `YYYY-MM-DD HH:MM:SS[.ffffff]` (UTC), an ISO 8601 time or a bare `YYYY-MM-DD` date;
 * undefined if it is none of them.
 */
export function parseTime(value: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!m) return undefined;
  const date = new Date(`${m[1]}T${m[2] ?? "00:00:00"}${m[3] ? m[3].slice(0, 4) : ""}${m[4] ?? "Z"}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A salted SHA-256 of a secret: keys and passwords are checked, never stored or shown. */
export function hashSecret(secret: string, salt: string): string {
  return createHash("sha256").update(salt).update("\0").update(secret).digest("hex");
}

/** A fresh salt for {@link hashSecret}. */
export function newSalt(): string {
  return randomBytes(8).toString("hex");
}

/** The record of `collection` named by an id in either form; undefined when the id is malformed or unknown. */
function byId<T>(collection: Record<string, T>, id: unknown): T | undefined {
  const canonical = canonicalId(id);
  return canonical ? collection[canonical] : undefined;
}

/** How the product masks a secret it will not show. */
export const MASK = "**********";

/** Text fields of a user that the product cuts to 64 characters. */
const USER_TEXT_LIMIT = 64;

function cut(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.slice(0, USER_TEXT_LIMIT);
}

// ---------------------------------------------------------------------------------------------
// Inputs: what the handlers pass in after parsing the wire
// ---------------------------------------------------------------------------------------------

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

export type StagingConfigInput = Partial<Omit<StagingConfigRecord, "staging_config_id" | "num_current_sessions">>;
export type CastConfigInput = Partial<Omit<CastConfigRecord, "cast_config_id">>;
export type EgressProviderInput = Partial<Omit<EgressProviderRecord, "egress_provider_id" | "created">>;
export type EgressGatewayInput = Partial<Omit<EgressGatewayRecord, "egress_gateway_id" | "active_connections">>;
export type EgressMappingInput = Partial<Omit<EgressMappingRecord, "egress_provider_mapping_id" | "created">>;
export type EgressCredentialInput = Partial<
  Omit<EgressCredentialRecord, "egress_credential_id" | "active_connections">
>;

/** The client permissions of a session, all off: the defaults of staging and casting configs. */
const NO_CLIENT_PERMISSIONS = {
  allow_ws_audio: false,
  allow_ws_uploads: false,
  allow_ws_downloads: false,
  allow_ws_clipboard_down: false,
  allow_ws_clipboard_up: false,
  allow_ws_microphone: false,
} as const;

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

/** Capacity of the Community Edition, which applies while no licence is active (the catalogue's product constant). */
export { COMMUNITY_CONCURRENT_SESSIONS };

// ---------------------------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------------------------

/** The state of one emulator and the rules that change it. */
export class Store {
  readonly state: State;
  /** user_id by username: lookups by name are the hot path of most clients. */
  private readonly usernames = new Map<string, string>();

  constructor(state: State = emptyState()) {
    this.state = state;
    this.ensureSystemGroups();
    for (const user of Object.values(state.users)) this.usernames.set(user.username, user.user_id);
  }

  /** All Users and Administrators always exist, whatever the seed or data file says. */
  private ensureSystemGroups(): void {
    for (const [index, name] of SYSTEM_GROUP_NAMES.entries()) {
      const existing = Object.values(this.state.groups).find((g) => g.name === name);
      if (existing) {
        existing.is_system = true;
        continue;
      }
      const group_id = newId();
      this.state.groups[group_id] = { group_id, name, description: null, priority: index + 1, is_system: true };
    }
  }

  // --- lookups --------------------------------------------------------------------------------

  /** The group named `name`, if any (names are unique). */
  groupByName(name: string): GroupRecord | undefined {
    return Object.values(this.state.groups).find((g) => g.name === name);
  }

  /** The All Users group. */
  get allUsersGroup(): GroupRecord {
    return this.groupByName(ALL_USERS_GROUP)!;
  }

  /** The Administrators group. */
  get administratorsGroup(): GroupRecord {
    return this.groupByName(ADMINISTRATORS_GROUP)!;
  }

  userByName(username: string): UserRecord | undefined {
    const id = this.usernames.get(username.trim().toLowerCase());
    return id === undefined ? undefined : this.state.users[id];
  }

  /** A user by id in either form; undefined when the id is malformed or unknown. */
  user(id: unknown): UserRecord | undefined {
    return byId(this.state.users, id);
  }

  group(id: unknown): GroupRecord | undefined {
    return byId(this.state.groups, id);
  }

  image(id: unknown): ImageRecord | undefined {
    return byId(this.state.images, id);
  }

  zone(id: unknown): ZoneRecord | undefined {
    return byId(this.state.zones, id);
  }

  server(id: unknown): ServerRecord | undefined {
    return byId(this.state.servers, id);
  }

  session(id: unknown): SessionRecord | undefined {
    return byId(this.state.sessions, id);
  }

  /** Whether the user holds Global Admin: members of Administrators do. */
  isGlobalAdmin(user: UserRecord): boolean {
    return user.group_ids.includes(this.administratorsGroup.group_id);
  }

  /** The running sessions of a user. */
  sessionsOf(userId: string): SessionRecord[] {
    return Object.values(this.state.sessions).filter((s) => s.user_id === userId);
  }

  // --- users ----------------------------------------------------------------------------------

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
      group_ids: [...new Set([this.allUsersGroup.group_id, ...extraGroupIds])],
      server_ids: [],
    };
  }

  /** Store a built user with its attributes record. */
  insertUser(user: UserRecord): void {
    this.state.users[user.user_id] = user;
    this.usernames.set(user.username, user.user_id);
    const user_attributes_id = newId();
    this.state.userAttributes[user.user_id] = {
      user_attributes_id,
      user_id: user.user_id,
      ssh_public_key: null,
      show_tips: true,
      toggle_control_panel: true,
      default_image: null,
      auto_login_ws: null,
    };
  }

  /**
   * Refuse new users beyond the seats of Per Named User licences. Without such a licence
   * (Community Edition, or concurrent-session licences) the number of users is not limited.
   */
  checkNamedUserSeats(adding: number): void {
    const named = Object.values(this.state.licenses).filter((l) => /named user/i.test(l.license_type));
    if (named.length === 0) return;
    const seats = named.reduce((sum, l) => sum + l.limit, 0);
    const users = Object.values(this.state.users).filter((u) => !u.anonymous).length;
    if (users + adding > seats) throw new LicenseLimitExceeded("user");
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
    let users = Object.values(this.state.users);
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

  /** update_user: changes only the fields sent. A new username must stay unique. */
  updateUser(userId: unknown, input: UserInput): UserRecord {
    const user = this.requireUser(userId, "Unknown User");
    let username = user.username;
    if (input.username !== undefined) {
      username = input.username.trim().toLowerCase();
      if (!username) throw new InvalidRequest("Invalid Request: username must not be empty");
      const other = this.userByName(username);
      if (other && other.user_id !== user.user_id)
        throw new AlreadyExists(`Error updating user (${username}): (User already exists)`);
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
    const sessions = this.sessionsOf(user.user_id);
    if (sessions.length > 0 && !force)
      throw new InvalidRequest(`Users contains (${sessions.length}) kasms and 'force' option not set to True`);
    for (const s of sessions) this.removeSession(s.ws_id);
    // What refers to the user goes with it, as the product's foreign keys cascade.
    for (const m of Object.values(this.state.egressMappings)) if (m.user_id === user.user_id) delete this.state.egressMappings[m.egress_provider_mapping_id];
    for (const c of Object.values(this.state.egressCredentials)) if (c.user_id === user.user_id) delete this.state.egressCredentials[c.egress_credential_id];
    delete this.state.userAttributes[user.user_id];
    delete this.state.users[user.user_id];
    this.usernames.delete(user.username);
  }

  /** logout_user: ends every session of the user. */
  logoutUser(userId: unknown): void {
    const user = this.requireUser(userId);
    for (const s of this.sessionsOf(user.user_id)) this.removeSession(s.ws_id);
  }

  attributesOf(userId: unknown): UserAttributesRecord {
    const user = this.requireUser(userId);
    return this.state.userAttributes[user.user_id];
  }

  /** update_user_attributes: changes the fields sent; a default image must exist. */
  updateAttributes(
    userId: unknown,
    input: Partial<Omit<UserAttributesRecord, "user_attributes_id" | "user_id">>,
  ): UserAttributesRecord {
    const attributes = this.attributesOf(userId);
    let defaultImage = attributes.default_image;
    if (input.default_image !== undefined) {
      if (input.default_image === null || input.default_image === "") defaultImage = null;
      else {
        const image = this.image(input.default_image);
        if (!image) throw new UnknownObject(`Invalid Image ID (${input.default_image})`);
        defaultImage = image.image_id;
      }
    }
    attributes.default_image = defaultImage;
    if (input.ssh_public_key !== undefined) attributes.ssh_public_key = input.ssh_public_key;
    if (input.show_tips !== undefined) attributes.show_tips = input.show_tips;
    if (input.toggle_control_panel !== undefined) attributes.toggle_control_panel = input.toggle_control_panel;
    if (input.auto_login_ws !== undefined) attributes.auto_login_ws = input.auto_login_ws;
    return attributes;
  }

  /** The user and server of an assignment, with the product's wording for an unknown one. */
  assignmentParties(userId: unknown, serverId: unknown): { user: UserRecord; server: ServerRecord } {
    const user = this.requireUser(userId, "Invalid User ID");
    const server = this.server(serverId);
    if (!server) throw new UnknownObject(`Invalid Server ID (${String(serverId ?? "")})`);
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
    if (!user.server_ids.includes(server.server_id))
      throw new InvalidRequest(`User (${user.user_id}) is not assigned to server (${server.server_id})`);
    user.server_ids = user.server_ids.filter((id) => id !== server.server_id);
  }

  // --- groups ---------------------------------------------------------------------------------

  /** The user and group of a membership call, with the product's wording for an unknown one. */
  membershipParties(userId: unknown, groupId: unknown): { user: UserRecord; group: GroupRecord } {
    const user = this.requireUser(userId, "Invalid User ID");
    const group = this.group(groupId);
    if (!group) throw new UnknownObject(`Invalid Group ID (${String(groupId ?? "")})`);
    return { user, group };
  }

  addUserToGroup(userId: unknown, groupId: unknown): void {
    const { user, group } = this.membershipParties(userId, groupId);
    if (user.group_ids.includes(group.group_id))
      throw new InvalidRequest(`User (${user.user_id}) is already a member of group (${group.group_id})`);
    user.group_ids.push(group.group_id);
  }

  removeUserFromGroup(userId: unknown, groupId: unknown): void {
    const { user, group } = this.membershipParties(userId, groupId);
    if (!user.group_ids.includes(group.group_id))
      throw new InvalidRequest(`User (${user.user_id}) is not a member of group (${group.group_id})`);
    user.group_ids = user.group_ids.filter((id) => id !== group.group_id);
  }

  // --- sessions -------------------------------------------------------------------------------

  /** How many sessions may run at once: the Community Edition's 5 without a concurrent-session licence. */
  sessionCapacity(): number {
    const concurrent = Object.values(this.state.licenses).filter((l) => /concurrent/i.test(l.license_type));
    if (concurrent.length > 0) return concurrent.reduce((sum, l) => sum + l.limit, 0);
    if (Object.keys(this.state.licenses).length > 0) return Number.POSITIVE_INFINITY;
    return COMMUNITY_CONCURRENT_SESSIONS;
  }

  /** request_ws: a running session of `image` for `user`, on a server of the image's zone if it has one. */
  createSession(userId: unknown, imageId: unknown): SessionRecord {
    const user = this.requireUser(userId);
    const image = this.image(imageId);
    if (!image) throw new UnknownObject(`Invalid Image ID (${String(imageId ?? "")})`);
    const running = Object.values(this.state.sessions).filter((s) => s.user_id !== null).length;
    if (running >= this.sessionCapacity()) throw new LicenseLimitExceeded("session");
    return this.createSessionUnchecked(user, image);
  }

  /** Start a session without checking the licence capacity (seeds describe what already runs). */
  createSessionUnchecked(user: UserRecord, image: ImageRecord): SessionRecord {
    const session = this.buildSession(user.user_id, image, null);
    this.state.sessions[session.ws_id] = session;
    user.last_session = session.start_date;
    return session;
  }

  private buildSession(userId: string | null, image: ImageRecord, stagingConfigId: string | null): SessionRecord {
    const now = new Date();
    const server =
      Object.values(this.state.servers).find((s) => !image.zone_id || s.zone_id === image.zone_id) ?? null;
    return {
      ws_id: newId(),
      user_id: userId,
      image_id: image.image_id,
      server_id: server?.server_id ?? null,
      start_date: timestamp(now),
      keepalive_date: timestamp(now),
      expiration_date: timestamp(new Date(now.getTime() + 3600_000)),
      operational_status: "running",
      share_id: randomBytes(4).toString("hex"),
      session_token: randomUUID(),
      staging_config_id: stagingConfigId,
    };
  }

  /** A session of the given user: another user's session is reported as unknown. */
  sessionOf(wsId: unknown, userId: unknown): SessionRecord {
    const session = this.session(wsId);
    const user = this.user(userId);
    if (!session || !user || session.user_id !== user.user_id)
      throw new UnknownObject(`Unknown session (${String(wsId ?? "")})`);
    return session;
  }

  removeSession(wsId: string): void {
    delete this.state.sessions[wsId];
  }

  /** Add a recording to a session (seeds use this: the API itself has no way to make one). */
  addRecording(session: SessionRecord, duration: number): RecordingRecord {
    const recording: RecordingRecord = {
      recording_id: newId(),
      ws_id: session.ws_id,
      account_id: session.user_id ?? "",
      duration,
      timestamp: Math.floor(Date.now() / 1000),
    };
    this.state.recordings[recording.recording_id] = recording;
    return recording;
  }

  recordingsOf(wsId: string): RecordingRecord[] {
    return Object.values(this.state.recordings)
      .filter((r) => r.ws_id === wsId)
      .sort((a, b) => a.timestamp - b.timestamp || a.recording_id.localeCompare(b.recording_id));
  }

  // --- servers --------------------------------------------------------------------------------

  /** set_drain_server: sets the server's draining flag to the value given. */
  setDraining(serverId: unknown, draining: boolean): void {
    const server = this.server(serverId);
    if (!server) throw new UnknownObject(`Invalid Server ID (${String(serverId ?? "")})`);
    server.is_draining = draining;
  }

  /** get_servers: one server by id. */
  requireServer(serverId: unknown): ServerRecord {
    const server = this.server(serverId);
    if (!server) throw new UnknownObject(`Invalid Server ID (${String(serverId ?? "")})`);
    return server;
  }

  /** The users assigned to a server. */
  usersOfServer(serverId: string): UserRecord[] {
    return Object.values(this.state.users).filter((u) => u.server_ids.includes(serverId));
  }

  // --- staging --------------------------------------------------------------------------------

  requireStagingConfig(id: unknown): StagingConfigRecord {
    const config = byId(this.state.stagingConfigs, id);
    if (!config) throw new UnknownObject(`Staging config with id (${String(id ?? "")}) does not exist`);
    return config;
  }

  /** create_staging_config: zone and image must exist; (zone, image) is unique. */
  createStagingConfig(input: StagingConfigInput): StagingConfigRecord {
    if (!input.zone_id || !input.image_id || input.num_sessions === undefined || input.expiration === undefined)
      throw new MissingParameters(".");
    const config: StagingConfigRecord = {
      staging_config_id: newId(),
      zone_id: "",
      image_id: "",
      num_sessions: 0,
      num_current_sessions: 0,
      expiration: 0,
      ...NO_CLIENT_PERMISSIONS,
    };
    this.applyStagingConfig(config, input);
    this.state.stagingConfigs[config.staging_config_id] = config;
    return config;
  }

  /** update_staging_config: the fields sent change; the (zone, image) pair stays unique. */
  updateStagingConfig(id: unknown, input: StagingConfigInput): StagingConfigRecord {
    const config = this.requireStagingConfig(id);
    this.applyStagingConfig(config, input);
    return config;
  }

  private applyStagingConfig(config: StagingConfigRecord, input: StagingConfigInput): void {
    const zone = input.zone_id !== undefined ? this.zone(input.zone_id) : this.state.zones[config.zone_id];
    if (!zone) throw new UnknownObject(`Invalid Zone ID (${String(input.zone_id ?? "")})`);
    const image = input.image_id !== undefined ? this.image(input.image_id) : this.state.images[config.image_id];
    if (!image) throw new UnknownObject(`Invalid Image ID (${String(input.image_id ?? "")})`);
    const clash = Object.values(this.state.stagingConfigs).find(
      (c) => c.zone_id === zone.zone_id && c.image_id === image.image_id && c.staging_config_id !== config.staging_config_id,
    );
    if (clash)
      throw new AlreadyExists(
        `A staging config for zone (${zone.zone_name}) and image (${image.friendly_name}) already exists (${clash.staging_config_id})`,
      );
    const { zone_id: _z, image_id: _i, ...rest } = input;
    Object.assign(config, definedOnly(rest), { zone_id: zone.zone_id, image_id: image.image_id });
    // The emulator stages sessions at once: the pool is always full.
    config.num_current_sessions = config.num_sessions;
  }

  deleteStagingConfig(id: unknown): void {
    const config = this.requireStagingConfig(id);
    delete this.state.stagingConfigs[config.staging_config_id];
  }

  // --- casting --------------------------------------------------------------------------------

  requireCastConfig(id: unknown): CastConfigRecord {
    const config = byId(this.state.castConfigs, id);
    if (!config) throw new UnknownObject(`Cast config with id (${String(id ?? "")}) does not exist`);
    return config;
  }

  /** create_cast_config: `key` is required; key and name are each unique. */
  createCastConfig(input: CastConfigInput): CastConfigRecord {
    if (!input.key) throw new MissingParameters(".");
    const config: CastConfigRecord = {
      cast_config_id: newId(),
      casting_config_name: input.key,
      image_id: null,
      key: input.key,
      allowed_referrers: [],
      limit_sessions: false,
      session_remaining: 0,
      limit_ips: false,
      ip_request_limit: 0,
      ip_request_seconds: 0,
      error_url: null,
      enable_sharing: false,
      disable_control_panel: false,
      disable_tips: false,
      disable_fixed_res: false,
      allow_anonymous: false,
      group_id: null,
      require_recaptcha: false,
      ws_url: null,
      dynamic_ws_url: false,
      dynamic_ctr_network: false,
      allow_resume: false,
      enforce_client_settings: false,
      ...NO_CLIENT_PERMISSIONS,
      allow_ws_sharing: false,
      ws_audio_default_on: true,
      ws_ime_mode_default_on: false,
      valid_until: null,
    };
    this.applyCastConfig(config, input);
    this.state.castConfigs[config.cast_config_id] = config;
    return config;
  }

  updateCastConfig(id: unknown, input: CastConfigInput): CastConfigRecord {
    const config = this.requireCastConfig(id);
    this.applyCastConfig(config, input);
    return config;
  }

  private applyCastConfig(config: CastConfigRecord, input: CastConfigInput): void {
    const key = input.key ?? config.key;
    const name = input.casting_config_name ?? config.casting_config_name;
    if (!key) throw new InvalidRequest("Invalid Request: key must not be empty");
    const clash = Object.values(this.state.castConfigs).find(
      (c) => c.cast_config_id !== config.cast_config_id && (c.key === key || c.casting_config_name === name),
    );
    if (clash)
      throw new AlreadyExists(
        `A Cast config with existing key (${key}) OR configuration name (${name}) exists. Key/Configuration Name must be unique`,
      );
    let imageId = config.image_id;
    if (input.image_id !== undefined) {
      imageId = null;
      if (input.image_id !== null && input.image_id !== "") {
        const image = this.image(input.image_id);
        if (!image) throw new UnknownObject(`Invalid Image ID (${input.image_id})`);
        imageId = image.image_id;
      }
    }
    let groupId = config.group_id;
    if (input.group_id !== undefined) {
      groupId = null;
      if (input.group_id !== null && input.group_id !== "") {
        const group = this.group(input.group_id);
        if (!group) throw new UnknownObject(`Invalid Group ID (${input.group_id})`);
        groupId = group.group_id;
      }
    }
    const next = { ...config, ...definedOnly(input) };
    if (next.limit_ips && (next.ip_request_limit < 1 || next.ip_request_seconds < 1))
      throw new InvalidRequest(
        "Invalid Request: ip_request_limit and ip_request_seconds must be positive when limit_ips is true",
      );
    if (next.valid_until !== null && !parseTime(next.valid_until))
      throw new InvalidRequest(`Invalid Request: valid_until (${next.valid_until}) is not a 'YYYY-MM-DD HH:MM:SS' time`);
    Object.assign(config, next, { key, casting_config_name: name, image_id: imageId, group_id: groupId });
  }

  /** delete_cast_config: by id, or by name when no id is sent. */
  deleteCastConfig(id: unknown, name: unknown): void {
    let config: CastConfigRecord | undefined;
    if (id !== undefined && id !== null && id !== "") config = this.requireCastConfig(id);
    else if (typeof name === "string") config = Object.values(this.state.castConfigs).find((c) => c.casting_config_name === name);
    if (!config) throw new UnknownObject(`Cast config with id (${String(id ?? name ?? "")}) does not exist`);
    delete this.state.castConfigs[config.cast_config_id];
  }

  // --- egress ---------------------------------------------------------------------------------

  requireEgressProvider(id: unknown): EgressProviderRecord {
    const provider = byId(this.state.egressProviders, id);
    if (!provider) throw new UnknownObject(`Egress provider (${String(id ?? "")}) does not exist`);
    return provider;
  }

  /** create_egress_provider: name and type are required; names are unique. */
  createEgressProvider(input: EgressProviderInput): EgressProviderRecord {
    if (!input.name || !input.egress_provider_type) throw new MissingParameters();
    this.checkEgressProviderName(input.name, undefined);
    const provider: EgressProviderRecord = {
      egress_provider_id: newId(),
      created: timestamp(),
      name: input.name,
      egress_provider_type: input.egress_provider_type,
      enabled: input.enabled ?? true,
    };
    this.state.egressProviders[provider.egress_provider_id] = provider;
    return provider;
  }

  private checkEgressProviderName(name: string, selfId: string | undefined): void {
    const clash = Object.values(this.state.egressProviders).find((p) => p.name === name && p.egress_provider_id !== selfId);
    if (clash) throw new AlreadyExists(`An egress provider named (${name}) already exists`);
  }

  updateEgressProvider(id: unknown, input: EgressProviderInput): EgressProviderRecord {
    const provider = this.requireEgressProvider(id);
    if (input.name !== undefined) {
      if (!input.name) throw new InvalidRequest("Invalid Request: name must not be empty");
      this.checkEgressProviderName(input.name, provider.egress_provider_id);
    }
    Object.assign(provider, definedOnly(input));
    return provider;
  }

  /** delete_egress_provider: its gateways, mappings and credentials go with it. */
  deleteEgressProvider(id: unknown): void {
    const provider = this.requireEgressProvider(id);
    const id_ = provider.egress_provider_id;
    for (const g of Object.values(this.state.egressGateways)) if (g.egress_provider_id === id_) delete this.state.egressGateways[g.egress_gateway_id];
    for (const m of Object.values(this.state.egressMappings)) if (m.egress_provider_id === id_) delete this.state.egressMappings[m.egress_provider_mapping_id];
    for (const c of Object.values(this.state.egressCredentials)) if (c.egress_provider_id === id_) delete this.state.egressCredentials[c.egress_credential_id];
    delete this.state.egressProviders[id_];
  }

  requireEgressGateway(id: unknown): EgressGatewayRecord {
    const gateway = byId(this.state.egressGateways, id);
    if (!gateway) throw new UnknownObject(`Egress gateway (${String(id ?? "")}) does not exist`);
    return gateway;
  }

  /** create_egress_gateway: the provider must exist; names are unique within a provider. */
  createEgressGateway(input: EgressGatewayInput): EgressGatewayRecord {
    if (!input.egress_provider_id || !input.name) throw new MissingParameters();
    const provider = this.requireEgressProvider(input.egress_provider_id);
    this.checkGatewayName(provider.egress_provider_id, input.name, undefined);
    const gateway: EgressGatewayRecord = {
      egress_gateway_id: newId(),
      egress_provider_id: provider.egress_provider_id,
      name: input.name,
      enabled: input.enabled ?? true,
      country: input.country ?? null,
      city: input.city ?? null,
      config: input.config ?? null,
      active_connections: 0,
    };
    this.state.egressGateways[gateway.egress_gateway_id] = gateway;
    return gateway;
  }

  private checkGatewayName(providerId: string, name: string, selfId: string | undefined): void {
    const clash = Object.values(this.state.egressGateways).find(
      (g) => g.egress_provider_id === providerId && g.name === name && g.egress_gateway_id !== selfId,
    );
    if (clash) throw new AlreadyExists(`An egress gateway named (${name}) already exists for this egress provider`);
  }

  updateEgressGateway(id: unknown, input: EgressGatewayInput): EgressGatewayRecord {
    const gateway = this.requireEgressGateway(id);
    const providerId =
      input.egress_provider_id !== undefined
        ? this.requireEgressProvider(input.egress_provider_id).egress_provider_id
        : gateway.egress_provider_id;
    const name = input.name ?? gateway.name;
    if (!name) throw new InvalidRequest("Invalid Request: name must not be empty");
    this.checkGatewayName(providerId, name, gateway.egress_gateway_id);
    if (providerId !== gateway.egress_provider_id) this.unselectGateway(gateway.egress_gateway_id);
    Object.assign(gateway, definedOnly(input), { egress_provider_id: providerId, name });
    return gateway;
  }

  /** delete_egress_gateway: it is also taken out of the mappings and credentials that selected it. */
  deleteEgressGateway(id: unknown): void {
    const gateway = this.requireEgressGateway(id);
    this.unselectGateway(gateway.egress_gateway_id);
    delete this.state.egressGateways[gateway.egress_gateway_id];
  }

  /** Take a gateway out of the mappings and credentials that selected it (it left their provider). */
  private unselectGateway(gatewayId: string): void {
    for (const holder of [...Object.values(this.state.egressMappings), ...Object.values(this.state.egressCredentials)])
      holder.selected_gateways = holder.selected_gateways.filter((g) => g !== gatewayId);
  }

  /**
   * The provider, target and gateways of a mapping or credential, checked: exactly one target
   * that exists, and gateways of that provider when not all gateways are allowed.
   */
  private egressBinding(input: EgressMappingInput | EgressCredentialInput, current?: EgressMappingRecord | EgressCredentialRecord) {
    const providerId = input.egress_provider_id ?? current?.egress_provider_id;
    if (!providerId) throw new MissingParameters();
    const provider = this.requireEgressProvider(providerId);
    const targetGiven = input.user_id !== undefined || input.group_id !== undefined || input.image_id !== undefined;
    const raw: EgressTarget = targetGiven
      ? { user_id: input.user_id ?? null, group_id: input.group_id ?? null, image_id: input.image_id ?? null }
      : { user_id: current?.user_id ?? null, group_id: current?.group_id ?? null, image_id: current?.image_id ?? null };
    const set = (["user_id", "group_id", "image_id"] as const).filter((k) => raw[k] !== null && raw[k] !== "");
    if (set.length !== 1)
      throw new InvalidRequest("Invalid Request: exactly one of user_id, group_id and image_id must be set");
    const target: EgressTarget = { user_id: null, group_id: null, image_id: null };
    if (set[0] === "user_id") target.user_id = this.requireUser(raw.user_id, "Invalid User ID").user_id;
    if (set[0] === "group_id") {
      const group = this.group(raw.group_id);
      if (!group) throw new UnknownObject(`Invalid Group ID (${raw.group_id})`);
      target.group_id = group.group_id;
    }
    if (set[0] === "image_id") {
      const image = this.image(raw.image_id);
      if (!image) throw new UnknownObject(`Invalid Image ID (${raw.image_id})`);
      target.image_id = image.image_id;
    }
    const allowAll = input.allow_all_gateways ?? current?.allow_all_gateways ?? false;
    const selectedRaw = input.selected_gateways ?? (allowAll ? [] : current?.selected_gateways ?? []);
    const selected: string[] = [];
    if (!allowAll) {
      if (selectedRaw.length === 0)
        throw new InvalidRequest("Invalid Request: selected_gateways is required when allow_all_gateways is false");
      for (const id of selectedRaw) {
        const gateway = this.requireEgressGateway(id);
        if (gateway.egress_provider_id !== provider.egress_provider_id)
          throw new InvalidRequest(`Invalid Request: egress gateway (${gateway.egress_gateway_id}) belongs to another egress provider`);
        if (!selected.includes(gateway.egress_gateway_id)) selected.push(gateway.egress_gateway_id);
      }
    }
    return { provider, target, allowAll, selected };
  }

  requireEgressMapping(id: unknown): EgressMappingRecord {
    const mapping = byId(this.state.egressMappings, id);
    if (!mapping) throw new UnknownObject(`Egress provider mapping (${String(id ?? "")}) does not exist`);
    return mapping;
  }

  /** create_egress_provider_mapping: one mapping per provider and target. */
  createEgressMapping(input: EgressMappingInput): EgressMappingRecord {
    const { provider, target, allowAll, selected } = this.egressBinding(input);
    this.checkMappingUnique(provider.egress_provider_id, target, undefined);
    const mapping: EgressMappingRecord = {
      egress_provider_mapping_id: newId(),
      egress_provider_id: provider.egress_provider_id,
      enabled: input.enabled ?? true,
      created: timestamp(),
      ...target,
      allow_all_gateways: allowAll,
      selected_gateways: selected,
    };
    this.state.egressMappings[mapping.egress_provider_mapping_id] = mapping;
    return mapping;
  }

  private checkMappingUnique(providerId: string, target: EgressTarget, selfId: string | undefined): void {
    const clash = Object.values(this.state.egressMappings).find(
      (m) =>
        m.egress_provider_mapping_id !== selfId &&
        m.egress_provider_id === providerId &&
        m.user_id === target.user_id &&
        m.group_id === target.group_id &&
        m.image_id === target.image_id,
    );
    if (clash)
      throw new AlreadyExists(`An egress provider mapping for this provider and target already exists (${clash.egress_provider_mapping_id})`);
  }

  updateEgressMapping(id: unknown, input: EgressMappingInput): EgressMappingRecord {
    const mapping = this.requireEgressMapping(id);
    const { provider, target, allowAll, selected } = this.egressBinding(input, mapping);
    this.checkMappingUnique(provider.egress_provider_id, target, mapping.egress_provider_mapping_id);
    Object.assign(mapping, {
      egress_provider_id: provider.egress_provider_id,
      enabled: input.enabled ?? mapping.enabled,
      ...target,
      allow_all_gateways: allowAll,
      selected_gateways: selected,
    });
    return mapping;
  }

  deleteEgressMapping(id: unknown): void {
    const mapping = this.requireEgressMapping(id);
    delete this.state.egressMappings[mapping.egress_provider_mapping_id];
  }

  /** create_egress_credential: a name unique within the provider, one target, and a positive limit when limited. */
  createEgressCredential(input: EgressCredentialInput): EgressCredentialRecord {
    if (!input.name) throw new MissingParameters();
    const { provider, target, allowAll, selected } = this.egressBinding(input);
    const clash = Object.values(this.state.egressCredentials).find(
      (c) => c.egress_provider_id === provider.egress_provider_id && c.name === input.name,
    );
    if (clash) throw new AlreadyExists(`An egress credential named (${input.name}) already exists for this egress provider`);
    const limit = input.limit_active_connections ?? false;
    if (limit && !(input.active_connection_limit && input.active_connection_limit > 0))
      throw new InvalidRequest("Invalid Request: active_connection_limit must be positive when limit_active_connections is true");
    const credential: EgressCredentialRecord = {
      egress_credential_id: newId(),
      egress_provider_id: provider.egress_provider_id,
      name: input.name,
      username: input.username ?? null,
      password: input.password ?? null,
      enabled: input.enabled ?? true,
      ...target,
      allow_all_gateways: allowAll,
      selected_gateways: selected,
      wireguard_private_key: input.wireguard_private_key ?? null,
      mesh_key: input.mesh_key ?? null,
      limit_active_connections: limit,
      active_connection_limit: input.active_connection_limit ?? 0,
      active_connections: 0,
      custom_credential: input.custom_credential ?? null,
    };
    this.state.egressCredentials[credential.egress_credential_id] = credential;
    return credential;
  }

  /** The target of an egress mapping or credential request, resolved for the permission check. */
  egressTargetContext(target: Partial<EgressTarget>): {
    targetIsUser: boolean;
    targetIsGroup: boolean;
    targetIsImage: boolean;
    targetUserIsGlobalAdmin: boolean;
    targetGroupIsSystem: boolean;
  } {
    const user = target.user_id ? this.user(target.user_id) : undefined;
    const group = target.group_id ? this.group(target.group_id) : undefined;
    return {
      targetIsUser: !!target.user_id,
      targetIsGroup: !!target.group_id,
      targetIsImage: !!target.image_id,
      targetUserIsGlobalAdmin: !!user && this.isGlobalAdmin(user),
      targetGroupIsSystem: !!group?.is_system,
    };
  }

  /**
   * get_image_egress_gateways: the gateways a user may use with an image, through the enabled
   * mappings of the user, of the user's groups, and of the image.
   */
  gatewaysForUserImage(userId: unknown, imageId: unknown) {
    const user = this.requireUser(userId, "Invalid User ID");
    const image = this.image(imageId);
    if (!image) throw new UnknownObject(`Invalid Image ID (${String(imageId ?? "")})`);
    const applies = (t: EgressTarget) =>
      t.user_id === user.user_id || (t.group_id !== null && user.group_ids.includes(t.group_id)) || t.image_id === image.image_id;
    const result: { gateway: EgressGatewayRecord; provider: EgressProviderRecord; credential: EgressCredentialRecord | undefined }[] = [];
    for (const mapping of Object.values(this.state.egressMappings)) {
      if (!mapping.enabled || !applies(mapping)) continue;
      const provider = this.state.egressProviders[mapping.egress_provider_id];
      if (!provider?.enabled) continue;
      const gateways = Object.values(this.state.egressGateways).filter(
        (g) =>
          g.enabled &&
          g.egress_provider_id === provider.egress_provider_id &&
          (mapping.allow_all_gateways || mapping.selected_gateways.includes(g.egress_gateway_id)),
      );
      for (const gateway of gateways) {
        if (result.some((r) => r.gateway.egress_gateway_id === gateway.egress_gateway_id)) continue;
        const credential = Object.values(this.state.egressCredentials).find(
          (c) =>
            c.enabled &&
            c.egress_provider_id === provider.egress_provider_id &&
            applies(c) &&
            (c.allow_all_gateways || c.selected_gateways.includes(gateway.egress_gateway_id)),
        );
        result.push({ gateway, provider, credential });
      }
    }
    return { image, gateways: result };
  }

  // --- licences -------------------------------------------------------------------------------

  /**
   * activate: takes `seats` from the key's entitlement (all that is left when omitted). Repeated
   * calls add seats as further licences; asking for more than is left is refused.
   */
  activate(activationKey: string, seats: number | undefined, issuedTo: string | null): LicenseRecord {
    const entitlement = this.state.activationKeys[activationKey.trim()];
    if (!entitlement) throw new ActivationRefused("Invalid activation key");
    const left = entitlement.seats - entitlement.seats_used;
    if (seats !== undefined && (!Number.isInteger(seats) || seats < 1))
      throw new ActivationRefused(`seats must be a positive integer, got (${seats})`);
    const taking = seats ?? left;
    if (left <= 0) throw new ActivationRefused("No seats remain on this activation key's entitlement");
    if (taking > left)
      throw new ActivationRefused(`Requested seats (${taking}) exceed the seats remaining on the entitlement (${left})`);
    entitlement.seats_used += taking;
    const license: LicenseRecord = {
      license_id: newId(),
      expiration: entitlement.expiration,
      issued_at: timestamp(),
      issued_to: issuedTo,
      limit: taking,
      is_verified: true,
      license_type: entitlement.license_type,
      sku: entitlement.sku,
      features: { ...entitlement.features },
    };
    this.state.licenses[license.license_id] = license;
    return license;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** The properties of `input` that are not undefined: an update changes only what was sent. */
export function definedOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
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
