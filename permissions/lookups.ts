/**
 * What each lookup of the SDK (`sdk/lookups/`: getUser, getImages, ...) asks of the API key.
 *
 * Lookups are not resources: a program calls them in its own process, and the policy packs never
 * see them. So `least-privilege` cannot tell from the stack which of these permissions the
 * program needs, and keeps them unless its config says which lookups the program calls. Each row
 * restates the one operation its lookup calls; `test/policy/lookups.test.ts` runs every lookup
 * against the emulator with exactly what its row says, and with one permission less.
 *
 * The user lookups return the whole user record; Kasm leaves a field out, rather than refusing
 * the call, when the key lacks the View permission of that field (`USER_FIELD_PERMISSIONS`).
 * Those permissions are listed apart (`fields`): the lookup works without them, but the program
 * reading such a field gets nothing.
 *
 * @example
 * ```ts
 * lookupPermissions(["getZone", "getImage"]); // Set { "Images View", "Zones View" }
 * ```
 */
import { closeUnderDependencies } from "./dependencies";
import type { PermissionName } from "./names";
import { requiredPermissions, USER_FIELD_PERMISSIONS, type OperationName } from "./operations";

/** Every lookup of the SDK, by its function name (each also has an `...Output` twin). */
export const LOOKUP_NAMES = [
  "getUser",
  "getUsers",
  "getImage",
  "getImages",
  "getZone",
  "getZones",
  "getServer",
  "getStagingConfigs",
  "getEgressProviders",
  "getEgressGateways",
  "getGroup",
  "getGroups",
  "getLicenses",
  "getRegistries",
  "getRegistryWorkspaces",
] as const;

/** A lookup of the SDK, such as `getZone`. */
export type LookupName = (typeof LOOKUP_NAMES)[number];

/** A field of the user record, shown only with its View permission. */
export type UserRecordField = keyof typeof USER_FIELD_PERMISSIONS;

/** What one lookup calls. */
export interface LookupCall {
  /** The one operation it calls (a read: a Read Only key may make it). */
  readonly operation: OperationName;
  /** Fields of its answer that Kasm shows only with their View permission. */
  readonly shows: readonly UserRecordField[];
}

const USER_FIELDS = Object.keys(USER_FIELD_PERMISSIONS) as UserRecordField[];

/** The rows: what each lookup of `sdk/lookups/` calls. */
export const LOOKUP_CALLS: Readonly<Record<LookupName, LookupCall>> = Object.freeze({
  getUser: { operation: "get_user", shows: USER_FIELDS },
  getUsers: { operation: "get_users", shows: USER_FIELDS },
  // getImage filters the list getImages reads.
  getImage: { operation: "get_images", shows: [] },
  getImages: { operation: "get_images", shows: [] },
  // getZone filters the list getZones reads.
  getZone: { operation: "get_zones", shows: [] },
  getZones: { operation: "get_zones", shows: [] },
  getServer: { operation: "get_servers", shows: [] },
  getStagingConfigs: { operation: "get_staging_configs", shows: [] },
  getEgressProviders: { operation: "get_egress_providers", shows: [] },
  getEgressGateways: { operation: "get_egress_gateways", shows: [] },
  // A released Kasm's operations (kasm:apiNames product); getGroup filters the list getGroups reads.
  getGroup: { operation: "get_groups", shows: [] },
  getGroups: { operation: "get_groups", shows: [] },
  getLicenses: { operation: "get_licenses", shows: [] },
  // getRegistryWorkspaces reads a registry's workspaces from the list getRegistries reads.
  getRegistries: { operation: "get_registries", shows: [] },
  getRegistryWorkspaces: { operation: "get_registries", shows: [] },
});

/** Type guard: is `name` a lookup of the SDK? */
export function isLookupName(name: unknown): name is LookupName {
  return typeof name === "string" && (LOOKUP_NAMES as readonly string[]).includes(name);
}

/** A lookup's name from either spelling: `getZone` or its twin `getZoneOutput`; undefined when it is none. */
export function lookupOf(name: unknown): LookupName | undefined {
  const plain = typeof name === "string" ? name.replace(/Output$/, "") : undefined;
  return isLookupName(plain) ? plain : undefined;
}

/** What one lookup needs: the call's permissions (`all`, and one of `oneOf`), and the View permission of each field it shows. */
export interface LookupNeeds {
  readonly lookup: LookupName;
  readonly all: readonly PermissionName[];
  readonly oneOf: readonly PermissionName[];
  readonly fields: readonly { readonly field: UserRecordField; readonly permission: PermissionName }[];
}

/** What one lookup needs. */
export function lookupNeeds(lookup: LookupName): LookupNeeds {
  const call = LOOKUP_CALLS[lookup];
  const requirement = requiredPermissions(call.operation);
  return {
    lookup,
    all: requirement.all,
    oneOf: requirement.oneOf,
    fields: call.shows.map((field) => ({ field, permission: USER_FIELD_PERMISSIONS[field] })),
  };
}

/**
 * The permissions with which a key can make every call of `lookups` and see every field they
 * show, closed under the dependency rules. A `oneOf` takes an alternative already in the set, else
 * one `prefer` holds (the key's), else its first.
 */
export function lookupPermissions(lookups: Iterable<LookupName>, prefer: Iterable<PermissionName> = []): Set<PermissionName> {
  const preferred = new Set(prefer);
  const needs = [...new Set(lookups)].map(lookupNeeds);
  let closed = closeUnderDependencies(needs.flatMap((n) => [...n.all, ...n.fields.map((f) => f.permission)]));
  for (const n of needs) {
    if (n.oneOf.length === 0 || n.oneOf.some((p) => closed.has(p))) continue;
    closed = closeUnderDependencies([...closed, n.oneOf.find((p) => preferred.has(p)) ?? n.oneOf[0]]);
  }
  return closed;
}
