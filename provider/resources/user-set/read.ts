/**
 * `UserSet`'s `read` (refresh): the users pages, never one request per user. Deleted users drop
 * out of the set (and come back on the next up); names, phone, organization, realm and groups show
 * drift as a change back to the program's values; a user renamed in Kasm drops out with a warning.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { User as KasmUser } from "../../api/schemas/users";
import type { KindContext, Props } from "../framework/types";
import { canonicalId } from "../../../permissions/planned-calls";
import { declared } from "../framework/fields";
import { ALL_USERS } from "../user-links";
import { OTHER_INPUTS, READABLE, USER_FIELDS, type Row } from "./fields";
import { formOf, names, outputs, render, rowChanges, rowsOf, unconfirmedOf, userIdsOf } from "./rows";

// --- helpers -------------------------------------------------------------------------------------

/** `record`'s current values for the fields the row declares that Kasm's record shows, and its groups. */
export function currentRow(row: Row, record: KasmUser, mode: string): Row {
  const fields: Row["fields"] = { ...row.fields };
  for (const field of USER_FIELDS) {
    const name = READABLE[field];
    if (name === undefined || fields[field] === undefined || !(name in record)) continue;
    const value = String(record[name] ?? "");
    // Kasm's realm is lowercase; keep the declared spelling when it is the same realm.
    fields[field] = field === "realm" ? value.toLowerCase() : value;
  }
  let groups = row.groups;
  // Without Groups View the record has no groups: membership cannot be read, and the declared groups stay.
  if (groups !== undefined && record.groups !== undefined) {
    const current = record.groups.map((g) => g.name);
    const listed = groups.filter((g) => current.includes(g));
    groups = mode === "authoritative" ? [...listed, ...current.filter((g) => g !== ALL_USERS && !listed.includes(g))] : listed;
  }
  return { ...row, fields, groups };
}

/** `1 user`, `3 users`. */
function counted(n: number): string {
  return `${n} user${n === 1 ? "" : "s"}`;
}

// --- read ----------------------------------------------------------------------------------------

/**
 * The users pages: users deleted in Kasm drop out (and come back on the next up); drift in
 * names, phone, organization, realm and groups shows as a change back to the program's values.
 */
export async function readUserSet(context: KindContext, id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  const rows = rowsOf(props) ?? [];
  const userIds = userIdsOf(props);
  if (rows.length === 0) return { id, props: outputs(props, [], userIds), inputs: { ...declared(props, OTHER_INPUTS), ...render(props, []) } };
  const { users } = await context.client().users.getUsersNamed(rows.map((r) => r.key));
  const byId = new Map(users.map((u) => [canonicalId(u.user_id), u]));
  // A row whose import is unconfirmed is the user of that name when Kasm has one (this set imported it), else it drops out.
  const unconfirmed = unconfirmedOf(props);
  if (unconfirmed.size > 0)
    for (const user of users) {
      const key = user.username.toLowerCase();
      if (unconfirmed.has(key) && !userIds[key]) userIds[key] = canonicalId(user.user_id);
    }
  const mode = String(props.groupsMode ?? "additive");
  const refreshed: Row[] = [];
  const renamed: string[] = [];
  const renamedRows: Row[] = [];
  for (const row of rows) {
    const userId = userIds[row.key];
    const record = userId ? byId.get(canonicalId(userId)) : undefined;
    // Deleted in Kasm (or re-created there under the same name, with another id): it drops out of
    // the set, and the next up imports it again (or, for a re-created one, refuses it unless `adopt`).
    if (!record) continue;
    if (record.username.toLowerCase() !== row.key) {
      renamed.push(`'${row.username}' (now '${record.username}', id ${canonicalId(record.user_id)})`);
      renamedRows.push(row);
      continue;
    }
    refreshed.push(currentRow(row, record, mode));
  }
  if (rows.some((row) => row.groups !== undefined) && users.some((u) => u.groups === undefined))
    await context.warn(
      `${context.label("UserSet", id)}: Kasm did not return the users' groups, so drift in group membership cannot be seen: ` +
        `the API key needs Groups View to read group membership. Grant the API key: Groups View.`,
    );
  if (renamed.length)
    await context.warn(
      `${context.label("UserSet", id)}: ${renamed.join(", ")} ${renamed.length === 1 ? "was" : "were"} renamed in Kasm, so the set no longer manages ` +
        `${renamed.length === 1 ? "it" : "them"}; the next up creates the declared usernames again. To keep a renamed user instead, ` +
        `rename it back in Kasm and add it with \`adopt: true\`.`,
    );
  // Pulumi shows that the rows changed; say which users, so that drift is not a riddle.
  const drift = rowChanges(rows, refreshed);
  const renamedKeys = new Set(renamedRows.map((row) => row.key));
  const deleted = drift.removed.filter((row) => !renamedKeys.has(row.key));
  const found = [
    drift.changed.length && `${counted(drift.changed.length)} changed in Kasm (${names(drift.changed, 10)}; the next up puts back the declared values)`,
    deleted.length && `${counted(deleted.length)} deleted in Kasm (${names(deleted, 10)}; out of the set now, the next up imports them again)`,
  ].filter(Boolean);
  if (found.length > 0) await context.note(`${context.label("UserSet", id)}: refresh found ${found.join(", and ")}.`);
  const state = outputs(props, refreshed, userIds);
  // The ids read go into the inputs too, as `check` plans them, so that the next change lists only
  // the rows' input (see planned-ids.ts).
  const inputs: Props = {
    ...declared(props, OTHER_INPUTS),
    ...(formOf(props) === "csv" ? { csv: state.csv } : { users: state.users }),
    userIds: state.userIds,
  };
  return { id, props: state, inputs };
}
