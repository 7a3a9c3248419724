/**
 * What every resource provider shares: validation in `check`, field-by-field diffs with
 * normalisation, managed-input bookkeeping, and the errors a user can act on.
 *
 * Conventions of every kind:
 * - Inputs are the camelCase forms of the API's fields. An input the program leaves out is not
 *   managed: the provider neither sends it nor reports drift on it.
 * - Outputs are the managed inputs (refreshed by `read`) plus the kind's computed outputs, under
 *   names that are not inputs (`userId`, `created`, ...). `read` returns the managed inputs too,
 *   so a refresh causes no false diff and drift shows as a change back to the program's value.
 *
 * A kind's provider is built with `defineKind` (kit/define-kind.ts), which derives `check` and
 * `diff` from the kind's zod inputs and field rules with the functions below.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { closest, distance } from "fastest-levenshtein";
import { UNKNOWN } from "../../catalogue/values";
import { canonicalId, KASM_ID_MESSAGE, KASM_ID_PATTERN } from "../../catalogue/ids";
import { KasmAlreadyExistsError, KasmApiError, KasmNotFoundError, KasmVocabularyError, toApiBody, toCamelCase, toSnakeCase, type SnakeCase } from "../api";
import { refusedTakeOver, takeOverChanges } from "./kit/take-over";

/** Pulumi's placeholder for a value not known during preview (the catalogue's). */
export { UNKNOWN };

/** Properties as they travel between the engine and a provider. */
export type Props = Record<string, unknown>;

/** Declared inputs as a refresh may leave them: a field Kasm has cleared reads back as null. */
export type RefreshedInputs<Inputs> = { [K in keyof Inputs]?: Inputs[K] | null };

/**
 * The methods of one kind's provider, in the terms of Pulumi's
 * `dynamic.ResourceProvider<Inputs, Outputs>` without `configure`: `State` is what the state
 * holds (the declared inputs and the outputs). `check` takes the properties as the program sent
 * them, unchecked: it is where they become `Inputs`. The registry and the wrappers around every
 * kind hold them as `KindProvider` (of `Props`: the wire's view), which any kind's provider is.
 */
export interface KindProvider<Inputs extends object = Props, State extends object = Props> {
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: State, news: Inputs): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult<State>>;
  read(id: string, props: State): Promise<pulumi.dynamic.ReadResult<State>>;
  update(id: string, olds: State, news: Inputs): Promise<pulumi.dynamic.UpdateResult<State>>;
  delete(id: string, props: State): Promise<void>;
}

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
 */
export function checkInputs(schema: z.ZodType, news: Props, placeholders: Readonly<Props> = {}): pulumi.dynamic.CheckResult {
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
      reason: issue.message === ZOD_WORDING ? plainMessage(issue, inputNames(schema)) : withSubject(issue),
    }));
  return failures.length ? { inputs: news, failures } : { inputs: news };
}

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
  if (names.length === 0) return "";
  const lower = word.toLowerCase();
  const best = closest(lower, names.map((n) => n.toLowerCase()));
  const within = Math.max(2, Math.floor(word.length / 3));
  return distance(lower, best) <= within ? `: did you mean ${names.find((n) => n.toLowerCase() === best)}?` : "";
}

/**
 * One validation issue in plain words, naming the property, what it must be and, for a missing
 * input, that it is required. Used for every issue whose schema gives no message of its own, so
 * that no kind shows the validation library's wording. Never includes the value (it may be secret).
 * `inputs` are the kind's input names, for a top-level key that is none of them.
 */
function plainMessage(issue: z.core.$ZodIssue, inputs: readonly string[] = []): string {
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
      return issue.format === "regex" ? `${subject} is not in the expected format` : `${subject} must be ${issue.format === "url" ? "a URL" : `in ${issue.format} format`}`;
    case "unrecognized_keys": {
      const keys = issue.keys.join(", ");
      const owner = issue.path.length > 0 ? `a field of ${subject}` : "an input of this resource";
      const hint = issue.keys.length === 1 && issue.path.length === 0 ? didYouMean(issue.keys[0], inputs) : "";
      return `${keys} ${issue.keys.length === 1 ? "is not" : "are not"} ${owner}: check the spelling${hint} (inputs are the camelCase names of the API's fields)`;
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

// --- ids, names, lists -----------------------------------------------------------------------------

export { canonicalId };

/** Equality rules for {@link diffInputs}. */
export const same = {
  value: (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null),
  id: (a: unknown, b: unknown) => canonicalId(a) === canonicalId(b),
  username: (a: unknown, b: unknown) => String(a ?? "").trim().toLowerCase() === String(b ?? "").trim().toLowerCase(),
  /** Order-insensitive lists of strings. */
  set: (a: unknown, b: unknown) => sameSet(a, b, (v) => String(v)),
  /** Order-insensitive lists of ids. */
  idSet: (a: unknown, b: unknown) => sameSet(a, b, canonicalId),
} as const;

function sameSet(a: unknown, b: unknown, normalise: (v: unknown) => string): boolean {
  const left = new Set(((a as unknown[]) ?? []).map(normalise));
  const right = new Set(((b as unknown[]) ?? []).map(normalise));
  return left.size === right.size && [...left].every((v) => right.has(v));
}

// --- diff ------------------------------------------------------------------------------------------

/** How one input is compared, and whether a change to it replaces the object. */
export interface FieldRule {
  /** Equality after normalisation; default: JSON equality. */
  readonly equal?: (a: unknown, b: unknown) => boolean;
  /** The API cannot change it in place. */
  readonly replaces?: boolean;
  /**
   * A valid value that stands in for the input while it is not known (preview), for a kind whose
   * rules span fields: validated as this value instead of being left out (see {@link checkInputs}).
   */
  readonly placeholder?: unknown;
  /**
   * What the input means when the program leaves it out, for an input that is managed even then:
   * `diff` compares it with this value written in (see {@link withLeftOutValues}).
   */
  readonly whenLeftOut?: unknown;
  /**
   * What `check` writes into the inputs when the program leaves the input out, so that the state
   * says which value is managed (see {@link withStoredDefaults}). Unlike {@link whenLeftOut}, the
   * value is then in the state and in every later diff.
   */
  readonly storedDefault?: unknown;
}

/** The placeholders of some field rules, by input name (see {@link FieldRule.placeholder}). */
export function placeholdersOf(rules: Readonly<Record<string, FieldRule>>): Props {
  return Object.fromEntries(Object.entries(rules).filter(([, rule]) => "placeholder" in rule).map(([key, rule]) => [key, rule.placeholder]));
}

/** `props` with the value of each input left out that has a {@link FieldRule.whenLeftOut}, written in. */
export function withLeftOutValues<P extends Props>(props: P, rules: Readonly<Record<string, FieldRule>>): P {
  const written: Props = { ...props };
  for (const [key, rule] of Object.entries(rules)) if ("whenLeftOut" in rule) written[key] = props[key] ?? rule.whenLeftOut;
  return written as P;
}

/** `inputs` with the {@link FieldRule.storedDefault} of each input left out written in. */
export function withStoredDefaults(inputs: Props, rules: Readonly<Record<string, FieldRule>>): Props {
  const written: Props = { ...inputs };
  for (const [key, rule] of Object.entries(rules)) if ("storedDefault" in rule && written[key] === undefined) written[key] = rule.storedDefault;
  return written;
}

/**
 * Compare the inputs a program declares with the state, field by field. Only declared inputs
 * count, except that one the program stops declaring is a change (the state forgets it; Kasm keeps
 * its value). A value unknown during preview is a change.
 */
export function diffInputs(olds: Props, news: Props, rules: Readonly<Record<string, FieldRule>>): pulumi.dynamic.DiffResult {
  const changed: string[] = [];
  const replaces: string[] = [];
  for (const [key, rule] of Object.entries(rules)) {
    const before = olds[key];
    const after = news[key];
    if (after === undefined && before === undefined) continue;
    const differs = after === undefined || before === undefined || isUnknown(after) || !(rule.equal ?? same.value)(before, after);
    if (!differs) continue;
    changed.push(key);
    // Forgetting an input never replaces: there is nothing to change in Kasm.
    if (rule.replaces && after !== undefined) replaces.push(key);
  }
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}

/**
 * The declared spelling of an id when it names the same object as Kasm's, else Kasm's (null when
 * Kasm has none), so that a refresh shows no false change.
 */
export function keepSpelling<Declared>(declaredId: Declared, kasmId: string | null | undefined): Declared | string | null {
  return kasmId && canonicalId(declaredId) === canonicalId(kasmId) ? declaredId : (kasmId ?? null);
}

/**
 * The inputs `read` returns: every declared input among `keys`, with its current value from Kasm
 * where `current` has one, and as declared otherwise (write-only secrets, provider-only flags).
 */
export function refreshedInputs<Inputs extends object>(props: RefreshedInputs<Inputs>, keys: Iterable<keyof Inputs & string>, current: RefreshedInputs<Inputs>): RefreshedInputs<Inputs> {
  const inputs: RefreshedInputs<Inputs> = {};
  for (const key of keys) {
    if (props[key] === undefined) continue;
    inputs[key] = key in current ? current[key] : props[key];
  }
  return inputs;
}

/**
 * Whether an object Kasm holds is in the declared state: every declared input among `rules` (a
 * kind's API fields) equals its current value by the field's rule, so that a refresh right after
 * taking the object over would show no change. `current` holds the values as the kind's `read`
 * takes them from Kasm's record (before {@link refreshedInputs}). An input the program does not
 * declare is not managed and does not count. A declared input `current` has no value for (a
 * write-only secret, a field this release leaves out of its record) cannot be confirmed, so the
 * object does not count as in the declared state: adopting it sends the update, which sets it.
 */
export function isAsDeclared(inputs: Props, current: Props, rules: Readonly<Record<string, FieldRule>>): boolean {
  return Object.entries(rules).every(
    ([key, rule]) => inputs[key] === undefined || (key in current && (rule.equal ?? same.value)(current[key], inputs[key])),
  );
}

/**
 * The fields among `rules` (a kind's API fields) whose declared value differs from the state's.
 * A field the program stops declaring is not among them: Kasm keeps its value, so there is
 * nothing to send. When none changed, an update has nothing to tell Kasm (only provider flags
 * such as `adopt` or `forceDelete` changed) and sends no request: see {@link keptOutputs}.
 */
export function changedFields(olds: Props, news: Props, rules: Readonly<Record<string, FieldRule>>): string[] {
  return Object.keys(rules).filter((key) => news[key] !== undefined && !(rules[key].equal ?? same.value)(olds[key], news[key]));
}

/**
 * Whether an update changes nothing Kasm holds: every API field among `rules` is as in the state
 * (both undeclared, or equal), so only provider flags such as `adopt` changed. Such an update
 * sends no request: see {@link keptOutputs}.
 */
export function onlyProviderFlagsChanged(olds: Props, news: Props, rules: Readonly<Record<string, FieldRule>>): boolean {
  return Object.entries(rules).every(([key, rule]) => {
    if (olds[key] === undefined || news[key] === undefined) return olds[key] === news[key];
    return (rule.equal ?? same.value)(olds[key], news[key]);
  });
}

/**
 * The outputs of an update that sends nothing: the declared inputs among `inputKeys`, and the
 * state's other outputs (what Kasm computed) as they are.
 */
export function keptOutputs(olds: Props, news: Props, inputKeys: Iterable<string>): Props {
  const keys = [...inputKeys];
  const outs: Props = {};
  for (const [key, value] of Object.entries(olds)) if (!keys.includes(key) && key !== "__provider") outs[key] = value;
  return { ...outs, ...declared(news, keys) };
}

/** The declared inputs among `props`: the keys of `rules` whose value is set. */
export function declared<Inputs extends object, Key extends keyof Inputs & string>(props: Inputs, keys: Iterable<Key>): Partial<Pick<Inputs, Key>> {
  const result: Partial<Pick<Inputs, Key>> = {};
  for (const key of keys) if (props[key] !== undefined) result[key] = props[key];
  return result;
}

// --- field names -----------------------------------------------------------------------------------

/** `castingConfigName` -> `casting_config_name` (the API client's rule). */
export const snakeCase = toSnakeCase;

/** `casting_config_name` -> `castingConfigName` (the API client's rule). */
export const camelCase = toCamelCase;

/** The API body of some inputs: each input under its snake_case name, with its type. */
export type ApiBody<Inputs> = { [K in keyof Inputs & string as SnakeCase<K>]: Inputs[K] };

/**
 * The API body for the declared inputs among `keys`: snake_case names, undefined left out. Typed
 * inputs give a typed body (`{ zoneId: string }` -> `{ zone_id: string }`).
 */
export function toApi<Inputs extends object, Key extends keyof Inputs & string>(props: Inputs, keys: Iterable<Key>): ApiBody<Pick<Inputs, Key>> {
  return toApiBody(props as Readonly<Props>, keys) as ApiBody<Pick<Inputs, Key>>;
}

// --- errors ----------------------------------------------------------------------------------------

/** What `read` answers for an object that no longer exists: Pulumi drops it from the state. */
export const GONE: pulumi.dynamic.ReadResult = Object.freeze({ id: "", props: {} });

/** What `fetch` reads, or undefined when Kasm says the object does not exist. */
export async function unlessGone<T>(fetch: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fetch();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** How {@link createOrAdopt} finds, updates and creates one kind's object. */
export interface Adoption<T> {
  /** The `adopt` input: take over an object with the same natural key. */
  readonly adopt: unknown;
  /** The kind and the natural key, for the error when the object exists and `adopt` is not set. */
  readonly kind: string;
  readonly key: string;
  /** Which other resources may declare the same object, for the error (see {@link alreadyExistsError}). */
  readonly declaredBy?: string;
  /** The object with the same natural key, if there is one. */
  find(): Promise<T | undefined>;
  /**
   * Whether the existing object is already in the declared state (see {@link isAsDeclared}): it is
   * then taken over as it is, and nothing is written. Without this hook, adopting always updates.
   */
  asDeclared?(existing: T): boolean;
  /** Bring the existing object to the declared state. */
  update(existing: T): Promise<T>;
  create(): Promise<T>;
}

/**
 * Create an object; with `adopt`, take over the existing one with the same natural key instead and
 * bring it to the declared state (no request when it is in that state already, see
 * {@link Adoption.asDeclared}; refused, with nothing written, when it is not and the
 * `takeOverChanges` setting is `refuse`: see kit/take-over.ts). Without `adopt`, an existing object
 * is an error that suggests it.
 */
export async function createOrAdopt<T>(how: Adoption<T>): Promise<T> {
  if (how.adopt === true) {
    const existing = await how.find();
    if (existing !== undefined) {
      if (how.asDeclared?.(existing)) return existing;
      // Refused in check already when it could read; here for a plan made without that read.
      if (takeOverChanges() === "refuse") throw new Error(`${how.kind} ${how.key}: ${refusedTakeOver(how.kind, how.key, [])}`);
      return how.update(existing);
    }
  }
  try {
    return await how.create();
  } catch (error) {
    if (isAlreadyExists(error)) throw alreadyExistsError(how.kind, how.key, error, how.declaredBy);
    throw error;
  }
}

/** Whether a Kasm error says the object does not exist. */
export function isNotFound(error: unknown): boolean {
  return error instanceof KasmNotFoundError;
}

/** Whether a Kasm error says an object with the same natural key exists already. */
export function isAlreadyExists(error: unknown): boolean {
  return error instanceof KasmAlreadyExistsError;
}

/**
 * The error for an object that exists already when `adopt` is not set.
 *
 * @param declaredBy For a kind whose object another resource may declare too (`another
 *   StagingConfig of this zone and image`): the error then says to keep one of them first, since
 *   `adopt` would leave both resources managing the object and undoing each other.
 */
export function alreadyExistsError(kind: string, key: string, cause?: unknown, declaredBy?: string): Error {
  const detail = cause instanceof KasmApiError && cause.errorMessage ? ` (Kasm: ${cause.errorMessage})` : "";
  if (declaredBy)
    return new Error(
      `${kind} ${key} already exists in Kasm${detail}. If another resource declares it (${declaredBy}), keep only one of ` +
        `them: with both, each undoes the other's changes, and adopt would not stop that. If it was made outside Pulumi, set ` +
        `\`adopt: true\` on the resource to take it over and bring it to the declared state.`,
    );
  return new Error(
    `${kind} ${key} already exists in Kasm${detail}. Set \`adopt: true\` on the resource to take it over and bring it ` +
      `to the declared state, or declare another ${kind.toLowerCase()}.`,
  );
}

/**
 * An error that keeps a half-created object in the state: Pulumi records `id` and `properties`
 * and reports the resource as failed to initialise, instead of forgetting an object that exists.
 */
export function initializationFailure(id: string, properties: object, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return Object.assign(new Error(reason), { id, properties, reasons: [reason] });
}

/**
 * Run a create whose answer may show that the installation speaks the other wire vocabulary
 * (`kasm:apiNames`): the object then exists, but settings named the other way were not applied.
 * `created` finds the object in the answer; the error keeps it in the state as failed to
 * initialise (see {@link initializationFailure}), so nothing is left untracked, and the next
 * update, with the right setting, applies what was declared.
 */
export async function keepingWhatWasCreated<T>(
  create: () => Promise<T>,
  created: (answer: unknown) => { readonly id: string; readonly properties: object } | undefined,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    const kept = error instanceof KasmVocabularyError ? created(error.answer) : undefined;
    throw kept ? initializationFailure(kept.id, kept.properties, error) : error;
  }
}
