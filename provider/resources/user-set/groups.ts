/**
 * `UserSet`'s group memberships. Groups are named in the rows, but adding or removing a group of
 * an existing user needs its id. The API documentation shows group ids only inside user records:
 * the ids are learnt from the users read and the `groupIds` input; a released Kasm
 * (`kasm:apiNames` `product`) also lists its groups, which is asked only for names still unknown.
 * Every change is worked out before the first write.
 */
import { KasmAlreadyMemberError, KasmNotMemberError, KasmUnknownUserError } from "../../api/errors/answers";
import type { User as KasmUser } from "../../api/schemas/users";
import { setTo } from "../../api/config";
import type * as pulumi from "@pulumi/pulumi";
import type { KindContext } from "../framework/types";
import { surveyInstallation } from "../framework/connections";
import { canonicalId } from "../../../permissions/planned-calls";
import { isUnknown } from "../framework/check-wording";
import { KasmObjectMissingError, KasmReadPermissionError, KasmUnsupportedInputError } from "../framework/errors";
import { ALL_USERS } from "../user-links";
import type { Row } from "./fields";
import { names } from "./rows";

// --- types ---------------------------------------------------------------------------------------

/** One membership change. */
export interface GroupChange {
  readonly key: string;
  readonly userId: string;
  readonly groupId: string;
  readonly add: boolean;
}

// --- planning ------------------------------------------------------------------------------------

/** Group name -> id, from the users' records and the `groupIds` input (which wins). */
function groupIndex(records: Iterable<KasmUser>, groupIds: unknown): Map<string, string> {
  const index = new Map<string, string>();
  for (const user of records) for (const group of user.groups ?? []) if (!index.has(group.name)) index.set(group.name, canonicalId(group.group_id));
  if (groupIds && typeof groupIds === "object") for (const [name, id] of Object.entries(groupIds)) index.set(name, canonicalId(id));
  return index;
}

/**
 * {@link groupIndex}, completed from the installation's list of groups (`get_groups`, a released
 * Kasm's) when `rows` name groups it does not know yet; with the documentation's vocabulary, or
 * when every name is known, nothing is asked.
 */
export async function groupIndexFor(context: KindContext, rows: readonly Row[], records: Iterable<KasmUser>, groupIds: unknown): Promise<Map<string, string>> {
  const index = groupIndex(records, groupIds);
  const client = context.client();
  const missing = rows.some((row) => (row.groups ?? []).some((name) => !index.has(name)));
  if (!missing || !client.transport.supports("get_groups")) return index;
  for (const group of await client.groups.getGroups()) if (!index.has(group.name)) index.set(group.name, canonicalId(group.group_id));
  return index;
}

/**
 * The membership changes that bring `record` to the row's groups: the missing ones added, and in
 * authoritative mode the others (but All Users) removed. Throws, before anything is written, when
 * Kasm did not show the user's groups; a group to add with no known id is collected in
 * `unknownGroups` (group name -> usernames), for {@link unknownGroupsError}.
 */
export function groupChanges(row: Row, record: KasmUser, mode: string, index: Map<string, string>, unknownGroups: Map<string, string[]>): GroupChange[] {
  if (row.groups === undefined) return [];
  if (record.groups === undefined)
    throw new KasmReadPermissionError(
      `UserSet: Kasm did not return the groups of '${row.username}', so its groups cannot be reconciled: ` +
        `the API key needs Groups View to read group membership. Grant the API key: Groups View.`,
      ["Groups View"],
    );
  const current = new Map(record.groups.map((g) => [g.name, canonicalId(g.group_id)]));
  const changes: GroupChange[] = [];
  for (const name of row.groups) {
    if (current.has(name)) continue;
    const groupId = index.get(name);
    if (groupId === undefined) unknownGroups.set(name, [...(unknownGroups.get(name) ?? []), row.username]);
    else changes.push({ key: row.key, userId: canonicalId(record.user_id), groupId, add: true });
  }
  if (mode === "authoritative")
    for (const [name, groupId] of current)
      if (name !== ALL_USERS && !row.groups.includes(name)) changes.push({ key: row.key, userId: canonicalId(record.user_id), groupId, add: false });
  return changes;
}

/**
 * Check failures for rows that name groups the installation does not have, from the one read a
 * change makes of its installation (see framework/connections.ts): a released Kasm lists its
 * groups, and its CSV import refuses a name it does not know, so a preview can say so before any
 * user is imported. Names given in `groupIds` count as known (a kasm.Group of the same program,
 * created in the same `up`, is named there). With the documentation's vocabulary, which cannot list
 * groups, or with `checkBeforeChanges` off, nothing is checked.
 */
export async function unknownGroupFailures(
  context: KindContext,
  rows: readonly Row[],
  groupIds: unknown,
  property: string,
): Promise<pulumi.dynamic.CheckFailure[]> {
  // groupIds still unknown (a preview before its groups exist): any name may be in it.
  if (isUnknown(groupIds)) return [];
  const survey = await surveyInstallation(context)?.catch(() => undefined);
  if (survey?.groups === undefined) return [];
  const known = new Set(survey.groups.map((group) => group.name));
  if (groupIds !== null && typeof groupIds === "object") for (const name of Object.keys(groupIds)) known.add(name);
  const unknown = new Map<string, Row[]>();
  for (const row of rows) for (const name of row.groups ?? []) if (!known.has(name)) unknown.set(name, [...(unknown.get(name) ?? []), row]);
  return [...unknown].map(([name, listing]) => ({
    property,
    reason:
      `Kasm has no group named '${name}' (named by ${names(listing, 5)}): its list of groups (get_groups) does not hold it, and ` +
      `Kasm's import refuses a group it does not know. Create the group (a kasm.Group, or Access Management, Groups in the admin UI) ` +
      `or correct the name (compared exactly, case included); a group this program creates goes into \`groupIds\` ` +
      `({ "${name}": group.groupId }).`,
  }));
}

/**
 * The error for groups to add whose id is not known (group name -> the usernames that list it):
 * missing from Kasm when its list of groups was read, else not to be looked up in the API
 * documentation's vocabulary, which cannot list groups.
 */
export function unknownGroupsError(context: KindContext, unknown: Map<string, string[]>): KasmObjectMissingError | KasmUnsupportedInputError {
  const listed = [...unknown].map(
    ([name, users]) =>
      `'${name}' (for ${names(
        users.map((username) => ({ username })),
        5,
      )})`,
  );
  if (context.client().transport.supports("get_groups"))
    return new KasmObjectMissingError(
      `UserSet: Kasm has no group named ${listed.join(", ")}: its list of groups (get_groups) does not hold ` +
        `${unknown.size === 1 ? "that name" : "those names"}. Create the group (a kasm.Group, or Access Management, Groups in ` +
        `the admin UI) or correct the name; group names are compared exactly, case included.`,
    );
  return new KasmUnsupportedInputError(
    `UserSet: the id${unknown.size === 1 ? " of group" : "s of groups"} ${listed.join(", ")} ${unknown.size === 1 ? "is" : "are"} unknown. Kasm's API cannot list groups, and no user it showed is in ` +
      `${unknown.size === 1 ? "that group" : "those groups"}; adding an existing user to a group needs its id. Give the id in ` +
      `\`groupIds\` (for example groupIds: { "${[...unknown.keys()][0]}": "<group id>" }): Kasm's admin UI lists groups under ` +
      `Access Management, Groups, and a group's id is in the address of its page. If the installation is a released Kasm ` +
      `(1.15 or later), set ${setTo(context.settingNames, "apiNames", "product")} instead: it can list groups and find the ids by name. ` +
      `New users of the set need no id: the import takes group names.`,
  );
}

// --- writing -------------------------------------------------------------------------------------

/** Make one membership change; one someone else made meanwhile counts as made. */
export async function applyGroupChange(context: KindContext, change: GroupChange): Promise<void> {
  const groups = context.client().groups;
  try {
    if (change.add) await groups.addUserGroup({ user_id: change.userId, group_id: change.groupId });
    else await groups.removeUserGroup({ user_id: change.userId, group_id: change.groupId });
  } catch (error) {
    // Someone made the same change meanwhile: the outcome is the one wanted.
    if (change.add ? error instanceof KasmAlreadyMemberError : error instanceof KasmNotMemberError) return;
    throw error;
  }
}

/** Whether a Kasm error says the user of a membership change does not exist (rather than the group). */
export function isUserGone(error: unknown): boolean {
  return error instanceof KasmUnknownUserError;
}
