/**
 * `UserSet`'s `update`, in this order: imports added rows in one request, adopts existing ones,
 * `update_user` for changed names, phone and organization, group changes, `delete_user` for
 * removed rows; every check and read comes before the first write. A user deleted in Kasm since
 * the last refresh leaves the set (with a warning), and the next up imports it again.
 */
import type * as pulumi from "@pulumi/pulumi";
import { warn } from "../../engine-log";
import { kasmClient } from "../../runtime";
import { canonicalId, initializationFailure, isNotFound, same, type Props } from "../kit";
import { USER_FIELDS, type Row } from "./fields";
import { applyGroupChange, groupChanges, groupIndexFor, isUserGone, unknownGroupsError, type GroupChange } from "./groups";
import { existingUsersError, importRows } from "./import";
import { groupsChanged, names, outputs, rowsOf, userIdsOf } from "./rows";
import { deleteKasmUser } from "../user";
import { adopt, eachLimited, notApplied, planAdoption, unchangeableWarning, userUpdate, type Adoption } from "./writes";

/** `update` of a UserSet: see the module's comment for the order of the writes. */
export async function updateUserSet(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const client = kasmClient();
  const before = rowsOf(olds) ?? [];
  const after = rowsOf(news) ?? [];
  const userIds = userIdsOf(olds);
  const oldByKey = new Map(before.filter((r) => userIds[r.key]).map((r) => [r.key, r]));
  const newKeys = new Set(after.map((r) => r.key));
  const added = after.filter((row) => !oldByKey.has(row.key));
  const removed = [...oldByKey.values()].filter((row) => !newKeys.has(row.key));
  const kept = after.filter((row) => oldByKey.has(row.key));
  const mode = String(news.groupsMode ?? "additive");
  const modeTightened = mode === "authoritative" && String(olds.groupsMode ?? "additive") !== "authoritative";
  const regroup = kept.filter((row) => row.groups !== undefined && (modeTightened || groupsChanged(oldByKey.get(row.key)!, row)));

  // Reads first: which added users exist already, the users' current groups, and group ids.
  const unchangeable: string[] = [];
  /** Users of the set deleted in Kasm since the last refresh: they leave the set, and the next up imports them again. */
  const gone = new Set<string>();
  let adoptPlans: Adoption[] = [];
  const groupWork: GroupChange[] = [];
  let toCreate = added;
  if (added.length > 0 || regroup.length > 0) {
    const { users: seen } = await client.users.getUsersNamed([...added, ...regroup].map((r) => r.key));
    const byName = new Map(seen.map((u) => [u.username.toLowerCase(), u]));
    const byId = new Map(seen.map((u) => [canonicalId(u.user_id), u]));
    const existing = added.filter((row) => byName.has(row.key));
    if (existing.length > 0 && news.adopt !== true) throw existingUsersError(existing);
    toCreate = added.filter((row) => !byName.has(row.key));
    const index = await groupIndexFor([...existing, ...regroup], seen, news.groupIds);
    const unknownGroups = new Map<string, string[]>();
    adoptPlans = existing.map((row) => planAdoption(row, byName.get(row.key)!, { mode, index, unknownGroups, unchangeable }));
    for (const row of regroup) {
      const record = byId.get(canonicalId(userIds[row.key]));
      if (record) groupWork.push(...groupChanges(row, record, mode, index, unknownGroups));
      else gone.add(row.key);
    }
    if (unknownGroups.size > 0) throw unknownGroupsError(unknownGroups);
  }

  // The state as far as the writes went, kept by username.
  const applied = new Map<string, Row>(before.filter((r) => userIds[r.key]).map((r) => [r.key, r]));
  const fail = (error: unknown): never => {
    const rows = [...applied.values()].filter((row) => !gone.has(row.key));
    throw initializationFailure(id, outputs(news, rows, userIds), error);
  };

  // 1. New users, in one import (a refused import changed nothing).
  const imported = await importRows(toCreate);
  for (const row of toCreate) {
    const user = imported.created.get(row.key);
    if (!user) continue;
    userIds[row.key] = canonicalId(user.user_id);
    applied.set(row.key, row);
  }
  if (imported.error !== undefined) fail(imported.error);

  // 2. Adopted users.
  const adoption = await eachLimited(adoptPlans, async (plan) => {
    userIds[plan.row.key] = await adopt(plan);
    applied.set(plan.row.key, plan.row);
  });
  if (adoption.error !== undefined) fail(adoption.error);

  // 3. Changed names, phone and organization; what update_user cannot change is only reported.
  const changes = kept.flatMap((row) => {
    const old = oldByKey.get(row.key)!;
    const fields = USER_FIELDS.filter((f) => row.fields[f] !== undefined && !same.value(old.fields[f], row.fields[f]));
    notApplied(row, fields, unchangeable);
    const body = userUpdate(row, fields);
    return body ? [{ row, body }] : [];
  });
  const updates = await eachLimited(changes, async ({ row, body }) => {
    try {
      await client.users.updateUser({ user_id: userIds[row.key], username: row.key, ...body });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      gone.add(row.key);
      return;
    }
    // Groups are applied next: until then the row keeps its old groups.
    applied.set(row.key, { ...row, groups: applied.get(row.key)?.groups });
  });
  if (updates.error !== undefined) fail(updates.error);

  // 4. Group changes of kept users.
  const grouping = await eachLimited(groupWork, async (change) => {
    try {
      await applyGroupChange(change);
    } catch (error) {
      if (!isUserGone(error)) throw error;
      gone.add(change.key);
    }
  });
  if (grouping.error !== undefined) fail(grouping.error);
  for (const row of kept) if (!gone.has(row.key)) applied.set(row.key, row);

  // 5. Removed users.
  const deletion = await eachLimited(removed, async (row) => {
    await deleteKasmUser(row.username, userIds[row.key], news.forceDelete === true);
    applied.delete(row.key);
    delete userIds[row.key];
  });
  if (deletion.error !== undefined) fail(deletion.error);

  if (unchangeable.length) await warn(unchangeableWarning(id, "these changes were not applied", unchangeable));
  if (gone.size > 0) {
    const goneRows = after.filter((row) => gone.has(row.key));
    for (const row of goneRows) delete userIds[row.key];
    await warn(
      `UserSet ${id}: ${names(goneRows)} ${goneRows.length === 1 ? "was" : "were"} deleted in Kasm since the last refresh, so ` +
        `${goneRows.length === 1 ? "it is" : "they are"} out of the set now; the next up imports ${goneRows.length === 1 ? "it" : "them"} again.`,
    );
  }
  return { outs: outputs(news, after.filter((row) => !gone.has(row.key)), userIds) };
}
