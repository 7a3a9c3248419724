/**
 * README.md's "Take over an existing installation: `kasm-import`", word for word, in a fresh
 * folder: `npm pack` of this repository is the README's `/path/to/pulumi-kasm-<version>.tgz` (its `npm install`
 * lines get the tarball, and the peers this repository's versions, from the npm cache), the
 * `export` lines run with the README's key and secret against an emulator that speaks the released
 * product's names (the README's `KASM_API_NAMES=product`) with the address replaced by its own,
 * and the key holds exactly the View permissions the README lists. Then the README's runner line,
 * its secret replaced by each `pulumi config set --secret` key the generated README lists, takes
 * everything over without a single write. When a `pulumi` CLI is on PATH, the generated project's
 * own README is followed with it too: the first `up` writes nothing, a second preview shows no
 * change, and `pulumi destroy` refuses every protected resource and deletes nothing in Kasm.
 *
 * `npm pack --ignore-scripts` packs the current dist/: `npm run build` first, as `pretest` does.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { OPERATIONS, type OperationName } from "../../permissions";
import { wireOperationName } from "../../emulator/vocabulary";
import { buildInstallation, type Installation } from "../helpers/installation";
import { REPO, packPackage, tempDir } from "./helpers";
import { hasPulumi } from "../cli/pulumi-cli";

const run = promisify(execFile);
const PULUMI_VERSION: string = require("@pulumi/pulumi/package.json").version;
const TYPESCRIPT_VERSION: string = require("typescript/package.json").version;
const TYPES_NODE_VERSION: string = require("@types/node/package.json").version;
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

const README = readFileSync(path.join(REPO, "README.md"), "utf8");
const HEADING = "## Take over an existing installation: `kasm-import`";
const SECTION = (() => {
  const start = README.indexOf(HEADING);
  if (start < 0) throw new Error(`README.md has no "${HEADING}" section`);
  const end = README.indexOf("\n## ", start + 3);
  return README.slice(start, end < 0 ? undefined : end);
})();
const SH_BLOCKS = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim().split("\n"));
const [STEPS, RUNNER] = SH_BLOCKS;
/** The permissions the section lists, each in backticks, in the paragraph that starts "The key needs". */
const PERMISSIONS = [.../`([A-Z][A-Za-z ]+ View)`/g[Symbol.matchAll](SECTION.slice(SECTION.indexOf("The key needs"), SECTION.indexOf("```sh")))].map(
  (m) => m[1],
);
const exported = (name: string) => {
  const line = STEPS.find((l) => l.startsWith(`export ${name}=`));
  if (!line) throw new Error(`the section's commands have no export ${name}= line`);
  return line.slice(`export ${name}=`.length).split(/\s+#/)[0].trim();
};

let tmp: ReturnType<typeof tempDir>;
let tarball: string;
let installation: Installation;
let folder: string;
/** The generated project's folder, once the section has been followed. */
let project: string | undefined;
/** The values of the generated program's secret settings, by key. */
let secretValues: Record<string, string> = {};

/** Run one line of the README in `cwd` after every export line of the section (the address made the emulator's). */
async function shell(line: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const exports = [...STEPS, ...RUNNER]
    .filter((l) => l.startsWith("export "))
    .map((l) => l.replace("https://kasm.example.com", installation.emulator.url))
    .join("\n");
  return run("bash", ["-c", `${exports}\n${line}`], { cwd, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/** An `npm install` line of the README as run here: the package from the tarball, the rest from the npm cache. */
function pinned(line: string): string {
  if (/^npm install \/path\/to\/pulumi-kasm-[\d.]+\.tgz$/.test(line)) return `npm install ${tarball} ${NPM_FLAGS.join(" ")}`;
  return line.replace(
    /npm install\b.*$/,
    `npm install ${tarball} @pulumi/pulumi@${PULUMI_VERSION} typescript@${TYPESCRIPT_VERSION} @types/node@${TYPES_NODE_VERSION} ${NPM_FLAGS.join(" ")}`,
  );
}

beforeAll(async () => {
  tmp = tempDir("readme-import");
  ({ tarball } = await packPackage(tmp.dir));
  installation = await buildInstallation(40, { apiNames: exported("KASM_API_NAMES") === "product" ? "product" : "spec", observedFields: true }, [
    { name: "import", key: exported("KASM_API_KEY"), secret: exported("KASM_API_KEY_SECRET"), permissions: PERMISSIONS },
  ]);
  folder = path.join(tmp.dir, "fresh");
  mkdirSync(folder);
}, 120_000);

afterAll(async () => {
  await installation?.emulator.close();
  tmp?.remove();
}, 120_000);

it("the section lists the View permissions, the install, export, dry-run, import and runner lines", () => {
  expect(PERMISSIONS).toEqual(expect.arrayContaining(["Users View", "Groups View", "Staging View", "Egress Credentials View", "Casting View"]));
  expect(PERMISSIONS.every((p) => p.endsWith(" View"))).toBe(true);
  expect(STEPS.filter((l) => l.startsWith("npx kasm-import"))).toHaveLength(2);
  expect(RUNNER.some((l) => l.startsWith("npx kasm-test-engine up "))).toBe(true);
});

it("following the section in a fresh folder takes the installation over with no write to Kasm", { timeout: 600_000 }, async () => {
  let cwd = folder;
  let dryRun = "";
  for (const line of STEPS.filter((l) => !l.startsWith("export "))) {
    const command = line.split(/\s+#/)[0].trim();
    const result = await shell(pinned(command), cwd);
    expect(result.code, `${command}\n${result.stdout}\n${result.stderr}`).toBe(0);
    if (command === "npx kasm-import --dry-run") {
      dryRun = result.stdout;
      expect(existsSync(path.join(cwd, "kasm-stack"))).toBe(false);
    }
    if (command.startsWith("cd kasm-stack")) cwd = path.join(folder, "kasm-stack");
  }
  // The key with the README's permissions reads every area: nothing is refused.
  expect(dryRun).not.toMatch(/may not read/);
  expect(dryRun).toMatch(/^Users\s+40\s+40\s+-$/m);
  expect(dryRun).toMatch(/^Cast configs\s+2\s+2\s+-$/m);
  expect(dryRun).toMatch(/^Workspaces\s+2\s+2\s+-$/m);
  expect(dryRun).toMatch(/^Workspace groups\s+3\s+3\s+-$/m);
  expect(dryRun).toMatch(/^Server draining\s+2\s+1\s+1: not draining$/m);
  expect(dryRun).toContain("Dry run: nothing was written.");

  const projectReadme = readFileSync(path.join(cwd, "README.md"), "utf8");
  expect(projectReadme).toContain(`pulumi config set kasm:baseUrl ${installation.emulator.url}`);
  expect(projectReadme).toContain("pulumi config set kasm:apiNames product");
  const secretKeys = [...projectReadme.matchAll(/^pulumi config set --secret (\S+)/gm)].map((m) => m[1]).filter((k) => k !== "kasm:apiKeySecret");
  expect(secretKeys).toHaveLength(2);
  expect(secretKeys).toEqual(expect.arrayContaining([expect.stringMatching(/Password$/), expect.stringMatching(/WireguardPrivateKey$/)]));
  const values = secretKeys.map((key) =>
    key.endsWith("Password") ? installation.secrets.passwords["partner-login"] : installation.secrets.wireguardKeys["support-team"],
  );
  project = cwd;
  secretValues = Object.fromEntries(secretKeys.map((key, i) => [key, values[i]]));

  installation.emulator.requests.length = 0;
  for (const line of RUNNER.filter((l) => !l.startsWith("export "))) {
    const secrets = secretKeys.map((key, i) => `--secret ${key}=${values[i]}`).join(" ");
    const command = line.replace(/--secret \S+='[^']*'/, secrets);
    const result = await shell(command, cwd);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/create\s/);
    for (const value of values) expect(result.stdout + result.stderr).not.toContain(value);
  }
  const writes = new Set(
    (Object.keys(OPERATIONS) as OperationName[]).filter((op) => OPERATIONS[op].access !== "read").map((op) => wireOperationName(op, "product")),
  );
  expect(installation.emulator.requests.map((l) => l.split(" ")[0]).filter((op) => writes.has(op))).toEqual([]);
});

it("the generated project's README names the exact package file, and its runner lines, followed as written, preview the stack with no change", {
  timeout: 300_000,
}, async () => {
  expect(project, "the section was followed first").toBeDefined();
  const readme = readFileSync(path.join(project!, "README.md"), "utf8");
  const version: string = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).version;
  expect(readme).toContain(`npm install /path/to/pulumi-kasm-${version}.tgz `);
  const runner = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1].trim().split("\n"))
    .find((lines) => lines.some((l) => l.startsWith("npx kasm-test-engine")));
  expect(runner, "a block with the runner's lines").toBeDefined();
  const exports = runner!
    .filter((l) => l.startsWith("export "))
    .map((l) => (l.startsWith("export KASM_API_KEY_SECRET=") ? `export KASM_API_KEY_SECRET='${exported("KASM_API_KEY_SECRET")}'` : l.split(/\s+#/)[0]));
  const preview = runner!.find((l) => l.startsWith("npx kasm-test-engine preview "))!;
  // Each `--secret key='...'` given the value Kasm has.
  const line = preview.replace(/--secret (\S+)='\.\.\.'/g, (_, key: string) => `--secret ${key}='${secretValues[key]}'`);
  expect(line).not.toContain("'...'");
  installation.emulator.requests.length = 0;
  const result = await shell([...exports, line].join("\n"), project!);
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  expect(result.stdout).toMatch(/^preview: succeeded/);
  expect(result.stdout).not.toMatch(/^\s*(create|update|replace|delete) /m);
});

it.skipIf(!hasPulumi)(
  "the generated project's README, followed with the pulumi CLI: the first up writes nothing, and destroy deletes nothing",
  { timeout: 600_000 },
  async () => {
    expect(project, "the section was followed first").toBeDefined();
    const cwd = project!;
    const env = `export PULUMI_HOME='${path.join(tmp.dir, "pulumi-home")}' PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true PULUMI_CONFIG_PASSPHRASE='a passphrase'\n`;
    const cli = async (line: string) => {
      const result = await shell(env + line, cwd);
      expect(result.code, `${line}\n${result.stdout.slice(-4000)}\n${result.stderr}`).toBe(0);
      return result;
    };
    // The test's own backend: the README assumes a logged-in CLI.
    await cli(`mkdir -p .pulumi-state && pulumi login file://.pulumi-state`);

    const readme = readFileSync(path.join(cwd, "README.md"), "utf8");
    const block = /## Before the first run\n\n```sh\n([\s\S]*?)```/.exec(readme)![1].trim().split("\n");
    const writes = new Set(
      (Object.keys(OPERATIONS) as OperationName[]).filter((op) => OPERATIONS[op].access !== "read").map((op) => wireOperationName(op, "product")),
    );
    const writesSent = () => installation.emulator.requests.map((l) => l.split(" ")[0]).filter((op) => writes.has(op));
    installation.emulator.requests.length = 0;
    let preview = "";
    for (const line of block.filter((l) => !l.startsWith("npm install"))) {
      const command = line.split(/\s+#/)[0].trim();
      // A secret typed at the prompt in the README is given on the command line here.
      const secret = /^pulumi config set --secret (\S+)$/.exec(command)?.[1];
      const value = secret === "kasm:apiKeySecret" ? exported("KASM_API_KEY_SECRET") : secret ? secretValues[secret] : undefined;
      const result = await cli(value !== undefined ? `${command} -- '${value}'` : command.startsWith("pulumi up") ? `${command} --yes` : command);
      if (command.startsWith("pulumi preview")) preview = result.stdout;
    }
    expect(preview).toMatch(/\+ +pulumi-nodejs:dynamic\/kasm:UserSet /);
    expect(writesSent()).toEqual([]);
    await cli("pulumi preview --expect-no-changes");

    const before = await installation.emulator.state();
    const destroy = await shell(env + "pulumi destroy --yes --skip-preview", cwd);
    expect(destroy.code).not.toBe(0);
    expect(destroy.stdout).toContain("because it is protected");
    expect(writesSent()).toEqual([]);
    expect(await installation.emulator.state()).toEqual(before);
    for (const value of Object.values(secretValues)) {
      expect(destroy.stdout + destroy.stderr).not.toContain(value);
      expect((await cli("pulumi stack export")).stdout).not.toContain(value);
    }
  },
);
