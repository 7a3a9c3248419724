/**
 * The program in Python, on the native provider's SDK `pulumi_kasm`: `__main__.py` with one
 * `kasm.Provider` per installation and one `pulumi.ResourceOptions` each, snake_case arguments,
 * references as `ada.user_id`, secrets as `config.require_secret(...)`; `Pulumi.yaml`,
 * `requirements.txt` and the README around it.
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
  takeOverText,
  type NativeProgram,
} from "./native";

/** `egressProviderId` -> `egress_provider_id`, as Pulumi's Python generator names arguments and outputs. */
export function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** A value as Python source, on one line. */
function literal(value: Value): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string" || typeof value === "number") return JSON.stringify(value);
  if (value instanceof Ref) return `${snake(value.variable)}.${snake(value.output)}`;
  if (value instanceof RawId) return JSON.stringify(value.id);
  if (value instanceof Secret) return `config.require_secret(${JSON.stringify(value.key)})`;
  if (value instanceof Code) throw new Error("kasm-import: dynamic TypeScript cannot be written in Python");
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined) as [string, Value][];
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${literal(v)}`).join(", ")}}`;
}

/** A rule with a title, as the TypeScript program's sections have. */
function rule(title: string): string {
  return `# --- ${title} `.padEnd(100, "-");
}

/** `__main__.py`. */
function mainPy(program: NativeProgram): string {
  const out: string[] = [
    `"""The Kasm installation${program.installations.length > 1 ? "s" : ""} ${installationsText(program)} as code, taken over by kasm-import.`,
    "",
    ...takeOverText(program).map((line, i, lines) => (i === lines.length - 1 ? `${line}"""` : line)),
    "import pulumi",
    "import pulumi_kasm as kasm",
    "",
    "config = pulumi.Config()",
  ];
  for (const installation of program.installations) {
    const provider = providerOf(installation);
    const { keys } = provider;
    out.push(
      "",
      rule(`Installation: ${installation.prefix ?? installation.writer.settings.baseUrl}`),
      `${snake(provider.variable)} = kasm.Provider(`,
      `    ${JSON.stringify(provider.name)},`,
      `    base_url=config.require(${JSON.stringify(keys.baseUrl)}),`,
      `    api_key=config.require(${JSON.stringify(keys.apiKey)}),`,
      `    api_key_secret=config.require_secret(${JSON.stringify(keys.apiKeySecret)}),`,
      `    api_names=config.require(${JSON.stringify(keys.apiNames)}),`,
      ")",
      program.protect
        ? `# Taken-over objects are protected, as \`pulumi import\` does: \`pulumi destroy\` cannot delete them by mistake.\n${snake(provider.options)} = pulumi.ResourceOptions(provider=${snake(provider.variable)}, protect=True)`
        : `${snake(provider.options)} = pulumi.ResourceOptions(provider=${snake(provider.variable)})`,
    );
    for (const section of installation.writer.model) {
      out.push("", rule(section.title), ...section.comment.split("\n").map((line) => `# ${line}`.trimEnd()));
      for (const d of declarationsOf(section)) {
        const head = d.variable === undefined ? "" : `${snake(d.variable)} = `;
        out.push(`${head}kasm.${d.kind}(`, `    ${JSON.stringify(d.name)},`);
        for (const [arg, value] of setArgs(d, program)) {
          const labels = idLabels(value);
          const comment = labels ? `  # ${labels}` : "";
          out.push(`    ${snake(arg)}=${literal(value)},${comment}`);
        }
        out.push(`    opts=${snake(providerOf(installation).options)},`, ")");
      }
    }
  }
  return `${out.join("\n")}\n`;
}

/** Every file of the Python project. */
export function pythonFiles(program: NativeProgram): Map<string, string> {
  return new Map([
    ["__main__.py", mainPy(program)],
    [
      "Pulumi.yaml",
      `name: ${program.project}\ndescription: ${JSON.stringify(oneLine(`Kasm ${installationsText(program)} as code`))}\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n${PLUGIN_BLOCK}${projectConfigYaml(program, false)}`,
    ],
    ["requirements.txt", `pulumi>=3.0.0,<4.0.0\n# pulumi_kasm: the generated SDK (pip install <pulumi-kasm's generated SDK>/python), see README.md\n`],
    [".gitignore", "venv/\n__pycache__/\nnode_modules/\n"],
    ["package.json", pluginPackageJson(program)],
    [
      "README.md",
      nativeReadme(program, "python", "__main__.py", [
        "npm install pulumi-kasm   # the plugin pulumi-resource-kasm (the package file it came from: pulumi-kasm is not on the npm registry yet)",
        "python3 -m venv venv && venv/bin/pip install -r requirements.txt",
        "venv/bin/pip install <sdk>/python   # the generated Python SDK: npm run sdk:generate in pulumi-kasm writes <sdk> (build/sdk)",
      ]),
    ],
  ]);
}
