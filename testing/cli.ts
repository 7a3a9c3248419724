#!/usr/bin/env node
/**
 * `kasm-test-engine`: run a Pulumi program's preview, up, refresh or destroy with the
 * {@link TestEngine}, without the Pulumi CLI, against the emulator or any Kasm. README.md beside
 * this file says what it does not do that `pulumi up` does.
 *
 * ```sh
 * PULUMI_CONFIG_PASSPHRASE=... KASM_API_KEY_SECRET=... \
 *   npx kasm-test-engine up --program . --stack dev --state .state/dev.json \
 *     --config kasm:baseUrl=http://127.0.0.1:8443 --config kasm:apiKey=pipeline-key
 * ```
 *
 * Prints one line per resource and the stack outputs (secrets as `[secret]`); exits 0 when the
 * operation succeeded, 1 when it failed (errors and mandatory policy violations are printed), 2
 * on a usage error.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { TestEngine, type PolicyPackConfig, type PolicyPackSpec, type ResourceResult, type RunResult } from "./engine";
import { isSecret } from "./values";

const OPERATIONS = ["preview", "up", "refresh", "destroy"] as const;
type OperationName = (typeof OPERATIONS)[number];

const HELP = `Usage: kasm-test-engine <preview|up|refresh|destroy> [options]

Runs a Pulumi program of pulumi-kasm resources through Pulumi's own language runtime and
dynamic-provider host, without the Pulumi CLI, keeping the stack's state in a JSON file.

Options:
  --program <dir>        the program's folder, with its Pulumi.yaml and node_modules (default: .)
  --stack <name>         the stack's name (default: dev)
  --state <file>         the state file; its folder is created as needed (default: .state/<stack>.json)
  --project <name>       the project's name (default: the name in the program's Pulumi.yaml)
  --config <key=value>   a configuration value, such as kasm:baseUrl=http://127.0.0.1:8443 (repeat it);
                         a key without a namespace gets the project's (password=... is <project>:password)
  --secret <key=value>   the same, marked secret: encrypted in the state, a secret in the program
  --policy-pack <dir>    a policy pack to run during preview and up (repeat it)
  --policy-pack-config <file>
                         a JSON file configuring a pack, as for pulumi: the first file configures
                         the first --policy-pack, and so on (give one per pack, or none); it maps
                         policy names (or "all") to a level or {"enforcementLevel": ..., ...properties}
  --full-stack-traces    run the program with Node's default stack trace limit (10 frames) rather
                         than 1 frame; on Node 20 and 22 an error thrown inside an apply then
                         takes minutes to be reported (README.md, "When a program fails")
  --help                 this text

While an operation runs longer than 2 s, a progress line goes to stderr every 2 s that a resource
completed (at least every 30 s otherwise): "destroy: 7 of 20 resources done (6 s), last: delete ...".

Environment:
  PULUMI_CONFIG_PASSPHRASE   encrypts the secrets in the state file (required)
  KASM_*                     the provider's settings not given with --config, such as
                             KASM_API_KEY_SECRET (kept off the command line this way)

Exit status: 0 when the operation succeeded, 1 when it failed, 2 on a usage error.
`;

class UsageError extends Error {}

interface Invocation {
  readonly operation: OperationName;
  readonly engine: TestEngine;
  readonly progress: Progress;
}

/** How often the progress line may be printed, and how long a quiet operation waits for the next. */
const PROGRESS_EVERY_MS = 2_000;
const PROGRESS_QUIET_MS = 30_000;

/**
 * The progress lines of a long operation on stderr: from 2 s on, every 2 s in which a resource
 * completed, and every 30 s when none did, so that a CI log shows the run is alive without a line
 * per resource.
 */
class Progress {
  private started = 0;
  private phase = "";
  private done = 0;
  private last?: ResourceResult;
  private printedDone = -1;
  private printedAt = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly write: (line: string) => void,
    /** How many resources the operation will go through, when known before it starts. */
    private total?: number,
  ) {}

  start(operation: string): void {
    this.phase = operation;
    this.started = Date.now();
    this.timer = setInterval(() => this.tick(), PROGRESS_EVERY_MS);
    this.timer.unref();
  }

  readonly onResource = (operation: string, resource: ResourceResult): void => {
    if (operation !== this.phase) {
      // `up` with policy packs previews first: count the update's resources apart.
      this.phase = operation;
      this.done = 0;
      this.printedDone = -1;
      this.total = undefined;
    }
    this.done++;
    this.last = resource;
  };

  private tick(): void {
    const now = Date.now();
    if (now - this.started < PROGRESS_EVERY_MS - 100) return;
    if (this.done === this.printedDone && now - this.printedAt < PROGRESS_QUIET_MS) return;
    this.printedDone = this.done;
    this.printedAt = now;
    const of = this.total === undefined ? "" : ` of ${this.total}`;
    const last = this.last
      ? `, last: ${this.last.op} ${this.last.type.replace(/^pulumi-nodejs:dynamic\//, "")} ${this.last.urn.slice(this.last.urn.lastIndexOf("::") + 2)}`
      : "";
    this.write(`${this.phase}: ${this.done}${of} resources done (${Math.round((now - this.started) / 1000)} s)${last}\n`);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** How many resources destroy (all) or refresh (the custom ones) goes through: counted in the state file, without decrypting it. */
function resourcesInState(stateFile: string, operation: OperationName): number | undefined {
  if (operation !== "destroy" && operation !== "refresh") return undefined;
  try {
    const resources = (JSON.parse(readFileSync(stateFile, "utf8")) as { resources?: { custom?: boolean }[] }).resources ?? [];
    return operation === "destroy" ? resources.length : resources.filter((r) => r.custom).length;
  } catch {
    return undefined;
  }
}

/** Read the command line into an engine and an operation. */
function parse(argv: readonly string[]): Invocation | "help" {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      program: { type: "string", default: "." },
      stack: { type: "string", default: "dev" },
      state: { type: "string" },
      project: { type: "string" },
      config: { type: "string", multiple: true, default: [] },
      secret: { type: "string", multiple: true, default: [] },
      "policy-pack": { type: "string", multiple: true, default: [] },
      "policy-pack-config": { type: "string", multiple: true, default: [] },
      "full-stack-traces": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return "help";
  const [operation, ...extra] = positionals;
  if (!operation) throw new UsageError(`no operation given: one of ${OPERATIONS.join(", ")}`);
  if (!(OPERATIONS as readonly string[]).includes(operation)) throw new UsageError(`unknown operation "${operation}": one of ${OPERATIONS.join(", ")}`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);

  const programDir = path.resolve(values.program);
  refuseOtherRuntimes(programDir);
  const project = values.project ?? projectName(programDir);
  const passphrase = process.env.PULUMI_CONFIG_PASSPHRASE;
  if (!passphrase) throw new UsageError("PULUMI_CONFIG_PASSPHRASE is not set: it encrypts the secrets in the state file, as with `pulumi login --local`");

  const config: Record<string, string> = {};
  const secretKeys: string[] = [];
  const add = (pair: string, secret: boolean) => {
    const at = pair.indexOf("=");
    if (at <= 0)
      throw new UsageError(`--${secret ? "secret" : "config"} ${secret ? "<hidden>" : pair}: expected key=value, such as kasm:baseUrl=http://127.0.0.1:8443`);
    const name = pair.slice(0, at);
    const key = name.includes(":") ? name : `${project}:${name}`;
    config[key] = pair.slice(at + 1);
    if (secret) secretKeys.push(key);
  };
  for (const pair of values.config) add(pair, false);
  for (const pair of values.secret) add(pair, true);

  const stateFile = path.resolve(values.state ?? path.join(".state", `${values.stack}.json`));
  const progress = new Progress((line) => process.stderr.write(line), resourcesInState(stateFile, operation as OperationName));
  const engine = new TestEngine({
    programDir,
    project,
    stack: values.stack,
    stateFile,
    passphrase,
    config,
    secretKeys,
    policyPacks: policyPacks(values["policy-pack"], values["policy-pack-config"]),
    ...(values["full-stack-traces"] ? { stackTraceLimit: false as const } : {}),
    onResource: progress.onResource,
  });
  return { operation: operation as OperationName, engine, progress };
}

const LEVELS: readonly string[] = ["advisory", "mandatory", "remediate", "disabled"];

/**
 * The packs with their configuration files, paired as the Pulumi CLI pairs them: the N-th
 * `--policy-pack-config` configures the N-th `--policy-pack`, and when any is given there is one
 * per pack.
 */
function policyPacks(dirs: readonly string[], configFiles: readonly string[]): PolicyPackSpec[] {
  if (configFiles.length > 0 && configFiles.length !== dirs.length) {
    throw new UsageError(
      `${configFiles.length} --policy-pack-config for ${dirs.length} --policy-pack: the N-th config file configures the N-th pack, so give one per pack (or none)`,
    );
  }
  return dirs.map((dir, i) => (configFiles[i] === undefined ? { dir: path.resolve(dir) } : { dir: path.resolve(dir), config: readPackConfig(configFiles[i]) }));
}

/** A `--policy-pack-config` file: `{ "<policy>" | "all": level | { enforcementLevel?, ...properties } }`. */
function readPackConfig(file: string): PolicyPackConfig {
  const where = `--policy-pack-config ${file}`;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`${where} cannot be read: ${(error as Error).message}`);
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} is not JSON: ${(error as Error).message}`);
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new UsageError(
      `${where}: expected a JSON object mapping policy names (or "all") to an enforcement level or to { "enforcementLevel": ..., ...properties }`,
    );
  }
  for (const [policy, value] of Object.entries(config)) {
    const level = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { enforcementLevel?: unknown }).enforcementLevel : value;
    if (level === undefined && typeof value === "object") continue;
    if (typeof level !== "string" || !LEVELS.includes(level)) {
      throw new UsageError(`${where}: "${policy}" has enforcement level ${JSON.stringify(level)}: one of ${LEVELS.join(", ")}`);
    }
  }
  return config as PolicyPackConfig;
}

/**
 * Refuse, in one line, a program whose Pulumi.yaml names another runtime than Node.js (`yaml`,
 * `python`, `go`, ...): the engine runs Node.js programs alone, and would otherwise fail with
 * Node's own words about a main file. A folder without a readable Pulumi.yaml is left to the
 * steps that need one.
 */
function refuseOtherRuntimes(programDir: string): void {
  let text: string;
  try {
    text = readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8");
  } catch {
    return;
  }
  // `runtime: yaml`, or `runtime:` with a `name: yaml` under it.
  const runtime = /^runtime:[ \t]*(?:\r?\n[ \t]+name:[ \t]*)?["']?([A-Za-z]+)/m.exec(text)?.[1];
  if (runtime !== undefined && runtime !== "nodejs")
    throw new UsageError(
      `the program in ${programDir} is a ${runtime} program (runtime: ${runtime} in its Pulumi.yaml), and kasm-test-engine runs Node.js programs only (runtime: nodejs): run this one with the pulumi CLI (pulumi preview, pulumi up)`,
    );
}

/** The `name:` of the program's Pulumi.yaml. */
function projectName(programDir: string): string {
  const file = path.join(programDir, "Pulumi.yaml");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`${file} cannot be read: give the program's folder with --program, or the project's name with --project`);
  }
  const name = /^name:\s*["']?([^"'\s#]+)/m.exec(text)?.[1];
  if (!name) throw new UsageError(`${file} has no name: line; give the project's name with --project`);
  return name;
}

/** What the run did, in the CLI's words; the stack outputs from the state, secrets masked. */
function report(result: RunResult, engine: TestEngine): string {
  const lines = [`${result.operation}: ${result.ok ? "succeeded" : "failed"} in ${(result.durationMs / 1000).toFixed(1)} s`];
  for (const r of result.resources) {
    const name = r.urn.slice(r.urn.lastIndexOf("::") + 2);
    lines.push(`  ${r.op.padEnd(7)} ${r.type} ${name}${r.changed.length ? ` (${r.changed.join(", ")})` : ""}`);
  }
  // Counted from the lines above, so that the count and the list agree (a refresh lists no stack).
  const byOp = new Map<string, number>();
  for (const r of result.resources) byOp.set(r.op, (byOp.get(r.op) ?? 0) + 1);
  const counts = [...byOp].map(([op, n]) => `${n} ${op}`);
  const stackListed = result.resources.some((r) => r.type === "pulumi:pulumi:Stack");
  if (counts.length) lines.push(`resources: ${counts.join(", ")}${stackListed ? " (the stack included)" : ""}`);
  // The provider's warnings and notes (and the program's pulumi.log lines), as the CLI shows its diagnostics; errors come below.
  for (const l of result.logs) if (l.severity === "warning" || l.severity === "info") lines.push(`${l.severity}: ${l.message}${l.urn ? ` (${l.urn})` : ""}`);
  for (const v of result.policyViolations)
    lines.push(`policy ${v.enforcementLevel}: ${v.policyPack}/${v.policyName}: ${v.message}${v.urn ? ` (${v.urn})` : ""}`);
  // A violation that stopped the run is an error too; it is printed once, above, as the CLI prints it once.
  for (const e of result.errors) if (!e.violation) lines.push(`error${e.urn ? ` in ${e.urn}` : ""}: ${e.message}`);
  if (result.ok && (result.operation === "up" || result.operation === "refresh")) {
    const stack = engine.readState().find((r) => r.type === "pulumi:pulumi:Stack");
    for (const [key, value] of Object.entries(stack?.outputs ?? {}))
      lines.push(`output ${key}: ${JSON.stringify(value, (_k, v: unknown) => (isSecret(v) ? "[secret]" : v))}`);
  }
  const programOutput = result.programOutput.trimEnd();
  if (!result.ok && programOutput !== "" && result.errors.some((e) => e.urn === "")) lines.push("the program's own output:", programOutput);
  return `${lines.join("\n")}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  let invocation: Invocation | "help";
  try {
    invocation = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError) && (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") !== true) throw error;
    process.stderr.write(`kasm-test-engine: ${(error as Error).message}\nRun kasm-test-engine --help for the options.\n`);
    return 2;
  }
  if (invocation === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  const { engine, operation, progress } = invocation;
  progress.start(operation === "up" && engine.options.policyPacks?.length ? "preview" : operation);
  let result: RunResult;
  try {
    result = await engine[operation]();
  } finally {
    progress.stop();
  }
  process.stdout.write(report(result, invocation.engine));
  return result.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`kasm-test-engine: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
