/**
 * The program in TypeScript on the native provider's SDK `@pulumi-kasm/native` (`--language
 * typescript --form native`): `index.ts` with one `kasm.Provider` per installation and the options
 * its resources take, `Pulumi.yaml`, `package.json`, `tsconfig.json` and the README.
 */
import { json, literal, typescriptConfig } from "../writer";
import {
  PLUGIN_BLOCK,
  declarationsOf,
  installationsText,
  nativeReadme,
  oneLine,
  projectConfigYaml,
  providerOf,
  setArgs,
  takeOverText,
  type NativeProgram,
} from "./native";

/** `index.ts`. */
function indexTs(program: NativeProgram): string {
  const out: string[] = [
    "/**",
    ` * The Kasm installation${program.installations.length > 1 ? "s" : ""} ${installationsText(program)} as code, taken over by kasm-import.`,
    " *",
    ...takeOverText(program).map((line) => ` * ${line}`),
    " */",
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as kasm from "@pulumi-kasm/native";',
    "",
    "const config = new pulumi.Config();",
  ];
  for (const installation of program.installations) {
    const provider = providerOf(installation);
    const { keys } = provider;
    out.push(
      "",
      `// --- Installation: ${installation.prefix ?? installation.writer.settings.baseUrl} `.padEnd(100, "-"),
      `const ${provider.variable} = new kasm.Provider(${JSON.stringify(provider.name)}, {`,
      `  baseUrl: config.require(${JSON.stringify(keys.baseUrl)}),`,
      `  apiKey: config.require(${JSON.stringify(keys.apiKey)}),`,
      `  apiKeySecret: config.requireSecret(${JSON.stringify(keys.apiKeySecret)}),`,
      `  apiNames: config.require(${JSON.stringify(keys.apiNames)}),`,
      "});",
      program.protect
        ? `/** Taken-over objects are protected, as \`pulumi import\` does: \`pulumi destroy\` cannot delete them by mistake. */\nconst ${provider.options}: pulumi.CustomResourceOptions = { provider: ${provider.variable}, protect: true };`
        : `const ${provider.options}: pulumi.CustomResourceOptions = { provider: ${provider.variable} };`,
    );
    for (const section of installation.writer.model) {
      out.push("", `// --- ${section.title} `.padEnd(100, "-"), ...section.comment.split("\n").map((line) => `// ${line}`.trimEnd()));
      for (const d of declarationsOf(section)) {
        const head = d.variable === undefined ? "" : `const ${d.variable} = `;
        const args = setArgs(d, program).map(([k, v]) => `  ${k}: ${literal(v)},`);
        out.push(`${head}new kasm.${d.kind}(${JSON.stringify(d.name)}, {`, ...args, `}, ${provider.options});`);
      }
    }
  }
  return `${out.join("\n")}\n`;
}

/** Every file of the native TypeScript project. */
export function typescriptNativeFiles(program: NativeProgram): Map<string, string> {
  return new Map([
    ["index.ts", indexTs(program)],
    [
      "Pulumi.yaml",
      `name: ${program.project}\ndescription: ${JSON.stringify(oneLine(`Kasm ${installationsText(program)} as code`))}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n${PLUGIN_BLOCK}${projectConfigYaml(program, false)}`,
    ],
    [
      "package.json",
      json({
        name: program.project,
        private: true,
        main: "index.ts",
        dependencies: {
          "@pulumi/pulumi": program.pulumiRange,
          "@pulumi-kasm/native": `^${program.packageVersion}`,
          "pulumi-kasm": `^${program.packageVersion}`,
        },
        devDependencies: { "@types/node": "^20.19.0", typescript: "~5.9.3" },
      }),
    ],
    ["tsconfig.json", typescriptConfig()],
    [".gitignore", "node_modules/\nbin/\n"],
    [
      "README.md",
      nativeReadme(program, "typescript", "index.ts", [
        "npm install /path/to/pulumi-kasm-native-<version>.tgz   # the generated SDK: npm run sdk:generate in pulumi-kasm packs it (build/sdk)",
        "npm install   # pulumi-kasm (the plugin) and the rest",
      ]),
    ],
  ]);
}
