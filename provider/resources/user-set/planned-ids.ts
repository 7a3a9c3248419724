/**
 * `UserSet`'s `userIds` as a preview of a change shows them: the ids of users the set keeps, and
 * {@link ID_AFTER_IMPORT} for users it adds.
 *
 * Pulumi previews an update of a dynamic resource on the inputs `check` returns (the host does not
 * support previews of its own), so every computed output would be unknown, and a resource that
 * takes a user's id from the set (`staff.userIds["ada"]`, say a `UserServerAssignment`, whose
 * `userId` replaces it) would show as replaced after any edit of the CSV, though the up leaves it
 * alone. Terraform's providers keep such values with `UseStateForUnknown`; here `check` adds the
 * planned `userIds` to the inputs. `check` gets the previous inputs, not the state's outputs, so
 * an id it has not planned before (a user the last up created) is read from Kasm, in a page or
 * two of `get_users`; when that read fails, the ids are left out and the preview shows them
 * unknown, as before. A user deleted in the Kasm UI since the last refresh keeps its old id in
 * the preview; the up imports it again (a refresh first shows it).
 *
 * Which inputs a preview lists as changed is Pulumi's to work out: the dynamic-provider host passes
 * on no list of changed keys from `diff`, so the engine compares the stored inputs with those
 * `check` returns, and lists `userIds` beside `csv` (or `users`) whenever the planned ids differ
 * from the stored ones. So every step that writes the stored inputs keeps the ids it knows:
 * `check` without a change carries the previous ones over ({@link keptUserIds}), and a refresh
 * returns the ids it read. What none can hold is the id of a user not imported yet: after the up
 * that creates the set, or one that adds users, the stored inputs lack those ids, and the next
 * change lists `userIds` once.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ID_AFTER_IMPORT } from "../../../permissions/bulk-rows";
import type { KindContext, Props } from "../framework/types";
import { canonicalId } from "../../../permissions/planned-calls";
import { rowsOf, userIdsOf } from "./rows";

/**
 * The `userIds` a change from `olds` (the previous inputs) to `news` will leave: known for users
 * kept, {@link ID_AFTER_IMPORT} for users added; undefined for a new set (every id is unknown
 * then), when the rows are not known, or when the ids could not be read.
 */
export async function plannedUserIds(context: KindContext, olds: Props, news: Props): Promise<Record<string, string> | undefined> {
  const before = rowsOf(olds);
  const after = rowsOf(news);
  if (before === undefined || after === undefined || before.length === 0) return undefined;
  const kept = new Set(before.map((row) => row.key));
  const planned = userIdsOf(olds);
  const toRead = after.filter((row) => kept.has(row.key) && !isId(planned[row.key])).map((row) => row.key);
  const found = new Map<string, string>();
  if (toRead.length > 0) {
    try {
      const { users } = await context.client().users.getUsersNamed(toRead);
      for (const user of users) found.set(user.username.toLowerCase(), canonicalId(user.user_id));
    } catch {
      return undefined;
    }
  }
  const ids: Record<string, string> = {};
  for (const row of after) ids[row.key] = (kept.has(row.key) && (isId(planned[row.key]) ? planned[row.key] : found.get(row.key))) || ID_AFTER_IMPORT;
  return ids;
}

function isId(value: string | undefined): value is string {
  return value !== undefined && value !== ID_AFTER_IMPORT;
}

/**
 * The `userIds` of the previous inputs, for a check without a change: kept in the stored inputs,
 * so that the next change compares the ids with ids. Undefined when the previous inputs hold none.
 */
export function keptUserIds(olds: Props): Record<string, string> | undefined {
  const ids = userIdsOf(olds);
  return Object.keys(ids).length > 0 ? ids : undefined;
}

/** `checked` with `userIds` among its inputs; unchanged when there are none to add. */
export function withUserIds(checked: pulumi.dynamic.CheckResult, news: Props, userIds: Record<string, string> | undefined): pulumi.dynamic.CheckResult {
  return userIds === undefined ? checked : { ...checked, inputs: { ...(checked.inputs ?? news), userIds } };
}
