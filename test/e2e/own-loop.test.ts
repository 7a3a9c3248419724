/**
 * README.md's "Run your own program against the emulator", word for word, as a user follows it:
 * `npm pack` of this repository stands in for the registry; in a fresh folder the README's install
 * lines run (the package name replaced by the tarball, the peers pinned to this repository's
 * versions so that the npm cache serves them), the README's Pulumi.yaml, seed.json and index.ts
 * are written, `npx kasm-emulator` starts from the installed package, and each `npx
 * kasm-test-engine` line runs as written (the port replaced by a free one). Checked: what each
 * prints and its exit status, the objects in the emulator after up and destroy, the state file
 * created in a folder that did not exist, with no secret in plain. Then the section's second story:
 * the README's "Bulk onboarding" program with 150 users in the same folder and the same seed,
 * type-checked with the README's tsconfig.json, preview, up, an edit of the CSV (whose preview
 * shows no replace of the kept user's assignment and counts the rows), up, both policy packs with
 * the README's line and config files, and destroy. When a `pulumi` CLI is on PATH, the section's
 * last story too: the first program again through the CLI, with the README's lines.
 *
 * `npm pack --ignore-scripts` packs the current dist/: `npm run build` first, as `pretest` does.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, packPackage, readmeBlock, tempDir, usersCsvLike } from "./helpers";
import { hasPulumi } from "../cli/pulumi-cli";

const run = promisify(execFile);
const PULUMI_VERSION: string = require("@pulumi/pulumi/package.json").version;
const POLICY_VERSION: string = require("@pulumi/policy/package.json").version.replace(/^v/, "");
const TYPESCRIPT_VERSION: string = require("typescript/package.json").version;
const TYPES_NODE_VERSION: string = require("@types/node/package.json").version;
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

/** The README's section, and its fenced blocks in order. */
const README = readFileSync(path.join(REPO, "README.md"), "utf8");
const SECTION = (() => {
  const start = README.indexOf("## Run your own program against the emulator");
  if (start < 0) throw new Error('README.md has no "Run your own program against the emulator" section');
  const end = README.indexOf("\n## ", start + 3);
  return README.slice(start, end < 0 ? undefined : end);
})();
const BLOCKS = [...SECTION.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));
const block = (lang: string, index = 0) => {
  const found = BLOCKS.filter((b) => b.lang === lang)[index];
  if (!found) throw new Error(`the README's section has no ${lang} block #${index + 1}`);
  return found.text;
};
const blockUnder = readmeBlock;

/** The section names each file just before its block: `Pulumi.yaml`, `seed.json`, `index.ts`, and the tsconfig.json of "Use it in your Pulumi program". */
const FILES = {
  "Pulumi.yaml": block("yaml"),
  "seed.json": block("json"),
  "index.ts": block("ts"),
  "tsconfig.json": blockUnder("## Use it in your Pulumi program", "json"),
};
const INSTALL = block("sh", 0).trim().split("\n");
const COMMANDS = block("sh", 1).trim().split("\n");
/** The section's preview with both policy packs, and the permissions pack's config file. */
const PACKS_LINE = block("sh", 2).trim();
const PERMISSIONS_CONFIG = block("json", 1);
/** The section's lines for the `pulumi` CLI. */
const CLI_LINES = block("sh", 3).trim().split("\n");
/** The "Bulk onboarding" program and its CSV sample. */
const BULK_PROGRAM = blockUnder("### Bulk onboarding", "ts");
const BULK_CSV_SAMPLE = blockUnder("### Bulk onboarding", "csv").trim().split("\n");

let tmp: ReturnType<typeof tempDir>;
let projectDir: string;
let emulator: ChildProcess | undefined;
let port: number;
const SEED = JSON.parse(FILES["seed.json"]) as { apiKeys: { key: string; secret: string }[]; groups: { group_id: string; name: string }[] };

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}

/** A line of the README as run here: the README's port replaced by the free one. */
const local = (line: string) => line.replaceAll("8443", String(port));

/** Run one shell line of the README in the project, after the README's `export` lines. */
async function shell(line: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  const exports = COMMANDS.filter((l) => l.startsWith("export ")).join("\n");
  return run("bash", ["-c", `${exports}\n${local(line)}`], { cwd: projectDir, timeout: 170_000, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/** The README's line for `operation`. */
function commandFor(operation: string): string {
  const line = COMMANDS.find((l) => l.startsWith(`npx kasm-test-engine ${operation} `));
  if (!line) throw new Error(`the README's section has no kasm-test-engine ${operation} line`);
  return line;
}

/** A Developer API call to the emulator with the README's pipeline key. */
async function api(operation: string, body: object = {}): Promise<any> {
  const [key] = SEED.apiKeys;
  const res = await fetch(`http://127.0.0.1:${port}/api/public/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api_key: key.key, api_key_secret: key.secret, ...body }),
  });
  return res.json();
}

beforeAll(async () => {
  tmp = tempDir("own-loop");
  port = await freePort();
}, 60_000);

afterAll(async () => {
  if (emulator?.pid && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator!.once("exit", resolve));
    // npx runs the emulator in a child of its own: end the process group this test started (at
    // once: a graceful stop would wait for this process's keep-alive connections to close).
    process.kill(-emulator.pid, "SIGKILL");
    await exited;
  }
  // The project's node_modules is large: removing it can take a while on a busy machine.
  tmp?.remove();
}, 120_000);

it("the README's section has the install lines, the three files and the four runner lines", () => {
  expect(INSTALL.some((l) => /^npm install \/path\/to\/pulumi-kasm-[\d.]+\.tgz /.test(l))).toBe(true);
  // TypeScript 6 refuses `moduleResolution: node` (TS5107); left out, Pulumi's runtime fills in `nodenext`.
  expect(JSON.parse(FILES["tsconfig.json"]).compilerOptions).toMatchObject({ module: "node16", moduleResolution: "node16" });
  expect(PACKS_LINE).toMatch(/^npx kasm-test-engine preview .*--policy-pack-config kasm-permissions\.json .*--policy-pack-config kasm-hardening\.json$/);
  expect(COMMANDS[0]).toMatch(/^npx kasm-emulator /);
  for (const op of ["preview", "up", "refresh", "destroy"]) expect(commandFor(op)).toContain("--state .state/dev.json");
});

it("installs the packed package and its peers with the README's lines", { timeout: 180_000 }, async () => {
  const { tarball, files } = await packPackage(tmp.dir);
  expect(files).toEqual(expect.arrayContaining(["dist/testing/engine.js", "dist/testing/cli.js", "dist/testing/engine.d.ts", "testing/README.md"]));
  projectDir = path.join(tmp.dir, "my-kasm");
  mkdirSync(projectDir);
  for (const line of INSTALL) {
    // The registry's package is this repository's tarball; the peers, this repository's versions (in the npm cache).
    const pinned = line.startsWith("npm install ")
      ? `${line
          .split(/\s+#/)[0]
          .replace(/\/path\/to\/pulumi-kasm-[\d.]+\.tgz/, tarball)
          .replace("@pulumi/pulumi", `@pulumi/pulumi@${PULUMI_VERSION}`)
          .replace("@pulumi/policy", `@pulumi/policy@${POLICY_VERSION}`)
          .replace(/ typescript\b/, ` typescript@${TYPESCRIPT_VERSION}`)
          .replace(/ @types\/node\b/, ` @types/node@${TYPES_NODE_VERSION}`)} ${NPM_FLAGS.join(" ")}`
      : line;
    const result = await shell(pinned);
    expect(result.code, `${pinned}\n${result.stderr}`).toBe(0);
  }
  for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(projectDir, name), text);
  expect(JSON.parse(readFileSync(path.join(projectDir, "node_modules", "pulumi-kasm", "package.json"), "utf8")).exports).toHaveProperty("./testing");
  // The runner's gRPC and protobuf dependencies are the copies @pulumi/pulumi brings, not a second set.
  for (const dep of ["@grpc/grpc-js", "google-protobuf"]) {
    expect(existsSync(path.join(projectDir, "node_modules", dep, "package.json")), dep).toBe(true);
    expect(existsSync(path.join(projectDir, "node_modules", "pulumi-kasm", "node_modules", dep)), dep).toBe(false);
    expect(existsSync(path.join(projectDir, "node_modules", "@pulumi", "pulumi", "node_modules", dep)), dep).toBe(false);
  }
});

it("starts the emulator from the installed package with the README's line", { timeout: 60_000 }, async () => {
  const [command, ...args] = local(COMMANDS[0].replace(/\s*&\s*$/, "")).split(/\s+/);
  emulator = spawn(command, args, { cwd: projectDir, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const listening = await new Promise<string>((resolve, reject) => {
    createInterface({ input: emulator!.stdout! }).on("line", (line) => {
      if (line.includes("listening")) resolve(line);
    });
    emulator!.once("exit", (code) => reject(new Error(`kasm-emulator exited with ${code}`)));
  });
  expect(listening).toContain(`127.0.0.1:${port}`);
});

it("preview, up, refresh and destroy run with the README's lines, and do what they print", { timeout: 600_000 }, async () => {
  const stateFile = path.join(projectDir, ".state", "dev.json");
  expect(existsSync(path.dirname(stateFile))).toBe(false);

  const preview = await shell(commandFor("preview"));
  expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  expect(preview.stdout).toMatch(/^preview: succeeded/);
  expect(preview.stdout).toMatch(/create +pulumi-nodejs:dynamic\/kasm:User alice/);
  expect(existsSync(stateFile)).toBe(false);

  const up = await shell(commandFor("up"));
  expect(up.code, up.stdout + up.stderr).toBe(0);
  expect(up.stdout).toMatch(/create +pulumi-nodejs:dynamic\/kasm:User alice/);
  expect(up.stdout).toMatch(/create +pulumi-nodejs:dynamic\/kasm:GroupMembership alice-engineering/);
  const alice = (await api("get_user", { target_user: { username: "alice" } })).user;
  expect(alice).toMatchObject({ username: "alice", first_name: "Alice" });
  expect(up.stdout).toContain(`output aliceId: "${alice.user_id}"`);
  expect(alice.groups.map((g: { name: string }) => g.name)).toContain(SEED.groups[0].name);
  // The state folder was created; the password and the API secret are not in it in plain.
  const state = readFileSync(stateFile, "utf8");
  expect(state).not.toContain("correct-horse-battery");
  expect(state).not.toContain(SEED.apiKeys[0].secret);
  expect(up.stdout + up.stderr).not.toContain("correct-horse-battery");

  const refresh = await shell(commandFor("refresh"));
  expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
  expect(refresh.stdout).toMatch(/read +pulumi-nodejs:dynamic\/kasm:User alice/);
  expect(refresh.stdout).toMatch(/read +pulumi-nodejs:dynamic\/kasm:GroupMembership alice-engineering/);

  const destroy = await shell(commandFor("destroy"));
  expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
  expect(destroy.stdout).toMatch(/delete +pulumi-nodejs:dynamic\/kasm:User alice/);
  expect((await api("get_users")).users.some((u: { username: string }) => u.username === "alice")).toBe(false);
});

it("a failed operation exits non-zero and says why", { timeout: 180_000 }, async () => {
  // The README's up line with a key the emulator does not know: the provider's 401, named.
  const failed = await shell(commandFor("up").replace("kasm:apiKey=pipeline-key", "kasm:apiKey=no-such-key"));
  expect(failed.code).toBe(1);
  expect(failed.stdout).toMatch(/^up: failed/);
  expect(failed.stdout).toMatch(/error in .*::alice: .*refused the API credentials/);
  expect(failed.stdout + failed.stderr).not.toContain(SEED.apiKeys[0].secret);
});

describe("the Bulk onboarding program, in the same folder with the same seed and lines", () => {
  /** The emulator's users, by username. */
  const users = async (): Promise<Map<string, any>> =>
    new Map(((await api("get_users", { page_size: 1000 })).users ?? []).map((u: { username: string }) => [u.username, u]));
  const csvFile = () => path.join(projectDir, "users.csv");

  it("type-checks with the README's tsconfig.json, and preview and up create the 150 users, the server and the assignment", { timeout: 600_000 }, async () => {
    writeFileSync(path.join(projectDir, "index.ts"), BULK_PROGRAM);
    writeFileSync(csvFile(), usersCsvLike(BULK_CSV_SAMPLE, 150));
    const tsc = await shell("npx tsc --noEmit -p .");
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);

    const preview = await shell(commandFor("preview"));
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/create +pulumi-nodejs:dynamic\/kasm:UserSet staff/);
    const up = await shell(commandFor("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).toMatch(/create +pulumi-nodejs:dynamic\/kasm:UserServerAssignment ada-build-box/);
    expect(up.stdout).toContain("output userCount: 150");
    const [sampleUser] = BULK_CSV_SAMPLE[1].split(",");
    const all = await users();
    expect(all.size).toBe(150);
    expect(all.has(sampleUser)).toBe(true);
  });

  it("after an edit of the CSV, the preview shows no replace of the kept user's assignment and counts and names the rows; the up does that", {
    timeout: 600_000,
  }, async () => {
    const lines = readFileSync(csvFile(), "utf8").trimEnd().split("\n");
    const [header] = lines;
    const kept = lines.slice(1).filter((l) => !l.startsWith("staff007,"));
    const changed = kept.map((l) => (l.startsWith("staff010,") ? l.replace("Last10", "Renamed10") : l));
    const added = ["grace.hopper", "linus.t"].map((u) =>
      header
        .split(",")
        .map((c) => (c === "username" ? u : c === "group_1" ? "Support" : c === "first_name" ? "New" : ""))
        .join(","),
    );
    writeFileSync(csvFile(), [header, ...changed, ...added].join("\n") + "\n");

    const preview = await shell(commandFor("preview"));
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(preview.stdout).not.toMatch(/^\s*replace /m);
    expect(preview.stdout).toMatch(/same +pulumi-nodejs:dynamic\/kasm:UserServerAssignment ada-build-box/);
    expect(preview.stdout).toMatch(/update +pulumi-nodejs:dynamic\/kasm:UserSet staff \(csv/);
    expect(preview.stdout).toContain(
      "info: UserSet staff: this change adds 2 users ('grace.hopper', 'linus.t'), removes 1 ('staff007') and changes 1 ('staff010').",
    );

    const up = await shell(commandFor("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).toMatch(/same +pulumi-nodejs:dynamic\/kasm:UserServerAssignment ada-build-box/);
    expect(up.stdout).toContain("output userCount: 151");
    const all = await users();
    expect(all.has("staff007")).toBe(false);
    expect(all.get("staff010").last_name).toBe("Renamed10");
    expect(all.has("grace.hopper") && all.has("linus.t")).toBe(true);
  });

  it("both policy packs run with the README's line and config files: a key holding Global Admin passes, one that cannot apply the change is refused", {
    timeout: 600_000,
  }, async () => {
    writeFileSync(path.join(projectDir, "kasm-permissions.json"), PERMISSIONS_CONFIG);
    writeFileSync(path.join(projectDir, "kasm-hardening.json"), "{}");
    const passing = await shell(PACKS_LINE);
    expect(passing.code, passing.stdout + passing.stderr).toBe(0);
    expect(passing.stdout).toMatch(/^preview: succeeded/);

    // The same line with a key that may only view users: the permissions pack names what to grant.
    const viewOnly = PERMISSIONS_CONFIG.replaceAll('"Global Admin"', '"Users View"');
    writeFileSync(path.join(projectDir, "kasm-permissions.json"), viewOnly);
    writeFileSync(csvFile(), readFileSync(csvFile(), "utf8") + "ada.byron,Ada,Byron,,Engineering\n");
    const refused = await shell(PACKS_LINE);
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stdout).toMatch(
      /^policy mandatory: kasm-permissions@[^/]+\/resource-needs-permissions: .*\nUserSet 'staff' cannot be created, updated and deleted with this API key: [^\n]*Grant the key: 'Users Create'/m,
    );
    writeFileSync(csvFile(), readFileSync(csvFile(), "utf8").replace("ada.byron,Ada,Byron,,Engineering\n", ""));
  });

  it("destroy deletes the users and forgets the server, with a warning naming it", { timeout: 600_000 }, async () => {
    const destroy = await shell(commandFor("destroy"));
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(destroy.stdout).toMatch(/^warning: ServerImport servers: the Kasm API cannot delete servers.*build-box/m);
    expect((await users()).size).toBe(0);
  });
});

describe.skipIf(!hasPulumi)("the programs again, with the README's lines for the pulumi CLI", () => {
  /** The CLI offline, its home in the test's folder: nothing touches the user's ~/.pulumi. */
  const cliEnv = () => ({
    ...process.env,
    PULUMI_HOME: path.join(tmp.dir, "pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  });
  const cliLine = (start: string) => {
    const line = CLI_LINES.find((l) => l.startsWith(start));
    if (!line) throw new Error(`the README's CLI block has no line starting ${start}`);
    return line;
  };

  it("logs in to a folder beside the program, sets the stack up, and preview, up, refresh and destroy do what they print", { timeout: 600_000 }, async () => {
    writeFileSync(path.join(projectDir, "index.ts"), FILES["index.ts"]);
    const setup = CLI_LINES.filter((l) => !/^pulumi (preview|up|refresh|destroy)\b/.test(l));
    for (const line of setup) {
      const result = await shell(line, cliEnv());
      expect(result.code, `${line}\n${result.stdout}${result.stderr}`).toBe(0);
    }

    const preview = await shell(cliLine("pulumi preview"), cliEnv());
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/\+ +pulumi-nodejs:dynamic\/kasm:User +alice +create/);
    expect(((await api("get_users")).users ?? []).some((u: { username: string }) => u.username === "alice")).toBe(false);

    const up = await shell(cliLine("pulumi up"), cliEnv());
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const alice = (await api("get_user", { target_user: { username: "alice" } })).user;
    expect(alice.groups.map((g: { name: string }) => g.name)).toContain(SEED.groups[0].name);
    expect(up.stdout).toContain(`aliceId: "${alice.user_id}"`);
    expect(up.stdout + up.stderr).not.toContain("correct-horse-battery");
    const exported = await shell("pulumi stack export", cliEnv());
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).not.toContain("correct-horse-battery");
    expect(exported.stdout).not.toContain(SEED.apiKeys[0].secret);

    const refresh = await shell(cliLine("pulumi refresh"), cliEnv());
    expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
    const destroy = await shell(cliLine("pulumi destroy"), cliEnv());
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(((await api("get_users")).users ?? []).some((u: { username: string }) => u.username === "alice")).toBe(false);
  });

  it("the Bulk onboarding program with the same lines: up creates the users, a CSV edit previews row by row, destroy empties Kasm", {
    timeout: 600_000,
  }, async () => {
    const csvFile = path.join(projectDir, "users.csv");
    writeFileSync(path.join(projectDir, "index.ts"), BULK_PROGRAM);
    writeFileSync(csvFile, usersCsvLike(BULK_CSV_SAMPLE, 60));
    const up = await shell(cliLine("pulumi up"), cliEnv());
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).toContain("userCount: 60");
    expect(((await api("get_users", { page_size: 1000 })).users ?? []).length).toBe(60);

    const lines = readFileSync(csvFile, "utf8").trimEnd().split("\n");
    writeFileSync(csvFile, [...lines.filter((l) => !l.startsWith("staff007,")), ""].join("\n"));
    const preview = await shell(cliLine("pulumi preview"), cliEnv());
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(preview.stdout).toContain("UserSet staff: this change adds none, removes 1 ('staff007') and changes none.");
    expect(preview.stdout).not.toMatch(/^\s*\+-\s/m);

    const destroy = await shell(cliLine("pulumi destroy"), cliEnv());
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(((await api("get_users", { page_size: 1000 })).users ?? []).length).toBe(0);
  });
});
