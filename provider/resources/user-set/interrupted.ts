/**
 * What Kasm holds for a `UserSet` create that a killed run sent (see
 * `framework/interrupted-create.ts` for what counts as proof): the rows' users, looked up by username
 * in a page or so of `get_users`. None found: the import never committed. Every user found is as
 * its row declares it: the set is recorded with every row unconfirmed, so that the refresh
 * `kasm-recover` runs next takes the users found by username (and a row whose user is missing
 * drops out, for the next `up` to import). A user found that differs from its row, in a field
 * Kasm shows or in its groups: not taken, since it may be a stranger's.
 */
import { randomUUID } from "node:crypto";
import type { InterruptedCreate } from "../framework/interrupted-create";
import type { KindContext, Props } from "../framework/types";
import { canonicalId } from "../../../permissions/planned-calls";
import { currentRow } from "./read";
import { rowsOf, sameRow } from "./rows";

/** What Kasm holds for an interrupted create of the set of `inputs`. */
export async function interruptedUserSetCreate(inputs: Props, context: KindContext): Promise<InterruptedCreate> {
  const rows = rowsOf(inputs) ?? [];
  if (rows.length === 0) return { outcome: "not-made" };
  const { users } = await context.client().users.getUsersNamed(rows.map((row) => row.key));
  const byName = new Map(users.map((user) => [user.username.toLowerCase(), user]));
  const found = rows.filter((row) => byName.has(row.key));
  if (found.length === 0) return { outcome: "not-made" };
  const mode = String(inputs.groupsMode ?? "additive");
  const differing = found.filter((row) => !sameRow(row, currentRow(row, byName.get(row.key)!, mode)));
  if (differing.length > 0)
    return {
      outcome: "differs",
      id: canonicalId(byName.get(differing[0].key)!.user_id),
      fields: differing.slice(0, 10).map((row) => `user '${row.username}'`),
    };
  return { outcome: "made", id: randomUUID().replace(/-/g, ""), state: { userIds: {}, unconfirmed: rows.map((row) => row.key) } };
}
