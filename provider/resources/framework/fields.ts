/**
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
import { z } from "zod";
import { toSnakeCase } from "../../api/records";
import { KasmId } from "./check-wording";
import { same, type FieldRule } from "./field-rules";
import type { ObjectDocs, Props } from "./types";

/**
 * The declaration of an input that names the object by its user (a user's groups, its attributes,
 * a link of a user to a group or a server), without its doc: a user's id, compared as an id, whose
 * change replaces the resource. Each kind spreads it and adds its doc (and how it travels).
 */
export const USER_KEY = { type: KasmId, role: "key", equal: same.id, replaces: true, refersTo: "User" } as const;

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
