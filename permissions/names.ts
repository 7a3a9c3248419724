/**
 * Every permission name an API key can hold, exactly as the Kasm Developer API spells them.
 *
 * A name is a family followed by an action (`Users View`), or one of the two standalone names
 * `User` and `Global Admin`. The table below is the spec's "Permission names" table, written once;
 * everything else (dependency rules, the operation table, the emulator, the policy packs) refers to it.
 */

/** The families of the spec and their actions, in the spec's order. */
export const PERMISSION_FAMILIES = {
  Users: ["View", "Modify", "Create", "Delete", "Modify Admin", "Auth Session"],
  Groups: ["View", "Modify", "Create", "Delete", "View IfMember", "Modify IfMember", "View System", "Modify System", "Delete System"],
  Agents: ["View", "Modify", "Create", "Delete"],
  Staging: ["View", "Modify", "Create", "Delete"],
  Casting: ["View", "Modify", "Create", "Delete"],
  Sessions: ["View", "Modify", "Delete"],
  "Session Recordings": ["View"],
  Images: ["View", "Modify", "Create", "Delete", "Modify Resources"],
  DevAPI: ["View", "Modify", "Create", "Delete"],
  Webfilters: ["View", "Modify", "Create", "Delete"],
  Brandings: ["View", "Modify", "Create", "Delete"],
  Settings: [
    "View",
    "Modify",
    "Modify Auth",
    "Modify Auth Captcha",
    "Modify Cast",
    "Modify Images",
    "Modify License",
    "Modify Logging",
    "Modify Manager",
    "Modify Scale",
    "Modify Subscription",
    "Modify Filter",
    "Modify Storage",
    "Modify Connections",
    "Modify Theme",
  ],
  Auth: ["View", "Modify", "Create", "Delete"],
  Licenses: ["View", "Create", "Delete"],
  System: ["View", "Export Schema", "Import Data", "Export Data"],
  Reports: ["View"],
  Managers: ["View", "Modify", "Create", "Delete"],
  Zones: ["View", "Modify", "Create", "Delete"],
  Companies: ["View", "Modify", "Create", "Delete"],
  "Connection Proxy": ["View", "Modify", "Create", "Delete"],
  "Physical Tokens": ["View", "Modify", "Create", "Delete"],
  Servers: ["View", "Modify", "Create", "Delete"],
  "Server Pools": ["View", "Modify", "Create", "Delete"],
  Autoscale: ["View", "Modify", "Create", "Delete"],
  "VM Provider": ["View", "Modify", "Create", "Delete"],
  "Autoscale Schedule": ["View", "Modify", "Create", "Delete"],
  "DNS Providers": ["View", "Modify", "Create", "Delete"],
  Registries: ["View", "Modify", "Create", "Delete"],
  "Storage Providers": ["View", "Modify", "Create", "Delete"],
  "Egress Providers": ["View", "Modify", "Create", "Delete"],
  "Egress Gateways": ["View", "Modify", "Create", "Delete"],
  "Egress Credentials": ["View", "Modify", "Create", "Delete"],
  Banners: ["View", "Modify", "Create", "Delete"],
  "AD User Management": ["View", "Modify", "Create", "Delete"],
} as const;

/** A permission family, such as `Users` or `Egress Gateways`. */
export type PermissionFamily = keyof typeof PERMISSION_FAMILIES;

type FamilyPermission<F extends PermissionFamily> = `${F} ${(typeof PERMISSION_FAMILIES)[F][number]}`;

/**
 * Names that the spec's dependency rules mention but its family table does not list
 * (rule 3 `Permissions View`, rule 9 `Server Templates View`). They are accepted so that a key
 * described in a policy config can name them; no public operation requires them.
 */
export const RULE_ONLY_PERMISSIONS = ["Permissions View", "Server Templates View"] as const;

/** Any permission name the spec knows. */
export type PermissionName =
  | { [F in PermissionFamily]: FamilyPermission<F> }[PermissionFamily]
  | "User"
  | "Global Admin"
  | (typeof RULE_ONLY_PERMISSIONS)[number];

/** Every permission name, families first in the spec's order, then `User`, `Global Admin` and the rule-only names. */
export const ALL_PERMISSIONS: readonly PermissionName[] = Object.freeze([
  ...(Object.entries(PERMISSION_FAMILIES) as [PermissionFamily, readonly string[]][]).flatMap(([family, actions]) =>
    actions.map((action) => `${family} ${action}` as PermissionName),
  ),
  "User",
  "Global Admin",
  ...RULE_ONLY_PERMISSIONS,
]);

const KNOWN = new Set<string>(ALL_PERMISSIONS);

/** Type guard: is `name` a permission name of the spec (exact spelling and case)? */
export function isPermissionName(name: unknown): name is PermissionName {
  return typeof name === "string" && KNOWN.has(name);
}

/** The names of the built-in system groups; they always exist and need the `Groups ... System` permissions. */
export const SYSTEM_GROUP_NAMES = ["All Users", "Administrators"] as const;

/** The system group every user belongs to. */
export const ALL_USERS_GROUP = "All Users";

/** The system group whose members hold `Global Admin`. */
export const ADMINISTRATORS_GROUP = "Administrators";
