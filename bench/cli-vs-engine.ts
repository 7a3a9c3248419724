/**
 * The same programs through the `pulumi` CLI and through the test engine, in one run, against an
 * emulator started in this process: a preview and an up of BENCH_USERS (default 1,000) `User`
 * resources, the up with no change that follows, and destroy; then a `UserSet` of BENCH_SET
 * (default 20,000) users: up, an up with no change, destroy. Prints, per step, the seconds each
 * engine took, their ratio, and how much of it the emulator spent answering (the rest is Pulumi:
 * program, engine, provider host). Each engine has an emulator of its own; the steps alternate
 * between them, never overlapping. Asserts nothing. Needs a `pulumi` on PATH
 * (`bash scripts/pulumi-cli/build.sh` prints a folder that has one).
 *
 *   npm run build && node scripts/link-self.js   # the program and the host load pulumi-kasm from dist/
 *   PATH="$(bash scripts/pulumi-cli/build.sh):$PATH" node --import tsx bench/cli-vs-engine.ts
 *   BENCH_USERS=200 BENCH_SET=2000 ...                  # a quicker run
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TestEngine, type RunResult } from "../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "../test/helpers/emulator";
import { PulumiCli, hasPulumi, type CliResult } from "../test/cli/pulumi-cli";

const USERS = Number(process.env.BENCH_USERS ?? 1000);
const SET = Number(process.env.BENCH_SET ?? 20_000);
const PASSPHRASE = "bench";

const MANY_USERS = `import * as kasm from "pulumi-kasm";
for (let i = 0; i < ${USERS}; i++) new kasm.User(\`u\${i}\`, { username: \`bench-u\${i}\`, firstName: "Bench" });
`;
const ONE_SET = `import * as kasm from "pulumi-kasm";
const users: kasm.UserSetUser[] = [];
for (let i = 0; i < ${SET}; i++) users.push({ username: \`bench-s\${i}\`, firstName: "Bench", lastName: String(i) });
const set = new kasm.UserSet("staff", { users });
export const count = set.userIds.apply((ids) => Object.keys(ids).length);
`;

interface Row {
  readonly program: string;
  readonly step: string;
  readonly cli: number;
  readonly engine: number;
  readonly cliKasm: number;
  readonly engineKasm: number;
}

/** A program folder with `index.ts`, linked to this repository's node_modules (pulumi-kasm included). */
function programFolder(dir: string, name: string, body: string): string {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "Pulumi.yaml"), `name: bench\nruntime: nodejs\n`);
  writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name: "bench", main: "index.ts" }));
  writeFileSync(path.join(folder, "index.ts"), body);
  symlinkSync(path.resolve(__dirname, "..", "node_modules"), path.join(folder, "node_modules"), "dir");
  return folder;
}

/** The emulator's own time (milliseconds of its request log) spent while `fn` ran, and `fn`'s seconds. */
async function timed<T>(emulator: TestEmulator, fn: () => Promise<T>): Promise<{ seconds: number; kasm: number; value: T }> {
  const from = emulator.requests.length;
  const started = process.hrtime.bigint();
  const value = await fn();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // Each request's line: `<operation> <status> <ms>ms`; fault lines carry no time.
  const kasm = emulator.requests.slice(from).reduce((sum, line) => sum + (Number.parseFloat(line.split(" ")[2] ?? "") || 0), 0) / 1000;
  return { seconds, kasm, value };
}

const okCli = (step: string) => (r: CliResult) => {
  if (r.code !== 0) throw new Error(`pulumi ${step} failed:\n${r.stdout.slice(-3000)}\n${r.stderr}`);
};
const okEngine = (step: string) => (r: RunResult) => {
  if (!r.ok) throw new Error(`test engine ${step} failed: ${JSON.stringify(r.errors).slice(0, 3000)}`);
};

async function compare(name: string, body: string, steps: readonly string[], dir: string): Promise<Row[]> {
  const [cliKasm, engineKasm] = await Promise.all([startTestEmulator({}), startTestEmulator({})]);
  try {
    const configOf = (emulator: TestEmulator) => ({ "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret });
    const cliDir = programFolder(dir, `${name}-cli`, body);
    const cli = new PulumiCli({
      programDir: cliDir,
      stack: "bench",
      workDir: path.join(dir, `${name}-cli-work`),
      passphrase: PASSPHRASE,
      config: configOf(cliKasm),
      secretKeys: ["kasm:apiKeySecret"],
    });
    await cli.init();
    const engine = new TestEngine({
      programDir: programFolder(dir, `${name}-engine`, body),
      project: "bench",
      stack: "bench",
      stateFile: path.join(dir, `${name}-engine.json`),
      passphrase: PASSPHRASE,
      config: configOf(engineKasm),
      secretKeys: ["kasm:apiKeySecret"],
    });
    const cliSteps: Record<string, () => Promise<CliResult>> = {
      preview: () => cli.preview(),
      up: () => cli.up(),
      "up (no change)": () => cli.up(),
      destroy: () => cli.destroy(),
    };
    const engineSteps: Record<string, () => Promise<RunResult>> = {
      preview: () => engine.preview(),
      up: () => engine.up(),
      "up (no change)": () => engine.up(),
      destroy: () => engine.destroy(),
    };
    const rows: Row[] = [];
    for (const step of steps) {
      const c = await timed(cliKasm, cliSteps[step]);
      okCli(step)(c.value);
      const e = await timed(engineKasm, engineSteps[step]);
      okEngine(step)(e.value);
      rows.push({ program: name, step, cli: c.seconds, engine: e.seconds, cliKasm: c.kasm, engineKasm: e.kasm });
      console.error(`${name} ${step}: CLI ${c.seconds.toFixed(1)} s, test engine ${e.seconds.toFixed(1)} s`);
    }
    return rows;
  } finally {
    await Promise.all([cliKasm.close(), engineKasm.close()]);
  }
}

async function main(): Promise<void> {
  if (!hasPulumi) throw new Error('no pulumi on PATH: PATH="$(bash scripts/pulumi-cli/build.sh):$PATH" first');
  const dir = mkdtempSync(path.join(tmpdir(), "kasm-bench-cli-"));
  try {
    const rows = [
      ...(await compare(`${USERS} User`, MANY_USERS, ["preview", "up", "up (no change)", "destroy"], dir)),
      ...(await compare(`UserSet of ${SET}`, ONE_SET, ["up", "up (no change)", "destroy"], dir)),
    ];
    console.log("the same programs through the pulumi CLI and the test engine (seconds; 'Kasm' is the emulator's own answering time)");
    console.log(
      `  ${"program".padEnd(18)} ${"step".padEnd(15)} ${"CLI".padStart(7)} ${"engine".padStart(7)} ${"ratio".padStart(6)} ${"Kasm/CLI".padStart(9)} ${"Kasm/eng".padStart(9)}`,
    );
    for (const r of rows) {
      console.log(
        `  ${r.program.padEnd(18)} ${r.step.padEnd(15)} ${r.cli.toFixed(1).padStart(7)} ${r.engine.toFixed(1).padStart(7)} ${(r.cli / r.engine).toFixed(2).padStart(6)} ${r.cliKasm.toFixed(1).padStart(9)} ${r.engineKasm.toFixed(1).padStart(9)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
