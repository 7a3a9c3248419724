/**
 * Field rules and field declarations: each input of a kind declared once, and what is derived from
 * the declarations.
 *
 * Field rules ({@link FieldRule}) and what is derived from them: how each input compares, what
 * stands in while it is unknown, what leaving it out means, the field-by-field diff, what a
 * refresh reads back as declared inputs, and the API body of declared inputs. They come first in
 * this file: the declarations below use them as the file loads ({@link USER_KEY}).
 *
 * `declareFields`: each input of a kind declared once, in one literal per field, and everything
 * the kind used to list again by the input's name derived from it: the zod schema `check`
 * validates with (and the inputs' type), the field rules by role that `defineKind` takes
 * (`keyFields`, `apiFields`, `providerFields`), each input's doc (the SDK's TSDoc, the package
 * schema's descriptions, the README's table), the secret inputs, and the snake_case body of a
 * create or update.
 *
 * A field's declaration carries its zod type (with its refusals and optionality), its role, its
 * {@link FieldRule} (how it compares, whether a change replaces, ...), its doc, and, where they
 * differ from the plain rule, its name on the wire and how its value is sent. A new input is one
 * more entry: nothing else in the kind names it.
 *
 * @example
 * ```ts
 * const GROUP_FIELDS = declareFields({
 *   name: { type: requiredText("name"), role: "sent", send: (name: string) => name.trim(), doc: "The group's name." },
 *   description: { type: z.string().optional(), role: "sent", doc: "Free text shown in the Kasm UI." },
 *   forceDelete: { type: z.boolean().optional(), role: "provider", doc: "Delete the group even while it has members." },
 * });
 * export const GroupInputs = GROUP_FIELDS.schema; // z.strictObject({ name, description, forceDelete })
 * GROUP_FIELDS.apiFields; // { name: {}, description: {} }
 * GROUP_FIELDS.body({ name: " Support ", forceDelete: true }); // { name: "Support" }
 * ```
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { canonicalId } from "../../../permissions/planned-calls";
import { toApiBody, toCamelCase, toSnakeCase, type SnakeCase } from "../../api/records";
import { isUnknown, KasmId } from "./check-wording";
import type { KasmKind } from "../../../permissions/kinds";
import type { KindDiffResult, ObjectDocs, Props, RefreshedInputs } from "./types";

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

// --- field declarations ----------------------------------------------------------------------------

/**
 * The declaration of an input that names the object by its user (a user's groups, its attributes,
 * a link of a user to a group or a server), without its doc: a user's id, compared as an id, whose
 * change replaces the resource. Each kind spreads it and adds its doc (and how it travels).
 */
export const USER_KEY = { type: KasmId, role: "key", equal: same.id, replaces: true, refersTo: "User" } as const;

/**
 * The `adopt` input, as every kind with a natural key declares it: a boolean that only steers the
 * provider (take the existing object over instead of failing) and is never sent. Each kind adds
 * its doc, which says what "existing" means for it: `adopt: { ...ADOPT, doc: "..." }`.
 */
export const ADOPT = { type: z.boolean().optional(), role: "provider" } as const;

/**
 * The role of a declared input: `key` names the object (a change to it replaces the object unless
 * its rule says otherwise; it is sent where a body names the object), `sent` is an API field sent
 * to Kasm, `provider` only steers the provider (`adopt`, `forceDelete`) and is never sent.
 */
export type DeclaredRole = "key" | "sent" | "provider";

/** One input, declared once: its type, its role, its rule, its doc, and how it travels. */
export interface FieldDeclaration extends FieldRule {
  /** The input's zod type, with its refusals and whether it may be left out. */
  readonly type: z.ZodType;
  /** What the input is to the provider (see {@link DeclaredRole}). */
  readonly role: DeclaredRole;
  /** The input's doc, in Markdown: the SDK's TSDoc, the package schema's description. */
  readonly doc: string;
  /**
   * Its name in a request body, when it is not the input's snake_case (`registry` is
   * `ctr_registry`); `false` when the input is never a body field (it travels in a path or an
   * operation of its own). A provider input is never sent, whatever this says.
   */
  readonly wire?: string | false;
  /** The value a body carries for a declared value, when it is not the value itself (a name trimmed, a list as lines). */
  readonly send?: (value: never) => unknown;
  /**
   * The value a body carries when the input is left out, for a field every write must send (an
   * egress mapping's other targets, sent as null so that a change of target clears the old one);
   * without it, a body leaves out what the program does.
   */
  readonly sentWhenLeftOut?: unknown;
  /** The input holds a secret: the SDK wraps it with `pulumi.secret`, the schema marks it, outputs keep it secret. */
  readonly secret?: boolean;
  /** For an input whose items are objects with named fields: the docs of their SDK type. */
  readonly objects?: ObjectDocs;
}

/** The members of a {@link FieldDeclaration} that are its {@link FieldRule}. */
const RULE_MEMBERS = ["equal", "replaces", "placeholder", "whenLeftOut", "storedDefault", "refersTo"] as const satisfies readonly (keyof FieldRule)[];

/** The zod shape of some declarations: each input's type. */
export type ShapeOf<Fields> = { -readonly [K in keyof Fields]: Fields[K] extends { readonly type: infer Type extends z.ZodType } ? Type : never };

/** The names of the declared inputs of one role. */
export type NamesOfRole<Fields, Role extends DeclaredRole> = { [K in keyof Fields]: Fields[K] extends { readonly role: Role } ? K : never }[keyof Fields] &
  string;

/** The field rules of the inputs of one role, keyed by input name (what `defineKind` takes). */
export type RulesOfRole<Fields, Role extends DeclaredRole> = { readonly [K in NamesOfRole<Fields, Role>]: FieldRule };

/** A kind's fields as everything that derives from them reads them (see {@link declareFields}). */
export interface DeclaredFields<Fields extends Readonly<Record<string, FieldDeclaration>>> {
  /** The declarations themselves, by input name. */
  readonly declarations: Fields;
  /** The kind's inputs: a strict object of the declared types, in the order declared. */
  readonly schema: z.ZodObject<ShapeOf<Fields>, z.core.$strict>;
  /** The inputs that name the object, with their rules. */
  readonly keyFields: RulesOfRole<Fields, "key">;
  /** The API fields sent to Kasm, with their rules. */
  readonly apiFields: RulesOfRole<Fields, "sent">;
  /** The inputs that only steer the provider, with their rules. */
  readonly providerFields: RulesOfRole<Fields, "provider">;
  /** Each input's doc, by name (`KindDocs.inputs`). */
  readonly docs: { readonly [K in keyof Fields & string]: string };
  /** The docs of the object types of inputs whose items are objects (`KindDocs.inputObjects`). */
  readonly inputObjects: { readonly [K in keyof Fields & string]?: ObjectDocs };
  /** The secret inputs, in the order declared. */
  readonly secrets: readonly (keyof Fields & string)[];
  /**
   * The snake_case body of the declared values among the sent and key inputs (or among `names`):
   * each under its wire name, as its `send` gives it; inputs left out (unless their declaration
   * says what to send then), and those never sent as a body field, are not in it. `Body` is the
   * request's type as the client names it (`NewGroup`): the declarations' wire names are its keys.
   */
  body<Body extends object = Props>(inputs: Readonly<Props>, names?: Iterable<keyof Fields & string>): Body;
  /** The name an input has in a body and in Kasm's record (the spec's vocabulary), or undefined for one never sent as a body field. */
  wireName(name: keyof Fields & string): string | undefined;
}

/** The name a declared input has in a body, or undefined when it is never a body field. */
function wireNameOf(name: string, declaration: FieldDeclaration): string | undefined {
  if (declaration.role === "provider" || declaration.wire === false) return undefined;
  return declaration.wire ?? toSnakeCase(name);
}

/** The {@link FieldRule} of a declaration: the members it gives, and only those (a rule tells `"storedDefault" in rule`). */
function ruleOf(declaration: FieldDeclaration): FieldRule {
  return Object.fromEntries(RULE_MEMBERS.filter((member) => member in declaration).map((member) => [member, declaration[member]]));
}

/** The rules of the declared inputs of one role, in the order declared. */
function rulesOfRole(fields: Readonly<Record<string, FieldDeclaration>>, role: DeclaredRole): Record<string, FieldRule> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, declaration]) => declaration.role === role)
      .map(([name, declaration]) => [name, ruleOf(declaration)]),
  );
}

/**
 * A kind's inputs from one declaration per field (see the module's doc): the schema, the rules by
 * role, the docs, the secrets and the body, all derived from `fields`. `acrossFields` is a rule that
 * spans several inputs (one required when another is true): the schema applies it after each
 * field's own (`acrossFieldsWhen`: also when one of those failed, see `EVEN_WITH_OTHER_FAILURES`).
 */
export function declareFields<const Fields extends Readonly<Record<string, FieldDeclaration>>>(
  fields: Fields,
  acrossFields?: (inputs: z.output<z.ZodObject<ShapeOf<Fields>, z.core.$strict>>, context: z.RefinementCtx) => void,
  acrossFieldsWhen?: z.core.$ZodSuperRefineParams,
): DeclaredFields<Fields> {
  const entries = Object.entries(fields);
  const shape = Object.fromEntries(entries.map(([name, declaration]) => [name, declaration.type])) as ShapeOf<Fields>;
  const strict = z.strictObject(shape);
  const sentNames = entries.filter(([, declaration]) => declaration.role !== "provider").map(([name]) => name);
  return {
    declarations: fields,
    schema: acrossFields ? strict.superRefine(acrossFields, acrossFieldsWhen) : strict,
    keyFields: rulesOfRole(fields, "key") as RulesOfRole<Fields, "key">,
    apiFields: rulesOfRole(fields, "sent") as RulesOfRole<Fields, "sent">,
    providerFields: rulesOfRole(fields, "provider") as RulesOfRole<Fields, "provider">,
    docs: Object.fromEntries(entries.map(([name, declaration]) => [name, declaration.doc])) as DeclaredFields<Fields>["docs"],
    inputObjects: Object.fromEntries(
      entries.flatMap(([name, declaration]) => (declaration.objects ? [[name, declaration.objects]] : [])),
    ) as DeclaredFields<Fields>["inputObjects"],
    secrets: entries.filter(([, declaration]) => declaration.secret === true).map(([name]) => name),
    body<Body extends object = Props>(inputs: Readonly<Props>, names: Iterable<keyof Fields & string> = sentNames): Body {
      const body: Props = {};
      for (const name of names) {
        const declaration: FieldDeclaration = fields[name];
        const wire = wireNameOf(name, declaration);
        const value = inputs[name];
        if (wire === undefined) continue;
        if (value !== undefined) body[wire] = declaration.send ? declaration.send(value as never) : value;
        else if ("sentWhenLeftOut" in declaration) body[wire] = declaration.sentWhenLeftOut;
      }
      // The wire names are the request's keys (a test sends each kind's body to the emulator).
      return body as Body;
    },
    wireName: (name) => wireNameOf(name, fields[name]),
  };
}
