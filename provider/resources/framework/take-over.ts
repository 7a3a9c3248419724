/**
 * A take-over (`adopt: true`) that shows what it will change before it changes it.
 *
 * Pulumi previews the first `up` of an adopted object as a plain `create`: the dynamic-provider
 * host has no preview of its own, and an `import` is not open to dynamic resources. When Kasm
 * changed between a `kasm-import` and that `up` (a staging config's sessions raised from 3 to 5 by
 * hand), the `up` would set the program's values back without a word. So `check`, for an adopted
 * object about to be created, reads the object the take-over will find and compares it with the
 * program field by field:
 * - by default it warns, naming each field with its value in Kasm and in the program (a secret's
 *   values never shown), and the `up` applies the program's values;
 * - with `kasm:takeOverChanges` `refuse` (or `KASM_TAKE_OVER_CHANGES=refuse`; a named
 *   connection's own key), the check fails instead, naming the fields, so the preview fails and
 *   the `up` changes nothing. The create refuses it too, for a plan made without the read
 *   (`checkBeforeChanges` false).
 * The read is the kind's own lookup by natural key, one per adopted object, at its creation only;
 * none when `checkBeforeChanges` is `false`.
 */
import { howToSet, settingRef } from "../../api/config";
import { isUnknown } from "./check-wording";
import { changedFields, type FieldRule } from "./fields";
import { checksBeforeChanges } from "./connections";
import type { KindContext, Props } from "./types";

/** The setting's values: apply the program's values (the default), or refuse the take-over. */
export type TakeOverChanges = "apply" | "refuse";

/** The connection's `takeOverChanges` setting (`apply` unless set to `refuse`). */
export function takeOverChanges(context: KindContext): TakeOverChanges {
  return context.setting("takeOverChanges")?.trim().toLowerCase() === "refuse" ? "refuse" : "apply";
}

/** One field a take-over will change, as a message shows it. */
export interface TakeOverChange {
  readonly field: string;
  /** `5 to 3`; for a secret input, only that it changes. */
  readonly shown: string;
}

/**
 * The declared API fields whose value in Kasm (`current`, the object read as inputs) differs from
 * the program's (`inputs`), compared by the kind's own field rules.
 */
export function fieldsTakeOverChanges(
  secrets: readonly string[],
  current: Props,
  inputs: Props,
  apiFields: Readonly<Record<string, FieldRule>>,
): TakeOverChange[] {
  return changedFields(current, inputs, apiFields).map((field) => ({
    field,
    shown: secrets.includes(field) ? "(a secret: its values are not shown)" : `${show(current[field])} to ${show(inputs[field])}`,
  }));
}

function show(value: unknown): string {
  return value === undefined || value === null ? "(not set)" : JSON.stringify(value);
}

/** How the object is named in a message: `StagingConfig chrome (for zone ... and image ...)`. */
function subject(context: KindContext, kind: string, key: string): string {
  return `${context.label(kind, key)} (${key})`;
}

/** The words for the fields a take-over changes. */
function listed(changes: readonly TakeOverChange[]): string {
  return changes.map((change) => `${change.field} from ${change.shown}`).join(", ");
}

/** The refusal, for check and create alike. */
export function refusedTakeOver(context: KindContext, kind: string, key: string, changes: readonly TakeOverChange[]): string {
  const names = context.settingNames;
  return (
    `taking over the existing object would change ${changes.length > 0 ? listed(changes) : "fields that differ from the program"} in Kasm, and ${settingRef(names, "takeOverChanges")} is "refuse", ` +
    `so ${subject(context, kind, key)} is not taken over and Kasm is left as it is. Make the program's values match Kasm's, or set ` +
    `${howToSet(names, "takeOverChanges", "apply")} to let the take-over apply them.`
  );
}

/** What a take-over needs of its kind, for {@link previewTakeOver}. */
export interface TakeOverPreview {
  readonly kind: string;
  /** The kind's secret inputs (its field declarations'): a change to one is named, its values not shown. */
  readonly secrets: readonly string[];
  /**
   * Whether an existing object is taken over: `adopt: true`, or a kind whose existing object is
   * always the declared one (`AdoptionRules.alwaysTakesOver`, where `adopt` has no effect).
   */
  readonly takesOver: boolean;
  /** The natural key, for messages (`for zone ... and image ...`): asked only once every input is known. */
  key(): string;
  readonly apiFields: Readonly<Record<string, FieldRule>>;
  /** API fields Kasm never shows (a user's password): not compared, since no difference can be seen. */
  readonly unreadable?: readonly string[];
  /** The object the take-over will find, read as inputs; undefined when there is none (a plain create). */
  find(): Promise<Props | undefined>;
}

/**
 * For an object about to be created that a take-over may find (`olds` empty, `takesOver`, every
 * key and API input known): read it, then warn about each field the take-over changes, or, with
 * `takeOverChanges` `refuse`, answer the check failure's reason. Undefined when there is nothing to say.
 */
export async function previewTakeOver(olds: Props, inputs: Props, context: KindContext, how: TakeOverPreview): Promise<string | undefined> {
  if (!how.takesOver || Object.keys(olds).length > 0 || !checksBeforeChanges(context)) return undefined;
  if (Object.values(inputs).some(isUnknown)) return undefined;
  const current = await how.find();
  if (current === undefined) return undefined;
  const compared = Object.fromEntries(Object.entries(how.apiFields).filter(([field]) => !how.unreadable?.includes(field)));
  const changes = fieldsTakeOverChanges(how.secrets, current, inputs, compared);
  if (changes.length === 0) return undefined;
  if (takeOverChanges(context) === "refuse") return refusedTakeOver(context, how.kind, how.key(), changes);
  const takeOver = inputs.adopt === true ? "the take-over (adopt)" : "the take-over of the existing object";
  await context.warn(`${subject(context, how.kind, how.key())}: ${takeOver} will change ${listed(changes)} in Kasm, to the program's values.`);
  return undefined;
}
