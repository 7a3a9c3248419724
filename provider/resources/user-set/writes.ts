/**
 * `UserSet`'s per-user writes besides the import: `update_user` for the fields it can change,
 * adopting a user that exists already, the warning about fields only an import sets, and the
 * few-at-a-time runner every batch of such requests goes through. (`delete_user` goes through the
 * User kind's `deleteKasmUser`: the same rules, whichever kind declared the user.)
 */
import type { User as KasmUser } from "../../api";
import { kasmClient } from "../../runtime";
import { canonicalId } from "../kit";
import { IMPORT_ONLY_FIELDS, READABLE, UPDATABLE, USER_FIELDS, type Row, type UserField } from "./fields";
import { applyGroupChange, groupChanges, type GroupChange } from "./groups";

// --- types ---------------------------------------------------------------------------------------

/** How many per-user requests run at once. */
const CONCURRENCY = 8;

/** What adopting one existing user takes, worked out before anything is written. */
export interface Adoption {
  readonly row: Row;
  /** The user as Kasm has it. */
  readonly record: KasmUser;
  /** The `update_user` body, when a field it can change differs. */
  readonly update?: Record<string, string>;
  readonly groups: readonly GroupChange[];
}

// --- running requests ----------------------------------------------------------------------------

/**
 * Run `work` for every item, a few at a time. Stops starting new items after the first failure,
 * lets the running ones finish, and reports which items succeeded and the first error.
 */
export async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<{ done: T[]; error?: unknown }> {
  const done: T[] = [];
  let error: unknown;
  let next = 0;
  const worker = async () => {
    while (error === undefined && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
        done.push(item);
      } catch (e) {
        error ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return { done, error };
}

// --- update_user ---------------------------------------------------------------------------------

/** The `update_user` body for the updatable fields among `fields`, or undefined when there are none. */
export function userUpdate(row: Row, fields: readonly UserField[]): Record<string, string> | undefined {
  const body: Record<string, string> = {};
  for (const field of fields) {
    const name = UPDATABLE[field];
    const value = row.fields[field];
    if (name && value !== undefined) body[name] = String(value);
  }
  return Object.keys(body).length ? body : undefined;
}

/** Adopted rows: bring names, phone and organization to the declared values; what cannot be changed is listed. */
function adoptionUpdate(row: Row, record: KasmUser, unchangeable: string[]): Record<string, string> | undefined {
  const differing = USER_FIELDS.filter((field) => {
    const value = row.fields[field];
    if (value === undefined) return false;
    const readable = READABLE[field];
    return readable === undefined || String(record[readable] ?? "") !== String(value);
  });
  notApplied(row, differing, unchangeable);
  return userUpdate(row, differing);
}

/** Add `'alice' (realm, email)` to `unchangeable` when some of `fields` only an import sets. */
export function notApplied(row: Row, fields: readonly UserField[], unchangeable: string[]): void {
  const notSet = fields.filter((f) => IMPORT_ONLY_FIELDS.includes(f));
  if (notSet.length) unchangeable.push(`'${row.username}' (${notSet.join(", ")})`);
}

/** The warning for values Kasm keeps because only its import sets them (`entries`: `'alice' (realm, email)`). */
export function unchangeableWarning(id: string, what: string, entries: readonly string[]): string {
  return (
    `UserSet ${id}: ${what}: ${entries.slice(0, 20).join(", ")}${entries.length > 20 ? ` and ${entries.length - 20} more` : ""}. ` +
    `Kasm's API sets realm, email, city, state, country and force_password_reset only when it imports a user ` +
    `(update_user has no such fields), so Kasm keeps its values. Change them in the Kasm UI, or remove the users from the ` +
    `set in one update and add them back in the next (this deletes and re-creates them, with their settings and sessions).`
  );
}

// --- adoption ------------------------------------------------------------------------------------

/**
 * What adopting `record` for `row` takes: the `update_user` body and the membership changes.
 * Fields only an import sets are added to `unchangeable`, groups without a known id to
 * `unknownGroups` (see `groupChanges`).
 */
export function planAdoption(
  row: Row,
  record: KasmUser,
  how: { mode: string; index: Map<string, string>; unknownGroups: Map<string, string[]>; unchangeable: string[] },
): Adoption {
  return { row, record, update: adoptionUpdate(row, record, how.unchangeable), groups: groupChanges(row, record, how.mode, how.index, how.unknownGroups) };
}

/** Bring an adopted user to the declared fields and groups; answers the user's id. */
export async function adopt(plan: Adoption): Promise<string> {
  const userId = canonicalId(plan.record.user_id);
  if (plan.update) await kasmClient().users.updateUser({ user_id: userId, username: plan.row.key, ...plan.update });
  for (const change of plan.groups) await applyGroupChange(change);
  return userId;
}
