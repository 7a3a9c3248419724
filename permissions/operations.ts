/**
 * Every public operation of the Kasm Developer API and the permissions it needs.
 *
 * This table is the single source of truth: the emulator enforces it, the API client names the
 * permissions of a refused call from it, and the policy packs check a stack against it.
 * Where the spec says "not shown" the choice is marked with `chosen` and explained.
 */
import type { PermissionName } from "./names";

/** The circumstances of one call that change what it needs (the spec's contextual permissions). */
export interface OperationContext {
  /** The target user holds Global Admin (is a member of Administrators). */
  readonly targetUserIsGlobalAdmin?: boolean;
  /** The target user has running sessions (delete_user). */
  readonly targetUserHasSessions?: boolean;
  /** The target group is a system group (All Users, Administrators). */
  readonly targetGroupIsSystem?: boolean;
  /** An egress mapping or credential targets a user. */
  readonly targetIsUser?: boolean;
  /** An egress mapping or credential targets a group. */
  readonly targetIsGroup?: boolean;
  /** An egress mapping or credential targets an image. */
  readonly targetIsImage?: boolean;
  /** A batch user import puts users into groups (group_N columns). */
  readonly assignsGroups?: boolean;
  /** A batch server import assigns users to servers (assigned_username column). */
  readonly assignsUsers?: boolean;
  /**
   * An image update changes a compute-related field (the spec's special permission rule 3: GPU
   * count, cores, memory, CPU allocation method, uncompressed image size, container registry,
   * registry username and password, hash, volume mappings, run config, exec config).
   */
  readonly changesImageResources?: boolean;
  /**
   * A casting config's update sends a group other than the config's, or none while it has one:
   * 1.15.0's update_cast_config then checks Groups Modify on each of the two groups.
   */
  readonly changesCastGroup?: boolean;
}

/** A flag of {@link OperationContext}. */
export type ContextFlag = keyof OperationContext;

/** A permission added when a context flag (or all of several) is set. */
export interface ContextualRequirement {
  readonly when: readonly ContextFlag[];
  readonly add: readonly PermissionName[];
  readonly reason: string;
}

/** Whether a Read Only key may call the operation. */
export type OperationAccess = "read" | "write";

/** One public operation. */
export interface OperationSpec {
  readonly name: string;
  /** HTTP method on the wire: POST, except the five egress reads, which are GET with a JSON body. */
  readonly method: "POST" | "GET";
  /** Path below the base URL. */
  readonly path: string;
  /** How credentials and parameters travel: a JSON body, or multipart with header credentials. */
  readonly envelope: "json" | "multipart";
  /** The area of the API, used to group client functions and emulator handlers. */
  readonly area: OperationArea;
  /** `read` operations are the only ones a Read Only key may call. */
  readonly access: OperationAccess;
  /** Every one of these is needed. */
  readonly requires: readonly PermissionName[];
  /** When set, at least one of these is needed as well. */
  readonly requiresOneOf?: readonly PermissionName[];
  /** Permissions added by the circumstances of the call. */
  readonly contextual?: readonly ContextualRequirement[];
  /** Why the permissions are what they are, where the spec does not show them. */
  readonly chosen?: string;
  /**
   * Where the operation exists. `spec` (the default): the API documentation lists it, and every
   * installation has it. `product`: the documentation leaves it out, but the released product
   * serves it (seen in a decompile of the 1.15.0 API server and called by public clients against
   * 1.16.1); a client talking the spec's vocabulary must not call it.
   */
  readonly availability: OperationAvailability;
  /**
   * For a `product` operation: where its permissions were read, or, when they were inferred
   * rather than read, that they were inferred and why.
   */
  readonly permissionSource?: string;
}

/** Where an operation exists: in the spec (every installation) or only in the released product. */
export type OperationAvailability = "spec" | "product";

/** The areas the API is grouped in. */
export type OperationArea =
  | "users"
  | "groups"
  | "servers"
  | "sessions"
  | "images"
  | "recordings"
  | "login"
  | "licenses"
  | "staging"
  | "zones"
  | "casting"
  | "egress";

const modifiesTargetUser: ContextualRequirement = {
  when: ["targetUserIsGlobalAdmin"],
  add: ["Users Modify Admin"],
  reason: "the target user has Global Admin",
};
/** Images Modify, and Images Modify Resources on top when a compute-related field changes. */
const changesImageResources: ContextualRequirement = {
  when: ["changesImageResources"],
  add: ["Images Modify", "Images Modify Resources"],
  reason: "it changes a compute-related image field (GPU, cores, memory, CPU, size, registry, hash, volumes, run or exec config)",
};
const modifiesSystemGroup: ContextualRequirement = {
  when: ["targetGroupIsSystem"],
  add: ["Groups Modify System"],
  reason: "the group is a system group (All Users or Administrators)",
};
/** Egress mappings and credentials need the Modify permission of what they target. */
const egressTarget: readonly ContextualRequirement[] = [
  { when: ["targetIsUser"], add: ["Users Modify"], reason: "it targets a user" },
  { when: ["targetIsUser", "targetUserIsGlobalAdmin"], add: ["Users Modify Admin"], reason: "it targets a user with Global Admin" },
  { when: ["targetIsGroup"], add: ["Groups Modify"], reason: "it targets a group" },
  { when: ["targetIsGroup", "targetGroupIsSystem"], add: ["Groups Modify System"], reason: "it targets a system group" },
  { when: ["targetIsImage"], add: ["Images Modify"], reason: "it targets an image" },
];

type Row = Omit<OperationSpec, "name" | "method" | "path" | "envelope" | "availability"> & {
  availability?: "product";
  method?: "GET";
  envelope?: "multipart";
  path?: string;
};

const rows = {
  // Users
  create_user: { area: "users", access: "write", requires: ["Users Create"] },
  batch_create_user: {
    area: "users",
    access: "write",
    envelope: "multipart",
    requires: ["Users Create"],
    contextual: [
      { when: ["assignsGroups"], add: ["Groups Modify"], reason: "the CSV puts users into groups" },
      { when: ["assignsGroups", "targetGroupIsSystem"], add: ["Groups Modify System"], reason: "the CSV puts users into a system group" },
    ],
  },
  get_user: { area: "users", access: "read", requires: ["Users View"] },
  get_users: { area: "users", access: "read", requires: ["Users View"] },
  update_user: { area: "users", access: "write", requires: ["Users Modify"], contextual: [modifiesTargetUser] },
  delete_user: {
    area: "users",
    access: "write",
    requires: ["Users Delete", "Users Modify"],
    contextual: [modifiesTargetUser, { when: ["targetUserHasSessions"], add: ["Sessions Delete"], reason: "the user has running sessions" }],
  },
  logout_user: { area: "users", access: "write", requires: ["Users Auth Session"] },
  get_attributes: { area: "users", access: "read", requires: ["Users View"] },
  update_user_attributes: { area: "users", access: "write", requires: ["Users Modify"], contextual: [modifiesTargetUser] },
  assign_user_server: { area: "users", access: "write", requires: ["Servers Modify", "Users Modify"], contextual: [modifiesTargetUser] },
  unassign_user_server: { area: "users", access: "write", requires: ["Servers Modify", "Users Modify"], contextual: [modifiesTargetUser] },

  // Groups
  add_user_group: { area: "groups", access: "write", requires: ["Groups Modify"], contextual: [modifiesSystemGroup] },
  remove_user_group: { area: "groups", access: "write", requires: ["Groups Modify"], contextual: [modifiesSystemGroup] },

  // Sessions
  request_ws: {
    area: "sessions",
    access: "write",
    requires: ["Users Auth Session", "User"],
    chosen: "not shown; a session is requested on behalf of a user, which the spec says needs Users Auth Session and User",
  },
  get_ws_status: {
    area: "sessions",
    access: "read",
    requires: ["Users Auth Session", "User"],
    chosen: "not shown; the same as request_ws, whose result it polls",
  },
  delete_ws: {
    area: "sessions",
    access: "write",
    requires: ["Users Auth Session", "User"],
    chosen: "not shown; the same as request_ws (the user ends their own session)",
  },
  get_ws_bottleneck_stats: {
    area: "sessions",
    access: "read",
    requires: ["Users Auth Session", "User"],
    chosen:
      "not shown; the 1.15.0 public API checks User for it (its get_kasm_bottleneck_stats), as for " +
      "get_ws_screenshot, which the documentation gives as Users Auth Session and User",
  },
  get_ws_system_stats: {
    area: "sessions",
    access: "read",
    requires: ["Sessions View"],
    chosen: "not shown; reading another user's session statistics is viewing their session",
  },
  get_ws_screenshot: { area: "sessions", access: "read", requires: ["Users Auth Session", "User"] },
  exec_command_ws: { area: "sessions", access: "write", requires: ["Users Auth Session", "Sessions Modify"] },
  exec_ws: { area: "sessions", access: "write", requires: ["Users Auth Session", "Sessions Modify"] },

  // Images and recordings
  get_images: { area: "images", access: "read", requires: ["Images View"] },
  get_session_recordings: { area: "recordings", access: "read", requires: ["Session Recordings View"] },
  get_sessions_recordings: { area: "recordings", access: "read", requires: ["Session Recordings View"] },

  // Login
  get_login: {
    area: "login",
    access: "write",
    requires: ["Users Auth Session"],
    chosen: "a write for Read Only keys: it mints a login link that signs the user in",
  },

  // Licensing
  activate: { area: "licenses", access: "write", requires: ["Licenses Create"] },

  // Session staging
  get_staging_configs: { area: "staging", access: "read", requires: ["Staging View"] },
  get_staging_config: { area: "staging", access: "read", requires: ["Staging View"] },
  create_staging_config: { area: "staging", access: "write", requires: ["Staging Create"] },
  update_staging_config: { area: "staging", access: "write", requires: ["Staging Modify"] },
  delete_staging_config: { area: "staging", access: "write", requires: ["Staging Delete"] },

  // Zones and servers
  get_zones: { area: "zones", access: "read", requires: ["Zones View"] },
  batch_create_server: {
    area: "servers",
    access: "write",
    envelope: "multipart",
    requires: ["Servers Create"],
    contextual: [
      { when: ["assignsUsers"], add: ["Users Modify"], reason: "the CSV assigns users to servers" },
      { when: ["assignsUsers", "targetUserIsGlobalAdmin"], add: ["Users Modify Admin"], reason: "the CSV assigns an admin user" },
    ],
  },
  set_drain_server: { area: "servers", access: "write", requires: ["Agents Modify"] },
  get_servers: { area: "servers", access: "read", requires: [], requiresOneOf: ["Servers View", "Agents View"] },

  // Casting
  create_cast_config: {
    area: "casting",
    access: "write",
    requires: ["Casting Create"],
    chosen: "not shown; Casting Create, as every other create of the API needs its family's Create",
  },
  update_cast_config: {
    area: "casting",
    access: "write",
    requires: ["Casting Modify"],
    contextual: [
      { when: ["changesCastGroup"], add: ["Groups Modify"], reason: "it changes the config's group" },
      {
        when: ["changesCastGroup", "targetGroupIsSystem"],
        add: ["Groups Modify System"],
        reason: "it changes the config's group, and one of the two is a system group",
      },
    ],
    chosen:
      "the documentation gives Casting Modify; 1.15.0's update_cast_config (its compiled code) also checks Groups Modify " +
      "(and Groups Modify System for a system group) on the config's group and on the one sent, unless the two are the same",
  },
  delete_cast_config: { area: "casting", access: "write", requires: ["Casting Delete"] },

  // Egress providers
  get_egress_providers: { area: "egress", access: "read", method: "GET", requires: ["Egress Providers View"] },
  create_egress_provider: { area: "egress", access: "write", requires: ["Egress Providers Create"] },
  update_egress_provider: { area: "egress", access: "write", requires: ["Egress Providers Modify"] },
  delete_egress_provider: { area: "egress", access: "write", requires: ["Egress Providers Delete"] },

  // Egress gateways
  get_image_egress_gateways: {
    area: "egress",
    access: "read",
    method: "GET",
    requires: ["Egress Gateways View", "Users View", "Images View"],
  },
  get_egress_gateways: { area: "egress", access: "read", method: "GET", requires: ["Egress Gateways View"] },
  create_egress_gateway: { area: "egress", access: "write", requires: ["Egress Gateways Create", "Egress Providers Modify"] },
  update_egress_gateway: { area: "egress", access: "write", requires: ["Egress Gateways Modify", "Egress Providers Modify"] },
  delete_egress_gateway: { area: "egress", access: "write", requires: ["Egress Gateways Delete", "Egress Providers Modify"] },

  // Egress provider mappings
  get_egress_provider_mapping: { area: "egress", access: "read", method: "GET", requires: ["Egress Providers View"] },
  create_egress_provider_mapping: { area: "egress", access: "write", requires: ["Egress Providers Modify"], contextual: egressTarget },
  update_egress_provider_mapping: { area: "egress", access: "write", requires: ["Egress Providers Modify"], contextual: egressTarget },
  delete_egress_provider_mapping: { area: "egress", access: "write", requires: ["Egress Providers Modify"], contextual: egressTarget },

  // Operations of the released product that the spec leaves out ("not shown"). Their request and
  // answer shapes are written down where the client and the emulator implement them.
  get_groups: {
    area: "groups",
    access: "read",
    availability: "product",
    requires: ["Groups View"],
    permissionSource:
      "1.15.0 decompile (admin_api.get_groups): any of Groups View, Groups View IfMember or Groups View System is let in, " +
      "but only the groups the key may view are listed; Groups View is what lists every group that is not a system group",
  },
  get_users_group: {
    area: "groups",
    access: "read",
    availability: "product",
    requires: ["Groups View"],
    permissionSource: "1.15.0 decompile (admin_api.get_users_group): Groups View (or IfMember / View System for the groups they reach)",
  },
  create_group: {
    area: "groups",
    access: "write",
    availability: "product",
    requires: ["Groups Create"],
    permissionSource: "1.15.0 decompile (admin_api.create_group): Groups Create",
  },
  update_group: {
    area: "groups",
    access: "write",
    availability: "product",
    requires: ["Groups Modify"],
    contextual: [modifiesSystemGroup],
    permissionSource: "1.15.0 decompile (admin_api.update_group): Groups Modify, checked against the target group (system groups need Groups Modify System)",
  },
  delete_group: {
    area: "groups",
    access: "write",
    availability: "product",
    requires: ["Groups Delete"],
    permissionSource: "1.15.0 decompile (admin_api.delete_group): Groups Delete; a system group is refused whatever the key holds",
  },
  get_cast_configs: {
    area: "casting",
    access: "read",
    availability: "product",
    requires: ["Casting View"],
    permissionSource: "1.15.0 decompile (public_api.get_cast_configs): Casting View",
  },
  get_cast_config: {
    area: "casting",
    access: "read",
    availability: "product",
    requires: ["Casting View"],
    permissionSource: "1.15.0 decompile (public_api.get_cast_config): Casting View",
  },
  // Workspaces (images) and the groups they are authorized for: shapes in api/schemas/images.ts and emulator/README.md.
  get_image: {
    area: "images",
    access: "read",
    availability: "product",
    requires: ["Images View"],
    permissionSource: "inferred (no source shows the product serving get_image: emulator/README.md): Images View, as get_images",
  },
  create_image: {
    area: "images",
    access: "write",
    availability: "product",
    requires: ["Images Create"],
    permissionSource: "1.15.0 decompile (admin_api.create_image): Images Create, and no check of the fields it sets",
  },
  update_image: {
    area: "images",
    access: "write",
    availability: "product",
    requires: [],
    requiresOneOf: ["Images Modify", "Images Modify Resources"],
    contextual: [changesImageResources],
    permissionSource: "1.15.0 decompile (admin_api.update_image): either permission lets the call in; a compute-related change needs both",
  },
  delete_image: {
    area: "images",
    access: "write",
    availability: "product",
    requires: ["Images Delete"],
    permissionSource: "1.15.0 decompile (admin_api.delete_image): Images Delete",
  },
  get_images_group: {
    area: "groups",
    access: "read",
    availability: "product",
    requires: ["Groups View"],
    permissionSource: "1.15.0 decompile (admin_api.get_images_group): Groups View (or IfMember / View System for the groups they reach)",
  },
  add_images_group: {
    area: "groups",
    access: "write",
    availability: "product",
    requires: ["Groups Modify"],
    contextual: [modifiesSystemGroup],
    permissionSource:
      "1.15.0 decompile (admin_api.add_images_group): Groups Modify, checked against the target group (system groups need Groups Modify System)",
  },
  remove_images_group: {
    area: "groups",
    access: "write",
    availability: "product",
    requires: ["Groups Modify"],
    contextual: [modifiesSystemGroup],
    permissionSource:
      "1.15.0 decompile (admin_api.remove_images_group): Groups Modify, checked against the target group (system groups need Groups Modify System)",
  },
  get_licenses: {
    area: "licenses",
    access: "read",
    availability: "product",
    requires: ["Licenses View"],
    permissionSource: "1.15.0 decompile (admin_api.get_licenses): Licenses View",
  },
  // Workspace registries (Admin > Workspaces > Registry): shapes in api/schemas/registries.ts and emulator/README.md.
  get_registries: {
    area: "images",
    access: "read",
    availability: "product",
    requires: ["Registries View"],
    permissionSource: "1.15.0 decompile (admin_api.get_registries): Registries View; called by the tf client (registry_ops.go) against 1.16.1",
  },
  create_registry: {
    area: "images",
    access: "write",
    availability: "product",
    requires: ["Registries Create"],
    permissionSource: "1.15.0 decompile (admin_api.create_registry): Registries Create; called by the tf client (registry_ops.go) against 1.16.1",
  },
  update_registry: {
    area: "images",
    access: "write",
    availability: "product",
    requires: ["Registries Modify"],
    permissionSource: "1.15.0 decompile (admin_api.update_registry: fetches the registry's list again): Registries Modify",
  },
  registry_auto_updates: {
    area: "images",
    access: "write",
    availability: "product",
    requires: ["Registries Modify"],
    permissionSource: "1.15.0 decompile (admin_api.registry_auto_updates: sets do_auto_update): Registries Modify",
  },
  delete_registry: {
    area: "images",
    access: "write",
    availability: "product",
    requires: ["Registries Delete"],
    permissionSource: "1.15.0 decompile (admin_api.delete_registry): Registries Delete; called by the tf client (registry_ops.go) against 1.16.1",
  },

  // Egress credentials
  get_egress_credentials: { area: "egress", access: "read", method: "GET", requires: ["Egress Credentials View"] },
  create_egress_credential: {
    area: "egress",
    access: "write",
    requires: ["Egress Credentials Create", "Egress Providers Modify"],
    contextual: egressTarget,
  },
} satisfies Record<string, Row>;

/** The name of a public operation, such as `create_user`. */
export type OperationName = keyof typeof rows;

/** The frozen specs of a table of rows. */
function specsOf<N extends string>(table: Record<N, Row>): Record<N, OperationSpec> {
  return Object.fromEntries(
    Object.entries(table as Record<string, Row>).map(([name, row]) => [
      name,
      Object.freeze({
        ...row,
        name,
        method: row.method ?? "POST",
        path: row.path ?? `/api/public/${name}`,
        envelope: row.envelope ?? "json",
        availability: row.availability ?? "spec",
      }),
    ]),
  ) as Record<N, OperationSpec>;
}

/** Every public operation, by name. */
export const OPERATIONS = Object.freeze(specsOf<OperationName>(rows));

/** Whether the spec documents `operation` (every installation has it), rather than only the released product. */
export function isSpecOperation(operation: OperationName): boolean {
  return OPERATIONS[operation].availability === "spec";
}

/** Type guard: is `name` a public operation? */
export function isOperationName(name: unknown): name is OperationName {
  return typeof name === "string" && Object.prototype.hasOwnProperty.call(OPERATIONS, name);
}

/** What one call needs: all of `all`, and one of `oneOf` when it is not empty. */
export interface Requirement {
  readonly all: readonly PermissionName[];
  readonly oneOf: readonly PermissionName[];
  /** Why each contextual permission was added. */
  readonly reasons: readonly string[];
}

/** The permissions one call of `operation` needs in `context`. */
export function requiredPermissions(operation: OperationName, context: OperationContext = {}): Requirement {
  const spec = OPERATIONS[operation];
  const all = new Set<PermissionName>(spec.requires);
  const reasons: string[] = [];
  for (const rule of spec.contextual ?? []) {
    if (!rule.when.every((flag) => context[flag])) continue;
    for (const p of rule.add) all.add(p);
    reasons.push(`${rule.add.join(", ")}: ${rule.reason}`);
  }
  return { all: [...all], oneOf: [...(spec.requiresOneOf ?? [])], reasons };
}

/**
 * Which fields of a user record a key sees: the spec lists a View permission next to each of them.
 * A key without it gets the record without the field.
 */
export const USER_FIELD_PERMISSIONS: Readonly<Record<"groups" | "wss" | "assigned_servers" | "company", PermissionName>> = {
  groups: "Groups View",
  wss: "Sessions View",
  assigned_servers: "Servers View",
  company: "Companies View",
};
