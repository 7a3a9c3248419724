/**
 * `UserSet`'s per-user writes besides the import: `update_user` for the fields it can change,
 * adopting a user that exists already, the warning about fields only an import sets, and the
 * few-at-a-time runner every batch of such requests goes through. (`delete_user` goes through the
 * User kind's `deleteKasmUser`: the same rules, whichever kind declared the user.)
 */
import type { User as KasmUser } from "../../api/schemas/users";
import type { KindContext, Props } from "../framework/types";
import { canonicalId } from "../../../permissions/planned-calls";
import { initializationFailure } from "../framework/define-kind";
import type { KasmInitializationError } from "../framework/errors";
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
 * Run `work` for every item, a few at a time; every item is attempted whatever happens to the
 * others, so that one run makes all the progress it can. Answers the items done and the failures.
 */
export async function eachAll<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<{ done: T[]; failed: { item: T; error: unknown }[] }> {
  const done: T[] = [];
  const failed: { item: T; error: unknown }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await work(item);
        done.push(item);
      } catch (error) {
        failed.push({ item, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return { done, failed };
}

// --- partial failures ----------------------------------------------------------------------------

/** One step of a set's writes, counted for the message of a run that did not finish. */
export interface Step {
  /** What the step does to one user, for `imported 18 of 20 new users`: `imported`, `new users`. */
  readonly verb: string;
  readonly noun: string;
  readonly total: number;
  done: number;
  /** One line per failure: `'bob' (update_user): ...`. */
  readonly failures: string[];
}

/** A step with nothing done yet. */
export function step(verb: string, noun: string, total: number): Step {
  return { verb, noun, total, done: 0, failures: [] };
}

/** The message of an error, without a stack. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The message of a run that stopped short: how many writes were made and how many are left,
 * step by step, that the state keeps what was done and that running `again` continues with the
 * rest, then the first failures.
 */
export function unfinishedMessage(id: string, steps: readonly Step[], again: string, notes: readonly string[] = []): string {
  const counted = steps.filter((s) => s.total > 0);
  const total = counted.reduce((n, s) => n + s.total, 0);
  const done = counted.reduce((n, s) => n + s.done, 0);
  const failures = counted.flatMap((s) => s.failures);
  const parts = counted.map((s) => `${s.verb} ${s.done} of ${s.total} ${s.noun}`);
  return (
    `UserSet ${id}: ${done} of ${total} writes were made and ${total - done} ${total - done === 1 ? "is" : "are"} left (${parts.join(", ")}). ` +
    `The state keeps what was done: run \`${again}\` again, and it does only what is left.${notes.map((n) => ` ${n}`).join("")}` +
    (failures.length ? `\n  ${failures.slice(0, 20).join("\n  ")}${failures.length > 20 ? `\n  and ${failures.length - 20} more` : ""}` : "")
  );
}

/**
 * An error that keeps what a run did in the state (see `initializationFailure`), with the
 * serialized provider the engine needs to call this provider for the resource again (the host
 * adds it to the properties of a run that succeeds, not to those of a failure).
 */
export function keptFailure(id: string, inputs: Props, state: Props, message: string): KasmInitializationError {
  return initializationFailure(id, inputs.__provider === undefined ? state : { ...state, __provider: inputs.__provider }, message);
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
export function unchangeableWarning(context: KindContext, id: string, what: string, entries: readonly string[]): string {
  return (
    `${context.label("UserSet", id)}: ${what}: ${entries.slice(0, 20).join(", ")}${entries.length > 20 ? ` and ${entries.length - 20} more` : ""}. ` +
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
export async function adopt(context: KindContext, plan: Adoption): Promise<string> {
  const userId = canonicalId(plan.record.user_id);
  if (plan.update) await context.client().users.updateUser({ user_id: userId, username: plan.row.key, ...plan.update });
  for (const change of plan.groups) await applyGroupChange(context, change);
  return userId;
}
