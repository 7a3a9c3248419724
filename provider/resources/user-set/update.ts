/**
 * `UserSet`'s `update`, in this order: imports added rows in one request, adopts existing ones,
 * `update_user` for changed names, phone and organization, group changes, `delete_user` for
 * removed rows; every check and read comes before the first write. A user deleted in Kasm since
 * the last refresh leaves the set (with a warning), and the next up imports it again.
 *
 * Every step attempts every user, whatever happens to the others. When some writes fail, the
 * update fails keeping in the state what Kasm now holds (each row as far as its writes went), with
 * a message counting the writes made and left; the next up does only what is left. Rows whose
 * import is unconfirmed (an earlier run lost Kasm's answer) are looked up by username first: the
 * ones Kasm has are the set's, the others are imported again.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { KindContext, Props } from "../framework/types";
import { canonicalId } from "../../../permissions/planned-calls";
import { isNotFound } from "../framework/define-kind";
import { same } from "../framework/fields";
import { USER_FIELDS, type Row } from "./fields";
import { applyGroupChange, groupChanges, groupIndexFor, isUserGone, unknownGroupsError, type GroupChange } from "./groups";
import { existingUsersError, importFailure, importRows, unconfirmedNotes } from "./import";
import { groupsChanged, names, outputs, rowsOf, unconfirmedOf, userIdsOf } from "./rows";
import { deleteKasmUser } from "../user";
import {
  adopt,
  eachAll,
  keptFailure,
  messageOf,
  notApplied,
  planAdoption,
  step,
  unchangeableWarning,
  unfinishedMessage,
  userUpdate,
  type Adoption,
} from "./writes";

/**
 * The ids of the state's rows whose import is unconfirmed, for the users Kasm has by their
 * usernames (this set imported them); the others get none, and the update imports them.
 */
async function confirmImports(context: KindContext, before: readonly Row[], userIds: Record<string, string>, unconfirmed: ReadonlySet<string>): Promise<void> {
  const pending = before.filter((row) => unconfirmed.has(row.key) && !userIds[row.key]);
  if (pending.length === 0) return;
  const { users } = await context.client().users.getUsersNamed(pending.map((row) => row.key));
  const wanted = new Set(pending.map((row) => row.key));
  for (const user of users) {
    const key = user.username.toLowerCase();
    if (wanted.has(key)) userIds[key] = canonicalId(user.user_id);
  }
}

/** `update` of a UserSet: see the module's comment for the order of the writes. */
export async function updateUserSet(context: KindContext, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const client = context.client();
  const before = rowsOf(olds) ?? [];
  const after = rowsOf(news) ?? [];
  const userIds = userIdsOf(olds);
  await confirmImports(context, before, userIds, unconfirmedOf(olds));
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
    const index = await groupIndexFor(context, [...existing, ...regroup], seen, news.groupIds);
    const unknownGroups = new Map<string, string[]>();
    adoptPlans = existing.map((row) => planAdoption(row, byName.get(row.key)!, { mode, index, unknownGroups, unchangeable }));
    for (const row of regroup) {
      const record = byId.get(canonicalId(userIds[row.key]));
      if (record) groupWork.push(...groupChanges(row, record, mode, index, unknownGroups));
      else gone.add(row.key);
    }
    if (unknownGroups.size > 0) throw unknownGroupsError(context, unknownGroups);
  }

  const changes = kept.flatMap((row) => {
    const old = oldByKey.get(row.key)!;
    const fields = USER_FIELDS.filter((f) => row.fields[f] !== undefined && !same.value(old.fields[f], row.fields[f]));
    notApplied(row, fields, unchangeable);
    const body = userUpdate(row, fields);
    return body ? [{ row, body }] : [];
  });

  // The state as far as the writes went, kept by username: each row as Kasm now has it.
  const applied = new Map<string, Row>(before.filter((r) => userIds[r.key]).map((r) => [r.key, r]));
  const steps = {
    import: step("imported", "new users", toCreate.length),
    adopt: step("adopted", "existing users", adoptPlans.length),
    update: step("updated", "users' fields", changes.length),
    groups: step("made", "group changes", groupWork.length),
    delete: step("deleted", "removed users", removed.length),
  };

  // 1. New users, in one import (a refused import changed nothing).
  let unconfirmed: readonly Row[] = [];
  try {
    const imported = await importRows(context, toCreate);
    for (const row of toCreate) {
      const user = imported.created.get(row.key);
      if (!user) continue;
      userIds[row.key] = canonicalId(user.user_id);
      applied.set(row.key, row);
    }
    steps.import.done = imported.created.size;
    unconfirmed = imported.unconfirmed;
    for (const row of unconfirmed) applied.set(row.key, row);
    if (imported.error !== undefined) steps.import.failures.push(importFailure(imported.error, toCreate.length - imported.created.size, unconfirmed.length));
  } catch (error) {
    // Nothing was created: with nothing else to do, the update failed and the state stays as it was.
    // Otherwise the other steps go on, and the next up imports these rows again.
    if (adoptPlans.length + changes.length + groupWork.length + removed.length === 0) throw error;
    steps.import.failures.push(importFailure(error, toCreate.length, 0));
  }

  // 2. Adopted users.
  const adoption = await eachAll(adoptPlans, async (plan) => {
    userIds[plan.row.key] = await adopt(context, plan);
    applied.set(plan.row.key, plan.row);
  });
  steps.adopt.done = adoption.done.length;
  for (const { item, error } of adoption.failed) steps.adopt.failures.push(`'${item.row.username}' (adopting): ${messageOf(error)}`);

  // 3. Changed names, phone and organization; what update_user cannot change is only reported.
  /** Kept rows whose fields Kasm does not have yet. */
  const fieldsLeft = new Set<string>();
  const updates = await eachAll(changes, async ({ row, body }) => {
    try {
      await client.users.updateUser({ user_id: userIds[row.key], username: row.key, ...body });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      gone.add(row.key);
    }
  });
  steps.update.done = updates.done.length;
  for (const { item, error } of updates.failed) {
    fieldsLeft.add(item.row.key);
    steps.update.failures.push(`'${item.row.username}' (update_user): ${messageOf(error)}`);
  }

  // 4. Group changes of kept users.
  /** Kept rows whose groups Kasm does not have yet: the next up works out what is left from Kasm's records. */
  const groupsLeft = new Set<string>();
  const grouping = await eachAll(groupWork, async (change) => {
    try {
      await applyGroupChange(context, change);
    } catch (error) {
      if (!isUserGone(error)) throw error;
      gone.add(change.key);
    }
  });
  steps.groups.done = grouping.done.length;
  for (const { item, error } of grouping.failed) {
    groupsLeft.add(item.key);
    const row = kept.find((r) => r.key === item.key);
    steps.groups.failures.push(`'${row?.username ?? item.key}' (${item.add ? "add_user_group" : "remove_user_group"}): ${messageOf(error)}`);
  }
  for (const row of kept) {
    if (gone.has(row.key)) continue;
    const old = oldByKey.get(row.key)!;
    const fields = fieldsLeft.has(row.key) ? old.fields : row.fields;
    const groups = groupsLeft.has(row.key) ? old.groups : row.groups;
    applied.set(row.key, fields === row.fields && groups === row.groups ? row : { ...row, fields, groups });
  }

  // 5. Removed users.
  const deletion = await eachAll(removed, async (row) => {
    await deleteKasmUser(context.client(), row.username, userIds[row.key], news.forceDelete === true);
    applied.delete(row.key);
    delete userIds[row.key];
  });
  steps.delete.done = deletion.done.length;
  for (const { item, error } of deletion.failed) steps.delete.failures.push(`'${item.username}' (delete_user): ${messageOf(error)}`);

  const stepList = Object.values(steps);
  if (stepList.some((s) => s.failures.length > 0)) {
    const rows = [...applied.values()].filter((row) => !gone.has(row.key));
    for (const key of gone) delete userIds[key];
    const message = unfinishedMessage(id, stepList, "pulumi up", unconfirmedNotes(unconfirmed.length));
    throw keptFailure(
      id,
      news,
      outputs(
        news,
        rows,
        userIds,
        unconfirmed.map((row) => row.key),
      ),
      message,
    );
  }

  if (unchangeable.length) await context.warn(unchangeableWarning(context, id, "these changes were not applied", unchangeable));
  if (gone.size > 0) {
    const goneRows = after.filter((row) => gone.has(row.key));
    for (const row of goneRows) delete userIds[row.key];
    await context.warn(
      `${context.label("UserSet", id)}: ${names(goneRows)} ${goneRows.length === 1 ? "was" : "were"} deleted in Kasm since the last refresh, so ` +
        `${goneRows.length === 1 ? "it is" : "they are"} out of the set now; the next up imports ${goneRows.length === 1 ? "it" : "them"} again.`,
    );
  }
  return {
    outs: outputs(
      news,
      after.filter((row) => !gone.has(row.key)),
      userIds,
    ),
  };
}
