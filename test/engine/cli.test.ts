/**
 * `kasm-test-engine`, the built command line (`node dist/testing/cli.js`), against the emulator:
 * policy packs configured with `--policy-pack-config`, the errors of a bad config file,
 * `--full-stack-traces`, the progress lines of a long operation, and the provider's warnings. Needs a current dist/ (`npm run build`).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";

const REPO = path.resolve(__dirname, "../..");
const CLI = path.join(REPO, "dist/testing/cli.js");
const PERMISSIONS_PACK = path.join(REPO, "policy/permissions");
const SLOW = 180_000;

let dir: string;
let emulator: TestEmulator;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "engine-cli-test-"));
  emulator = await startTestEmulator({ zones: [{ zone_name: "default" }] });
});
afterEach(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A program folder with a Pulumi.yaml and `body` after the imports. */
function program(body: string): string {
  const programDir = path.join(dir, "program");
  mkdirSync(programDir, { recursive: true });
  writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: engine-cli-test\nruntime: nodejs\n");
  writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "engine-cli-test", main: "index.ts" }));
  writeFileSync(path.join(programDir, "index.ts"), `import * as kasm from "pulumi-kasm";\n${body}\n`);
  return programDir;
}

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the command line with the emulator's address and key, and the program's folder. */
function cli(programDir: string, args: readonly string[]): Promise<Ran> {
  const all = [
    ...args,
    "--program",
    programDir,
    "--state",
    path.join(dir, "state.json"),
    "--config",
    `kasm:baseUrl=${emulator.url}`,
    "--config",
    `kasm:apiKey=${ADMIN.key}`,
    "--config",
    "kasm:maxRetries=1",
  ];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...all],
      { cwd: dir, env: { ...process.env, PULUMI_CONFIG_PASSPHRASE: "correct horse", KASM_API_KEY_SECRET: ADMIN.secret }, timeout: SLOW - 10_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** A permissions pack config file describing a key with `permissions`, under each of the pack's policies. */
function keyConfig(name: string, permissions: readonly string[]): string {
  const key = { permissions, readOnly: false };
  const file = path.join(dir, name);
  const policies = ["key-permission-dependencies", "resource-needs-permissions", "read-only-key", "least-privilege"];
  writeFileSync(file, JSON.stringify(Object.fromEntries(policies.map((p) => [p, key]))));
  return file;
}

const ONE_USER = `new kasm.User("alice", { username: "alice", firstName: "Alice" });`;

describe("the report", () => {
  it("counts what it lists: up names the stack it counts, refresh (which lists no stack) does not claim it", { timeout: SLOW }, async () => {
    const programDir = program(ONE_USER);
    const up = await cli(programDir, ["up"]);
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).toContain("resources: 2 create (the stack included)");
    const refresh = await cli(programDir, ["refresh"]);
    expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
    const listed = refresh.stdout.split("\n").filter((line) => /^  read /.test(line));
    expect(refresh.stdout).toContain(`resources: ${listed.length} read\n`);
    expect(refresh.stdout).not.toContain("(the stack included)");
  });
});

describe("--policy-pack-config", () => {
  it("configures the permissions pack: a key lacking Users Create fails the preview, one holding it passes", { timeout: SLOW }, async () => {
    const programDir = program(ONE_USER);
    const lacking = await cli(programDir, ["preview", "--policy-pack", PERMISSIONS_PACK, "--policy-pack-config", keyConfig("lacking.json", ["Users View"])]);
    expect(lacking.code, lacking.stdout + lacking.stderr).toBe(1);
    expect(lacking.stdout).toMatch(
      /policy mandatory: kasm-permissions@v[\d.]+\/resource-needs-permissions: [\s\S]*User 'alice' cannot be created[\s\S]*Grant the key: 'Users Create'/,
    );

    const enough = keyConfig("enough.json", ["Users View", "Users Create", "Users Modify", "Users Delete"]);
    const passing = await cli(programDir, ["preview", "--policy-pack", PERMISSIONS_PACK, "--policy-pack-config", enough]);
    expect(passing.code, passing.stdout + passing.stderr).toBe(0);
    expect(passing.stdout).not.toContain("policy mandatory");
    expect(passing.stdout).toContain("create  pulumi-nodejs:dynamic/kasm:User alice");
  });

  it("prints a mandatory violation that stops an up once, as the CLI does, and changes nothing", { timeout: SLOW }, async () => {
    const programDir = program(ONE_USER);
    const up = await cli(programDir, ["up", "--policy-pack", PERMISSIONS_PACK, "--policy-pack-config", keyConfig("lacking.json", ["Users View"])]);
    expect(up.code, up.stdout + up.stderr).toBe(1);
    expect(up.stdout.match(/User 'alice' cannot be created/g)).toHaveLength(1);
    expect(up.stdout).toMatch(/^policy mandatory: kasm-permissions@v[\d.]+\/resource-needs-permissions: /m);
    expect(emulator.requests.filter((line) => line.startsWith("create_user"))).toEqual([]);
  });

  it("without a config the pack's own error is reported (no crash)", { timeout: SLOW }, async () => {
    const ran = await cli(program(ONE_USER), ["preview", "--policy-pack", PERMISSIONS_PACK]);
    expect(ran.code).toBe(1);
    expect(ran.stdout + ran.stderr).toMatch(/permissions is required/);
  });

  it("refuses, with exit 2 and the file's name, a file that cannot be read, is not JSON, or is not a config; and more configs than packs", async () => {
    const programDir = program(ONE_USER);
    const missing = path.join(dir, "missing.json");
    const notJson = path.join(dir, "not-json.json");
    writeFileSync(notJson, "{ permissions: [");
    const badLevel = path.join(dir, "bad-level.json");
    writeFileSync(badLevel, JSON.stringify({ "read-only-key": "fatal" }));
    const array = path.join(dir, "array.json");
    writeFileSync(array, "[]");
    const good = keyConfig("good.json", ["Users View"]);

    const cases: [string[], RegExp][] = [
      [["--policy-pack", PERMISSIONS_PACK, "--policy-pack-config", missing], new RegExp(`--policy-pack-config ${missing} cannot be read`)],
      [["--policy-pack", PERMISSIONS_PACK, "--policy-pack-config", notJson], new RegExp(`--policy-pack-config ${notJson} is not JSON`)],
      [
        ["--policy-pack", PERMISSIONS_PACK, "--policy-pack-config", badLevel],
        /bad-level\.json: "read-only-key" has enforcement level "fatal": one of advisory/,
      ],
      [["--policy-pack", PERMISSIONS_PACK, "--policy-pack-config", array], /array\.json: expected a JSON object/],
      [["--policy-pack", PERMISSIONS_PACK, "--policy-pack-config", good, "--policy-pack-config", good], /2 --policy-pack-config for 1 --policy-pack/],
      [["--policy-pack-config", good], /1 --policy-pack-config for 0 --policy-pack/],
    ];
    for (const [args, message] of cases) {
      const ran = await cli(programDir, ["preview", ...args]);
      expect(ran.code, `${args.join(" ")}: ${ran.stderr}`).toBe(2);
      expect(ran.stderr).toMatch(message);
      expect(ran.stdout).toBe("");
    }
  });
});

describe("a program of another runtime", () => {
  it("is refused with exit 2 in one plain line that names its runtime and the pulumi CLI, for runtime: yaml and runtime: { name: python }", async () => {
    for (const runtime of ["runtime: yaml", "runtime:\n  name: python"]) {
      const programDir = path.join(dir, "other");
      mkdirSync(programDir, { recursive: true });
      writeFileSync(path.join(programDir, "Pulumi.yaml"), `name: other\n${runtime}\nresources: {}\n`);
      const ran = await cli(programDir, ["preview"]);
      const name = runtime.includes("yaml") ? "yaml" : "python";
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr.split("\n")[0]).toBe(
        `kasm-test-engine: the program in ${programDir} is a ${name} program (runtime: ${name} in its Pulumi.yaml), and kasm-test-engine runs Node.js programs only (runtime: nodejs): run this one with the pulumi CLI (pulumi preview, pulumi up)`,
      );
      expect(ran.stdout).toBe("");
    }
  });
});

describe("--full-stack-traces", () => {
  it("runs the program with Node's default stack trace limit rather than 1 frame", { timeout: SLOW }, async () => {
    const programDir = program(`export const limit = Error.stackTraceLimit;`);
    const limited = await cli(programDir, ["up"]);
    expect(limited.code, limited.stdout + limited.stderr).toBe(0);
    expect(limited.stdout).toContain("output limit: 1");
    const full = await cli(programDir, ["up", "--full-stack-traces"]);
    expect(full.code, full.stdout + full.stderr).toBe(0);
    expect(full.stdout).toContain("output limit: 10");
  });
});

describe("progress", () => {
  it("a destroy slower than 2 s prints progress lines on stderr while it runs", { timeout: SLOW }, async () => {
    const programDir = program(`for (let i = 0; i < 6; i++) new kasm.User(\`user-\${i}\`, { username: \`user-\${i}\` });`);
    const up = await cli(programDir, ["up"]);
    expect(up.code, up.stdout + up.stderr).toBe(0);

    // Every delete waits 1 s: the destroy takes about 6 s.
    const faults = await emulator.raw("POST", "/__emulator/faults", {
      body: JSON.stringify({ rate: 1, kinds: ["latency"], latencyMs: 1000, operations: ["delete_user"] }),
      headers: { "content-type": "application/json" },
    });
    expect(faults.status).toBe(200);
    const destroy = await cli(programDir, ["destroy"]);
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    const lines = destroy.stderr.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    // A tick may fall after the last delete, the stack's own.
    for (const line of lines)
      expect(line).toMatch(/^destroy: \d+ of 7 resources done \(\d+ s\)(, last: delete (kasm:User user-\d|pulumi:pulumi:Stack engine-cli-test-dev))?$/);
    const done = lines.map((l) => Number(/^destroy: (\d+)/.exec(l)![1]));
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(destroy.stdout).toMatch(/^destroy: succeeded/);
    expect(destroy.stdout).not.toContain("resources done"); // stdout keeps the report alone
  });
});

describe("the provider's warnings", () => {
  it("are printed as warnings, in the report of the operation that raised them (a destroy that only forgets servers)", { timeout: SLOW }, async () => {
    const programDir = program(
      `new kasm.ServerImport("servers", { servers: [{ name: "build-box", ipHostname: "build-box.example.org", port: 22, zoneName: "default", connectionType: "SSH" }] });`,
    );
    const up = await cli(programDir, ["up"]);
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).not.toContain("warning:");
    const destroy = await cli(programDir, ["destroy"]);
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    const warningLines = destroy.stdout.split("\n").filter((line) => line.startsWith("warning: "));
    expect(warningLines).toEqual([expect.stringMatching(/cannot delete servers.*build-box/)]);
    expect(destroy.stderr).not.toContain("warning:"); // reached the engine, not the host's stderr
  });
});
