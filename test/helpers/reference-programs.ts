/**
 * One program in which every kind that refers to another kind's object does so, written in two
 * forms from one list of declarations: TypeScript on the SDK's dynamic classes, and YAML on the
 * native provider. The references are the kinds' own (`refersTo` in their field rules), so the
 * tests of exact previews can check that the program covers every one (see {@link referencesOf}).
 */
import { kinds } from "../../provider";
import { idOutputOf, type KasmKind } from "../../permissions/kinds";
import { explicitProvider, pluginFromCheckout } from "../cli/native-yaml-programs";

/** A reference to another declaration's id output (`alice.userId`). */
export interface Ref {
  readonly ref: string;
}

/** A value of a declaration's property: a literal, a reference, or a list or map of them. */
export type Value = string | number | boolean | Ref | readonly Value[] | { readonly [key: string]: Value };

/** One resource of the program: its name, its kind and its properties. */
export interface Declaration {
  readonly name: string;
  readonly kind: KasmKind;
  readonly properties: Readonly<Record<string, Value>>;
}

/** A reference to the object of declaration `name`, by its kind's id output. */
export const ref = (name: string): Ref => ({ ref: name });

const isRef = (value: Value): value is Ref => typeof value === "object" && value !== null && !Array.isArray(value) && "ref" in value;

/** A reference between kinds: the input `input` of `kind` holds ids of `target`'s objects. */
export interface Reference {
  readonly kind: KasmKind;
  readonly input: string;
  readonly target: KasmKind;
  /** A change of the referenced id replaces the referring object. */
  readonly replaces: boolean;
}

/** Every reference between kinds, as the kinds' manifests declare them. */
export function referencesOf(): Reference[] {
  return Object.entries(kinds).flatMap(([kind, { manifest }]) =>
    Object.entries(manifest.fields).flatMap(([input, field]) =>
      field.refersTo === undefined ? [] : [{ kind: kind as KasmKind, input, target: field.refersTo, replaces: field.replaces }],
    ),
  );
}

/** The references in `value` (at any depth). */
function refsIn(value: Value): Ref[] {
  if (isRef(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(refsIn);
  return [];
}

/** The declarations each property of `declaration` refers to, by property name. */
export function referencedBy(declaration: Declaration): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(declaration.properties)
      .map(([property, value]) => [property, refsIn(value).map((r) => r.ref)] as const)
      .filter(([, names]) => names.length > 0),
  );
}

/**
 * The references of `kinds` that `program` does not make: each is an input of a kind that holds
 * another kind's id, which the program must set from a declaration of that kind.
 */
export function uncoveredReferences(program: readonly Declaration[]): string[] {
  const byName = new Map(program.map((declaration) => [declaration.name, declaration]));
  const made = new Set(
    program.flatMap((declaration) =>
      Object.entries(referencedBy(declaration)).flatMap(([input, names]) => names.map((name) => `${declaration.kind}.${input} -> ${byName.get(name)?.kind}`)),
    ),
  );
  return referencesOf()
    .map((reference) => `${reference.kind}.${reference.input} -> ${reference.target}`)
    .filter((reference) => !made.has(reference));
}

// --- the two forms -------------------------------------------------------------------------------

/** The id output of a declaration's kind (`userId`), which a reference reads. */
function idOutput(program: readonly Declaration[], name: string): string {
  const declaration = program.find((d) => d.name === name);
  const output = declaration && idOutputOf(declaration.kind);
  if (output === undefined) throw new Error(`the reference to ${name}: no declaration of a kind with an id output has that name`);
  return output;
}

const variableOf = (name: string) => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The TypeScript program (`index.ts`) of the SDK's dynamic classes. */
export function typescriptProgram(program: readonly Declaration[]): string {
  const source = (value: Value): string => {
    if (isRef(value)) return `${variableOf(value.ref)}.${idOutput(program, value.ref)}`;
    if (Array.isArray(value)) return `[${value.map(source).join(", ")}]`;
    if (typeof value === "object" && value !== null)
      return `{ ${Object.entries(value)
        .map(([key, v]) => `${JSON.stringify(key)}: ${source(v)}`)
        .join(", ")} }`;
    return JSON.stringify(value);
  };
  const lines = program.map(
    (d) =>
      `const ${variableOf(d.name)} = new kasm.${d.kind}(${JSON.stringify(d.name)}, { ${Object.entries(d.properties)
        .map(([key, v]) => `${key}: ${source(v)}`)
        .join(", ")} });`,
  );
  return `import * as kasm from "pulumi-kasm";\n\n${lines.join("\n")}\n`;
}

/** The YAML program (`Pulumi.yaml`) on the native provider, every resource on the explicit provider `prov`. */
export function yamlProgram(program: readonly Declaration[], project: string, url: string, apiNames: "spec" | "product"): string {
  // JSON is YAML: a quoted string stays a string (an id of hex digits too), and `${...}` in one is a reference.
  const source = (value: Value): unknown => {
    if (isRef(value)) return `\${${value.ref}.${idOutput(program, value.ref)}}`;
    if (Array.isArray(value)) return value.map(source);
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, source(v)]));
    return value;
  };
  const resources = program.map(
    (d) =>
      `  ${d.name}:\n    type: kasm:index:${d.kind}\n    properties: ${JSON.stringify(source(d.properties as Value))}\n    options:\n      provider: \${prov}\n`,
  );
  return `name: ${project}\nruntime: yaml\n${pluginFromCheckout()}resources:\n${explicitProvider("prov", url, apiNames)}${resources.join("")}`;
}
