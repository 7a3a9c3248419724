/**
 * `npm start`: start the Kasm API emulator with the quickstart seed and apply the quickstart
 * program (examples/quickstart) against it; then keep the emulator running until Ctrl-C.
 *
 * With the Pulumi CLI on PATH the program is applied with `pulumi up` (a local file backend and a
 * passphrase secrets provider under .kasm-state/); without it, with this repository's test engine
 * (the `pulumi-kasm/testing` engine, testing/), which runs the same program through Pulumi's own language runtime and
 * dynamic-provider host. Either way the emulator's data and the stack's state are kept in
 * .kasm-state/, so a second `npm start` resumes and changes nothing. Delete .kasm-state/ to start over.
 *
 * Environment: KASM_EMULATOR_PORT (default 8443; 0 picks a free port). When the port is taken (a
 * first `npm start` still running, or `npx kasm-emulator` on it), it says so and exits 1 before
 * touching .kasm-state/.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { startEmulator } from "../emulator/server";
import { TestEngine, type RunResult } from "../testing/engine";

const REPO = path.resolve(__dirname, "..");
const EXAMPLE = path.join(REPO, "examples", "quickstart");
const STATE_DIR = path.join(REPO, ".kasm-state");
const EMULATOR_DATA = path.join(STATE_DIR, "emulator.json");
const STACK_STATE = path.join(STATE_DIR, "quickstart-stack.json");
const PULUMI_BACKEND = path.join(STATE_DIR, "pulumi-backend");
/** Encrypts the secrets of the local demo stack; this is a demo, not a place for real secrets. */
const PASSPHRASE = "kasm-quickstart-demo";
const PROJECT = "kasm-quickstart";
const STACK = "dev";

/** The quickstart seed's API key, and the demo users' passwords. */
function stackConfig(baseUrl: string): Record<string, string> {
  return {
    "kasm:baseUrl": baseUrl,
    "kasm:apiKey": "quickstart-key",
    "kasm:apiKeySecret": "quickstart-secret",
    [`${PROJECT}:alicePassword`]: "wonderland-demo-1",
    [`${PROJECT}:bobPassword`]: "builder-demo-2",
  };
}
const SECRET_KEYS = ["kasm:apiKeySecret", `${PROJECT}:alicePassword`, `${PROJECT}:bobPassword`];

function hasPulumiCli(): boolean {
  return spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
}

/**
 * Apply with the real CLI: a file backend and a passphrase-protected stack under .kasm-state/.
 * Each command runs asynchronously: the emulator the program talks to runs in this process, and
 * a synchronous spawn would stop it from answering until the command ended, which it never would.
 */
async function upWithCli(baseUrl: string): Promise<void> {
  mkdirSync(PULUMI_BACKEND, { recursive: true });
  const env = { ...process.env, PULUMI_BACKEND_URL: `file://${PULUMI_BACKEND}`, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE };
  const pulumi = async (args: string[], options: { check?: boolean } = {}): Promise<number | null> => {
    const child = spawn("pulumi", args, { cwd: REPO, env, stdio: "inherit" });
    const status = await new Promise<number | null>((done, fail) => {
      child.once("error", fail);
      child.once("close", (code) => done(code));
    });
    if (options.check !== false && status !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${status})`);
    return status;
  };
  if ((await pulumi(["stack", "select", STACK], { check: false })) !== 0) await pulumi(["stack", "init", STACK]);
  for (const [key, value] of Object.entries(stackConfig(baseUrl))) {
    await pulumi(["config", "set", ...(SECRET_KEYS.includes(key) ? ["--secret"] : []), key, value]);
  }
  await pulumi(["up", "--yes", "--skip-preview"]);
}

/** Apply with the test engine, and print what it did. */
async function upWithTestEngine(baseUrl: string): Promise<void> {
  const engine = new TestEngine({
    programDir: EXAMPLE,
    project: PROJECT,
    stack: STACK,
    stateFile: STACK_STATE,
    passphrase: PASSPHRASE,
    config: stackConfig(baseUrl),
    secretKeys: SECRET_KEYS,
  });
  const result = await engine.up();
  report(result);
  if (!result.ok) throw new Error("the quickstart did not apply cleanly (see the errors above)");
}

function report(result: RunResult): void {
  for (const r of result.resources) {
    if (r.type === "pulumi:pulumi:Stack") continue;
    const name = r.urn.split("::").at(-1);
    console.log(`  ${r.op.padEnd(8)} ${r.type.replace("pulumi-nodejs:dynamic/", "").padEnd(26)} ${name}${r.id ? `  (${r.id})` : ""}`);
  }
  for (const e of result.errors) console.error(`  error: ${e.urn ? `${e.urn}: ` : ""}${e.message}`);
  for (const l of result.logs.filter((l) => l.severity !== "info")) console.log(`  ${l.severity}: ${l.message}`);
  // Counted over the Kasm resources only: the stack itself is not something the quickstart made.
  const counts = new Map<string, number>();
  for (const r of result.resources) if (r.type !== "pulumi:pulumi:Stack") counts.set(r.op, (counts.get(r.op) ?? 0) + 1);
  const summary = [...counts].map(([op, n]) => `${n} ${op}`).join(", ");
  console.log(`  ${summary} in ${(result.durationMs / 1000).toFixed(1)} s`);
  console.log("Stack outputs:");
  for (const [key, value] of Object.entries(result.outputs)) console.log(`  ${key}: ${JSON.stringify(value)}`);
}

const HOST = "127.0.0.1";

/** The port from KASM_EMULATOR_PORT, or 8443; exits 2 with a message when it is not a port. */
function chosenPort(): number {
  const raw = process.env.KASM_EMULATOR_PORT?.trim() || "8443";
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`npm start: KASM_EMULATOR_PORT must be a number from 0 to 65535, got ${raw}`);
    process.exit(2);
  }
  return port;
}

/** What to do when the emulator's port is taken, or undefined for any other error. */
function busyPortMessage(error: unknown, port: number): string | undefined {
  if ((error as { code?: string })?.code !== "EADDRINUSE") return undefined;
  return (
    `npm start: port ${port} on ${HOST} is already in use (another \`npm start\` or kasm-emulator may be running there). ` +
    `Stop it (Ctrl-C in its terminal), or choose another port: KASM_EMULATOR_PORT=8444 npm start (0 picks a free one).`
  );
}

/**
 * Fail early, before .kasm-state/ is touched, when the port is taken: a second `npm start` must
 * not rewrite the data of the emulator that is running.
 */
async function ensurePortFree(port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(port, HOST, () => probe.close(() => resolve()));
  }).catch((error: unknown) => {
    const message = busyPortMessage(error, port);
    if (message === undefined) throw error;
    console.error(message);
    process.exit(1);
  });
}

async function main(): Promise<void> {
  const port = chosenPort();
  await ensurePortFree(port);
  // The emulator's data and the stack's state go together: with one missing, start both afresh.
  if (!existsSync(EMULATOR_DATA) || !(existsSync(STACK_STATE) || existsSync(PULUMI_BACKEND))) {
    rmSync(STATE_DIR, { recursive: true, force: true });
  }
  mkdirSync(STATE_DIR, { recursive: true });
  const emulator = await startEmulator({ host: HOST, port, seed: path.join(EXAMPLE, "seed.json"), dataFile: EMULATOR_DATA }).catch((error: unknown) => {
    // Taken between the probe and now.
    const message = busyPortMessage(error, port);
    if (message === undefined) throw error;
    console.error(message);
    process.exit(1);
  });
  console.log(`Kasm API emulator listening on ${emulator.url} (data: ${path.relative(REPO, EMULATOR_DATA)})`);

  try {
    if (hasPulumiCli()) {
      console.log("Applying examples/quickstart with `pulumi up` (the Pulumi CLI is installed)...");
      await upWithCli(emulator.url);
    } else {
      console.log("Applying examples/quickstart with the test engine (no Pulumi CLI on PATH)...");
      await upWithTestEngine(emulator.url);
    }
  } catch (error) {
    console.error(`npm start: ${(error as Error).message}`);
    await emulator.close();
    process.exit(1);
  }

  console.log(`\nThe emulator keeps running at ${emulator.url}. Try:`);
  console.log(`  curl -s ${emulator.url}/api/public/get_users -d '{"api_key":"quickstart-key","api_key_secret":"quickstart-secret"}'`);
  console.log("Press Ctrl-C to stop. (Delete .kasm-state/ to start from scratch.)");
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

// `npm start` builds first (prestart); when run directly, build if dist/ is missing.
if (!existsSync(path.join(REPO, "dist", "provider", "index.js"))) {
  execFileSync("npm", ["run", "build"], { cwd: REPO, stdio: "inherit" });
}
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
