/**
 * What Kasm holds for a create that a killed run sent and never recorded: Pulumi keeps such a
 * create in the state as pending (the resource's URN and the inputs it was created with), and the
 * next `up` would send it again, which Kasm refuses ("already exists") when the first one
 * committed. `kasm-recover` asks each pending create's kind this question and writes the answer
 * into the state (see recover/).
 *
 * What counts as proof that an object is the one the interrupted create made, and not a
 * stranger's: all three of
 * - the state records that this stack sent a create for this resource and never heard back (the
 *   pending create: only then is the question asked);
 * - Kasm holds an object with the create's natural key (a user's username, a group's name, a
 *   staging config's zone and image), found by the kind's own lookup; and
 * - every field the create declared that Kasm shows equals Kasm's value, by the kind's own
 *   comparison (what Kasm never shows, such as a password, cannot be compared: the create sent it).
 *
 * An object that differs in any declared field is not taken over, whoever made it: it is either a
 * stranger's, or the interrupted create's changed since by someone else, and either way the stack
 * cannot claim it silently. An object made outside Pulumi with the same key and exactly the
 * declared values is indistinguishable from the create's own; taking it over is then what
 * `adopt: true` would do, and changes nothing in Kasm.
 */
import { isAsDeclared, changedFields, type FieldRule } from "./fields";
import type { KindContext, Props } from "./types";

/** What Kasm holds for an interrupted create (see the module comment). */
export type InterruptedCreate =
  /** Kasm has no object with the create's natural key: the create never committed. */
  | { readonly outcome: "not-made" }
  /**
   * The object the create made: its id, to record in the state, and what the state holds beside
   * the inputs until the refresh that follows reads the object (a UserSet's users to look up).
   */
  | { readonly outcome: "made"; readonly id: string; readonly state?: Props }
  /** An object with the natural key that differs from the create in these fields: not taken. */
  | { readonly outcome: "differs"; readonly id: string; readonly fields: readonly string[] }
  /** Kasm cannot say (it has no operation to read such objects, in this vocabulary): why, and the way out. */
  | { readonly outcome: "unknown"; readonly why: string };

/** What {@link interruptedCreateOf} needs of a kind whose object is one record found by natural key. */
export interface InterruptedCreateRules<KasmRecord> {
  /** The object with the create's natural key, if there is one (the kind's adoption lookup). */
  find(): Promise<KasmRecord | undefined>;
  id(record: KasmRecord): string;
  /** The record as inputs, compared with `wanted`. */
  asInputs(record: KasmRecord): Props;
  /** The inputs as the create declared them, as the kind compares them with Kasm's record. */
  readonly wanted: Props;
  /** The kind's API fields and their comparisons. */
  readonly apiFields: Readonly<Record<string, FieldRule>>;
  /** API fields Kasm never shows (a password): not compared. */
  readonly unreadable?: readonly string[];
}

/** What Kasm holds for the interrupted create these rules describe (see {@link InterruptedCreate}). */
export async function interruptedCreateOf<KasmRecord>(rules: InterruptedCreateRules<KasmRecord>): Promise<InterruptedCreate> {
  const existing = await rules.find();
  if (existing === undefined) return { outcome: "not-made" };
  const compared = Object.fromEntries(Object.entries(rules.apiFields).filter(([field]) => !rules.unreadable?.includes(field)));
  const current = rules.asInputs(existing);
  const id = rules.id(existing);
  if (isAsDeclared(rules.wanted, current, compared)) return { outcome: "made", id };
  return { outcome: "differs", id, fields: changedFields(current, rules.wanted, compared) };
}

/** A kind that can say what Kasm holds for one of its interrupted creates. */
export interface AnswersInterruptedCreates {
  /** What Kasm holds for a create of `inputs` (inputs that passed `check`) that a killed run sent. */
  interruptedCreate(inputs: Props, context: KindContext): Promise<InterruptedCreate>;
}
