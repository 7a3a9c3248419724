/**
 * Both packs end to end, through the real analyzer process, started as the engine starts it:
 * `node @pulumi/pulumi/cmd/run-policy-pack <engine-address> .` in the pack's folder, which loads
 * the pack from its package.json `main` (the compiled dist/ file: run `npm run build` first) and
 * prints its port on stdout. The engine's side is played here: a minimal Engine service for the
 * address, then GetAnalyzerInfo, Configure, Analyze (with options) and AnalyzeStack.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnalyzerDriver, secret, startEngine } from "./analyzer-client";
import { cast, config, PASSWORD, stack, without } from "./fixtures";
import { UNKNOWN } from "./helpers";

const ROOT = path.resolve(__dirname, "../..");
const RUNNER = require.resolve("@pulumi/pulumi/cmd/run-policy-pack");

interface RunningPack {
  readonly process: ChildProcess;
  readonly driver: AnalyzerDriver;
  readonly stderr: string[];
}

/** Start a pack's analyzer process in its folder and connect to the port it prints. */
async function startPack(folder: string, engineAddress: string): Promise<RunningPack> {
  const child = spawn(process.execPath, [RUNNER, engineAddress, "."], { cwd: path.join(ROOT, folder), stdio: ["ignore", "pipe", "pipe"] });
  const stderr: string[] = [];
  child.stderr!.on("data", (chunk) => stderr.push(String(chunk)));
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${folder}: no port within 20 s; stderr: ${stderr.join("")}`)), 20_000);
    child.stdout!.on("data", (chunk) => {
      out += String(chunk);
      const line = out.split("\n")[0];
      if (out.includes("\n")) {
        clearTimeout(timer);
        if (/^\d+$/.test(line.trim())) resolve(line.trim());
        else reject(new Error(`${folder}: first stdout line is not a port: ${line}`));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${folder}: the analyzer exited with ${code}; stderr: ${stderr.join("")}`));
    });
  });
  return { process: child, driver: AnalyzerDriver.connect(`127.0.0.1:${port}`), stderr };
}

async function stopPack(pack: RunningPack | undefined): Promise<void> {
  if (!pack) return;
  pack.driver.close();
  if (pack.process.exitCode === null) {
    const exited = new Promise((resolve) => pack.process.once("exit", resolve));
    pack.process.kill();
    await exited;
  }
}

let engine: Awaited<ReturnType<typeof startEngine>>;
let permissions: RunningPack;
let hardening: RunningPack;

beforeAll(async () => {
  for (const pack of ["permissions", "hardening"])
    if (!existsSync(path.join(ROOT, "dist/policy", pack, "index.js"))) throw new Error(`dist/policy/${pack}/index.js is missing: run \`npm run build\` first`);
  engine = await startEngine();
  [permissions, hardening] = await Promise.all([startPack("policy/permissions", engine.address), startPack("policy/hardening", engine.address)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([stopPack(permissions), stopPack(hardening)]);
  await engine?.stop();
});

describe("the packs in the real analyzer process", () => {
  it("kasm-permissions: a preview of a stack whose key lacks one permission", async () => {
    const { driver } = permissions;
    const info = await driver.info();
    expect([info.name, info.version]).toEqual(["kasm-permissions", "0.1.0"]);
    await driver.configure(
      Object.fromEntries(
        ["key-permission-dependencies", "resource-needs-permissions", "read-only-key", "least-privilege"].map((name) => [
          name,
          config({ permissions: without("Groups Modify") }),
        ]),
      ),
    );
    // Preview: the user's id is not known yet; secrets arrive marked as such.
    const resources = stack((r) => Object.assign(r[0].props, { password: secret(PASSWORD), userId: UNKNOWN }));
    for (const r of resources) expect(await driver.analyze(r)).toEqual([]);
    const diagnostics = await driver.analyzeStack(resources);
    expect(diagnostics.map((d) => [d.policy, d.level, d.urn.split("::").pop()])).toEqual([
      ["resource-needs-permissions", "mandatory", "alice-devs"],
      ["resource-needs-permissions", "mandatory", "vpn-devs"],
      // A dynamic casting config's preview cannot say whether the change moves it between groups.
      ["resource-needs-permissions", "advisory", ""],
      ["least-privilege", "advisory", ""],
    ]);
    expect(diagnostics[0].message).toContain("GroupMembership 'alice-devs' cannot be created and deleted with this API key");
    for (const d of diagnostics) expect(d.message).not.toContain(PASSWORD);
    expect(permissions.stderr.join("")).toBe("");
  });

  it("kasm-hardening: an open anonymous casting link", async () => {
    const { driver } = hardening;
    expect((await driver.info()).name).toBe("kasm-hardening");
    await driver.configure({});
    const diagnostics = await driver.analyze(cast({ limitIps: false, validUntil: "2001-01-01 00:00:00" }));
    expect(diagnostics.map((d) => [d.policy, d.level])).toEqual([
      ["cast-anonymous-ip-limit", "advisory"],
      ["cast-valid-until-past", "mandatory"],
    ]);
    expect(hardening.stderr.join("")).toBe("");
  });
});
