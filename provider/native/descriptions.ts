/**
 * The descriptions of the native provider's package schema, taken from the one place the docs are
 * written: the TSDoc of the TypeScript SDK. For each kind, the summary of its class's TSDoc
 * (`sdk/<kind>.ts`; its `@example` blocks are left out: they are TypeScript, which would mislead
 * a Python or YAML reader), the TSDoc of each field of its `<Kind>Args` interface and of the
 * interfaces it extends (but `ConnectionArgs`: the native schema has no `connection` input), of
 * the fields of the SDK interface an input's objects are typed by (a `UserSet`'s `users`), and of
 * each member of its `<Kind>Outputs` type (`provider/resources/`), which the SDK class shows for
 * its computed outputs. `{@link X}` becomes plain `X`.
 *
 * Reading TSDoc takes the TypeScript compiler, a development dependency, and the sources, neither
 * of which an installed package has. So the build extracts the descriptions once
 * (`scripts/native-docs.js`, after `tsc`) into `descriptions.json` beside this module's compiled
 * file, which ships in `dist/`; run from the sources (vitest, tsx), this module extracts them in
 * memory instead, so that tests and local runs see the docs as they are written now.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type * as TypeScript from "typescript";
import { KASM_KINDS } from "../../catalogue/kinds";

/** The descriptions of one kind: its resource's, and its properties' by name. */
export interface KindDescriptions {
  /** The summary of the SDK class's TSDoc. */
  readonly description: string;
  /** Each input's, from the `<Kind>Args` field of its name. */
  readonly inputs: Readonly<Record<string, string>>;
  /** Each computed output's, from the `<Kind>Outputs` member of its name. */
  readonly outputs: Readonly<Record<string, string>>;
  /**
   * The object type of an input whose values (or items) are objects with named fields, by the
   * input's name: the SDK interface that types them (`UserSetUser` for a UserSet's `users`).
   */
  readonly inputObjects: Readonly<Record<string, ObjectDescriptions>>;
}

/** The descriptions of an object type: its own, and its fields' by name. */
export interface ObjectDescriptions {
  readonly description: string;
  readonly properties: Readonly<Record<string, string>>;
}

/** The descriptions of every kind, by kind name: the content of `descriptions.json`. */
export type Descriptions = Readonly<Record<string, KindDescriptions>>;

/** The file the build writes beside this module's compiled file. */
export const DESCRIPTIONS_FILE = "descriptions.json";

/** The Args interface every kind's extends, whose only field (`connection`) the native schema has no place for. */
const SKIPPED_ARGS = new Set(["ConnectionArgs"]);

/** A type or interface with named members, as found in the sources. */
type Declaration = TypeScript.InterfaceDeclaration | TypeScript.TypeAliasDeclaration | TypeScript.ClassDeclaration;

/** The `.ts` files of a folder and its subfolders. */
function tsFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return tsFiles(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/**
 * Markdown text with each paragraph and list item on one line: a comment's line breaks are the
 * source's layout, which a generated SDK's docstring would otherwise keep mid-sentence. Blank
 * lines (between paragraphs) and code blocks stay as they are.
 */
export function unwrapped(text: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    const fence = trimmed.startsWith("```");
    if (fence) fenced = !fenced;
    const previous = lines.at(-1)?.trim() ?? "";
    // A line that goes on with the paragraph or list item above: not blank, not code, not a new item.
    const goesOn = !fenced && !fence && trimmed !== "" && previous !== "" && !previous.startsWith("```") && !/^([-*+]|\d+\.)\s/.test(trimmed);
    if (goesOn) lines[lines.length - 1] += ` ${trimmed}`;
    else lines.push(fenced || fence ? line : trimmed);
  }
  return lines.join("\n");
}

/**
 * The descriptions of every kind (`KASM_KINDS`), read from the sources under `root` (the
 * repository's folder: `sdk/` and `provider/resources/`).
 *
 * @throws Error when a kind has no class or no `<Kind>Args` interface in `sdk/`, or an Args
 *   interface extends one that is not there: the docs would be silently incomplete. A field
 *   without TSDoc only has no description (the schema's test fails on it).
 */
export function extractDescriptions(root: string): Descriptions {
  // Required here, not imported: the compiled module ships, and an installed package (or the
  // plugin's tarball) has no `typescript`; only the build and runs from the sources call this.
  const ts = require("typescript") as typeof TypeScript;

  /** The summary of a node's TSDoc (the text before its first tag), links as plain names; "" when it has none. */
  function summary(node: TypeScript.Node): string {
    const doc = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc).at(-1);
    if (doc?.comment === undefined) return "";
    if (typeof doc.comment === "string") return unwrapped(doc.comment.trim());
    const text = doc.comment.map((part) => {
      if (ts.isJSDocLink(part) || ts.isJSDocLinkCode(part) || ts.isJSDocLinkPlain(part)) {
        // `{@link X}`, `{@link X | the text}` or `{@link X the text}`: the text when there is one, else the name.
        const label = part.text.replace(/^\s*\|/, "").trim();
        return label !== "" ? label : (part.name?.getText() ?? "");
      }
      return part.text;
    });
    return unwrapped(text.join("").trim());
  }

  /** Every declaration of a name in the files under `folder`, by name (an interface may merge with a class of its name). */
  function declarationsIn(folder: string): Map<string, Declaration[]> {
    const found = new Map<string, Declaration[]>();
    for (const file of tsFiles(folder)) {
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements) {
        if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name !== undefined) {
          found.set(statement.name.text, [...(found.get(statement.name.text) ?? []), statement]);
        }
      }
    }
    return found;
  }

  const sdk = declarationsIn(path.join(root, "sdk"));
  const resources = declarationsIn(path.join(root, "provider", "resources"));
  const interfaceIn = (declarations: Map<string, Declaration[]>, name: string) => declarations.get(name)?.find(ts.isInterfaceDeclaration);

  /** The property signatures of an interface or object type alias, by name. */
  function ownMembers(declaration: Declaration): Map<string, TypeScript.PropertySignature> {
    const members = ts.isInterfaceDeclaration(declaration) ? declaration.members : ts.isTypeAliasDeclaration(declaration) && ts.isTypeLiteralNode(declaration.type) ? declaration.type.members : [];
    const found = new Map<string, TypeScript.PropertySignature>();
    for (const member of members) if (ts.isPropertySignature(member) && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) found.set(member.name.text, member);
    return found;
  }

  /** The fields of an SDK Args interface, the interfaces it extends first (its own win), `ConnectionArgs` left out. */
  function argsFields(args: TypeScript.InterfaceDeclaration): Map<string, TypeScript.PropertySignature> {
    const fields = new Map<string, TypeScript.PropertySignature>();
    for (const clause of args.heritageClauses ?? []) {
      for (const base of clause.types) {
        const name = base.expression.getText();
        if (SKIPPED_ARGS.has(name)) continue;
        const parent = interfaceIn(sdk, name);
        if (parent === undefined) throw new Error(`${args.name.text} extends ${name}, which is no interface of sdk/: its fields would have no description`);
        for (const [field, member] of argsFields(parent)) fields.set(field, member);
      }
    }
    for (const [field, member] of ownMembers(args)) fields.set(field, member);
    return fields;
  }

  /** The SDK interface a field's objects are typed by (`UserSetUser` in `Input<Input<UserSetUser>[]>`), when there is exactly one. */
  function objectInterfaceOf(field: TypeScript.PropertySignature): TypeScript.InterfaceDeclaration | undefined {
    const named: TypeScript.InterfaceDeclaration[] = [];
    const visit = (node: TypeScript.Node): void => {
      if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
        const found = interfaceIn(sdk, node.typeName.text);
        if (found !== undefined) named.push(found);
      }
      ts.forEachChild(node, visit);
    };
    if (field.type !== undefined) visit(field.type);
    return named.length === 1 ? named[0] : undefined;
  }

  const summaries = (members: Map<string, TypeScript.PropertySignature>) => Object.fromEntries([...members].map(([name, member]) => [name, summary(member)]));

  const descriptions: Record<string, KindDescriptions> = {};
  for (const kind of KASM_KINDS) {
    const resource = sdk.get(kind)?.find(ts.isClassDeclaration);
    if (resource === undefined) throw new Error(`no class ${kind} in sdk/: the kind's description is its TSDoc`);
    const args = interfaceIn(sdk, `${kind}Args`);
    if (args === undefined) throw new Error(`no interface ${kind}Args in sdk/: its fields' TSDoc describes the kind's inputs`);
    const fields = argsFields(args);
    const inputObjects: Record<string, ObjectDescriptions> = {};
    for (const [name, field] of fields) {
      const object = objectInterfaceOf(field);
      if (object !== undefined) inputObjects[name] = { description: summary(object), properties: summaries(ownMembers(object)) };
    }
    // A kind without outputs may declare no Outputs type; one with `Record<never, never>` has no members.
    const outputs = resources.get(`${kind}Outputs`)?.[0];
    descriptions[kind] = {
      description: summary(resource),
      inputs: summaries(fields),
      outputs: outputs === undefined ? {} : summaries(ownMembers(outputs)),
      inputObjects,
    };
  }
  return descriptions;
}

let loaded: Descriptions | undefined;

/**
 * The descriptions of every kind: from `descriptions.json` beside this module when built, or
 * extracted from the sources when this module runs from them (see the module comment). Read once.
 *
 * @throws Error when the built package lacks `descriptions.json` (`tsc` ran without the rest of
 *   `npm run build`).
 */
export function loadDescriptions(): Descriptions {
  if (loaded !== undefined) return loaded;
  const file = path.join(__dirname, DESCRIPTIONS_FILE);
  if (existsSync(file)) loaded = JSON.parse(readFileSync(file, "utf8")) as Descriptions;
  else if (path.extname(__filename) === ".ts") loaded = extractDescriptions(path.resolve(__dirname, "..", ".."));
  else throw new Error(`${file} is missing: the native provider's schema takes its descriptions from it. Run \`npm run build\`, which writes it after tsc.`);
  return loaded;
}
