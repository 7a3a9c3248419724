/**
 * Write the TypeScript SDK's resource classes, one module a kind in `sdk/kinds/`, from the kinds'
 * manifests: each input's type from the kind's zod schema (as `z.toJSONSchema` gives it, so that
 * the SDK accepts what `check` accepts), the docs from the manifest's `docs` (the same words the
 * native schema gives the Python, Go and YAML SDKs), the secret inputs from the kind's field declarations, and the
 * computed outputs' types from the kind's `Outputs` type, their docs from its zod outputs' texts.
 * As Pulumi's own code generators do for a native provider, the classes are derived at every
 * build (`npm run build` runs this before `tsc`) and not kept in git, so that they cannot drift
 * from the kinds.
 *
 * What the SDK adds by hand stays in `sdk/`: the base class (`provider.ts`), connections,
 * `waitForHealthy`, the lookups, and the names some types are exported under (`index.ts`).
 *
 * Usage: node --import tsx scripts/sdk/typescript.ts
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { kinds, type KindName } from "../../provider";
import type { Kind, ObjectDocs } from "../../provider/resources/framework/types";
import { kindModuleName } from "../../permissions/kinds";
import { kindInputSchema, kindOutputSchema, type JsonSchema } from "../../provider/native/json-schema";

/** The folder the modules are written to, below the repository's root. */
export const GENERATED_FOLDER = path.join("sdk", "kinds");

/** Where in {@link GENERATED_FOLDER} each kind's dynamic provider module is written (see {@link dynamicProviderModule}). */
export const DYNAMIC_FOLDER = "dynamic";

// --- TSDoc ---------------------------------------------------------------------------------------

/**
 * The names the SDK exports a class or an interface under that a doc may mention, longest first
 * (so that `EgressProviderMapping` wins over `EgressProvider`). One-word names (`User`, `Group`,
 * `Workspace`) are left out: in prose they are as often the English word.
 */
const LINKABLE = [
  ...Object.keys(kinds),
  ...Object.values(kinds).flatMap(({ manifest }) => Object.values(manifest.docs.inputObjects ?? {}).map((object) => object?.name ?? "")),
]
  .filter((name) => /^[A-Z][a-z]+[A-Z]/.test(name))
  .sort((a, b) => b.length - a.length);
const LINKABLE_NAME = new RegExp(`\\b(${LINKABLE.join("|")})\\b`, "g");

/** `text` with each name of a class or interface of the SDK made a TSDoc link, but inside code (between backticks). */
function linked(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith("`") ? part : part.replace(LINKABLE_NAME, "{@link $1}")))
    .join("");
}

/** `text` as a TSDoc comment at `indent`, its lines wrapped at about 110 columns. */
function tsdoc(text: string, indent = ""): string {
  const width = 110 - indent.length - 3;
  const lines: string[] = [];
  let inCode = false;
  for (const line of text.replaceAll("*/", "*\\/").split("\n")) {
    // A code block's lines stand as written.
    if (line.startsWith("```")) inCode = !inCode;
    if (inCode || line.startsWith("```")) {
      lines.push(line);
      continue;
    }
    // Names are linked here, outside code blocks, before the line is wrapped (a link never breaks).
    // A list item's continuation lines are indented under its text, as the sources write them.
    const hanging = /^\s*- /.test(line) ? "  " : "";
    let current = "";
    for (const word of linked(line).split(/ (?![^{]*\})/)) {
      if (current !== "" && current.length + word.length + 1 > width) {
        lines.push(current);
        current = hanging + word;
      } else current = current === "" ? word : `${current} ${word}`;
    }
    lines.push(current);
  }
  if (lines.length === 1 && lines[0].length <= width - 4) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`).join("\n")}\n${indent} */\n`;
}

// --- types ---------------------------------------------------------------------------------------

/** The TypeScript type of a value of `schema` as a program gives it: every value may be a `pulumi.Input`. */
function inputType(schema: JsonSchema, objectName: (schema: JsonSchema) => string): string {
  if (schema.anyOf !== undefined) return [...new Set(schema.anyOf.map((member) => inputType(member, objectName)))].join(" | ");
  if (schema.enum !== undefined) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  // Several types (`["string", "null"]`): their union.
  if (Array.isArray(schema.type)) return schema.type.map((type: string) => inputType({ ...schema, type }, objectName)).join(" | ");
  switch (schema.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `pulumi.Input<${inputType(schema.items ?? {}, objectName)}>[]`;
    case "object":
      if (schema.properties !== undefined) return objectName(schema);
      // A map: values of one type, or any JSON value (a workspace's run config).
      if (typeof schema.additionalProperties === "object" && Object.keys(schema.additionalProperties).length > 0)
        return `Record<string, pulumi.Input<${inputType(schema.additionalProperties, objectName)}>>`;
      return "Record<string, unknown>";
    default:
      return "unknown";
  }
}

/** The members of an interface of `schema`'s properties, each documented by `docs`. */
function members(schema: JsonSchema, docs: Readonly<Record<string, string>>, objectName: (schema: JsonSchema) => string): string {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, property]) => {
      const doc = docs[name] === undefined ? "" : tsdoc(docs[name], "  ");
      return `${doc}  readonly ${name}${required.has(name) ? "" : "?"}: pulumi.Input<${inputType(property, objectName)}>;\n`;
    })
    .join("");
}

// --- one kind ------------------------------------------------------------------------------------

/** The module name of a kind: `GroupWorkspace` -> `group-workspace`, as its provider's file is named. */
export const moduleName = kindModuleName;

/**
 * The module of a kind's dynamic provider, whose whole `module.exports` is the provider object.
 * Pulumi writes a dynamic resource's provider into its state (`__provider`, in the inputs and
 * again in the outputs); an object that is a module's exports from node_modules it writes as one
 * `require("pulumi-kasm/dynamic/<kind>")` (the package's `./dynamic/*` export) instead of the
 * source of its seven methods: about 250 bytes instead of 2,200, twice for every resource.
 */
export function dynamicProviderModule(kind: KindName): string {
  return (
    `// Generated by scripts/sdk/typescript.ts: the dynamic provider of ${kind}, a module of its own so that Pulumi writes it into\n` +
    `// the state as require("pulumi-kasm/dynamic/${moduleName(kind)}") (see sdk/provider.ts).\n` +
    `import { kindProvider } from "../../provider";\n\n` +
    `export = kindProvider("${kind}");\n`
  );
}

/** The exported names of one kind's module. */
interface KindModule {
  readonly text: string;
  readonly values: readonly string[];
  readonly types: readonly string[];
}

/** Each output's doc by name, from the kind's zod outputs; an output without a `.describe` text fails the build. */
function outputDocsOf(kind: KindName, manifest: Kind["manifest"]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(kindOutputSchema(manifest).properties ?? {}).map(([name, output]) => {
      if (output.description === undefined)
        throw new Error(`${kind}: the output ${name} has no doc: give it one with .describe("...") in the kind's zod outputs`);
      return [name, output.description];
    }),
  );
}

/**
 * The class of one kind: the outputs the provider computes declared with their docs (`outputDocs`)
 * and types, the inputs the provider always sets declared as never undefined, the rest mirrored
 * from `args`.
 */
function classDeclaration(kind: KindName, manifest: Kind["manifest"], args: string, outputDocs: Readonly<Record<string, string>>): string {
  const { docs } = manifest;
  const outputs = Object.keys(outputDocs);
  const outputsType = `${kind}Outputs`;
  // Inputs whose left-out value the provider writes in (a drain's `draining`): their output is never undefined.
  const alwaysSet = Object.entries(manifest.fields)
    .filter(([, field]) => field.alwaysSet)
    .map(([name]) => name);
  const secrets = manifest.secrets ?? [];
  const declared = [
    ...outputs.map((name) => `${tsdoc(outputDocs[name], "  ")}  declare readonly ${name}: pulumi.Output<${outputsType}["${name}"]>;\n`),
    ...alwaysSet.map(
      (name) =>
        `${tsdoc(docs.inputs[name as keyof typeof docs.inputs], "  ")}  declare readonly ${name}: pulumi.Output<NonNullable<pulumi.Unwrap<${args}["${name}"]>>>;\n`,
    ),
  ];
  const registered = [
    outputs.length > 0 ? `computed: { ${outputs.map((name) => `${name}: true`).join(", ")} }` : "",
    secrets.length > 0 ? `secrets: ${JSON.stringify(secrets)}` : "",
    manifest.plannedIds !== undefined ? `plannedIds: ${JSON.stringify(manifest.plannedIds)}` : "",
  ].filter((part) => part !== "");
  const [one, other] = manifest.exactlyOneOf ?? [];
  const argsParameter = one === undefined ? args : `ExactlyOneOf<${args}, "${one}", "${other}">`;
  const example = docs.example === "" ? "" : `\n\n@example\n\`\`\`ts\n${docs.example}\n\`\`\``;
  const mirrored = alwaysSet.length === 0 ? args : `Omit<${args}, ${alwaysSet.map((name) => `"${name}"`).join(" | ")}>`;
  return (
    `${tsdoc(docs.description + example)}export class ${kind} extends KasmResource<${args}${outputs.length > 0 ? `, ${outputsType}` : ""}> {\n` +
    `  protected static override readonly kind = "${kind}";\n\n` +
    (declared.length > 0 ? `${declared.join("")}\n` : "") +
    `  constructor(name: string, args: ${argsParameter}, opts?: pulumi.CustomResourceOptions) {\n` +
    `    super(name, args, opts${registered.length > 0 ? `, { ${registered.join(", ")} }` : ""});\n` +
    `  }\n}\n\n` +
    `/** The outputs of {@link ${kind}} that mirror its arguments (see {@link ${args}}). */\n` +
    `export interface ${kind} extends InputOutputs<${mirrored}> {}\n`
  );
}

/** The module of one kind: its `<Kind>Args`, the interfaces of its inputs' objects, and its class. */
export function kindModule(kind: KindName, { manifest }: Kind): KindModule {
  const { docs } = manifest;
  const schema = kindInputSchema(manifest);
  const objectDocs: Readonly<Record<string, ObjectDocs | undefined>> = docs.inputObjects ?? {};
  // An input whose items are objects with named fields is typed by an interface its docs name.
  const objects: string[] = [];
  const objectName = (object: JsonSchema): string => {
    const field = Object.entries(schema.properties ?? {}).find(([, property]) => property === object || property.items === object)?.[0];
    const described = field === undefined ? undefined : objectDocs[field];
    if (described === undefined)
      throw new Error(`${kind}: the input ${field ?? "?"} holds objects, and its docs name no SDK type for them (docs.inputObjects)`);
    objects.push(`${tsdoc(described.description)}export interface ${described.name} {\n${members(object, described.properties, objectName)}}\n`);
    return described.name;
  };
  const args = `${kind}Args`;
  const argsText = `${tsdoc(docs.arguments)}export interface ${args} extends ConnectionArgs {\n${members(schema, docs.inputs, objectName)}}\n`;
  const outputDocs = outputDocsOf(kind, manifest);
  const hasOutputs = Object.keys(outputDocs).length > 0;
  const baseImports = ["KasmResource", "type InputOutputs", ...(manifest.exactlyOneOf === undefined ? [] : ["type ExactlyOneOf"])];
  const text =
    `// Generated by scripts/sdk/typescript.ts from the ${kind} kind (provider/resources/${moduleName(kind)}): edit its docs and schema there.\n` +
    `import type * as pulumi from "@pulumi/pulumi";\n` +
    `import { ${baseImports.join(", ")} } from "../provider";\n` +
    `import type { ConnectionArgs } from "../connection";\n` +
    (hasOutputs ? `import type { ${kind}Outputs } from "../../provider/resources/${moduleName(kind)}";\n` : "") +
    `\n${argsText}\n${objects.join("\n")}${objects.length > 0 ? "\n" : ""}${classDeclaration(kind, manifest, args, outputDocs)}`;
  return { text, values: [kind], types: [args, ...Object.values(objectDocs).flatMap((object) => (object === undefined ? [] : [object.name]))] };
}

// --- every kind ----------------------------------------------------------------------------------

/** Write every kind's module and their index into `root`'s {@link GENERATED_FOLDER}. */
export function writeKindModules(root: string): void {
  const folder = path.join(root, GENERATED_FOLDER);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const exports: string[] = [];
  for (const kind of Object.keys(kinds) as KindName[]) {
    const module = kindModule(kind, kinds[kind]);
    writeFileSync(path.join(folder, `${moduleName(kind)}.ts`), module.text);
    exports.push(`export { ${[...module.values, ...module.types.map((name) => `type ${name}`)].join(", ")} } from "./${moduleName(kind)}";\n`);
  }
  writeFileSync(path.join(folder, "index.ts"), `// Generated by scripts/sdk/typescript.ts: every kind's class, in the registry's order.\n${exports.join("")}`);
  mkdirSync(path.join(folder, DYNAMIC_FOLDER), { recursive: true });
  for (const kind of Object.keys(kinds) as KindName[]) writeFileSync(path.join(folder, DYNAMIC_FOLDER, `${moduleName(kind)}.ts`), dynamicProviderModule(kind));
}

if (require.main === module) writeKindModules(path.resolve(__dirname, "..", ".."));
