/**
 * Lookups of groups and licenses: a released Kasm's operations (`get_groups`, `get_licenses`),
 * which the API documentation leaves out. They need `kasm:apiNames` `product`; with `spec` (the
 * default) they fail before sending anything, naming the setting.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { GetGroupArgs } from "../../provider/lookups/groups-licenses";
import { named, outputOf, scrubbed } from "./common";
import type { Api, Camelized, InputArgs, LookupOptions } from "./common";

export type { GetGroupArgs };

/** A group (it has no secret fields). */
export type Group = Camelized<Awaited<ReturnType<Api["groups"]["getGroups"]>>[number]>;
/** A license applied to the installation (it has no secret fields: the license key itself is not returned). */
export type License = Camelized<Awaited<ReturnType<Api["licenses"]["getLicenses"]>>[number]>;

// --- groups --------------------------------------------------------------------------------------

const fetchGroups = named("getGroups");

/** Every group the API key may view (system groups need Groups View System). */
export async function getGroups(options?: LookupOptions): Promise<Group[]> {
  return (await fetchGroups({}, options)).map((g) => scrubbed(g));
}

/** {@link getGroups} as an Output. */
export function getGroupsOutput(options?: LookupOptions): pulumi.Output<Group[]> {
  return outputOf(fetchGroups, (groups) => groups.map((g) => scrubbed(g)))({}, options);
}

const fetchGroup = named("getGroup");

/**
 * One group, by exact name or by id: where a program needs a group's id (a `GroupMembership`, a
 * `UserSet`'s `groupIds`, an egress mapping) without copying it from the Kasm UI.
 *
 * @example
 * ```ts
 * const support = await kasm.getGroup({ name: "Support" });
 * new kasm.GroupMembership("ada-support", { userId: ada.userId, groupId: support.groupId });
 * ```
 */
export async function getGroup(args: GetGroupArgs, options?: LookupOptions): Promise<Group> {
  return scrubbed(await fetchGroup(args, options));
}

/** {@link getGroup} taking Inputs. */
export function getGroupOutput(args: InputArgs<GetGroupArgs>, options?: LookupOptions): pulumi.Output<Group> {
  return outputOf(fetchGroup, (group) => scrubbed(group))(args as InputArgs<GetGroupArgs>, options);
}

// --- licenses ------------------------------------------------------------------------------------

const fetchLicenses = named("getLicenses");

/** Every license applied to the installation: seats (`limit`), type, expiry and features. */
export async function getLicenses(options?: LookupOptions): Promise<License[]> {
  return (await fetchLicenses({}, options)).map((l) => scrubbed(l));
}

/** {@link getLicenses} as an Output. */
export function getLicensesOutput(options?: LookupOptions): pulumi.Output<License[]> {
  return outputOf(fetchLicenses, (licenses) => licenses.map((l) => scrubbed(l)))({}, options);
}
