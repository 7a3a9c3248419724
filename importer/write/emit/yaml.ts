/**
 * The program in Pulumi YAML: one `Pulumi.yaml` with the stack's configuration keys (the secrets
 * marked), one `pulumi:providers:kasm` resource per installation, and every resource keyed by its
 * name, referring to others as `${name.output}` and to its provider as `${kasm-prod}`.
 */
import { Code, RawId, Ref, Secret, type Value } from "../model";
import {
  PLUGIN_BLOCK,
  pluginPackageJson,
  declarationsOf,
  idLabels,
  installationsText,
  nativeReadme,
  oneLine,
  projectConfigYaml,
  providerOf,
  setArgs,
  type NativeProgram,
} from "./native";

/**
 * A value as YAML in flow style (JSON, which YAML reads): a literal string's `${` doubled to `$${`
 * (Pulumi YAML's escape), so that a value Kasm holds is never read as a reference.
 */
function literal(value: Value): string {
  if (value === null || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "string") return JSON.stringify(value.replace(/\$\{/g, "$${"));
  if (value instanceof Ref) return JSON.stringify(`\${${value.resourceName}.${value.output}}`);
  if (value instanceof RawId) return JSON.stringify(value.id);
  if (value instanceof Secret) return JSON.stringify(`\${${value.key}}`);
  if (value instanceof Code) throw new Error("kasm-import: dynamic TypeScript cannot be written in YAML");
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined) as [string, Value][];
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${literal(v)}`).join(", ")}}`;
}

/** A rule with a title, as the TypeScript program's sections have. */
function rule(title: string): string {
  return `  # --- ${title} `.padEnd(100, "-");
}

/** `Pulumi.yaml`: the project, its configuration, and the resources. */
function pulumiYaml(program: NativeProgram): string {
  const out: string[] = [];
  for (const installation of program.installations) {
    const provider = providerOf(installation);
    const { keys } = provider;
    out.push(
      rule(`Installation: ${installation.prefix ?? installation.writer.settings.baseUrl}`),
      `  ${provider.name}:`,
      "    type: pulumi:providers:kasm",
      "    properties:",
      `      baseUrl: \${${keys.baseUrl}}`,
      `      apiKey: \${${keys.apiKey}}`,
      `      apiKeySecret: \${${keys.apiKeySecret}}`,
      `      apiNames: \${${keys.apiNames}}`,
    );
    for (const section of installation.writer.model) {
      out.push("", rule(section.title), ...section.comment.split("\n").map((line) => `  # ${line}`.trimEnd()));
      for (const d of declarationsOf(section)) {
        out.push(`  ${d.name}:`, `    type: kasm:index:${d.kind}`, "    properties:");
        for (const [arg, value] of setArgs(d, program)) {
          const labels = idLabels(value);
          const comment = labels ? ` # ${labels}` : "";
          out.push(`      ${arg}: ${literal(value)}${comment}`);
        }
        out.push("    options:", `      provider: \${${provider.name}}`);
        if (program.protect) out.push("      protect: true");
      }
    }
    out.push("");
  }
  return [
    `name: ${program.project}`,
    `description: ${JSON.stringify(oneLine(`Kasm ${installationsText(program)} as code, taken over by kasm-import${program.takeOver === "adopt" ? " (every resource adopt: true)" : " (recorded by pulumi import --file import.json)"}`))}`,
    "runtime: yaml",
    PLUGIN_BLOCK.trimEnd(),
    projectConfigYaml(program, true).trimEnd(),
    "resources:",
    ...out,
  ].join("\n");
}

/** Every file of the YAML project. */
export function yamlFiles(program: NativeProgram): Map<string, string> {
  return new Map([
    ["Pulumi.yaml", pulumiYaml(program)],
    [".gitignore", "node_modules/\n"],
    ["package.json", pluginPackageJson(program)],
    [
      "README.md",
      nativeReadme(program, "yaml", "Pulumi.yaml", [
        "npm install pulumi-kasm   # the plugin pulumi-resource-kasm (the package file it came from: pulumi-kasm is not on the npm registry yet)",
      ]),
    ],
  ]);
}
