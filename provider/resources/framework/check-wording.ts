/**
 * `check`: validating a kind's inputs with its zod schema before any request, and saying what is
 * wrong in plain words (the property, what was expected, what was given, a did-you-mean for a
 * misspelt input), for whole inputs and for the rows of the bulk kinds.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { KASM_ID_MESSAGE, KASM_ID_PATTERN, UNKNOWN } from "../../../permissions/planned-calls";
import { closestName } from "../../../permissions/spelling";
import type { Props } from "./types";

// --- check -----------------------------------------------------------------------------------------

/** Whether a value, or any value inside it, is not known yet (preview). */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

/**
 * Validate inputs with a kind's zod schema. Values not known yet (during preview) are left out of
 * the validation rather than failing it; everything else must pass before any request is sent.
 * Returns the inputs as given (Pulumi's `__provider` is added back by the host).
 *
 * `placeholders` (the fields' {@link FieldRule.placeholder}s) serve kinds whose cross-field rules
 * involve a value that may be unknown: an unknown value with a placeholder is validated as that
 * placeholder (a valid value that satisfies the rules on its own) instead of being left out, so
 * that "exactly one of userId, groupId and imageId" does not fail when the one given is another
 * resource's output.
 *
 * `owner` names what a misspelt top-level key is not: a resource's input (by default), or a
 * function's argument (the native provider's lookups).
 */
export function checkInputs(schema: z.ZodType, news: Props, placeholders: Readonly<Props> = {}, owner: string = RESOURCE_INPUT): pulumi.dynamic.CheckResult {
  const { __provider: _provider, ...inputs } = news;
  const known: Props = {};
  for (const [key, value] of Object.entries(inputs)) {
    if (value === undefined) continue;
    if (!isUnknown(value)) known[key] = value;
    else if (key in placeholders) known[key] = placeholders[key];
  }
  // The marker stands for zod's own wording, which plainMessage replaces; a schema's own message wins over it.
  const result = schema.safeParse(known, { error: () => ZOD_WORDING, reportInput: true });
  if (result.success) return { inputs: news };
  const failures = result.error.issues
    // An issue about a field that is unknown now may vanish once it is known: do not report it,
    // unless a placeholder stood in for it (then the issue is about the fields around it).
    .filter((issue) => {
      const field = String(issue.path[0] ?? "");
      return !(issue.path.length > 0 && isUnknown(inputs[field]) && !(field in placeholders));
    })
    .map((issue) => ({
      property: issue.path.map(String).join(".") || "(inputs)",
      reason: issue.message === ZOD_WORDING ? plainMessage(issue, inputNames(schema), owner) : withSubject(issue),
    }));
  return failures.length ? { inputs: news, failures } : { inputs: news };
}

/** What a misspelt top-level key of a resource's inputs is not. */
const RESOURCE_INPUT = "an input of this resource";

/** A schema's own message, led by the property's name when it leaves it out ("must be a Kasm id: ..."). */
function withSubject(issue: z.core.$ZodIssue): string {
  return /^must\b/.test(issue.message) && issue.path.length > 0 ? `${pathWords(issue.path)} ${issue.message}` : issue.message;
}

/** Marks an issue that carries zod's default wording (such as "Invalid input: expected number, received undefined"). */
const ZOD_WORDING = "\u0000zod";

/** An input's path as a reader writes it: `numSessions`, `users[3].username`. */
function pathWords(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i > 0 ? "." : ""}${String(p)}`)).join("");
}

/** What a type name means to a reader: `number` -> "a number". */
const EXPECTED: Readonly<Record<string, string>> = {
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  string: "text",
  array: "a list",
  object: "an object",
  record: "an object",
  map: "an object",
  null: "null",
};

/** What the program gave, by kind only: the value itself may be a secret. */
function givenWords(input: unknown): string {
  if (input === undefined) return "nothing";
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  switch (typeof input) {
    case "string":
      return "text";
    case "number":
      return Number.isInteger(input) ? "a whole number" : "a number";
    case "boolean":
      return input ? "true" : "false";
    case "object":
      return "an object";
    default:
      return typeof input;
  }
}

function plural(n: number | bigint, one: string): string {
  return `${n} ${one}${Number(n) === 1 ? "" : "s"}`;
}

/**
 * Where a missing id most often comes from: a bulk kind's output read by a key that is not in it
 * (`team.userIds["ada.lovelase"]` is undefined, which only shows when the value resolves, at `up`).
 */
function missingIdHint(path: readonly PropertyKey[]): string {
  const field = path[path.length - 1];
  if (field === "userId")
    return (
      `. If it comes from a UserSet's userIds["<username>"], that username is not in the set: check its spelling ` +
      `(userIds has one key per user of the set, the username in lower case)`
    );
  if (field === "serverId") return `. If it comes from a ServerImport's serverIds["<name>"], no server of the import has that name: check its spelling`;
  return "";
}

/** The names of a kind's inputs, where its schema is an object (for "did you mean"). */
function inputNames(schema: z.ZodType): readonly string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/**
 * `: did you mean allowWsAudio?` when one of `names` is a likely intent for the misspelt `word`
 * (at most a third of its letters apart, case aside), else nothing.
 */
export function didYouMean(word: string, names: readonly string[]): string {
  const meant = closestName(word, names);
  return meant === undefined ? "" : `: did you mean ${meant}?`;
}

/**
 * One validation issue in plain words, naming the property, what it must be and, for a missing
 * input, that it is required. Used for every issue whose schema gives no message of its own, so
 * that no kind shows the validation library's wording. Never includes the value (it may be secret).
 * `inputs` are the kind's input names, for a top-level key that is none of them, which is not
 * `owner` (see {@link checkInputs}).
 */
function plainMessage(issue: z.core.$ZodIssue, inputs: readonly string[] = [], owner: string = RESOURCE_INPUT): string {
  const subject = pathWords(issue.path) || "the inputs";
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "invalid_type": {
      const expected = EXPECTED[issue.expected] ?? `a ${issue.expected}`;
      if (input === undefined) return `${subject} must be ${expected} (got nothing): it is required${missingIdHint(issue.path)}`;
      return `${subject} must be ${expected} (got ${givenWords(input)})`;
    }
    case "invalid_value": {
      const values = issue.values.map((v) => JSON.stringify(v));
      return values.length === 1 ? `${subject} must be ${values[0]}` : `${subject} must be one of ${values.join(", ")}`;
    }
    case "too_small": {
      const min = issue.minimum;
      if (issue.origin === "string") return Number(min) <= 1 ? `${subject} must not be empty` : `${subject} must be at least ${plural(min, "character")} long`;
      if (issue.origin === "array" || issue.origin === "set") return `${subject} must have at least ${plural(min, "item")}`;
      return `${subject} must be ${issue.inclusive === false ? "more than" : "at least"} ${min}`;
    }
    case "too_big": {
      const max = issue.maximum;
      if (issue.origin === "string") return `${subject} must be at most ${plural(max, "character")} long`;
      if (issue.origin === "array" || issue.origin === "set") return `${subject} must have at most ${plural(max, "item")}`;
      return `${subject} must be ${issue.inclusive === false ? "less than" : "at most"} ${max}`;
    }
    case "not_multiple_of":
      return `${subject} must be a multiple of ${issue.divisor}`;
    case "invalid_format":
      return issue.format === "regex"
        ? `${subject} is not in the expected format`
        : `${subject} must be ${issue.format === "url" ? "a URL" : `in ${issue.format} format`}`;
    case "unrecognized_keys": {
      const keys = issue.keys.join(", ");
      const notOf = issue.path.length > 0 ? `a field of ${subject}` : owner;
      const hint = issue.keys.length === 1 && issue.path.length === 0 ? didYouMean(issue.keys[0], inputs) : "";
      const naming = owner === RESOURCE_INPUT ? " (inputs are the camelCase names of the API's fields)" : "";
      return `${keys} ${issue.keys.length === 1 ? "is not" : "are not"} ${notOf}: check the spelling${hint}${naming}`;
    }
    case "invalid_union":
      return `${subject} matches none of the forms it may take (got ${givenWords(input)})`;
    case "invalid_key":
      return `${subject} has a key that is not allowed`;
    case "invalid_element":
      return `${subject} has an item that is not allowed`;
    default:
      return `${subject} is not valid`;
  }
}

/**
 * `superRefine` parameters that run a cross-field rule even when other inputs failed (zod skips
 * refinements after such failures by default), so that `check` reports every problem at once.
 * The rules must then cope with fields of the wrong type.
 */
export const EVEN_WITH_OTHER_FAILURES = {
  when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null,
};

/** A Kasm id as a program may write it: 32 hex digits, or a hyphenated UUID. */
export const KasmId = z.string().regex(KASM_ID_PATTERN, KASM_ID_MESSAGE);

/** A Kasm id input that must be given, saying so by name when it is missing. */
export function requiredId(name: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : undefined) }).regex(KASM_ID_PATTERN, KASM_ID_MESSAGE);
}

/** A string input that must be given and not be blank. */
export function requiredText(name: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : undefined) })
    .refine((value) => value.trim().length > 0, `${name} must not be empty`);
}

/** One problem a bulk kind's row schema finds in a row (see {@link rowIssues}). */
export interface RowIssue {
  /** The field, or the key that is no field. */
  readonly field: string;
  /** Where inside the field, for a list (the entry's index). */
  readonly within: readonly PropertyKey[];
  /** The schema's message; empty for a key that is no field. */
  readonly message: string;
  /** Set for a key that is no field of the row. */
  readonly notAField?: true;
}

/**
 * What a bulk kind's row schema finds wrong with one row, a list entry or a parsed CSV row alike.
 * A field whose value is not known yet (preview), or holds a value not known yet, is checked once
 * it is known; a key that is no field is reported whatever its value. The caller names the row.
 */
export function rowIssues(schema: z.ZodObject, row: Readonly<Props>): RowIssue[] {
  const fields = Object.keys(schema.shape);
  const notKnownYet = (key: string) => fields.includes(key) && isUnknown(row[key]);
  const known = Object.fromEntries(Object.entries(row).filter(([key, value]) => value !== undefined && value !== null && !notKnownYet(key)));
  const parsed = schema.safeParse(known);
  if (parsed.success) return [];
  return parsed.error.issues.flatMap((issue): RowIssue[] =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ field: key, within: [], message: "", notAField: true as const }))
      : notKnownYet(String(issue.path[0]))
        ? []
        : [{ field: String(issue.path[0]), within: issue.path.slice(1), message: issue.message }],
  );
}

// --- notes for the policy packs ----------------------------------------------------------------------

/**
 * A note for the policy packs (the permission catalogue's `PREVIEW_NOTES`), as the native provider's preview
 * of an update adds it to the planned outputs: what the update to come changes, which a policy,
 * seeing the new properties only, cannot tell. `value` undefined (no state to compare with, see
 * {@link hasState}) adds nothing.
 */
export function previewNote(note: string, value: unknown): Readonly<Record<string, unknown>> {
  return value === undefined ? {} : { [note]: value };
}

/** Whether old properties are a state's (an update), not a create's empty ones: keys with `__` are Pulumi's own. */
export function hasState(olds: Props): boolean {
  return Object.keys(olds).some((key) => !key.startsWith("__"));
}
