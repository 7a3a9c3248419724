/**
 * `npm start` (scripts/start.ts) on a port that is taken: it says so, names the way out
 * (KASM_EMULATOR_PORT) and exits 1, without a stack trace and before touching .kasm-state/.
 * The quickstart it applies is covered by quickstart.test.ts.
 */
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const STATE_DIR = join(ROOT, ".kasm-state");

let blocker: Server;
let port: number;
beforeAll(async () => {
  blocker = createServer();
  await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
  port = (blocker.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((done) => blocker.close(() => done())));

/** Run scripts/start.ts as `npm start` does after its build, with `env` added. */
function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

const stateStamp = () => (existsSync(STATE_DIR) ? statSync(STATE_DIR).mtimeMs : "absent");

describe("npm start", () => {
  it("on a port in use: says so, names KASM_EMULATOR_PORT, exits 1 and leaves .kasm-state/ alone", async () => {
    const before = stateStamp();
    const exit = await start({ KASM_EMULATOR_PORT: String(port) });
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(exit.stderr).toContain("KASM_EMULATOR_PORT=8444 npm start");
    expect(exit.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
    expect(exit.stdout).not.toContain("listening");
    expect(stateStamp()).toEqual(before);
  }, 60_000);

  it("refuses a KASM_EMULATOR_PORT that is not a port, naming it", async () => {
    const exit = await start({ KASM_EMULATOR_PORT: "eighty" });
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain("KASM_EMULATOR_PORT must be a number from 0 to 65535, got eighty");
  }, 60_000);
});
