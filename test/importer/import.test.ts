/**
 * `kasm-import` end to end, as a team taking over an installation built by hand: the installed
 * command (dist/importer/cli.js) reads an emulator holding 300 users (40 in the spec's
 * vocabulary) in groups with attributes,
 * two server assignments, three staging configs and two egress providers with gateways, mappings
 * and credentials (and, speaking the product's names, groups made in the UI, two workspaces and the
 * groups that may launch them, cast configs and a draining server), and writes a project. The
 * project type-checks against the packed package; its first `up` (the secrets set as the generated
 * README says) sends no write to Kasm, a preview and a refresh right after show no change, and one
 * value changed in the program changes exactly that object. Two runs give identical files, and no
 * file holds a secret the installation has.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { ADMIN } from "../helpers/emulator";
import { buildInstallation, type Installation } from "../helpers/installation";
import { PASSPHRASE, REPO, SLOW, expectOk, packPackage, tempDir } from "../e2e/helpers";
import { expectNoChangeAfterTakeOver, writesIn } from "./helpers";

const run = promisify(execFile);
const CLI = path.join(REPO, "dist", "importer", "cli.js");
const TSC = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
const PULUMI_VERSION: string = require("@pulumi/pulumi/package.json").version;
const TYPES_NODE_VERSION: string = require("@types/node/package.json").version;
const TYPESCRIPT_VERSION: string = require("typescript/package.json").version;
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

let tmp: ReturnType<typeof tempDir>;
/** node_modules with the packed package, @pulumi/pulumi and @types/node: each generated project links to it. */
let installedModules: string;

beforeAll(async () => {
  tmp = tempDir("import");
  const { tarball } = await packPackage(tmp.dir);
  const deps = path.join(tmp.dir, "deps");
  mkdirSync(deps);
  writeFileSync(path.join(deps, "package.json"), JSON.stringify({ name: "deps", private: true }));
  // What the generated package.json declares (TypeScript among its devDependencies: Pulumi's own 3.8 cannot read its tsconfig).
  await run(
    "npm",
    ["install", tarball, `@pulumi/pulumi@${PULUMI_VERSION}`, `@types/node@${TYPES_NODE_VERSION}`, `typescript@${TYPESCRIPT_VERSION}`, ...NPM_FLAGS],
    {
      cwd: deps,
      timeout: 170_000,
    },
  );
  installedModules = path.join(deps, "node_modules");
}, 180_000);

afterAll(() => tmp?.remove());

/** Run the installed command against the installation; resolves with its output and status. */
async function kasmImport(installation: Installation, args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    KASM_BASE_URL: installation.emulator.url,
    KASM_API_KEY: ADMIN.key,
    KASM_API_KEY_SECRET: ADMIN.secret,
    KASM_API_NAMES: installation.emulator.apiNames,
  };
  return run(process.execPath, [CLI, ...args], { env, cwd: tmp.dir }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ status: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/** Every file of a folder (not node_modules), by relative path. */
function filesOf(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) if (name !== "node_modules") files[name] = readFileSync(path.join(dir, name), "utf8");
  return files;
}

/** The `pulumi config set --secret KEY` lines of the generated README, by key (the API key's secret left out). */
function secretKeysOfReadme(readme: string): string[] {
  return [...readme.matchAll(/^pulumi config set --secret (\S+)/gm)].map((m) => m[1]).filter((key) => key !== "kasm:apiKeySecret");
}

/** The value a secret setting must have, from what the installation holds. */
function secretValue(installation: Installation, key: string): string {
  const { wireguardKeys, passwords } = installation.secrets;
  if (/SupportTeamCredentialWireguardPrivateKey$/.test(key)) return wireguardKeys["support-team"];
  if (/PartnerLoginCredentialPassword$/.test(key)) return passwords["partner-login"];
  throw new Error(`the generated program asks for a secret this test does not know: ${key}`);
}

// The whole installation (300 users, groups and cast configs) speaks the product's names; the spec's
// vocabulary runs the same path with fewer users, to keep the suite's time down.
describe.each([
  { apiNames: "spec" as const, observedFields: false, users: 40 },
  { apiNames: "product" as const, observedFields: true, users: 300 },
])("kasm-import, $apiNames vocabulary, $users users", ({ apiNames, observedFields, users }) => {
  let installation: Installation;
  let projectDir: string;
  let engine: TestEngine;

  beforeAll(async () => {
    installation = await buildInstallation(users, { apiNames, observedFields });
  }, 120_000);
  afterAll(async () => installation?.emulator.close());

  it("writes a project, prints the summary and its request count, and the same installation gives identical files", { timeout: SLOW }, async () => {
    projectDir = path.join(tmp.dir, `${apiNames}-project`);
    const first = await kasmImport(installation, ["--out", projectDir, "--project", "kasm-taken-over"]);
    expect(first.stderr).not.toMatch(/kasm-import:/);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^Users\\s+${users}\\s+${users}\\s+-$`, "m"));
    expect(first.stdout).toMatch(/^Staging configs\s+3\s+3\s+-$/m);
    expect(first.stdout).toMatch(/^Egress credentials\s+2\s+2\s+-$/m);
    // A released Kasm lists its own registry, taken over like the images it ships with.
    if (apiNames === "product") expect(first.stdout).toMatch(/^Workspace registries\s+1\s+1\s+-$/m);
    // Attributes are set on every third user; the others hold what Kasm gives a new user.
    const attributed = Math.ceil(users / 3);
    expect(first.stdout).toMatch(
      new RegExp(`^User attributes\\s+${users}\\s+${attributed}\\s+${users - attributed}: only Kasm's defaults, as every new user has them$`, "m"),
    );
    // One page of users, one attribute read per user, the two assigned servers, the listings (and on
    // a released Kasm its registries, and the workspaces of each of its seven groups, one read each): nothing else.
    const lists = apiNames === "product" ? 10 + 7 : 5;
    expect(first.stdout).toContain(`${1 + users + 2 + lists} requests to ${installation.emulator.url}`);
    if (apiNames === "product") {
      expect(first.stdout).toMatch(/^Groups\s+7\s+5\s+2: Kasm's own groups/m);
      expect(first.stdout).toMatch(/^Cast configs\s+2\s+2\s+-$/m);
      expect(first.stdout).toMatch(/^Server draining\s+2\s+1\s+1: not draining$/m);
      expect(first.stdout).toMatch(/^Workspaces\s+2\s+2\s+-$/m);
      expect(first.stdout).toMatch(/^Workspace groups\s+3\s+3\s+-$/m);
    } else {
      expect(first.stdout).toMatch(/^Groups\s+not read\s+0\s+the documented API cannot list or create groups/m);
      expect(first.stdout).toMatch(/^Workspaces\s+not read\s+0\s+the documented API lists images but cannot create or change one/m);
    }

    const again = path.join(tmp.dir, `${apiNames}-again`);
    expect((await kasmImport(installation, ["--out", again, "--project", "kasm-taken-over"])).status).toBe(0);
    expect(filesOf(again)).toEqual(filesOf(projectDir));
    expect(writesIn(installation.emulator.requests, installation.emulator.apiNames)).toEqual([]);
  });

  it("no generated file holds a secret the installation has", () => {
    const secrets = [ADMIN.secret, ...Object.values(installation.secrets.wireguardKeys), ...Object.values(installation.secrets.passwords)];
    for (const [name, content] of Object.entries(filesOf(projectDir))) for (const secret of secrets) expect(content, name).not.toContain(secret);
    const program = readFileSync(path.join(projectDir, "index.ts"), "utf8");
    expect(program).toMatch(/wireguardPrivateKey: config\.requireSecret\("\w+WireguardPrivateKey"\)/);
    expect(program).toMatch(/password: config\.requireSecret\("\w+Password"\)/);
  });

  it("its package.json asks for the @pulumi/pulumi versions pulumi-kasm accepts and for this pulumi-kasm", () => {
    const own = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
      version: string;
      peerDependencies: Record<string, string>;
    };
    const generated = JSON.parse(readFileSync(path.join(projectDir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(generated.dependencies).toEqual({ "@pulumi/pulumi": own.peerDependencies["@pulumi/pulumi"], "pulumi-kasm": `^${own.version}` });
  });

  it("type-checks against the packed package", { timeout: 120_000 }, async () => {
    symlinkSync(installedModules, path.join(projectDir, "node_modules"), "dir");
    await run(process.execPath, [TSC, "--noEmit", "-p", "tsconfig.json"], { cwd: projectDir });
  });

  it("its first up sends no write to Kasm; a preview and a refresh right after show no change", { timeout: SLOW }, async () => {
    const readme = readFileSync(path.join(projectDir, "README.md"), "utf8");
    const secretKeys = secretKeysOfReadme(readme);
    expect(secretKeys).toHaveLength(2);
    const project = "kasm-taken-over";
    engine = new TestEngine({
      programDir: projectDir,
      project,
      stack: "dev",
      stateFile: path.join(tmp.dir, `${apiNames}-state.json`),
      passphrase: PASSPHRASE,
      config: {
        "kasm:baseUrl": installation.emulator.url,
        "kasm:apiKey": ADMIN.key,
        "kasm:apiKeySecret": ADMIN.secret,
        ...(apiNames === "product" ? { "kasm:apiNames": "product" } : {}),
        ...Object.fromEntries(secretKeys.map((key) => [`${project}:${key}`, secretValue(installation, key)])),
      },
      secretKeys: ["kasm:apiKeySecret", ...secretKeys.map((key) => `${project}:${key}`)],
      linkRepository: false,
    });
    installation.emulator.requests.length = 0;
    const up = await engine.up();
    expectOk(up);
    const created = up.resources.filter((r) => r.op === "create").length;
    // The set, an attributes record per user with attributes set, the assignments, staging and egress (and groups, workspaces and casting).
    expect(created).toBeGreaterThanOrEqual(1 + Math.ceil(users / 3) + 2 + 3 + 10);
    expect(writesIn(installation.emulator.requests, installation.emulator.apiNames), installation.emulator.requests.join("\n")).toEqual([]);

    await expectNoChangeAfterTakeOver(engine);
  });

  it("one value changed in the program changes exactly that object", { timeout: SLOW }, async () => {
    const file = path.join(projectDir, "index.ts");
    const program = readFileSync(file, "utf8");
    const edited = program.replace(/(new kasm\.StagingConfig\("default-ubuntu-desktop", \{[^}]*?numSessions: )2,/, "$14,");
    expect(edited).not.toBe(program);
    writeFileSync(file, edited);
    installation.emulator.requests.length = 0;
    const up = await engine.up();
    expectOk(up);
    expect(up.resources.filter((r) => r.op !== "same" && r.type !== "pulumi:pulumi:Stack").map((r) => `${r.op} ${r.urn.split("::").pop()}`)).toEqual([
      "update default-ubuntu-desktop",
    ]);
    expect(writesIn(installation.emulator.requests, installation.emulator.apiNames)).toEqual(["update_staging_config"]);
    const configs = (await installation.emulator.specCall("get_staging_configs")).body.staging_configs;
    expect(configs.map((c: { num_sessions: number }) => c.num_sessions).sort()).toEqual([1, 3, 4]);
  });
});
