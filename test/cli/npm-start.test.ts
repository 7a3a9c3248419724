/**
 * `npm start` (scripts/start.ts) with the Pulumi CLI on PATH: it applies the quickstart with
 * `pulumi up` against the emulator it runs in its own process, then keeps serving. The emulator
 * must answer while the CLI runs: a synchronous spawn of `pulumi` blocked it, and the up waited
 * for ever. Run in a copy of the repository's top level (scripts/start.ts copied, the rest
 * linked), so that the repository's own .kasm-state/ is left alone. Skipped without the CLI; the
 * path without it is the test engine's (quickstart.test.ts).
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLOW } from "../e2e/helpers";
import { hasPulumi } from "./pulumi-cli";

const REPO = path.resolve(__dirname, "..", "..");
/** What start.ts imports or runs, beside itself: linked into the copy. */
const LINKED = ["permissions", "dist", "emulator", "examples", "node_modules", "package.json", "provider", "sdk", "testing", "tsconfig.json"];

describe.skipIf(!hasPulumi)("npm start with the Pulumi CLI on PATH", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-npm-start-"));
    mkdirSync(path.join(dir, "scripts"));
    copyFileSync(path.join(REPO, "scripts", "start.ts"), path.join(dir, "scripts", "start.ts"));
    copyFileSync(path.join(REPO, "Pulumi.yaml"), path.join(dir, "Pulumi.yaml"));
    for (const name of LINKED) symlinkSync(path.join(REPO, name), path.join(dir, name));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("applies the quickstart with pulumi up, then keeps the emulator answering until SIGTERM", { timeout: SLOW }, async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: dir,
      env: { ...process.env, KASM_EMULATOR_PORT: "0", PULUMI_HOME: path.join(dir, "pulumi-home"), PULUMI_SKIP_UPDATE_CHECK: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((done) => child.once("close", (code) => done(code)));
    try {
      // Ready, or ended early: whichever comes first.
      await Promise.race([exited, new Promise<void>((done) => child.stdout.on("data", () => output.includes("Press Ctrl-C to stop") && done()))]);
      expect(output, output).toContain("with `pulumi up` (the Pulumi CLI is installed)");
      expect(output, output).toMatch(/\+ 7 created/);
      const url = /The emulator keeps running at (\S+?)\. Try:/.exec(output)?.[1];
      expect(url, output).toBeDefined();
      const res = await fetch(`${url}/api/public/get_users`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: "quickstart-key", api_key_secret: "quickstart-secret" }),
      });
      expect(res.status).toBe(200);
      const users = ((await res.json()) as { users: { username: string }[] }).users.map((u) => u.username);
      expect(users).toEqual(expect.arrayContaining(["alice", "bob"]));
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
