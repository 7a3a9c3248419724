/**
 * What every program on the native provider shares, whatever its language: the installations it
 * manages (one explicit `kasm` provider each, configured from the stack's configuration under keys
 * of its own), the configuration keys and `pulumi config set` lines, the values' walk, and the
 * project's README. The language emitters (`python.ts`, `go.ts`, `yaml.ts`, `typescript.ts`)
 * write the same declarations in their own words.
 */
import { camel } from "../../names";
import { isDeclaration, leavesOf, RawId, Ref, Secret, type Declaration, type ModelSection, type Value } from "../model";
import { summarySections, type ProgramWriter, type PulumiImportEntry, type SecretSetting, type SummaryRow } from "../writer";

/** The languages `--language` takes. */
export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * How a native program takes the installation's objects over (`--take-over`):
 * - `import` (the default): the program declares each object as it is, and `pulumi import --file
 *   import.json` records them in the stack's state before the first preview, which then shows no
 *   change. The explicit providers are created first (`pulumi up --target`), so that the import can
 *   name them.
 * - `adopt`: every resource has `adopt: true`; the first `pulumi up` finds each object by its
 *   natural key and records it (the preview lists them as creates, and Kasm receives no write).
 */
export const TAKE_OVERS = ["import", "adopt"] as const;
export type TakeOver = (typeof TAKE_OVERS)[number];

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
  /** How the existing objects come into the stack (see {@link TakeOver}). */
  readonly takeOver: TakeOver;
  /** The stack the README's commands and `import.json`'s provider URNs name. */
  readonly stack: string;
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
  for (const { writer } of program.installations)
    for (const section of writer.model)
      for (const d of declarationsOf(section)) for (const leaf of leavesOf(Object.values(d.args) as Value[])) if (leaf instanceof Ref) used.add(leaf.variable);
  return used;
}

/**
 * Whether a declaration holds a secret read from the configuration: a value Kasm never shows (an
 * egress credential's password, a WireGuard private key), so that `pulumi import` cannot record
 * it. Such an object is taken over by `adopt: true` even with the `import` take-over: an imported
 * state without the secret would differ from the program (for an egress credential, which Kasm
 * can neither update nor delete, a difference that cannot be applied).
 */
export function holdsSecret(declaration: Declaration): boolean {
  return [...leavesOf(Object.values(declaration.args) as Value[])].some((leaf) => leaf instanceof Secret);
}

/** Whether a declaration comes into the stack by `pulumi import` (else by `adopt: true` on the first `up`). */
export function isImported(declaration: Declaration, program: NativeProgram): boolean {
  return program.takeOver === "import" && !holdsSecret(declaration);
}

/**
 * The args that are set, in order. An imported declaration leaves `adopt` out: the object is in the
 * stack's state before the first run, and `adopt` would differ from what `pulumi import` recorded
 * (the preview would show an update of it on every resource).
 */
export function setArgs(declaration: Declaration, program: NativeProgram): [string, Value][] {
  return Object.entries(declaration.args).filter(([name, v]) => v !== undefined && !(name === "adopt" && isImported(declaration, program))) as [
    string,
    Value,
  ][];
}

/** The URN of an installation's provider resource in the program's stack: what `import.json` and `pulumi up --target` name. */
export function providerUrn(program: NativeProgram, installation: NativeInstallation): string {
  return `urn:pulumi:${program.stack}::${program.project}::pulumi:providers:kasm::${providerOf(installation).name}`;
}

/**
 * `import.json`, the file `pulumi import --file` reads: every imported declaration (see
 * {@link isImported}) with its type, name and id, on its installation's provider, which the name
 * table gives by URN (created by the README's `pulumi up --target` before). No secret is in it.
 */
export function importFileOf(program: NativeProgram): { nameTable: Record<string, string>; resources: (PulumiImportEntry & { provider: string })[] } {
  const nameTable: Record<string, string> = {};
  const resources = program.installations.flatMap((installation) => {
    const provider = providerOf(installation).name;
    nameTable[provider] = providerUrn(program, installation);
    const adopted = new Set(
      installation.writer.model.flatMap((section) => declarationsOf(section).filter((d) => !isImported(d, program))).map((d) => `${d.kind}::${d.name}`),
    );
    return installation.writer.pulumiImports
      .filter((entry) => !adopted.has(`${entry.type.slice(entry.type.lastIndexOf(":") + 1)}::${entry.name}`))
      .map((entry) => ({ ...entry, provider }));
  });
  return { nameTable, resources };
}

/** The declarations taken over by `adopt: true` under the `import` take-over, as `kind name` (the README names them). */
function adoptedUnderImport(program: NativeProgram): string[] {
  if (program.takeOver !== "import") return [];
  return program.installations.flatMap(({ writer }) =>
    writer.model.flatMap((section) => declarationsOf(section).filter((d) => !isImported(d, program))).map((d) => `${d.kind} ${d.name}`),
  );
}

/** The program's own words on how it took the objects over, for the head of its program file (lines, no comment marks). */
export function takeOverText(program: NativeProgram): string[] {
  return program.takeOver === "import"
    ? [
        "The objects it declares are recorded in the stack by `pulumi import --file import.json` (README.md),",
        "so the first `pulumi preview` shows no change. From then on, this program is what Kasm should hold:",
        "edit it, preview, up. README.md lists the settings to give first, and what was not taken over.",
        ...(adoptedUnderImport(program).length > 0
          ? ["An object holding a secret Kasm never shows keeps adopt: true: the first `pulumi up` takes it over."]
          : []),
      ]
    : [
        "Every resource has adopt: true: the first `pulumi up` takes the existing objects over and changes",
        "nothing in Kasm. From then on, this program is what Kasm should hold: edit it, preview, up.",
        "README.md lists the settings to give first, and what was not taken over.",
      ];
}

/**
 * The comment after an input in a language whose values sit on one line (Python, YAML): the names
 * Kasm gives the ids it holds, so that `["3c4d..."]` still says which group it is. Empty when the
 * value holds no id with a name.
 */
export function idLabels(value: Value): string {
  return [...leavesOf(value)]
    .filter((leaf): leaf is RawId => leaf instanceof RawId && Boolean(leaf.label))
    .map((id) => oneLine(id.label ?? ""))
    .join(", ");
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

/**
 * The `package.json` of a Python, Go or YAML project: it only makes `npm install pulumi-kasm`
 * install the plugin into this folder's `node_modules`, where {@link PLUGIN_BLOCK} looks. Without
 * one, npm installs into the nearest folder above that has one (the project kasm-import was run
 * from, as often as not), and the engine finds no plugin.
 */
export function pluginPackageJson(program: NativeProgram): string {
  return `${JSON.stringify({ name: program.project.toLowerCase(), private: true, description: "Holds the pulumi-kasm plugin the Pulumi program runs (npm install pulumi-kasm)." }, null, 2)}\n`;
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

/** The commands that bring the objects into the stack before the first preview (the `import` take-over). */
function importLines(program: NativeProgram): string[] {
  const targets = program.installations.map((installation) => `--target ${providerUrn(program, installation)}`).join(" ");
  const protect = program.protect ? "" : " --protect=false";
  return [
    `pulumi up --yes --stack ${program.stack} ${targets}   # the provider${program.installations.length > 1 ? "s" : ""} alone: nothing is written to Kasm`,
    `pulumi import --yes --stack ${program.stack} --file import.json --generate-code=false${protect}   # reads each object into the state: nothing is written to Kasm`,
    "pulumi preview   # no change: the program declares what the state now holds",
  ];
}

/** The project's README: what it is, how to get the SDK, the settings to give, what was not taken over. */
export function nativeReadme(program: NativeProgram, language: Language, programFile: string, setup: readonly string[]): string {
  const several = program.installations.length > 1;
  return [
    `# ${program.project}`,
    "",
    `The Kasm installation${several ? "s" : ""} ${installationsText(program)}, as a Pulumi program in ${language}`,
    `on the native provider (\`pulumi-resource-kasm\`), generated by \`kasm-import\` from what ${several ? "they" : "it"} held.`,
    "Each installation has its own explicit provider, configured from the stack's configuration.",
    ...(program.takeOver === "import"
      ? [
          "The program declares each object as Kasm holds it, without `adopt`; `import.json` lists them by id, and",
          "`pulumi import` records them in the stack's state, so the first preview shows no change and the first",
          "`up` writes nothing. Run the commands below once, in this order: the import names the providers, so",
          "they are created first.",
        ]
      : ["Every resource has `adopt: true`, so the first `pulumi up` takes the existing objects over without changing them."]),
    "",
    "## Before the first run",
    "",
    "```sh",
    ...setup,
    `pulumi stack init ${program.stack}`,
    ...configLines(program),
    ...(program.takeOver === "import"
      ? importLines(program)
      : ["pulumi preview   # shows every resource to be created: created means taken over, nothing changes in Kasm", "pulumi up"]),
    "```",
    "",
    allSecrets(program).length > 0
      ? "Kasm holds the secrets above but the program never contains them: give each the value it has in Kasm."
      : "The program holds no secret: only the API keys' secrets are needed.",
    ...(program.takeOver === "import"
      ? [
          "",
          "An object deleted in Kasm by hand after the import is still in the state: `pulumi up --refresh` finds it",
          "gone and creates it again, and what refers to it follows the new one.",
        ]
      : []),
    ...(adoptedUnderImport(program).length > 0
      ? [
          "",
          "These objects hold a secret Kasm never shows, which `pulumi import` therefore cannot record; they keep",
          "`adopt: true` and are not in `import.json`. The first preview lists them as creates; the first `up`",
          "finds each by its name and takes it over, comparing what Kasm shows, without a write:",
          "",
          ...adoptedUnderImport(program).map((d) => `- ${d}`),
        ]
      : []),
    "",
    ...summarySections(summaryRows(program), `\`${programFile}\``, program.protect),
  ].join("\n");
}

/** A comment's text on one line. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}
