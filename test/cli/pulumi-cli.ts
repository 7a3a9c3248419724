/**
 * The Pulumi CLI, when it is on PATH: a stack of a program with a local file backend and the
 * passphrase secrets provider, all under one temporary folder (`PULUMI_HOME` included, so nothing
 * touches the user's ~/.pulumi). Every command runs asynchronously: the emulator the program talks
 * to runs in the test's own process and must keep serving while the CLI waits for it.
 */
import { execFile, spawn, spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";

/** This repository, whose node_modules a program copy is linked to. */
const REPO = path.resolve(__dirname, "..", "..");

/** Whether a `pulumi` CLI answers on PATH. */
export const hasPulumi: boolean = spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;

/**
 * A stack named `dev` of the program in `programDir`, on the Kasm (or emulator) at `url` with the
 * API key `key` (its secret a secret setting), its backend and PULUMI_HOME in `workDir`: created
 * and configured, ready for `preview` and `up`.
 */
export async function stackOn(
  url: string,
  key: { readonly key: string; readonly secret: string },
  programDir: string,
  workDir: string,
  passphrase: string,
  options: Pick<PulumiCliOptions, "typeCheck"> = {},
): Promise<PulumiCli> {
  const cli = new PulumiCli({
    ...options,
    programDir,
    stack: "dev",
    workDir,
    passphrase,
    config: { "kasm:baseUrl": url, "kasm:apiKey": key.key, "kasm:apiKeySecret": key.secret, "kasm:maxRetries": "1" },
    secretKeys: ["kasm:apiKeySecret"],
  });
  await cli.init();
  return cli;
}

/** The commands whose output a person reads for what will change or changed. */
const DISPLAYED_STEPS = new Set(["preview", "up", "refresh", "destroy"]);

/**
 * The internal field a command's display shows, if any: the notes the native provider's preview
 * gives the policy packs (`resourceFieldsChanging`, `groupChanging`) travel in planned outputs that
 * no display prints, and `__` properties (`__provider`, `__resourceName`) are the dynamic form's
 * own. A property line of `--diff` (`~ __provider: ...`) or a `[diff: ...]` naming one counts.
 */
export function internalFieldShown(stdout: string): string | undefined {
  const named = /\b(resourceFieldsChanging|groupChanging)\b/.exec(stdout)?.[1];
  if (named) return named;
  return /^[\s+~-]*(__[A-Za-z]\w*)\s*:/m.exec(stdout)?.[1] ?? /\[diff:[^\]]*?\b(__[A-Za-z]\w*)/.exec(stdout)?.[1];
}

/** The ids of every process below `pid` (its children, theirs, ...), from `ps`. */
function descendantsOf(pid: number): number[] {
  const listed = spawnSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" }).stdout ?? "";
  const children = new Map<number, number[]>();
  for (const line of listed.split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (Number.isInteger(child) && Number.isInteger(parent)) children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  for (let next = [pid]; next.length > 0; ) {
    next = next.flatMap((p) => children.get(p) ?? []);
    found.push(...next);
  }
  return found;
}

/** What a CLI command printed, and its exit code. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface PulumiCliOptions {
  /** A copy of the program (the CLI writes Pulumi.<stack>.yaml beside it); node_modules is linked in. */
  readonly programDir: string;
  readonly stack: string;
  /** The folder for the file backend and PULUMI_HOME. */
  readonly workDir: string;
  readonly passphrase: string;
  /** Stack configuration, by fully qualified key. */
  readonly config: Readonly<Record<string, string>>;
  readonly secretKeys: readonly string[];
  /** More environment for every command (a Python program's interpreter, say). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Let ts-node type-check a TypeScript program before it runs, as it does by default for a user
   * (default: false, transpile only). The check takes about six seconds of each command on this
   * kind of machine and says nothing about the package: `npm run typecheck` compiles every
   * example against the built types, strictly, before the tests. The scenarios that keep it
   * (test/cli/failures.test.ts) show that a program type-checks and runs as users run it.
   */
  readonly typeCheck?: boolean;
}

/** One stack driven through the `pulumi` CLI. */
export class PulumiCli {
  private readonly env: NodeJS.ProcessEnv;

  constructor(readonly options: PulumiCliOptions) {
    this.env = {
      ...process.env,
      PULUMI_HOME: path.join(options.workDir, "pulumi-home"),
      PULUMI_CONFIG_PASSPHRASE: options.passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      // Offline: a plugin the program needs is on PATH or nowhere.
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      ...(options.typeCheck === true ? {} : { PULUMI_NODEJS_TRANSPILE_ONLY: "true" }),
      ...options.env,
    };
  }

  /**
   * Run `pulumi <args>` in the program's folder. What a `preview`, `up`, `refresh` or `destroy`
   * prints for a person (not `--json`) is held to {@link internalFieldShown} in every scenario.
   */
  run(args: readonly string[]): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      // A global flag, first: after a `--` it would be taken for an argument.
      execFile(
        "pulumi",
        ["--non-interactive", ...args],
        { cwd: this.options.programDir, env: this.env, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          const result = { code, stdout: String(stdout), stderr: String(stderr) };
          const internal = DISPLAYED_STEPS.has(args[0]) && !args.includes("--json") ? internalFieldShown(result.stdout) : undefined;
          if (internal) reject(new Error(`pulumi ${args.join(" ")} showed the internal field '${internal}' to its reader:\n${result.stdout}`));
          else resolve(result);
        },
      );
    });
  }

  /**
   * Start `pulumi <args>` without waiting for it, so that a test can kill the whole run at once,
   * as a cancelled CI job or a lost machine does: `kill()` sends SIGKILL to the CLI and to every
   * process it started (the language host, the program, the provider plugins, which the CLI puts
   * in process groups of their own), each by its id. `done` settles with what it printed and its
   * exit code (1 when killed).
   */
  start(args: readonly string[]): { readonly done: Promise<CliResult>; kill(): void } {
    const child = spawn("pulumi", ["--non-interactive", ...args], { cwd: this.options.programDir, env: this.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const done = new Promise<CliResult>((resolve) => child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr })));
    return {
      done,
      kill: () => {
        if (child.pid === undefined) return;
        // Every descendant first, found while the CLI still holds them (once it dies they are re-parented).
        for (const pid of [child.pid, ...descendantsOf(child.pid)]) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // Gone already.
          }
        }
      },
    };
  }

  /**
   * Run one of the package's commands (`dist/recover/cli.js`, as `npx kasm-recover` runs it) in
   * the program's folder, with the environment every `pulumi` command of this stack gets.
   */
  tool(script: string, args: readonly string[]): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [path.join(REPO, script), ...args],
        { cwd: this.options.programDir, env: this.env, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
      );
    });
  }

  /** The stack's state, as `pulumi stack export` writes it (its `deployment`). */
  async exported(): Promise<{ resources?: { urn: string; id?: string; type: string }[]; pending_operations?: { type: string; resource: { urn: string } }[] }> {
    return JSON.parse((await this.ok(["stack", "export", "--stack", this.options.stack])).stdout).deployment;
  }

  /** Run and fail with the output unless the command succeeded. */
  async ok(args: readonly string[]): Promise<CliResult> {
    const result = await this.run(args);
    if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** Link node_modules, log in to the file backend, create the stack and set its configuration. */
  async init(): Promise<void> {
    const backend = path.join(this.options.workDir, "backend");
    mkdirSync(backend, { recursive: true });
    try {
      symlinkSync(path.join(REPO, "node_modules"), path.join(this.options.programDir, "node_modules"), "dir");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    await this.ok(["login", `file://${backend}`]);
    await this.ok(["stack", "init", this.options.stack, "--secrets-provider", "passphrase"]);
    // One command for every setting (each `pulumi` command costs about half a second of CPU). The
    // pair is the flag's own value (`--secret=key=value`): a value may start with "-" (an armored
    // activation key does), and the CLI splits the pair at the first "=", which no key has.
    const pairs = Object.entries(this.options.config).map(
      ([key, value]) => `--${this.options.secretKeys.includes(key) ? "secret" : "plaintext"}=${key}=${value}`,
    );
    if (pairs.length) await this.ok(["config", "set-all", "--stack", this.options.stack, ...pairs]);
  }

  preview(extra: readonly string[] = []): Promise<CliResult> {
    return this.run(["preview", "--stack", this.options.stack, ...extra]);
  }

  up(extra: readonly string[] = []): Promise<CliResult> {
    return this.run(["up", "--yes", "--skip-preview", "--stack", this.options.stack, ...extra]);
  }

  refresh(): Promise<CliResult> {
    return this.run(["refresh", "--yes", "--skip-preview", "--stack", this.options.stack]);
  }

  destroy(): Promise<CliResult> {
    return this.run(["destroy", "--yes", "--skip-preview", "--stack", this.options.stack]);
  }

  /**
   * Run `preview`, `up`, `refresh` or `destroy` with `--json` and read what the engine did to each
   * resource: its operation and whether it failed, by resource name, as the test engine's
   * `RunResult` tells them (see {@link opsOfEvents}).
   */
  async steps(operation: "preview" | "up" | "refresh" | "destroy", extra: readonly string[] = []): Promise<CliSteps> {
    const args =
      operation === "preview"
        ? ["preview", "--json", "--show-sames", "--stack", this.options.stack, ...extra]
        : [operation, "--yes", "--skip-preview", "--json", "--stack", this.options.stack, ...extra];
    const result = await this.run(args);
    return { ...result, ...(operation === "preview" ? opsOfPreview(result.stdout) : opsOfEvents(result.stdout)) };
  }

  /** The stack outputs, secrets shown. */
  async outputs(): Promise<Record<string, unknown>> {
    return JSON.parse((await this.ok(["stack", "output", "--json", "--show-secrets", "--stack", this.options.stack])).stdout);
  }
}

/** What a `--json` run did, by resource name (the last part of its URN). */
export interface CliSteps extends CliResult {
  /** The operation of each resource that completed a step (`create`, `update`, `same`, `delete`, `replace`, `read`). */
  readonly ops: Record<string, string>;
  /** The resources the engine reported an error for (the stack's own "update failed" left out), with the messages. */
  readonly errors: Record<string, string[]>;
}

const nameOf = (urn: string) => urn.split("::").pop() ?? urn;
/** The CLI's step names for the halves of a replacement, as one `replace`; `refresh` reads are `read`. */
const OP_NAMES: Record<string, string> = { "create-replacement": "replace", "delete-replaced": "replace", replace: "replace", refresh: "read" };

/** The engine events of `up`/`refresh`/`destroy --json`: one JSON object a line. */
export function opsOfEvents(stdout: string): Pick<CliSteps, "ops" | "errors"> {
  const ops: Record<string, string> = {};
  const errors: Record<string, string[]> = {};
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line);
    const done = event.resOutputsEvent?.metadata;
    if (done) ops[nameOf(done.urn)] = OP_NAMES[done.op] ?? done.op;
    const diag = event.diagnosticEvent;
    if (diag?.severity === "error" && diag.urn && !diag.urn.includes("::pulumi:pulumi:Stack::")) {
      (errors[nameOf(diag.urn)] ??= []).push(diag.message.trim());
    }
  }
  return { ops, errors };
}

/** The plan of `preview --json`: one JSON document with its steps and diagnostics. */
export function opsOfPreview(stdout: string): Pick<CliSteps, "ops" | "errors"> {
  const start = stdout.indexOf("{");
  if (start < 0) return { ops: {}, errors: {} };
  const plan = JSON.parse(stdout.slice(start));
  const ops: Record<string, string> = {};
  for (const step of plan.steps ?? []) ops[nameOf(step.urn)] = OP_NAMES[step.op] ?? step.op;
  const errors: Record<string, string[]> = {};
  for (const diag of plan.diagnostics ?? []) {
    if (diag.severity === "error" && diag.urn && !diag.urn.includes("::pulumi:pulumi:Stack::")) (errors[nameOf(diag.urn)] ??= []).push(diag.message.trim());
  }
  return { ops, errors };
}

/**
 * Run one CLI step against an emulator, recording in `figures` the requests it sent and how long
 * it took (the figures a test prints), and handing back the requests with the result.
 */
export async function measuredStep<R extends object>(
  emulator: { readonly requests: string[] },
  figures: string[],
  label: string,
  run: () => Promise<R>,
): Promise<R & { readonly requests: string[] }> {
  const before = emulator.requests.length;
  const started = performance.now();
  const result = await run();
  const requests = emulator.requests.slice(before);
  figures.push(`${label}: ${requests.length} request(s), ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { ...result, requests };
}

/**
 * The resources `preview --diff` shows a change for, by name: the operation in each block's
 * header (`~ kasm:index:User: (update)`) and the block's lines that mark a change of a property
 * (`~ firstName: "Ada" => "Augusta"`, `- lastName : "Lovelace"`), spaces squeezed; not the lines of
 * unchanged properties, nor the bracketed `[urn=...]`, `[id=...]` and `[provider=...]`. The
 * stack's own block is left out.
 */
export function diffBlocks(stdout: string): Record<string, { op: string; lines: string[] }> {
  const blocks: Record<string, { op: string; lines: string[] }> = {};
  let current: { op: string; lines: string[] } | undefined;
  let op = "";
  for (const raw of stdout.split("\n")) {
    const line = raw.trim();
    const header = /^[~+\-]{1,2}\s+\S+:\s+\((\w[\w-]*)\)$/.exec(line);
    if (header) {
      op = header[1];
      current = undefined;
      continue;
    }
    const urn = /^\[urn=(.*)\]$/.exec(line);
    if (urn) {
      const name = urn[1].split("::").pop()!;
      current = urn[1].includes("::pulumi:pulumi:Stack::") ? undefined : (blocks[name] = { op, lines: [] });
      continue;
    }
    if (current && line !== "" && !line.startsWith("[") && /^[~+\-]/.test(line)) current.lines.push(line.replace(/\s+/g, " "));
    else if (line === "" || /^(Resources|Duration|Previewing)/.test(line)) current = undefined;
  }
  return blocks;
}
