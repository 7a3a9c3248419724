/**
 * `kasm-import` meeting bad input and faults, and its options, run in-process (`runImport`) against
 * an emulator over HTTP: an unreachable Kasm, a wrong secret, a key missing View permissions (it
 * generates what it can and names what to grant), a folder that is not empty, transient faults
 * (retried; the files come out the same), `--dry-run`, `--only`/`--except`, usage errors, the
 * progress display, and `--users each` (whose first up through the test engine writes nothing).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS, type OperationName } from "../../permissions";
import { runImport } from "../../importer/cli";
import { TestEngine } from "../../testing/engine";
import { ADMIN } from "../helpers/emulator";
import { buildInstallation, type Installation } from "../helpers/installation";
import { PASSPHRASE, SLOW, expectOk, tempDir } from "../e2e/helpers";

const VIEWER = { name: "viewer", key: "viewer-key", secret: "viewer-secret", permissions: ["Users View", "Staging View"] };

let installation: Installation;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  tmp = tempDir("import-faults");
  installation = await buildInstallation(20, {}, [VIEWER]);
}, 60_000);
afterAll(async () => {
  await installation?.emulator.close();
  tmp?.remove();
});

/** A stream that keeps what is written to it; a terminal when `tty`. */
function capture(tty = false) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (tty) stream.isTTY = true;
  let text = "";
  stream.on("data", (chunk) => (text += String(chunk)));
  return { stream, text: () => text };
}

/** Run the command in-process with the admin key (or `key`), quick retries, and its output. */
async function kasmImport(args: readonly string[], options: { key?: { key: string; secret: string }; env?: NodeJS.ProcessEnv; tty?: boolean } = {}) {
  const stdout = capture();
  const stderr = capture(options.tty);
  const key = options.key ?? ADMIN;
  const status = await runImport(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    cwd: tmp.dir,
    env: {
      KASM_BASE_URL: installation.emulator.url,
      KASM_API_KEY: key.key,
      KASM_API_KEY_SECRET: key.secret,
      KASM_RETRY_BASE_DELAY_MS: "5",
      KASM_RETRY_MAX_DELAY_MS: "20",
      ...options.env,
    },
  });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

const out = (name: string) => path.join(tmp.dir, name);
const file = (dir: string, name: string) => readFileSync(path.join(dir, name), "utf8");

describe("kasm-import: faults and bad input", () => {
  it("an unreachable Kasm: exit 1, says the request never reached it, writes nothing", async () => {
    const result = await kasmImport(["--out", out("unreachable")], { env: { KASM_BASE_URL: "http://127.0.0.1:1", KASM_MAX_RETRIES: "1" } });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /could not read the installation at http:\/\/127\.0\.0\.1:1: get_users: could not reach the server \(connect ECONNREFUSED 127\.0\.0\.1:1\) after 2 attempt\(s\)\. The address is http:\/\/127\.0\.0\.1:1, set by `kasm:baseUrl` \(or KASM_BASE_URL\)\. Nothing was written\.\n$/,
    );
    expect(existsSync(out("unreachable"))).toBe(false);
  });

  it("a wrong secret: exit 1, names the settings to check, never prints the secret", async () => {
    const result = await kasmImport(["--out", out("wrong-secret")], { key: { key: ADMIN.key, secret: "not-the-secret-42" } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Check kasm:apiKey and the secret (KASM_API_KEY_SECRET): nothing was read.");
    expect(result.stderr + result.stdout).not.toContain("not-the-secret-42");
    expect(existsSync(out("wrong-secret"))).toBe(false);
  });

  it("a key missing View permissions: generates what it may read and names each permission to grant", async () => {
    const result = await kasmImport(["--out", out("viewer")], { key: VIEWER });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Users\s+20\s+20\s+the users' groups are not declared: the API key may not see them \(grant it Groups View\)$/m);
    expect(result.stdout).toMatch(/^Staging configs\s+3\s+3\s+-$/m);
    expect(result.stdout).toMatch(
      /^Egress providers\s+not read\s+0\s+the API key may not read egress providers \(Egress Providers View\): grant it .*Egress Providers View/m,
    );
    expect(result.stdout).toMatch(/^Egress credentials\s+not read\s+0\s+the API key may not read egress credentials/m);
    const program = file(out("viewer"), "index.ts");
    expect(program).toContain('new kasm.UserSet("users"');
    expect(program).not.toContain("kasm.EgressProvider(");
    expect(file(out("viewer"), "README.md")).toMatch(/- Egress providers: the API key may not read egress providers/);
  });

  it("a folder that is not empty is refused without --force, and nothing in it changes", async () => {
    const dir = out("not-empty");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "index.ts"), "// mine\n");
    const refused = await kasmImport(["--out", dir]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`${dir} exists and is not empty: choose another --out, or add --force`);
    expect(file(dir, "index.ts")).toBe("// mine\n");
    const forced = await kasmImport(["--out", dir, "--force"]);
    expect(forced.status).toBe(0);
    expect(file(dir, "index.ts")).toContain('new kasm.UserSet("users"');
  });

  it("transient faults during the reads are retried, and the files come out the same", async () => {
    const clean = await kasmImport(["--out", out("clean"), "--project", "faults"]);
    const cleanRequests = Number(/(\d+) requests to/.exec(clean.stdout)![1]);
    const reads = (Object.keys(OPERATIONS) as OperationName[]).filter((op) => OPERATIONS[op].access === "read");
    await installation.emulator.raw("POST", "/__emulator/faults", {
      body: JSON.stringify({ rate: 0.3, kinds: ["500", "503", "reset"], operations: reads, seed: 7, phase: "before" }),
      headers: { "content-type": "application/json" },
    });
    try {
      const faulty = await kasmImport(["--out", out("faulty"), "--project", "faults"], { env: { KASM_MAX_RETRIES: "8" } });
      expect(faulty.stderr).not.toContain("kasm-import:");
      expect(faulty.status).toBe(0);
      expect(Number(/(\d+) requests to/.exec(faulty.stdout)![1])).toBeGreaterThan(cleanRequests);
      for (const name of ["index.ts", "users.csv", "user-attributes.json", "README.md"]) expect(file(out("faulty"), name), name).toBe(file(out("clean"), name));
    } finally {
      await installation.emulator.raw("POST", "/__emulator/faults", { body: JSON.stringify({ rate: 0 }), headers: { "content-type": "application/json" } });
    }
  });
});

describe("kasm-import: options", () => {
  it("--dry-run prints the summary and writes nothing", async () => {
    const result = await kasmImport(["--out", out("dry"), "--dry-run"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^area\s+found\s+declared\s+not declared, and why$/m);
    expect(result.stdout).toContain("Dry run: nothing was written.");
    expect(existsSync(out("dry"))).toBe(false);
  });

  it("--only and --except choose the areas; references to what is left out become ids with their names", async () => {
    const only = await kasmImport(["--out", out("only"), "--only", "staging-configs,server-assignments"]);
    expect(only.status).toBe(0);
    const program = file(out("only"), "index.ts");
    expect(program).toContain("new kasm.StagingConfig(");
    expect(program).not.toContain("kasm.UserSet(");
    // Users are read (assignments name them) but not declared: the assignment carries the id and the name.
    expect(program).toMatch(/userId: "[0-9a-f]{32}" \/\* user0000 \*\//);
    const except = await kasmImport(["--out", out("except"), "--except", "users,user-attributes,server-assignments,server-drains"]);
    expect(except.status).toBe(0);
    expect(except.stdout).not.toMatch(/^Users\s/m);
    expect(except.stdout).toContain(`${1 + 1 + 1 + 1 + 1} requests`);
  });

  it("usage errors exit 2 and name the way out", async () => {
    const unknown = await kasmImport(["--only", "users,widgets"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("--only: unknown area 'widgets'; the areas are groups, users,");
    expect(unknown.stderr).toContain("Run kasm-import --help for the options.");
    expect((await kasmImport(["--users", "some"])).stderr).toContain("--users must be 'set' or 'each', not 'some'");
    const unconfigured = await kasmImport(["--dry-run"], { env: { KASM_BASE_URL: "" } });
    expect(unconfigured.status).toBe(2);
    expect(unconfigured.stderr).toMatch(/missing: baseUrl \(configuration `kasm:baseUrl`/);
    const help = await kasmImport(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: kasm-import [--out <dir>] [options]");
  });

  it("progress: a line per area when not a terminal, one line rewritten in place on a terminal", async () => {
    const plain = await kasmImport(["--dry-run"]);
    expect(plain.stderr).toContain("read users: 20\nread user-attributes: 20\n");
    const tty = await kasmImport(["--dry-run"], { tty: true });
    expect(tty.stderr).toContain("\r\x1b[Kreading users: 20\n");
  });

  it("--users each: one User and UserGroups per user from users.json, and the first up writes nothing", { timeout: SLOW }, async () => {
    const dir = out("each");
    const result = await kasmImport(["--out", dir, "--users", "each", "--only", "users,user-attributes", "--no-protect"]);
    expect(result.status).toBe(0);
    const users = JSON.parse(file(dir, "users.json"));
    expect(users[0]).toEqual({
      username: "user0000",
      firstName: "First0",
      lastName: "Last0",
      phone: "+1 555 0100",
      organization: "Example Org",
      locked: false,
      disabled: false,
      groups: ["Engineering", "Support"],
    });
    expect(file(dir, "index.ts")).toContain("const imported: pulumi.CustomResourceOptions = {};");
    const engine = new TestEngine({
      programDir: dir,
      project: "each",
      stack: "dev",
      stateFile: path.join(tmp.dir, "each-state.json"),
      passphrase: PASSPHRASE,
      config: { "kasm:baseUrl": installation.emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret },
      secretKeys: ["kasm:apiKeySecret"],
    });
    installation.emulator.requests.length = 0;
    const up = await engine.up();
    expectOk(up);
    // A User and a UserGroups each, a UserAttributes for the seven users with attributes set (every third), the stack.
    expect(up.summary.create).toBe(20 + 20 + 7 + 1);
    const writes = installation.emulator.requests.map((line) => line.split(" ")[0]).filter((op) => OPERATIONS[op as OperationName]?.access !== "read");
    expect(writes).toEqual([]);
  });
});

describe("kasm-import: user attributes", () => {
  it("a user whose attributes are all a new user's gets no UserAttributes; the summary says how many and why; the first up writes nothing", {
    timeout: SLOW,
  }, async () => {
    // Six users: user0000 and user0003 have a default image set (buildInstallation), user0001 only
    // turned the control panel off, user0002 holds an empty SSH key (no key, as Kasm compares it),
    // user0004 and user0005 were never touched.
    const small = await buildInstallation(6);
    try {
      const env = { KASM_BASE_URL: small.emulator.url };
      const update = (username: string, attributes: Record<string, unknown>) =>
        small.emulator
          .userId(username)
          .then((user_id) => small.emulator.specCall("update_user_attributes", { target_user_attributes: { user_id, ...attributes } }));
      expect((await update("user0001", { toggle_control_panel: false })).status).toBe(200);
      expect((await update("user0002", { ssh_public_key: "" })).status).toBe(200);

      const dir = out("attributes");
      const result = await kasmImport(["--out", dir, "--only", "users,user-attributes", "--no-protect"], { env });
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^User attributes\s+6\s+3\s+3: only Kasm's defaults, as every new user has them$/m);
      expect(Object.keys(JSON.parse(file(dir, "user-attributes.json")))).toEqual(["user0000", "user0001", "user0003"]);
      expect(JSON.parse(file(dir, "user-attributes.json")).user0001).toEqual({ showTips: true, toggleControlPanel: false });
      expect(file(dir, "README.md")).toContain("- User attributes: 3: only Kasm's defaults, as every new user has them");

      const engine = new TestEngine({
        programDir: dir,
        project: "attributes",
        stack: "dev",
        stateFile: path.join(tmp.dir, "attributes-state.json"),
        passphrase: PASSPHRASE,
        config: { "kasm:baseUrl": small.emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret },
        secretKeys: ["kasm:apiKeySecret"],
      });
      small.emulator.requests.length = 0;
      const up = await engine.up();
      expectOk(up);
      const attributes = up.resources
        .filter((r) => r.op === "create" && r.type.endsWith(":UserAttributes"))
        .map((r) => r.urn.split("::").pop())
        .sort();
      expect(attributes).toEqual(["user0000-attributes", "user0001-attributes", "user0003-attributes"]);
      const writes = small.emulator.requests.map((line) => line.split(" ")[0]).filter((op) => OPERATIONS[op as OperationName]?.access !== "read");
      expect(writes).toEqual([]);
    } finally {
      await small.emulator.close();
    }
  });
});
