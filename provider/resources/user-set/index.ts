/**
 * `UserSet`: many Kasm users as one resource, created through Kasm's CSV import.
 *
 * API: batch_create_user (one request for every new user; Kasm validates every row first and
 * creates nothing when one is invalid; the only call that sets email, realm, city, state, country
 * and force_password_reset), get_users pages (1,000 users a page, or one username-filtered call
 * per user when that takes fewer requests: existence before an import, ids, groups, refresh),
 * update_user, add_user_group / remove_user_group, delete_user.
 *
 * The users are given either as `users` (a list) or as `csv` (Kasm's import format). Rows are
 * matched by username, in any case (Kasm lowercases usernames). The id of the set is its own
 * (Kasm has no such object); `userIds` maps each username to its user's id.
 *
 * - create: reads the users pages once (existing usernames are refused unless `adopt`, before
 *   anything is written), imports every new user in one request, then brings adopted users to
 *   the declared fields and groups.
 * - diff: from the state alone, row by row; a no-change `up` sends no request.
 * - update, in this order: imports added rows in one request, adopts existing ones, `update_user`
 *   for changed names, phone and organization, group changes, `delete_user` for removed rows;
 *   every check and read comes before the first write. Kasm cannot change realm, email, city,
 *   state, country or force_password_reset of an existing user: a change to one of them is not
 *   applied, and a warning says so. A user deleted in Kasm since the last refresh leaves the set
 *   (with a warning) and the next up imports it again.
 * - read: the users pages, never one request per user. Deleted users drop out of the set (and
 *   come back on the next up); names, phone, organization, realm and groups show drift; email,
 *   city, state, country and force_password_reset are not in Kasm's user records, so drift in
 *   them cannot be seen. A user renamed in Kasm drops out of the set too (with a warning naming
 *   it, when every page was read).
 * - delete: `delete_user` per user (`forceDelete` ends their sessions).
 *
 * Groups are named. The import takes names; adding or removing a group of an existing user needs
 * its id, which the API only shows inside user records (`groups: [{name, group_id}]`, with Groups
 * View): the provider learns the ids from the users it reads, and `groupIds` supplies the ones no
 * user shows yet. `groupsMode` `additive` (default) only adds the listed groups; `authoritative`
 * also removes the others, except All Users. A row that lists no groups (no `groups`, or a CSV
 * without group columns) leaves that user's groups alone.
 *
 * Passwords: an import sets none, and this kind never holds one. Users sign in through an
 * identity provider (realm ldap, oidc or saml), or get a password through the `User` kind or
 * Kasm's UI; `forcePasswordReset` makes a user choose a new one at the next sign-in.
 *
 * Progress survives a failure. Every step attempts every user, whatever happens to the others;
 * a run that did not finish fails with what it did (`initializationFailure`: the state holds
 * exactly what Kasm holds, so nothing is orphaned) and a message counting the writes made and left.
 * The next up does only what is left: a row whose write failed still differs from the state;
 * group changes are worked out from Kasm's current records; deletes of users already gone count as
 * done. An import whose answer was lost is not sent again blindly: the users pages say whether
 * Kasm applied it, and when they cannot be read either, the rows stay in the state as
 * `unconfirmed`, looked up by username before the next run writes anything. A destroy deletes
 * only the users still in Kasm.
 *
 * This module, the folder's index, is the provider; its parts are beside it: `fields` (the
 * vocabulary and the inputs schema), `check`, `rows` (reading, comparing and writing back rows, the
 * state), `groups`, `import`, `writes` (update_user, adoption, delete_user), `read`, `update`, and
 * `planned-ids` (the ids a preview shows).
 */
import type { KasmClient } from "../../api/client";
import { randomUUID } from "node:crypto";
import { withDeclaredCalls } from "../framework/connections";
import { userSetCalls } from "./calls";
import { canonicalId } from "../../../permissions/planned-calls";
import { isUnknown } from "../framework/check-wording";
import { KasmDeleteBlockedError, KasmUnfinishedError } from "../framework/errors";
import { same } from "../framework/fields";
import type { Kind, KindContext, Props, KindTexts } from "../framework/types";
import type { AnswersInterruptedCreates } from "../framework/interrupted-create";
import { OTHER_INPUTS, USER_SET_FIELDS, UserSetOutputs, type Row, type UserSetInputs } from "./fields";
import { manifestOfFields } from "../framework/define-kind";
import { checkUserSet } from "./check";
import { groupIndexFor, unknownGroupFailures, unknownGroupsError } from "./groups";
import { existingUsersError, importFailure, importRows, unconfirmedNotes } from "./import";
import { keptUserIds, plannedUserIds, withUserIds } from "./planned-ids";
import { readUserSet } from "./read";
import { formOf, names, outputs, rowChanges, rowsOf, sameRow, unconfirmedOf, userIdsOf, type UserSetState } from "./rows";
import { updateUserSet } from "./update";
import { interruptedUserSetCreate } from "./interrupted";
import { deleteKasmUser } from "../user";
import { adopt, eachAll, keptFailure, messageOf, planAdoption, step, unchangeableWarning, unfinishedMessage } from "./writes";

// --- types ---------------------------------------------------------------------------------------

// The kind's public names, defined with its parts and exported from this module, the kind's entry point.
export { IMPORT_ONLY_FIELDS, REALMS, USER_FIELDS, UserSetInputs, UserSetOutputs, userRowSchema, type UserField, type UserRow } from "./fields";

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the UserSet kind (see {@link KindTexts}; each input's doc is its declaration's, in fields.ts). */
const DOCS: KindTexts = {
  description:
    "Many Kasm users as one resource: new users are created in one request (Kasm's CSV import, the " +
    "only call that sets email, realm, city, state, country and force_password_reset), refresh reads " +
    "1,000 users per request, and a change touches only the rows that changed: added users are " +
    "imported together, changed names, phone and organization updated, removed users deleted, group " +
    "changes applied. Users deleted in the Kasm UI drop out of the set on refresh and come back on " +
    "the next up. An import sets no password and the set never holds one: users sign in through an " +
    "identity provider, or get a password from the User kind or the Kasm UI (`forcePasswordReset` " +
    "makes them choose one at the next sign-in).",
  arguments: "The arguments of a UserSet: exactly one of `users` and `csv`.",
  example: [
    'const team = new kasm.UserSet("engineering", {',
    "  users: [",
    '    { username: "alice", firstName: "Alice", email: "alice@example.com", groups: ["Engineering"] },',
    '    { username: "bob", firstName: "Bob", realm: "oidc", groups: ["Engineering", "On call"] },',
    "  ],",
    "});",
    "// Or Kasm's import file as it is:",
    'const interns = new kasm.UserSet("interns", { csv: fs.readFileSync("interns.csv", "utf8") });',
    'export const aliceId = team.userIds["alice"];',
  ].join("\n"),
  limits:
    "no passwords; realm, email, city, state, country and forcePasswordReset are set only by the " +
    "import (a later change is not applied, and a warning says so), and all but realm are missing " +
    "from Kasm's user records: drift in them cannot be seen; with `kasm:apiNames spec` the API " +
    "cannot list groups, so an existing user joins a group that no user is in yet only with its id " +
    "in `groupIds` (with `product` the ids are found by name)",
};

// --- helpers -------------------------------------------------------------------------------------

/**
 * The rows whose user Kasm still holds, with its id, read in a page or two of `get_users`: a
 * destroy retried after a partial failure (a fault, a timeout) redoes only what is left, so it
 * converges at any fault rate short of certain failure. A user not found by name is kept when
 * Kasm's users were not all read (it may have been renamed in the UI): its delete answers "unknown
 * user" if it is gone. A row whose import is unconfirmed is the user of that name, if there is one.
 */
async function stillInKasm(
  client: KasmClient,
  rows: readonly Row[],
  userIds: Readonly<Record<string, string>>,
  unconfirmed: ReadonlySet<string>,
): Promise<{ row: Row; userId: string }[]> {
  if (rows.length === 0) return [];
  const { users, complete } = await client.users.getUsersNamed(rows.map((row) => row.key));
  const ids = new Set(users.map((user) => canonicalId(user.user_id)));
  const byName = new Map(users.map((user) => [user.username.toLowerCase(), user]));
  return rows.flatMap((row) => {
    const userId = userIds[row.key];
    if (userId) return ids.has(canonicalId(userId)) || (!complete && !byName.has(row.key)) ? [{ row, userId }] : [];
    const found = unconfirmed.has(row.key) ? byName.get(row.key) : undefined;
    return found ? [{ row, userId: canonicalId(found.user_id) }] : [];
  });
}

/** Whether `news` declares other rows or other settings than `olds` (inputs or state alike). */
function setChanges(olds: Props, news: Props): boolean {
  const before = rowsOf(olds) ?? [];
  const after = rowsOf(news);
  let changes = after === undefined || formOf(olds) !== formOf(news) || before.length !== after.length;
  if (!changes && after) {
    const byKey = new Map(before.map((row) => [row.key, row]));
    changes = after.some((row) => {
      const old = byKey.get(row.key);
      return old === undefined || !sameRow(old, row);
    });
  }
  for (const key of OTHER_INPUTS) if (!same.value(olds[key], news[key]) || isUnknown(news[key])) changes = true;
  return changes;
}

/** `UserSet staff: this change adds 2 users ('a', 'b'), removes none and changes 1 ('c').` */
function changeSummary(context: KindContext, id: string, { added, removed, changed }: ReturnType<typeof rowChanges>): string {
  const part = (verb: string, rows: readonly Row[], noun = "") =>
    rows.length === 0 ? `${verb} none` : `${verb} ${rows.length}${noun && ` ${noun}${rows.length === 1 ? "" : "s"}`} (${names(rows, 10)})`;
  return `${context.label("UserSet", id)}: this change ${part("adds", added, "user")}, ${part("removes", removed)} and ${part("changes", changed)}.`;
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of `UserSet`. */
export const userSetProvider: Kind<UserSetInputs, UserSetState, UserSetOutputs> & AnswersInterruptedCreates = withDeclaredCalls({
  // The rows are what Kasm holds; the rest steer how they are written. Nothing replaces: rows are added, changed and removed one by one.
  manifest: {
    // The schema, each input's doc and role, from the declarations (fields.ts).
    ...manifestOfFields(USER_SET_FIELDS, DOCS),
    outputs: UserSetOutputs,
    exactlyOneOf: ["users", "csv"],
    plannedIds: ["userIds"],
    calls: userSetCalls,
  },

  /**
   * The rows checked; for a change, the `userIds` it will leave, so that a preview shows them;
   * without one, the ids the previous inputs hold (see planned-ids.ts).
   */
  async check(olds, news, context) {
    const checked = checkUserSet(news);
    if (checked.failures?.length) return checked;
    // Kept unread: a preview without a change asks Kasm nothing.
    if (!setChanges(olds, news)) return withUserIds(checked, news, keptUserIds(olds));
    const groupFailures = await unknownGroupFailures(context, rowsOf(news) ?? [], news.groupIds, formOf(news) ?? "users");
    if (groupFailures.length > 0) return { inputs: news, failures: groupFailures };
    return withUserIds(checked, news, await plannedUserIds(context, olds, news));
  },

  /** From the state alone: rows by username, then the other inputs. Nothing replaces the set. */
  async diff(id, olds, news, context) {
    // Users whose import is unconfirmed: the next update looks them up and finishes the work.
    const changes = setChanges(olds, news) || unconfirmedOf(olds).size > 0;
    const after = rowsOf(news);
    // Pulumi shows only that the csv (or users) input changed: say what that means, row by row.
    const rows = changes && after ? rowChanges(rowsOf(olds) ?? [], after) : undefined;
    if (rows && rows.added.length + rows.removed.length + rows.changed.length > 0) await context.note(changeSummary(context, id, rows));
    return { changes, replaces: [], deleteBeforeReplace: false };
  },

  async create(inputs, context) {
    const id = randomUUID().replace(/-/g, "");
    const rows = rowsOf(inputs) ?? [];
    const client = context.client();
    const { users: seen } = rows.length > 0 ? await client.users.getUsersNamed(rows.map((r) => r.key)) : { users: [] };
    const existing = new Map(seen.map((u) => [u.username.toLowerCase(), u]));
    const adopted = rows.filter((row) => existing.has(row.key));
    if (adopted.length > 0 && inputs.adopt !== true) throw existingUsersError(adopted);

    // Everything about adopted users is worked out before anything is written.
    const index = await groupIndexFor(context, adopted, seen, inputs.groupIds);
    const unknownGroups = new Map<string, string[]>();
    const unchangeable: string[] = [];
    const mode = String(inputs.groupsMode ?? "additive");
    const plans = adopted.map((row) => planAdoption(row, existing.get(row.key)!, { mode, index, unknownGroups, unchangeable }));
    if (unknownGroups.size > 0) throw unknownGroupsError(context, unknownGroups);

    const toCreate = rows.filter((row) => !existing.has(row.key));
    const importing = step("imported", "new users", toCreate.length);
    const adopting = step("adopted", "existing users", plans.length);
    const userIds: Record<string, string> = {};
    let unconfirmed: readonly Row[] = [];
    try {
      const imported = await importRows(context, toCreate);
      for (const [key, user] of imported.created) userIds[key] = canonicalId(user.user_id);
      importing.done = imported.created.size;
      unconfirmed = imported.unconfirmed;
      if (imported.error !== undefined) importing.failures.push(importFailure(imported.error, toCreate.length - imported.created.size, unconfirmed.length));
    } catch (error) {
      // Nothing was created: with no adoption to make, the create simply failed, and the next up starts again.
      if (plans.length === 0) throw error;
      importing.failures.push(importFailure(error, toCreate.length, 0));
    }

    // Adopted users not brought to the declared state stay out of the set: the next up adopts them again.
    const adoption = await eachAll(plans, async (plan) => {
      userIds[plan.row.key] = await adopt(context, plan);
    });
    adopting.done = adoption.done.length;
    for (const { item, error } of adoption.failed) adopting.failures.push(`'${item.row.username}': ${messageOf(error)}`);
    if (importing.failures.length + adopting.failures.length > 0) {
      const pending = new Set(unconfirmed.map((row) => row.key));
      const inSet = rows.filter((row) => userIds[row.key] !== undefined || pending.has(row.key));
      const message = unfinishedMessage(id, [importing, adopting], "pulumi up", unconfirmedNotes(unconfirmed.length));
      if (inSet.length === 0) throw new KasmUnfinishedError(message);
      throw keptFailure(id, inputs, outputs(inputs, inSet, userIds, [...pending]), message);
    }
    if (unchangeable.length) await context.warn(unchangeableWarning(context, id, "adopted users keep values that only an import sets", unchangeable));
    return { id, outs: outputs(inputs, rows, userIds) };
  },

  read: (id, props, context) => readUserSet(context, id, props),

  update: (id, olds, news, context) => updateUserSet(context, id, olds, news),

  async delete(_id, props, context) {
    const rows = rowsOf(props) ?? [];
    const userIds = userIdsOf(props);
    const unconfirmed = unconfirmedOf(props);
    const force = props.forceDelete === true;
    const targets = await stillInKasm(
      context.client(),
      rows.filter((row) => userIds[row.key] || unconfirmed.has(row.key)),
      userIds,
      unconfirmed,
    );
    const failures: string[] = [];
    let busy = 0;
    // Every user is attempted, so that one failure does not hold back the others; the next destroy retries what is left.
    await eachAll(targets, async ({ row, userId }) => {
      try {
        await deleteKasmUser(context.client(), row.username, userId, force);
      } catch (error) {
        if (error instanceof KasmDeleteBlockedError) busy += 1;
        failures.push(`'${row.username}': ${(error as Error).message}`);
      }
    });
    if (failures.length === 0) return;
    const advice = busy > 0 ? " Set `forceDelete: true` to end the sessions and delete the users, or end the sessions first." : "";
    throw new KasmUnfinishedError(
      `UserSet: ${targets.length - failures.length} of the ${targets.length} users left were deleted, ${failures.length} could not be ` +
        `and are left (run the destroy again: it deletes only the users still in Kasm):\n  ${failures.slice(0, 20).join("\n  ")}` +
        `${failures.length > 20 ? `\n  and ${failures.length - 20} more` : ""}${advice}`,
    );
  },

  /** For kasm-recover: the users a killed run's import made (see interrupted.ts). */
  interruptedCreate: interruptedUserSetCreate,
});
