/**
 * kasm-recover's two local decisions, on files and states made here: which locks of a file backend
 * are stale (only a lock of this host whose process no longer runs: a live command's lock, or
 * another host's, is what keeps two commands from writing the state at once), which attributes
 * files are deleted (only empty ones), and how the decisions change an exported state (a recorded
 * create becomes a resource with its encrypted inputs as they were; a kept one stays pending).
 * The CLI scenarios (test/cli/interrupted.test.ts, test/cli/fault-suite.test.ts) run the whole
 * command through the `pulumi` CLI.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileBackendDir, repairFileBackend } from "../../recover/backend";
import { applyDecisions } from "../../recover/pending-creates";
import { revealed, type ExportedStack } from "../../recover/pulumi";
import { tempDir } from "../e2e/helpers";

const tmp = tempDir("recover-backend");
afterAll(() => tmp.remove());

/** A pid no process has: one that just exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

function backendWith(name: string, locks: Record<string, { pid: number; hostname: string }>, attributes: Record<string, string>): string {
  const backend = path.join(tmp.dir, name);
  const lockDir = path.join(backend, ".pulumi", "locks", "organization", "proj", "dev");
  const stacks = path.join(backend, ".pulumi", "stacks", "proj");
  mkdirSync(lockDir, { recursive: true });
  mkdirSync(stacks, { recursive: true });
  for (const [id, lock] of Object.entries(locks))
    writeFileSync(path.join(lockDir, `${id}.json`), JSON.stringify({ ...lock, username: "ci", timestamp: new Date().toISOString() }));
  for (const [file, text] of Object.entries(attributes)) writeFileSync(path.join(stacks, file), text);
  return backend;
}

describe("kasm-recover: the file backend", () => {
  it("a lock of this host whose process is gone is stale; one of a running process, or of another host, is live", () => {
    const gone = deadPid();
    const backend = backendWith(
      "locks",
      {
        gone: { pid: gone, hostname: os.hostname() },
        running: { pid: process.pid, hostname: os.hostname() },
        elsewhere: { pid: gone, hostname: `not-${os.hostname()}` },
      },
      {},
    );
    const repair = repairFileBackend(backend, "proj", "dev");
    expect(repair.staleLocks.map((file) => path.basename(file))).toEqual(["gone.json"]);
    expect(repair.liveLocks.map((file) => path.basename(file)).sort()).toEqual(["elsewhere.json", "running.json"]);
  });

  it("deletes only the stack's attributes files that are empty", () => {
    const backend = backendWith("attributes", {}, { "dev.json.attrs": "", "dev.json.bak.attrs": '{"checksum":"x"}', "prod.json.attrs": "" });
    const repair = repairFileBackend(backend, "proj", "dev");
    expect(repair.emptiedAttributesDeleted.map((file) => path.basename(file))).toEqual(["dev.json.attrs"]);
    const stacks = path.join(backend, ".pulumi", "stacks", "proj");
    expect(existsSync(path.join(stacks, "dev.json.attrs"))).toBe(false);
    expect(existsSync(path.join(stacks, "dev.json.bak.attrs"))).toBe(true);
    expect(existsSync(path.join(stacks, "prod.json.attrs"))).toBe(true);
  });

  it("reads the folder of a file backend only", () => {
    expect(fileBackendDir("file:///srv/pulumi%20state")).toBe("/srv/pulumi state");
    expect(fileBackendDir("https://api.pulumi.com")).toBeUndefined();
    expect(fileBackendDir("s3://bucket/state")).toBeUndefined();
  });
});

describe("kasm-recover: the state", () => {
  const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };
  const pending = (name: string) => ({
    type: "creating",
    resource: { urn: `urn:pulumi:dev::proj::kasm:index:User::${name}`, type: "kasm:index:User", custom: true, inputs: { username: name, password: secret } },
  });
  const state: ExportedStack = {
    version: 3,
    deployment: {
      manifest: { time: "2026-01-01T00:00:00Z" },
      resources: [{ urn: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev", type: "pulumi:pulumi:Stack" }],
      pending_operations: [pending("ada"), pending("bob"), pending("eve"), { type: "updating", resource: { urn: "urn:x", type: "kasm:index:Group" } }],
    },
  };

  it("a recorded create becomes a resource with its id and its inputs (still encrypted) as outputs; a dropped one goes; a kept one and other operations stay", () => {
    const after = applyDecisions(state, [
      { action: "record", urn: pending("ada").resource.urn, id: "a1", says: "" },
      { action: "drop", urn: pending("bob").resource.urn, says: "" },
      { action: "keep", urn: pending("eve").resource.urn, says: "" },
    ]);
    expect(after.deployment.manifest).toEqual(state.deployment.manifest);
    expect(after.deployment.resources?.map((r) => [r.urn, r.id])).toEqual([
      ["urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev", undefined],
      [pending("ada").resource.urn, "a1"],
    ]);
    expect(after.deployment.resources?.[1].outputs).toEqual({ username: "ada", password: secret });
    expect(after.deployment.pending_operations?.map((op) => [op.type, op.resource.urn])).toEqual([
      ["creating", pending("eve").resource.urn],
      ["updating", "urn:x"],
    ]);
  });

  it("a state exported with --show-secrets reads as plain values (held in memory only)", () => {
    const shown = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"hunter2"' };
    expect(revealed({ apiKeySecret: shown, nested: [{ value: shown }], plain: 1 })).toEqual({
      apiKeySecret: "hunter2",
      nested: [{ value: "hunter2" }],
      plain: 1,
    });
  });
});
