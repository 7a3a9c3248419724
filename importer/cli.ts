#!/usr/bin/env node
/**
 * `kasm-import`: read a Kasm installation through the API and write a Pulumi project that takes
 * everything it holds over, so that the first `pulumi up` changes nothing: the dynamic TypeScript
 * program with `adopt: true`, a native program (any language) by `pulumi import --file import.json`.
 *
 * ```sh
 * KASM_BASE_URL=https://kasm.example.com KASM_API_KEY=... KASM_API_KEY_SECRET=... npx kasm-import --out kasm-stack
 * ```
 *
 * Exit status: 0 when the project was written (or, with `--dry-run`, the summary printed), 1 when
 * the installation could not be read or the folder not written, 2 on a usage error.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { isConnectionName } from "../permissions/connections";
import { isKasmApiError, KasmAuthenticationError, KasmClient, KasmConfigurationError } from "../provider/api";
import { optionsFromConfig, settingNamesOf } from "../provider/api/config";
import { IMPORT_KINDS, isImportKind, type ImportKind } from "./kinds";
import { generateFleet, pulumiImportFile, type GeneratedProject, type InstallationRead, type SummaryRow } from "./program";
import { readInstallation } from "./read";
import { LANGUAGES, TAKE_OVERS, type Language, type TakeOver } from "./write/emit/native";

const HELP = `Usage: kasm-import [--out <dir>] [options]

Reads a Kasm installation (or several) through its API and writes a Pulumi project that declares
what it holds, so that the first \`pulumi up\` changes nothing: the dynamic TypeScript program
adopts (adopt: true); a native program comes with import.json for \`pulumi import --file\`.

Options:
  --language <language>  typescript (default), python, go or yaml: the program's language. Python,
                         Go and YAML programs use the native provider (pulumi-resource-kasm), one
                         explicit provider per installation, configured from the stack's settings
  --form <form>          with --language typescript: dynamic (default, pulumi-kasm's dynamic
                         resources) or native (the native provider's SDK, @pulumi-kasm/native)
  --take-over <how>      with a native program: import (default) writes the program without adopt
                         and import.json, which \`pulumi import --file\` records in the stack's
                         state before the first preview (that preview then shows no change; the
                         README gives the commands); adopt writes adopt: true on every resource
                         instead (the first preview lists creates, the first up takes them over)
  --stack <name>         the stack the native program's README and import.json name (default: dev)
  --installation <prefix>
                         read one installation of a fleet (repeat it): its settings are
                         --config kasm-<prefix>:baseUrl=... or KASM_<PREFIX>_BASE_URL, ...; every
                         resource name and variable starts with <prefix>, each installation gets
                         its own provider (needs a native program, or --pulumi-import-file)
  --out <dir>            the folder to write (default: kasm-stack); it must not exist or be empty
  --force                write into a folder that is not empty (files of the same name are replaced)
  --dry-run              read and print the summary; write nothing
  --only <areas>         only these areas, comma-separated (see below)
  --except <areas>       every area but these, comma-separated
  --users <set|each>     set: one UserSet from users.csv, in Kasm's import format (default);
                         each: one User and one UserGroups per user, from users.json
  --project <name>       the Pulumi project's name (default: the folder's name)
  --no-protect           do not mark the resources protect: true (pulumi import does, by default)
  --pulumi-import-file <file>
                         write no project: write the resource list that \`pulumi import --file\`
                         takes (the native provider's kasm:index:<Kind> types), so that Pulumi
                         writes the program in the stack's own language; implies --users each
  --pulumi-import-provider <urn>
                         with --pulumi-import-file: the URN of the explicit provider
                         (pulumi:providers:kasm) the resources are imported with (default: the
                         default provider, configured by the stack's kasm: settings); with
                         --installation, <prefix>=<urn>, once per installation
  --config <key=value>   a kasm: setting, as the provider reads it: kasm:baseUrl, kasm:apiKey,
                         kasm:apiNames, kasm:caCert, kasm:maxRetries, ... (repeat it)
  --help                 this text

Settings not given with --config come from the environment, as for the provider:
  KASM_BASE_URL, KASM_API_KEY, KASM_API_KEY_SECRET (keep the secret there, off the command line),
  KASM_API_NAMES (product for a released Kasm 1.15 or later), KASM_CA_CERT, KASM_MAX_RETRIES, ...
  With --installation prod: kasm-prod:baseUrl, ... or KASM_PROD_BASE_URL, KASM_PROD_API_KEY, ...

Areas: ${IMPORT_KINDS.map((k) => k.name).join(", ")}
${IMPORT_KINDS.map((k) => `  ${k.name.padEnd(20)} ${k.declaredAs}; reads ${k.reads}`).join("\n")}

The key needs the View permission of each area it reads; an area it may not view is left out
and named in the summary with the permission to grant.

Exit status: 0 when the project was written (or the summary printed with --dry-run), 1 when the
installation could not be read or the folder could not be written, 2 on a usage error.
`;

/** A mistake on the command line: printed with a pointer to --help, exit 2. */
class UsageError extends Error {}

/** Where the command writes: standard output for the summary, standard error for progress and errors. */
export interface ImportIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** What the command line asks for. */
interface Invocation {
  readonly out: string;
  readonly force: boolean;
  readonly dryRun: boolean;
  readonly kinds: ReadonlySet<ImportKind>;
  readonly users: "set" | "each";
  readonly project: string;
  readonly protect: boolean;
  readonly config: ReadonlyMap<string, string>;
  /** Write the resource list for `pulumi import --file` to this file instead of a project. */
  readonly pulumiImportFile?: string;
  /** The explicit provider's URN the import file names, if any: one, or one per installation's prefix. */
  readonly pulumiImportProvider?: string | ReadonlyMap<string, string>;
  readonly language: Language;
  readonly form: "dynamic" | "native";
  /** How a native program takes the objects over. */
  readonly takeOver: TakeOver;
  /** The stack a native program's README and import.json name. */
  readonly stack: string;
  /** The installations' prefixes; `[undefined]` for the one installation of the kasm: settings. */
  readonly installations: readonly (string | undefined)[];
}

const PROVIDER_URN = /^urn:pulumi:.+::pulumi:providers:kasm::[^:]+$/;

function areas(list: string, option: string): ImportKind[] {
  const names = list
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !isImportKind(n));
  if (unknown.length > 0)
    throw new UsageError(`${option}: unknown area ${unknown.map((n) => `'${n}'`).join(", ")}; the areas are ${IMPORT_KINDS.map((k) => k.name).join(", ")}`);
  return names as ImportKind[];
}

function parse(argv: readonly string[], cwd: string): Invocation | "help" {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      out: { type: "string" },
      force: { type: "boolean" },
      "dry-run": { type: "boolean" },
      only: { type: "string" },
      except: { type: "string" },
      users: { type: "string" },
      project: { type: "string" },
      "no-protect": { type: "boolean" },
      config: { type: "string", multiple: true },
      "pulumi-import-file": { type: "string" },
      "pulumi-import-provider": { type: "string", multiple: true },
      language: { type: "string" },
      form: { type: "string" },
      installation: { type: "string", multiple: true },
      "take-over": { type: "string" },
      stack: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return "help";
  if (values.only !== undefined && values.except !== undefined) throw new UsageError("--only and --except cannot be given together: choose one");
  let kinds = new Set<ImportKind>(IMPORT_KINDS.map((k) => k.name));
  if (values.only !== undefined) kinds = new Set(areas(values.only, "--only"));
  if (values.except !== undefined) for (const name of areas(values.except, "--except")) kinds.delete(name);
  if (kinds.size === 0) throw new UsageError("no area is left to import: --only needs at least one area, and --except must leave one");
  const pulumiImportFile = values["pulumi-import-file"] === undefined ? undefined : path.resolve(cwd, values["pulumi-import-file"]);
  const language = (values.language ?? "typescript") as Language;
  if (!LANGUAGES.includes(language)) throw new UsageError(`--language '${values.language}': choose one of ${LANGUAGES.join(", ")}`);
  const formValue = values.form ?? (language === "typescript" ? "dynamic" : "native");
  if (formValue !== "dynamic" && formValue !== "native") throw new UsageError(`--form '${formValue}': choose dynamic or native`);
  if (formValue === "dynamic" && language !== "typescript")
    throw new UsageError(`--form dynamic is TypeScript's only: a ${language} program uses the native provider (leave --form out)`);
  const form: "dynamic" | "native" = formValue;
  const takeOver = (values["take-over"] ?? (form === "native" ? "import" : "adopt")) as TakeOver;
  if (!TAKE_OVERS.includes(takeOver)) throw new UsageError(`--take-over '${values["take-over"]}': choose import or adopt`);
  if (form === "dynamic" && takeOver === "import")
    throw new UsageError(
      "--take-over import needs the native provider (pulumi import cannot read dynamic resources): add --form native, or leave --take-over out (the dynamic program adopts)",
    );
  const stack = values.stack ?? "dev";
  if (!/^[A-Za-z0-9_.-]+$/.test(stack)) throw new UsageError(`--stack '${stack}': a stack name may hold only letters, digits, '-', '_' and '.'`);
  const prefixes = values.installation ?? [];
  for (const prefix of prefixes)
    if (!isConnectionName(prefix))
      throw new UsageError(`--installation '${prefix}': a prefix is lower-case letters, digits and '-', starting with a letter (such as prod or eu-west)`);
  if (new Set(prefixes).size !== prefixes.length) throw new UsageError("--installation: each prefix once");
  if (prefixes.length > 0 && form === "dynamic" && pulumiImportFile === undefined)
    throw new UsageError(
      "--installation writes each installation on its own provider of the native provider: add --language python, go or yaml, or --form native",
    );
  const providerValues = values["pulumi-import-provider"] ?? [];
  if (providerValues.length > 0 && pulumiImportFile === undefined)
    throw new UsageError("--pulumi-import-provider goes with --pulumi-import-file: add --pulumi-import-file <file>");
  const urnMessage = (urn: string) =>
    `--pulumi-import-provider '${urn}': give the URN of a kasm provider resource, such as urn:pulumi:dev::my-project::pulumi:providers:kasm::prod (pulumi stack --show-urns lists it)`;
  let pulumiImportProvider: string | Map<string, string> | undefined;
  if (prefixes.length === 0) {
    if (providerValues.length > 1) throw new UsageError("--pulumi-import-provider: one provider for one installation (several need --installation)");
    pulumiImportProvider = providerValues[0];
    if (pulumiImportProvider !== undefined && !PROVIDER_URN.test(pulumiImportProvider)) throw new UsageError(urnMessage(pulumiImportProvider));
  } else if (providerValues.length > 0) {
    pulumiImportProvider = new Map();
    for (const pair of providerValues) {
      const at = pair.indexOf("=");
      const prefix = pair.slice(0, Math.max(at, 0));
      if (at <= 0 || !prefixes.includes(prefix))
        throw new UsageError(`--pulumi-import-provider '${pair}': with --installation, write <prefix>=<urn>, the prefix one of ${prefixes.join(", ")}`);
      if (!PROVIDER_URN.test(pair.slice(at + 1))) throw new UsageError(urnMessage(pair.slice(at + 1)));
      pulumiImportProvider.set(prefix, pair.slice(at + 1));
    }
  }
  // A UserSet is one resource for many users: `pulumi import` takes objects by id, so each user is one User there.
  const users = values.users ?? (pulumiImportFile === undefined && form === "dynamic" ? "set" : "each");
  if (form === "native" && users === "set")
    throw new UsageError(
      "--users set goes with the dynamic TypeScript program only: a native program declares one User and UserGroups per user (leave --users out)",
    );
  if (users !== "set" && users !== "each") throw new UsageError(`--users must be 'set' or 'each', not '${users}'`);
  if (pulumiImportFile !== undefined && users === "set")
    throw new UsageError("--users set cannot go with --pulumi-import-file: pulumi import takes each user as one User (leave --users out)");
  const config = new Map<string, string>();
  for (const pair of values.config ?? []) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--config ${pair}: write key=value, such as --config kasm:baseUrl=https://kasm.example.com`);
    const key = pair.slice(0, at).trim();
    const namespace = key.slice(0, key.indexOf(":"));
    const allowed = prefixes.length === 0 ? ["kasm"] : prefixes.map((prefix) => `kasm-${prefix}`);
    if (!allowed.includes(namespace))
      throw new UsageError(
        prefixes.length === 0
          ? `--config ${key}: only kasm: settings are read here (kasm:baseUrl, kasm:apiKey, ...)`
          : `--config ${key}: with --installation, each installation's settings are kasm-<prefix>: ones (${allowed.map((n) => `${n}:baseUrl`).join(", ")})`,
      );
    config.set(key, pair.slice(at + 1));
  }
  const out = path.resolve(cwd, values.out ?? "kasm-stack");
  const project = values.project ?? path.basename(out);
  if (!/^[A-Za-z0-9_.-]+$/.test(project))
    throw new UsageError(`--project '${project}': a Pulumi project name may hold only letters, digits, '-', '_' and '.'; give one with --project`);
  return {
    out,
    force: values.force === true,
    dryRun: values["dry-run"] === true,
    kinds,
    users,
    project,
    protect: values["no-protect"] !== true,
    config,
    pulumiImportFile,
    pulumiImportProvider,
    language,
    form,
    takeOver,
    stack,
    installations: prefixes.length === 0 ? [undefined] : prefixes,
  };
}

// --- output ------------------------------------------------------------------------------------------

/** The summary table, in fixed-width columns. */
export function summaryTable(rows: readonly SummaryRow[]): string {
  const header = ["area", "found", "declared", "not declared, and why"];
  const lines = rows.map((row) => [row.kind, row.found === undefined ? "not read" : String(row.found), String(row.declared), row.skipped.join("; ") || "-"]);
  const widths = [0, 1, 2].map((i) => Math.max(header[i].length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell)).join("  ");
  return [format(header), ...lines.map(format)].join("\n");
}

/** Progress on standard error: one line rewritten in place on a terminal, a line per finished area otherwise. */
function progressReporter(stderr: ImportIo["stderr"]) {
  const tty = stderr.isTTY === true;
  let last = 0;
  return {
    report(kind: ImportKind, count: number, done: boolean) {
      if (tty) {
        const now = Date.now();
        if (!done && now - last < 100) return;
        last = now;
        stderr.write(`\r\x1b[Kreading ${kind}: ${count}${done ? "\n" : ""}`);
      } else if (done) stderr.write(`read ${kind}: ${count}\n`);
    },
  };
}

/** Write the files into `out`: a new folder appears whole (written beside it, then renamed). */
function writeProject(out: string, project: GeneratedProject, force: boolean): void {
  if (existsSync(out) && readdirSync(out).length > 0) {
    if (!force) throw new Error(`${out} exists and is not empty: choose another --out, or add --force to write into it (files of the same name are replaced)`);
    for (const [name, content] of project.files) {
      const file = path.join(out, name);
      const temporary = `${file}.kasm-import-${process.pid}`;
      writeFileSync(temporary, content);
      renameSync(temporary, file);
    }
    return;
  }
  const temporary = `${out.replace(/[\\/]+$/, "")}.kasm-import-${process.pid}`;
  rmSync(temporary, { recursive: true, force: true });
  mkdirSync(temporary, { recursive: true });
  try {
    for (const [name, content] of project.files) writeFileSync(path.join(temporary, name), content);
    if (existsSync(out)) rmSync(out, { recursive: true }); // an empty folder
    renameSync(temporary, out);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Write the resource list for `pulumi import --file` (whole, or not at all), and say what to run
 * next. The secrets the objects hold are not in it: Kasm does not show them, and the program
 * Pulumi writes leaves them out (the README says how to declare them).
 */
function writePulumiImportFile(file: string, project: GeneratedProject, invocation: Invocation, io: ImportIo): number {
  const list = pulumiImportFile(project, invocation.pulumiImportProvider);
  try {
    const temporary = `${file}.kasm-import-${process.pid}`;
    writeFileSync(temporary, `${JSON.stringify(list, null, 2)}\n`);
    renameSync(temporary, file);
  } catch (error) {
    io.stderr.write(`kasm-import: ${(error as Error).message}\n`);
    return 1;
  }
  const protect = invocation.protect ? "" : " --protect=false";
  io.stdout.write(`Wrote ${list.resources.length} resources to ${file}.\n`);
  io.stdout.write(`Next, in the stack's project: pulumi import --file ${path.relative(io.cwd, file) || file} --out <program file>${protect}\n`);
  return 0;
}

/** Counts the HTTP requests the client sends (retries included), from undici's diagnostics channel. */
function requestCounter(): { readonly count: () => number; readonly stop: () => void } {
  let count = 0;
  const listener = () => {
    count++;
  };
  subscribe("undici:request:create", listener);
  return { count: () => count, stop: () => unsubscribe("undici:request:create", listener) };
}

/** This package's version and the @pulumi/pulumi versions it accepts, for the generated project's dependencies. */
function ownManifest(): { version: string; pulumiRange: string } {
  // The nearest package.json up from here: dist/importer/ when built, importer/ from the sources.
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version: string; peerDependencies: Record<string, string> };
      if (manifest.name === "pulumi-kasm") return { version: manifest.version, pulumiRange: manifest.peerDependencies["@pulumi/pulumi"] };
    }
    if (path.dirname(dir) === dir) throw new Error("kasm-import: the pulumi-kasm package.json was not found beside the command");
  }
}

/**
 * Run the command with `argv` (the arguments after the command's name). Resolves to the exit
 * status; never throws.
 */
export async function runImport(argv: readonly string[], io: ImportIo): Promise<number> {
  let invocation: Invocation | "help";
  try {
    invocation = parse(argv, io.cwd);
  } catch (error) {
    io.stderr.write(`kasm-import: ${(error as Error).message}\nRun kasm-import --help for the options.\n`);
    return 2;
  }
  if (invocation === "help") {
    io.stdout.write(HELP);
    return 0;
  }
  const { out, force, dryRun, kinds } = invocation;
  if (!dryRun && !force && invocation.pulumiImportFile !== undefined && existsSync(invocation.pulumiImportFile)) {
    io.stderr.write(`kasm-import: ${invocation.pulumiImportFile} exists: choose another --pulumi-import-file, or add --force to replace it\n`);
    return 1;
  }
  if (!dryRun && !force && invocation.pulumiImportFile === undefined && existsSync(out) && readdirSync(out).length > 0) {
    io.stderr.write(
      `kasm-import: ${out} exists and is not empty: choose another --out, or add --force to write into it (files of the same name are replaced)\n`,
    );
    return 1;
  }

  const manifest = ownManifest();
  const read: InstallationRead[] = [];
  const counts: string[] = [];
  for (const prefix of invocation.installations) {
    // A named installation's settings are its own (kasm-prod:, KASM_PROD_*), never the default one's.
    const names = settingNamesOf(prefix);
    let client: KasmClient;
    try {
      client = new KasmClient(
        optionsFromConfig((key) => invocation.config.get(key), names),
        io.env,
        names,
      );
    } catch (error) {
      io.stderr.write(`kasm-import: ${prefix === undefined ? "" : `installation ${prefix}: `}${(error as Error).message}\n`);
      return error instanceof KasmConfigurationError ? 2 : 1;
    }
    const requests = requestCounter();
    const started = Date.now();
    try {
      const inventory = await readInstallation(client, { kinds, onProgress: progressReporter(io.stderr).report });
      read.push({ prefix, inventory, baseUrl: client.transport.baseUrl, apiKey: client.transport.apiKey });
    } catch (error) {
      const advice =
        error instanceof KasmAuthenticationError
          ? ` Check ${names.namespace}:apiKey and the secret (${names.envPrefix}API_KEY_SECRET): nothing was read.`
          : isKasmApiError(error)
            ? " Nothing was written."
            : "";
      const message = (error as Error).message.replace(/\.?\s*$/, ".");
      io.stderr.write(`kasm-import: could not read the installation at ${client.transport.baseUrl}: ${message}${advice}\n`);
      return 1;
    } finally {
      requests.stop();
      await client.close();
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    counts.push(`${requests.count()} requests to ${client.transport.baseUrl} in ${seconds} s.`);
  }

  const project = generateFleet(read, {
    kinds,
    users: invocation.users,
    project: invocation.project,
    protect: invocation.protect,
    packageVersion: manifest.version,
    pulumiRange: manifest.pulumiRange,
    language: invocation.language,
    form: invocation.form,
    takeOver: invocation.takeOver,
    stack: invocation.stack,
  });
  io.stdout.write(`${summaryTable(project.summary)}\n\n`);
  io.stdout.write(`${counts.join("\n")}\n`);
  if (dryRun) {
    io.stdout.write("Dry run: nothing was written.\n");
    return 0;
  }
  if (invocation.pulumiImportFile !== undefined) return writePulumiImportFile(invocation.pulumiImportFile, project, invocation, io);
  try {
    writeProject(out, project, force);
  } catch (error) {
    io.stderr.write(`kasm-import: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`Wrote ${project.files.size} files to ${out}: ${[...project.files.keys()].join(", ")}.\n`);
  if (project.secrets.length > 0)
    io.stdout.write(`The program reads ${project.secrets.length} secret(s) from the stack configuration: ${out}/README.md lists the commands to set them.\n`);
  io.stdout.write(`Next: cd ${path.relative(io.cwd, out) || "."}${invocation.form === "dynamic" ? " && npm install" : ""}, then follow README.md there.\n`);
  return 0;
}

if (require.main === module) {
  runImport(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      // runImport answers every failure it expects with a status and a message; this one it did not expect (a bug), and its stack helps the report.
      process.stderr.write(`kasm-import failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
