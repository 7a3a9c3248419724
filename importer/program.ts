/**
 * From an inventory to a Pulumi project: the program a person would have written for the
 * installation (one section per area, resources named from natural keys, references instead of
 * ids wherever the other object is declared too), its data files, and what the summary and the
 * project's README say. How a Kasm record becomes a kind's inputs is the kind's own mapping, which
 * lives in the client for both (`stagingConfigShown`, `castConfigShown`, `imageSettingsShown`,
 * `egressProviderShown`, `egressGatewayShown`, `egressProviderMappingShown`, `egressCredentialShown`,
 * `groupShown`, `userShown`, `userAttributesShown`):
 * the program declares what the kind reads back. References go through one link map of the
 * writer, from kind and id to the declaring variable's id output. Everything is sorted by natural
 * key, so the same installation gives the same bytes. No secret value is ever written: what Kasm
 * holds secret becomes a `config.requireSecret(...)` input, listed for the README.
 *
 * This module lists the steps in order: each area is a record of what is its own (its records, its
 * names, its ids, its inputs), written by one generic writer; only the users, with their data files
 * and loops, are steps of their own. The work is in `write/`:
 *
 * | file | what it holds |
 * |---|---|
 * | `write/area.ts` | what an area says, and the one writer of every area: names, links, summary, sections |
 * | `write/writer.ts` | the settings, the `ProgramWriter` the areas fill, values as TypeScript source |
 * | `write/users-and-groups.ts` | groups, users (a UserSet or one User each) and user attributes |
 * | `write/workspaces.ts` | workspace images and which groups may launch them |
 * | `write/servers.ts` | server assignments and draining (servers referred to by id) |
 * | `write/staging-and-casting.ts` | staging configs and casting links |
 * | `write/egress.ts` | egress providers, gateways, mappings and credentials (the secrets) |
 * | `write/project.ts` | `index.ts`, `Pulumi.yaml`, `package.json`, `tsconfig.json`, the README |
 * | `write/model.ts` | the program as data, in no language: declarations, references, ids, secrets |
 * | `write/emit/native.ts` | what every native program shares: a provider per installation, its settings, the README |
 * | `write/emit/python.ts`, `go.ts`, `yaml.ts`, `typescript.ts` | the native program in each language |
 */
import { Names } from "./names";
import type { Inventory } from "./read";
import { writeSteps, type Step } from "./write/area";
import { goFiles } from "./write/emit/go";
import { importFileOf, providerNames, summaryRows, type Language, type NativeProgram, type TakeOver } from "./write/emit/native";
import { pythonFiles } from "./write/emit/python";
import { typescriptNativeFiles } from "./write/emit/typescript";
import { yamlFiles } from "./write/emit/yaml";
import { EGRESS_CREDENTIALS, EGRESS_GATEWAYS, EGRESS_MAPPINGS, EGRESS_PROVIDERS } from "./write/egress";
import { GROUPS, writeUserAttributes, writeUsers } from "./write/users-and-groups";
import { projectFiles } from "./write/project";
import { SERVER_ASSIGNMENTS, SERVER_DRAINS, writeServersRow } from "./write/servers";
import { CAST_CONFIGS, STAGING_CONFIGS } from "./write/staging-and-casting";
import { WORKSPACE_GROUPS, WORKSPACE_REGISTRIES, WORKSPACES } from "./write/workspaces";
import { ProgramWriter, type ProgramSettings, type PulumiImportEntry, type SecretSetting, type SummaryRow } from "./write/writer";

export type { ProgramSettings, PulumiImportEntry, SecretSetting, SummaryRow } from "./write/writer";

/**
 * The program's areas and steps, in dependency order: what is referred to is declared first (the
 * groups before the users, the workspaces before the sections that name an image).
 */
const STEPS: readonly Step[] = [
  GROUPS,
  writeUsers,
  writeUserAttributes,
  SERVER_ASSIGNMENTS,
  SERVER_DRAINS,
  writeServersRow,
  WORKSPACE_REGISTRIES,
  WORKSPACES,
  WORKSPACE_GROUPS,
  STAGING_CONFIGS,
  EGRESS_PROVIDERS,
  EGRESS_GATEWAYS,
  EGRESS_MAPPINGS,
  EGRESS_CREDENTIALS,
  CAST_CONFIGS,
];

/** The generated project. */
export interface GeneratedProject {
  /** Each installation's own objects for `pulumi import --file`, by its prefix (undefined: the one unprefixed installation). */
  readonly installations?: readonly { readonly prefix?: string; readonly pulumiImports: readonly PulumiImportEntry[] }[];
  /** Relative path -> content, sorted by path. */
  readonly files: ReadonlyMap<string, string>;
  readonly secrets: readonly SecretSetting[];
  readonly summary: readonly SummaryRow[];
  /** Every declared object, as `pulumi import --file` takes it. */
  readonly pulumiImports: readonly PulumiImportEntry[];
}

/** The file `pulumi import --file` reads: its resources, and the explicit provider they are imported with. */
export interface PulumiImportFile {
  readonly nameTable?: Readonly<Record<string, string>>;
  readonly resources: readonly (PulumiImportEntry & { readonly provider?: string })[];
}

/**
 * The resource list for `pulumi import --file`: every object the program would declare, with its
 * native type and id, and with `providerUrn` (an explicit `pulumi:providers:kasm`) named in the
 * name table when given. Pulumi then reads each object through the native provider and writes
 * the program in the stack's own language.
 */
export function pulumiImportFile(project: GeneratedProject, providerUrn?: string | ReadonlyMap<string, string>): PulumiImportFile {
  if (providerUrn === undefined) return { resources: project.pulumiImports };
  if (typeof providerUrn === "string") {
    const provider = providerUrn.slice(providerUrn.lastIndexOf("::") + 2);
    return { nameTable: { [provider]: providerUrn }, resources: project.pulumiImports.map((entry) => ({ ...entry, provider })) };
  }
  // A fleet: each installation's objects on the provider given for its prefix (the default provider where none is).
  const nameTable: Record<string, string> = {};
  const resources = (project.installations ?? []).flatMap(({ prefix, pulumiImports }) => {
    const urn = prefix === undefined ? undefined : providerUrn.get(prefix);
    if (urn === undefined) return pulumiImports;
    const provider = urn.slice(urn.lastIndexOf("::") + 2);
    nameTable[provider] = urn;
    return pulumiImports.map((entry) => ({ ...entry, provider }));
  });
  return Object.keys(nameTable).length > 0 ? { nameTable, resources } : { resources };
}

/** One installation read, with its prefix in a fleet and the settings the program's README names. */
export interface InstallationRead {
  readonly prefix?: string;
  readonly inventory: Inventory;
  readonly baseUrl: string;
  readonly apiKey: string;
}

/** How a program of one or more installations is written. */
export interface FleetSettings extends Omit<ProgramSettings, "baseUrl" | "apiKey" | "prefix"> {
  readonly language: Language;
  /** How a native program takes the objects over (the dynamic program always adopts). */
  readonly takeOver: TakeOver;
  /** The stack a native program's README and `import.json` name. */
  readonly stack: string;
}

/** The writers of the installations, one name space for them all: each installation's areas, in order. */
function writeInstallations(installations: readonly InstallationRead[], settings: ProgramSettings, names: Names): ProgramWriter[] {
  return installations.map(({ prefix, inventory, baseUrl, apiKey }) => {
    const w = new ProgramWriter(inventory, { ...settings, prefix, baseUrl, apiKey }, names);
    writeSteps(w, STEPS);
    w.row("licenses", inventory.licenses, 0);
    return w;
  });
}

/**
 * A program of one or more installations. Dynamic TypeScript is the one-installation program of
 * {@link generateProject}; a native program (any language) declares every installation's objects
 * on its own explicit provider, every name and variable after the installation's prefix; the
 * resource list for `pulumi import --file` of a fleet keeps each installation's objects apart.
 */
export function generateFleet(installations: readonly InstallationRead[], settings: FleetSettings): GeneratedProject {
  if (settings.form !== "native") {
    if (installations.length === 1 && installations[0].prefix === undefined) {
      const [one] = installations;
      return generateProject(one.inventory, { ...settings, baseUrl: one.baseUrl, apiKey: one.apiKey });
    }
    // Several installations for `pulumi import --file` only: their objects, not a dynamic program.
    const writers = writeInstallations(installations, { ...settings, baseUrl: "", apiKey: "" }, new Names());
    return {
      files: new Map(),
      secrets: writers.flatMap((w) => w.secrets),
      summary: writers.flatMap((w, i) => w.summary.map((row) => ({ ...row, kind: `${installations[i].prefix}: ${row.kind}` }))),
      pulumiImports: writers.flatMap((w) => w.pulumiImports),
      installations: writers.map((w, i) => ({ prefix: installations[i].prefix, pulumiImports: w.pulumiImports })),
    };
  }
  const names = new Names();
  const reserved = providerNames(installations.map((i) => i.prefix));
  names.reserve(reserved.resources, reserved.variables);
  const writers = writeInstallations(installations, { ...settings, users: "each", baseUrl: "", apiKey: "" }, names);
  const program: NativeProgram = {
    project: settings.project,
    protect: settings.protect,
    packageVersion: settings.packageVersion,
    pulumiRange: settings.pulumiRange,
    installations: writers.map((writer, i) => ({ prefix: installations[i].prefix, writer })),
    takeOver: settings.takeOver,
    stack: settings.stack,
  };
  const emit = { typescript: typescriptNativeFiles, python: pythonFiles, go: goFiles, yaml: yamlFiles }[settings.language];
  const files = emit(program);
  if (program.takeOver === "import") files.set("import.json", `${JSON.stringify(importFileOf(program), null, 2)}\n`);
  return {
    files: new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    secrets: writers.flatMap((w) => w.secrets),
    summary: summaryRows(program),
    pulumiImports: writers.flatMap((w) => w.pulumiImports),
    installations: writers.map((w, i) => ({ prefix: installations[i].prefix, pulumiImports: w.pulumiImports })),
  };
}

/** The program, its data files, the project files and what the summary and the README say. */
export function generateProject(inventory: Inventory, settings: ProgramSettings): GeneratedProject {
  const w = new ProgramWriter(inventory, settings);
  writeSteps(w, STEPS);
  w.row("licenses", inventory.licenses, 0);
  const files = projectFiles(w);
  return {
    files: new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    secrets: w.secrets,
    summary: w.summary,
    pulumiImports: w.pulumiImports,
  };
}
