/**
 * Field rules and what is derived from them: how each input compares, what stands in while it is
 * unknown, what leaving it out means, the field-by-field diff, what a refresh reads back as
 * declared inputs, and the API body of declared inputs.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { canonicalId } from "../../../permissions/ids";
import { toApiBody, toCamelCase, toSnakeCase, type SnakeCase } from "../../api/records";
import { isUnknown } from "./check-wording";
import type { KasmKind } from "../../../permissions/kinds";
import type { KindDiffResult, Props, RefreshedInputs } from "./types";

// --- ids, names, lists -----------------------------------------------------------------------------

export { canonicalId };

/** Equality rules for {@link diffInputs}. */
export const same = {
  value: (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null),
  id: (a: unknown, b: unknown) => canonicalId(a) === canonicalId(b),
  username: (a: unknown, b: unknown) =>
    String(a ?? "")
      .trim()
      .toLowerCase() ===
    String(b ?? "")
      .trim()
      .toLowerCase(),
  /** Order-insensitive lists of strings. */
  set: (a: unknown, b: unknown) => sameSet(a, b, (v) => String(v)),
  /** Order-insensitive lists of ids. */
  idSet: (a: unknown, b: unknown) => sameSet(a, b, canonicalId),
  /**
   * JSON objects whatever the order of their keys: Pulumi hands a program's objects over with their
   * keys sorted, where Kasm keeps the order it was given (`value` would see a change in that).
   */
  json: (a: unknown, b: unknown) => isDeepStrictEqual(a ?? null, b ?? null),
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
  /**
   * The kind whose objects' ids the input holds (a membership's `userId`: `User`), which a program
   * gives from that kind's id output (`alice.userId`): what the tests of exact previews enumerate,
   * so that a new reference between kinds is covered.
   */
  readonly refersTo?: KasmKind;
}

/** The placeholders of some field rules, by input name (see {@link FieldRule.placeholder}). */
export function placeholdersOf(rules: Readonly<Record<string, FieldRule>>): Props {
  return Object.fromEntries(
    Object.entries(rules)
      .filter(([, rule]) => "placeholder" in rule)
      .map(([key, rule]) => [key, rule.placeholder]),
  );
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
export function diffInputs(olds: Props, news: Props, rules: Readonly<Record<string, FieldRule>>): KindDiffResult {
  const changed: string[] = [];
  const replaces: string[] = [];
  const forgotten: string[] = [];
  for (const [key, rule] of Object.entries(rules)) {
    const before = olds[key];
    const after = news[key];
    if (after === undefined && before === undefined) continue;
    const differs = after === undefined || before === undefined || isUnknown(after) || !(rule.equal ?? same.value)(before, after);
    if (!differs) continue;
    changed.push(key);
    // Forgetting an input never replaces: there is nothing to change in Kasm.
    if (after === undefined) forgotten.push(key);
    else if (rule.replaces) replaces.push(key);
  }
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false, changedFields: changed, forgottenFields: forgotten };
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
export function refreshedInputs<Inputs extends object>(
  props: RefreshedInputs<Inputs>,
  keys: Iterable<keyof Inputs & string>,
  current: RefreshedInputs<Inputs>,
): RefreshedInputs<Inputs> {
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
  return Object.entries(rules).every(([key, rule]) => inputs[key] === undefined || (key in current && (rule.equal ?? same.value)(current[key], inputs[key])));
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

/**
 * Every input a kind's schema declares, typed as the inputs it names: what the state keeps of the
 * declared inputs. Each has a role in the kind's field rules (defineKind's manifest lists them all).
 */
export function inputNames<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>): (keyof Shape & string)[] {
  return Object.keys(schema.shape) as (keyof Shape & string)[];
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
