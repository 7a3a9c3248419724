/**
 * The program in Go, on the native provider's generated Go SDK (`pulumi-kasm.local/sdk/go/kasm`):
 * `main.go` with one `kasm.NewProvider` per installation and `kasm.New<Kind>(ctx, name,
 * &kasm.<Kind>Args{...}, pulumi.Provider(p), pulumi.Protect(true))` per resource, each input typed
 * as the package schema types it (`pulumi.Int`, `pulumi.Float64`, `pulumi.StringArray`, ...);
 * `go.mod` with a `replace` to the generated SDK, `Pulumi.yaml` and the README. A resource that
 * nothing refers to gets no variable: Go refuses one that is never used.
 */
import type { KasmKind } from "../../../permissions/kinds";
import { Code, RawId, Ref, Secret, type Value } from "../model";
import {
  PLUGIN_BLOCK,
  pluginPackageJson,
  declarationsOf,
  installationsText,
  nativeReadme,
  oneLine,
  projectConfigYaml,
  providerOf,
  referencedVariables,
  setArgs,
  takeOverText,
  type NativeProgram,
} from "./native";

/**
 * The inputs the package schema types `number` (a Go `float64`); every other number the importer
 * writes is an `integer` (a Go `int`). Written here rather than read from the schema because the
 * importer imports no resource (the schema is made from their manifests);
 * test/importer/languages.test.ts holds the table to the schema, as it holds every output a Go
 * program refers to to be required there (a plain output, which an input takes as it is).
 */
export const GO_FLOAT_INPUTS: Readonly<Partial<Record<KasmKind, readonly string[]>>> = {
  StagingConfig: ["expiration"],
  Workspace: ["cores"],
};

/** `egressProviderId` -> `EgressProviderId`, as Pulumi's Go generator names fields. */
function title(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** A JSON value as a Go literal (inside a `pulumi.Map`, as `pulumi.Any` takes it). */
function anyLiteral(value: Value): string {
  if (value === null) return "nil";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[]interface{}{${value.map(anyLiteral).join(", ")}}`;
  if (value instanceof Ref || value instanceof RawId || value instanceof Secret || value instanceof Code)
    throw new Error("kasm-import: a reference inside a JSON value cannot be written in Go");
  const entries = Object.entries(value).filter(([, v]) => v !== undefined) as [string, Value][];
  return `map[string]interface{}{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${anyLiteral(v)}`).join(", ")}}`;
}

/** A value as a Go input of `kind`'s input `input`, typed as the package schema types it. */
function literal(value: Value, kind: KasmKind, input: string): string {
  // The id outputs a program refers to are required in the schema: a pulumi.StringOutput, which a pulumi.StringInput takes.
  if (value instanceof Ref) return `${value.variable}.${title(value.output)}`;
  if (value instanceof Secret) return `conf.RequireSecret(${JSON.stringify(value.key)})`;
  if (value instanceof RawId) return `pulumi.String(${JSON.stringify(value.id)})${value.label ? ` /* ${oneLine(value.label).replace(/\*\//g, "* /")} */` : ""}`;
  if (value instanceof Code) throw new Error("kasm-import: dynamic TypeScript cannot be written in Go");
  if (typeof value === "string") return `pulumi.String(${JSON.stringify(value)})`;
  if (typeof value === "boolean") return `pulumi.Bool(${value})`;
  if (typeof value === "number") return GO_FLOAT_INPUTS[kind]?.includes(input) ? `pulumi.Float64(${value})` : `pulumi.Int(${value})`;
  // The importer's lists are lists of ids and names: strings.
  if (Array.isArray(value)) return `pulumi.StringArray{${value.map((v) => literal(v, kind, input)).join(", ")}}`;
  if (value === null) throw new Error(`kasm-import: ${kind}'s ${input} is null, which a Go input cannot be`);
  const entries = Object.entries(value).filter(([, v]) => v !== undefined) as [string, Value][];
  return `pulumi.Map{${entries.map(([k, v]) => `${JSON.stringify(k)}: pulumi.Any(${anyLiteral(v)})`).join(", ")}}`;
}

/** `main.go`. */
function mainGo(program: NativeProgram): string {
  const used = referencedVariables(program);
  const body: string[] = [];
  for (const installation of program.installations) {
    const provider = providerOf(installation);
    const { keys } = provider;
    body.push(
      `\t\t// --- Installation: ${installation.prefix ?? installation.writer.settings.baseUrl}`,
      `\t\t${provider.variable}, err := kasm.NewProvider(ctx, ${JSON.stringify(provider.name)}, &kasm.ProviderArgs{`,
      `\t\t\tBaseUrl:      pulumi.String(conf.Require(${JSON.stringify(keys.baseUrl)})),`,
      `\t\t\tApiKey:       pulumi.String(conf.Require(${JSON.stringify(keys.apiKey)})),`,
      `\t\t\tApiKeySecret: conf.RequireSecret(${JSON.stringify(keys.apiKeySecret)}),`,
      `\t\t\tApiNames:     pulumi.String(conf.Require(${JSON.stringify(keys.apiNames)})),`,
      "\t\t})",
      "\t\tif err != nil {",
      "\t\t\treturn err",
      "\t\t}",
    );
    const options = `pulumi.Provider(${provider.variable})${program.protect ? ", pulumi.Protect(true)" : ""}`;
    let declared = 0;
    for (const section of installation.writer.model) {
      body.push("", `\t\t// --- ${section.title}`, ...section.comment.split("\n").map((line) => `\t\t// ${line}`.trimEnd()));
      for (const d of declarationsOf(section)) {
        declared++;
        const args = setArgs(d, program).map(([k, v]) => `\t\t\t${title(k)}: ${literal(v, d.kind, k)},`);
        const call = `kasm.New${d.kind}(ctx, ${JSON.stringify(d.name)}, &kasm.${d.kind}Args{\n${args.join("\n")}\n\t\t}, ${options})`;
        if (d.variable !== undefined && used.has(d.variable)) {
          body.push(`\t\t${d.variable}, err := ${call}`, "\t\tif err != nil {", "\t\t\treturn err", "\t\t}");
        } else body.push(`\t\tif _, err := ${call}; err != nil {`, "\t\t\treturn err", "\t\t}");
      }
    }
    if (declared === 0) body.push(`\t\t_ = ${provider.variable}`);
    body.push("");
  }
  return [
    `// The Kasm installation${program.installations.length > 1 ? "s" : ""} ${installationsText(program)} as code, taken over by kasm-import.`,
    "//",
    ...takeOverText(program).map((line) => `// ${line}`),
    "package main",
    "",
    "import (",
    '\t"pulumi-kasm.local/sdk/go/kasm"',
    "",
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    '\t\tconf := config.New(ctx, "")',
    "",
    ...body,
    "\t\treturn nil",
    "\t})",
    "}",
    "",
  ].join("\n");
}

/** The Go module's path: the project's name, unless Go keeps that name for itself (`go`, `std`, `cmd`). */
function modulePath(project: string): string {
  return ["go", "std", "cmd"].includes(project.toLowerCase()) ? `${project}-stack` : project;
}

/** Every file of the Go project. */
export function goFiles(program: NativeProgram): Map<string, string> {
  return new Map([
    ["main.go", mainGo(program)],
    [
      "go.mod",
      `module ${modulePath(program.project)}\n\ngo 1.26\n\nrequire (\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.276.0\n\tpulumi-kasm.local/sdk/go v0.0.0\n)\n\n` +
        "// The generated SDK (npm run sdk:generate in pulumi-kasm writes build/sdk/go): no module of that\n// path is published. Point this at it (go mod edit -replace pulumi-kasm.local/sdk/go=<sdk>/go).\n" +
        "replace pulumi-kasm.local/sdk/go => ./sdk/go\n",
    ],
    [
      "Pulumi.yaml",
      `name: ${program.project}\ndescription: ${JSON.stringify(oneLine(`Kasm ${installationsText(program)} as code`))}\nruntime: go\n${PLUGIN_BLOCK}${projectConfigYaml(program, false)}`,
    ],
    [".gitignore", "node_modules/\nsdk/\n"],
    ["package.json", pluginPackageJson(program)],
    [
      "README.md",
      nativeReadme(program, "go", "main.go", [
        "npm install pulumi-kasm   # the plugin pulumi-resource-kasm (the package file it came from: pulumi-kasm is not on the npm registry yet)",
        "cp -r <sdk>/go sdk/go     # the generated Go SDK: npm run sdk:generate in pulumi-kasm writes <sdk> (build/sdk)",
        "go mod tidy && go build ./...",
      ]),
    ],
  ]);
}
