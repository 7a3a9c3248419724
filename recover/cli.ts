#!/usr/bin/env node
/**
 * `kasm-recover`: bring a stack whose `pulumi up` was killed (a cancelled CI job, a runner's time
 * limit, an out-of-memory kill) back to where `pulumi up` can finish it, with no edit to the
 * program and no question asked:
 *
 * ```sh
 * npx kasm-recover --stack dev && pulumi up --yes --stack dev
 * ```
 *
 * In order: a file backend's checkpoint attributes left empty are deleted, the stack's lock left
 * by a process that no longer runs is removed (`pulumi cancel`), and each create the killed run
 * left pending is recorded (Kasm holds the object it made: proven by the kind, see
 * `provider/resources/framework/interrupted-create.ts`), dropped (Kasm has none, or the next create
 * records what it finds), or left with the way out named. Recorded objects are read once
 * (`pulumi refresh --target`), so that the state holds their outputs as the provider reports them.
 *
 * Exit status: 0 when nothing is left in the way of `pulumi up`; 1 when something is (a create
 * recovery cannot prove, a lock of a running process, a command that failed); 2 on a usage error.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import { fileBackendDir, repairFileBackend } from "./backend";
import { applyDecisions, decidePendingCreates, type Decision } from "./pending-creates";
import { PulumiCommandError, PulumiStack } from "./pulumi";

const HELP = `Usage: kasm-recover --stack <stack> [--cwd <dir>] [--dry-run]

After a killed \`pulumi up\`, makes the stack ready for the next \`pulumi up\`, with no edit to
the program:
  - deletes the stack's checkpoint attributes file that the kill left empty (a file backend:
    every command otherwise fails with "failed to load checkpoint: EOF");
  - removes the stack's lock when the process that took it no longer runs on this host
    (pulumi cancel); a lock of a running process is left, and nothing else is done;
  - for each create the killed run left pending: records the object it made in the state, when
    Kasm holds one with the same natural key and every declared field Kasm shows is equal; drops
    it when Kasm holds none (the next up creates it); otherwise leaves it and says why.
Then run: pulumi up --yes --stack <stack>

Options:
  --stack <stack>  the stack (required)
  --cwd <dir>      the program's folder, where Pulumi.yaml is (default: the current folder)
  --dry-run        say what would be done; change nothing
  --help           this text

It runs the \`pulumi\` CLI found on PATH, with this environment (the passphrase or secrets
provider, the backend, and the KASM_* settings the provider falls back to).

Exit status: 0 when nothing is left in the way of \`pulumi up\`, 1 when something is (each named),
2 on a usage error.
`;

/** A mistake on the command line: printed with a pointer to --help, exit 2. */
class UsageError extends Error {}

/** Where the command writes, and the environment it runs in. */
export interface RecoverIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** What the command line asks for. */
interface Invocation {
  readonly stack: string;
  readonly programDir: string;
  readonly dryRun: boolean;
}

function parse(argv: readonly string[], cwd: string): Invocation | "help" {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: { stack: { type: "string" }, cwd: { type: "string" }, "dry-run": { type: "boolean" }, help: { type: "boolean" } },
  });
  if (values.help) return "help";
  if (values.stack === undefined || values.stack.trim() === "") throw new UsageError("--stack is required: name the stack to recover, such as --stack dev");
  const programDir = path.resolve(cwd, values.cwd ?? ".");
  if (!existsSync(path.join(programDir, "Pulumi.yaml")))
    throw new UsageError(`${programDir} has no Pulumi.yaml: run kasm-recover in the program's folder, or give it with --cwd <dir>`);
  return { stack: values.stack.trim(), programDir, dryRun: values["dry-run"] === true };
}

/** The project's name, from its Pulumi.yaml. */
function projectName(programDir: string): string {
  const project = parseYaml(readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8")) as { name?: unknown } | null;
  if (typeof project?.name !== "string") throw new UsageError(`${path.join(programDir, "Pulumi.yaml")} names no project (its name: is missing)`);
  return project.name;
}

/** Run the recovery; the exit status. */
async function recover(invocation: Invocation, io: RecoverIo): Promise<number> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const pulumi = new PulumiStack(invocation.stack, invocation.programDir, io.env);
  const stackName = invocation.stack.split("/").pop() ?? invocation.stack;

  const backend = fileBackendDir(await pulumi.backendUrl());
  if (backend !== undefined && !invocation.dryRun) {
    const repair = repairFileBackend(backend, projectName(invocation.programDir), stackName);
    for (const file of repair.emptiedAttributesDeleted) say(`Deleted ${file}: a killed run left it empty (the checkpoint beside it is whole).`);
    if (repair.liveLocks.length > 0) {
      for (const file of repair.liveLocks) say(`The stack is locked by ${file}, of a process that still runs or runs on another host.`);
      say("Wait for that command to end (or end it), then run kasm-recover again. Nothing else was done.");
      return 1;
    }
    if (repair.staleLocks.length > 0) {
      await pulumi.run(["cancel", "--yes"]);
      for (const file of repair.staleLocks) say(`Removed the lock ${file}: the process that took it no longer runs.`);
    }
  }

  const state = await pulumi.exportState();
  const creates = (state.deployment.pending_operations ?? []).filter((op) => op.type === "creating");
  if (creates.length === 0) {
    say(`No create is pending in stack ${invocation.stack}. Next: pulumi up --yes --stack ${invocation.stack}`);
    return 0;
  }
  const decisions = await decidePendingCreates(creates, {
    config: await pulumi.configuration(),
    revealedState: await pulumi.exportStateWithSecrets(),
    env: io.env,
    warn: (message) => io.stderr.write(`warning: ${message}\n`),
  });
  for (const decision of decisions) say(decision.says);
  const changes = decisions.filter((decision) => decision.action !== "keep");
  if (invocation.dryRun) {
    say(`--dry-run: nothing was changed (${changes.length} of ${decisions.length} pending creates would be resolved).`);
    return 0;
  }
  if (changes.length > 0) await pulumi.importState(applyDecisions(state, decisions));
  const recorded = decisions.filter((decision): decision is Extract<Decision, { action: "record" }> => decision.action === "record");
  if (recorded.length > 0) await pulumi.run(["refresh", "--yes", "--skip-preview", ...recorded.flatMap((decision) => ["--target", decision.urn])]);
  const kept = decisions.length - changes.length;
  say(
    kept === 0
      ? `Next: pulumi up --yes --stack ${invocation.stack}`
      : `${kept} pending create(s) left, each named above with the way out; the others are resolved.`,
  );
  return kept === 0 ? 0 : 1;
}

/** Run `kasm-recover` with these arguments; resolves to the exit status. */
export async function main(argv: readonly string[], io: RecoverIo): Promise<number> {
  let invocation: Invocation | "help";
  try {
    invocation = parse(argv, io.cwd);
  } catch (error) {
    io.stderr.write(`kasm-recover: ${(error as Error).message}\nRun kasm-recover --help for the options.\n`);
    return 2;
  }
  if (invocation === "help") {
    io.stdout.write(HELP);
    return 0;
  }
  try {
    return await recover(invocation, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`kasm-recover: ${error.message}\n`);
      return 2;
    }
    const message = error instanceof PulumiCommandError ? error.message : `${(error as Error).message ?? error}`;
    io.stderr.write(`kasm-recover: ${message}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // main answers every failure it expects with a code and a message; this one it did not expect (a bug), and its stack helps the report.
      process.stderr.write(`kasm-recover failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
