/**
 * The generated program as data, in no language: sections of declarations (a resource of a kind,
 * its name, its inputs, the options it takes), where an input is a literal, a reference to another
 * declaration's output, an id Kasm gave with the object's name beside it, or a secret read from the
 * stack's configuration. The areas describe each resource once in these terms; an emitter per
 * language (`emit/*.ts`) writes them as a person of that language would. Only the dynamic
 * TypeScript program has code no other language shares (the users' data files read in loops):
 * that is {@link Code}, which the other emitters never meet.
 */
import type { KasmKind } from "../../permissions/kinds";

/** A TypeScript expression written as it is: only the dynamic TypeScript program holds one. */
export class Code {
  constructor(readonly text: string) {}
}

/** An output of a declared resource: `ada.userId`, `ada.user_id`, `ada.UserId`, `${ada.userId}`. */
export class Ref {
  constructor(
    /** The declaration's variable (also its YAML key: the resource name). */
    readonly variable: string,
    /** The output, in camelCase, as the schema names it (`userId`). */
    readonly output: string,
    /** The declared resource's name, which a YAML program refers to it by. */
    readonly resourceName: string,
    /** The declared resource's kind. */
    readonly kind: KasmKind,
  ) {}
}

/** An id of an object the program does not declare, with what Kasm calls the object beside it. */
export class RawId {
  constructor(
    readonly id: string,
    readonly label: string | undefined,
  ) {}
}

/** A secret input read from the stack's configuration under `key`. */
export class Secret {
  constructor(readonly key: string) {}
}

/** What an input of a declaration can be. `null` is JSON's null (inside a run config, say). */
export type Value = string | number | boolean | null | Code | Ref | RawId | Secret | readonly Value[] | { readonly [key: string]: Value | undefined };

/**
 * Every value inside `value` that is not a list or a plain object: the literals, references, ids,
 * secrets and code it holds, at any depth. What the emitters look for in a value (the variables it
 * refers to, whether it holds a secret, the names of its ids) is a filter of these.
 */
export function* leavesOf(value: Value | undefined): Generator<Exclude<Value, readonly Value[]>> {
  if (value === undefined) return;
  if (Array.isArray(value)) for (const item of value) yield* leavesOf(item);
  else if (value !== null && typeof value === "object" && !(value instanceof Code || value instanceof Ref || value instanceof RawId || value instanceof Secret))
    for (const item of Object.values(value)) yield* leavesOf(item as Value | undefined);
  else yield value as Exclude<Value, readonly Value[]>;
}

/** One resource of the program. */
export interface Declaration {
  /** The variable it is held in, when something refers to it. */
  readonly variable?: string;
  readonly kind: KasmKind;
  /** The Pulumi resource name. */
  readonly name: string;
  /** Its inputs, in the order written; an undefined one is left out. */
  readonly args: { readonly [input: string]: Value | undefined };
  /** The variables of the declarations it must come after (beyond its references). */
  readonly dependsOn: readonly string[];
}

/** An item of a section: a declaration, or dynamic TypeScript written as it is. */
export type Item = Declaration | Code;

/** A section of the program: a rule with its title, a comment, then its items. */
export interface ModelSection {
  readonly title: string;
  readonly comment: string;
  readonly items: readonly Item[];
}

/** Whether an item is a declaration. */
export function isDeclaration(item: Item): item is Declaration {
  return !(item instanceof Code);
}
