/**
 * What every program on the native provider shares, whatever its language: the installations it
 * manages (one explicit `kasm` provider each, configured from the stack's configuration under keys
 * of its own), the configuration keys and `pulumi config set` lines, the values' walk, and the
 * project's README. The language emitters (`python.ts`, `go.ts`, `yaml.ts`, `typescript.ts`)
 * write the same declarations in their own words.
 */
import { camel } from "../../names";
import { isDeclaration, RawId, Ref, Secret, type Declaration, type ModelSection, type Value } from "../model";
import { summarySections, type ProgramWriter, type SecretSetting, type SummaryRow } from "../writer";

/** The languages `--language` takes. */
export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

/** One installation of the program: its prefix in a fleet, and what its writer declared. */
export interface NativeInstallation {
  /** Undefined for a single installation written without a prefix. */
  readonly prefix?: string;
  readonly writer: ProgramWriter;
}

/** A native program: its project and its installations, each on its own provider. */
export interface NativeProgram {
  readonly project: string;
  readonly protect: boolean;
  readonly packageVersion: string;
  readonly pulumiRange: string;
  readonly installations: readonly NativeInstallation[];
}

/** The provider resource of an installation: its name, its variable, and its configuration keys. */
export interface ProviderInfo {
  /** `kasm`, or `kasm-<prefix>` in a fleet. */
  readonly name: string;
  /** `kasmProvider`, `prodProvider`. */
  readonly variable: string;
  /** The variable of the options every resource of the installation takes: `onKasm`, `onProd`. */
  readonly options: string;
  /** The stack configuration keys of its settings. */
  readonly keys: { readonly baseUrl: string; readonly apiKey: string; readonly apiKeySecret: string; readonly apiNames: string };
}

/** The provider of an installation (see {@link ProviderInfo}). */
export function providerOf(installation: NativeInstallation): ProviderInfo {
  const stem = camel(installation.prefix ?? "kasm");
  const upper = `${stem.charAt(0).toUpperCase()}${stem.slice(1)}`;
  return {
    name: installation.prefix === undefined ? "kasm" : `kasm-${installation.prefix}`,
    variable: `${stem}Provider`,
    options: `on${upper}`,
    keys: { baseUrl: `${stem}BaseUrl`, apiKey: `${stem}ApiKey`, apiKeySecret: `${stem}ApiKeySecret`, apiNames: `${stem}ApiNames` },
  };
}

/** The names the providers take: reserved before any resource is named, so that no resource or variable takes them. */
export function providerNames(prefixes: readonly (string | undefined)[]): { resources: string[]; variables: string[] } {
  const infos = prefixes.map((prefix) => providerOf({ prefix } as NativeInstallation));
  return { resources: infos.map((i) => i.name), variables: infos.flatMap((i) => [i.variable, i.options]) };
}

/** The declarations of a section (a native program has no other items). */
export function declarationsOf(section: ModelSection): Declaration[] {
  return section.items.map((item) => {
    if (!isDeclaration(item)) throw new Error(`kasm-import: section ${section.title} holds dynamic TypeScript, which a native program cannot`);
    if (item.dependsOn.length > 0) throw new Error(`kasm-import: ${item.name} depends on ${item.dependsOn.join(", ")}, which a native program does not write`);
    return item;
  });
}

/** The variables some declaration refers to (Go refuses a variable nobody uses). */
export function referencedVariables(program: NativeProgram): Set<string> {
  const used = new Set<string>();
  const walk = (value: Value | undefined): void => {
    if (value instanceof Ref) used.add(value.variable);
    else if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value !== null && typeof value === "object" && !(value instanceof RawId) && !(value instanceof Secret))
      for (const v of Object.values(value)) walk(v as Value | undefined);
  };
  for (const { writer } of program.installations)
    for (const section of writer.model) for (const d of declarationsOf(section)) for (const v of Object.values(d.args)) walk(v);
  return used;
}

/** The args that are set, in order. */
export function setArgs(declaration: Declaration): [string, Value][] {
  return Object.entries(declaration.args).filter(([, v]) => v !== undefined) as [string, Value][];
}

/** Every secret the program reads, over its installations. */
export function allSecrets(program: NativeProgram): SecretSetting[] {
  return program.installations.flatMap(({ writer }) => writer.secrets);
}

/** A short description of the installations, for comments and the README. */
export function installationsText(program: NativeProgram): string {
  return program.installations
    .map(({ prefix, writer }) => (prefix === undefined ? writer.settings.baseUrl : `${prefix} (${writer.settings.baseUrl})`))
    .join(", ");
}

/** The `pulumi config set` lines of the program: each provider's settings, then the secrets. */
export function configLines(program: NativeProgram): string[] {
  return [
    ...program.installations.flatMap((installation) => {
      const { keys } = providerOf(installation);
      const { settings, inventory } = installation.writer;
      return [
        `pulumi config set ${keys.baseUrl} ${settings.baseUrl}`,
        `pulumi config set ${keys.apiKey} ${settings.apiKey}`,
        `pulumi config set --secret ${keys.apiKeySecret}   # the API key's secret, typed at the prompt`,
        `pulumi config set ${keys.apiNames} ${inventory.apiNames}   # the default (Pulumi.yaml), as the installation answered`,
      ];
    }),
    ...allSecrets(program).map((s) => `pulumi config set --secret ${s.key}   # ${s.what}`),
  ];
}

/** The `config:` block of Pulumi.yaml: each provider's keys, the vocabulary with the value it had; `secrets` adds the program's secrets (YAML declares them). */
export function projectConfigYaml(program: NativeProgram, secrets: boolean): string {
  const lines = ["config:"];
  for (const installation of program.installations) {
    const { keys } = providerOf(installation);
    lines.push(`  ${keys.baseUrl}:`, "    type: string", `  ${keys.apiKey}:`, "    type: string", `  ${keys.apiKeySecret}:`, "    type: string");
    if (secrets) lines.push("    secret: true");
    lines.push(`  ${keys.apiNames}:`, "    type: string", `    default: ${installation.writer.inventory.apiNames}`);
  }
  if (secrets) for (const s of allSecrets(program)) lines.push(`  ${s.key}:`, "    type: string", "    secret: true");
  return `${lines.join("\n")}\n`;
}

/** The `plugins:` block that finds the plugin in the npm package pulumi-kasm beside the program. */
export const PLUGIN_BLOCK = `plugins:
  providers:
    # The plugin ships in the npm package pulumi-kasm (\`npm install pulumi-kasm\` beside this file);
    # with the plugin installed from its tarball (\`pulumi plugin install\`), leave this block out.
    - name: kasm
      path: ./node_modules/pulumi-kasm/bin
`;

/** The summary rows of every installation, each area's title after the installation's prefix in a fleet. */
export function summaryRows(program: NativeProgram): SummaryRow[] {
  return program.installations.flatMap(({ prefix, writer }) =>
    writer.summary.map((row) => (prefix === undefined ? row : { ...row, kind: `${prefix}: ${row.kind}` })),
  );
}

/** The project's README: what it is, how to get the SDK, the settings to give, what was not taken over. */
export function nativeReadme(program: NativeProgram, language: Language, programFile: string, setup: readonly string[]): string {
  return [
    `# ${program.project}`,
    "",
    `The Kasm installation${program.installations.length > 1 ? "s" : ""} ${installationsText(program)}, as a Pulumi program in ${language}`,
    `on the native provider (\`pulumi-resource-kasm\`), generated by \`kasm-import\` from what ${program.installations.length > 1 ? "they" : "it"} held.`,
    "Each installation has its own explicit provider, configured from the stack's configuration. Every",
    "resource has `adopt: true`, so the first `pulumi up` takes the existing objects over without changing them.",
    "",
    "## Before the first run",
    "",
    "```sh",
    ...setup,
    "pulumi stack init dev",
    ...configLines(program),
    "pulumi preview   # shows every resource to be created: created means taken over, nothing changes in Kasm",
    "pulumi up",
    "```",
    "",
    allSecrets(program).length > 0
      ? "Kasm holds the secrets above but the program never contains them: give each the value it has in Kasm."
      : "The program holds no secret: only the API keys' secrets are needed.",
    "",
    ...summarySections(summaryRows(program), `\`${programFile}\``, program.protect),
  ].join("\n");
}

/** A comment's text on one line. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}
