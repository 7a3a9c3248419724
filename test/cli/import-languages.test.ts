/**
 * `kasm-import --language python|yaml|go` through the real `pulumi` CLI and the native provider
 * plugin of this checkout, on two emulators seeded with the same names (test/importer/language-seed.ts):
 * `prod` speaking the released product's names (`apiNames: product`), `lab` the spec's.
 *
 * - One installation each: a Python program of prod and a YAML program of lab. The commands of
 *   the README kasm-import writes, run as written (the providers alone with `pulumi up --target`,
 *   then `pulumi import --file import.json`), write nothing to Kasm; the first `preview` then plans
 *   no change (every resource the same, "unchanged" in the CLI's own summary) and sends no write;
 *   the first `up` sends no write; a preview after it sends no request.
 * - Both in one stack (`--installation prod --installation lab`), in YAML and in Python: no name
 *   collides and nothing is edited by hand; the same holds. A user deleted by hand in lab is
 *   re-created by the next `up --refresh`, and its UserGroups follows it (the new user is in its group).
 * - A whole installation (egress with its secrets, workspaces, casting, server assignments) in
 *   YAML: imported, it previews no change and the first up writes nothing; in Go, it builds.
 * - The fleet in Go builds against the generated Go SDK (`go build`, `go vet`).
 * - The fleet in TypeScript on the native SDK (`--form native`) type-checks against the generated,
 *   packed `@pulumi-kasm/native` and is taken over without a write, as the Python and YAML ones are.
 *
 * The SDKs come from scripts/sdk/generate.sh; the Python environment as in native-python.test.ts.
 * Skipped without the CLI or python3; the Go part without `go`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runImport } from "../../importer/cli";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { capture, writesIn } from "../importer/helpers";
import { installationEnv, LANGUAGE_SEED } from "../importer/language-seed";
import { buildInstallation } from "../helpers/installation";
import { hasPulumi, measuredStep, PulumiCli, type CliSteps } from "./pulumi-cli";
import { generateSdks, hasGo, hasPython, nodejsSdkTarball, programNodeModules, pulumiCliVersion, pythonEnvironment, run } from "./sdks";

/** A cold Go module cache downloads Pulumi's Go SDK: minutes. */
const GO_TIMEOUT = 900_000;

let dir: string;
let prod: TestEmulator;
let lab: TestEmulator;
let python = "";
/** The packed Node.js SDK of the native provider (`@pulumi-kasm/native`). */
let nodejsTarball = "";
const figures: string[] = [];

beforeAll(async () => {
  if (!hasPulumi || !hasPython) return;
  dir = mkdtempSync(path.join(tmpdir(), "cli-import-languages-"));
  const env = { ...process.env, PULUMI_HOME: path.join(dir, "sdk-home"), PULUMI_SKIP_UPDATE_CHECK: "true" };
  const generated = await generateSdks(path.join(dir, "sdk"), hasGo ? ["python", "go", "nodejs"] : ["python", "nodejs"], env);
  figures.push(`generate the SDKs: ${generated.seconds.toFixed(1)} s`);
  nodejsTarball = nodejsSdkTarball(path.join(dir, "sdk"));
  const environment = await pythonEnvironment(path.join(dir, "venv"), path.join(dir, "sdk", "python"), await pulumiCliVersion());
  python = environment.python;
  figures.push(
    `Python environment: ${Object.values(environment.seconds)
      .reduce((a, b) => a + b, 0)
      .toFixed(1)} s`,
  );
  prod = await startTestEmulator(LANGUAGE_SEED, { apiNames: "product" });
  lab = await startTestEmulator(LANGUAGE_SEED, { apiNames: "spec" });
}, SLOW);
afterAll(async () => {
  console.log(`kasm-import --language through the pulumi CLI:\n  ${figures.join("\n  ")}`);
  await prod?.close();
  await lab?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The settings of both installations, in the environment kasm-import reads (the fleet's and the single ones'). */
function importEnv(single?: TestEmulator): NodeJS.ProcessEnv {
  return { ...(single ? installationEnv(single, ADMIN) : {}), ...installationEnv(prod, ADMIN, "prod"), ...installationEnv(lab, ADMIN, "lab") };
}

/** Run kasm-import into `out`, failing with its words unless it wrote the project. */
async function kasmImport(out: string, args: readonly string[], single?: TestEmulator): Promise<void> {
  const stdout = capture();
  const stderr = capture();
  const status = await runImport(["--out", out, ...args], { stdout: stdout.stream, stderr: stderr.stream, cwd: dir, env: importEnv(single) });
  expect(status, stderr.text()).toBe(0);
}

/** The stack settings of the installations a program names by prefix (`kasm` for the one unprefixed installation). */
function stackConfig(installations: readonly [string, TestEmulator][]): Record<string, string> {
  return Object.fromEntries(
    installations.flatMap(([stem, emulator]) => [
      [`${stem}BaseUrl`, emulator.url],
      [`${stem}ApiKey`, ADMIN.key],
      [`${stem}ApiKeySecret`, ADMIN.secret],
    ]),
  );
}

/**
 * A stack of the generated program in `programDir` (its Python environment linked in; a TypeScript
 * program type-checked by ts-node before it runs, as for a user).
 */
async function stackOf(programDir: string, installations: readonly [string, TestEmulator][], options: { typeCheck?: boolean } = {}): Promise<PulumiCli> {
  symlinkSync(path.join(dir, "venv"), path.join(programDir, "venv"), "dir");
  const cli = new PulumiCli({
    typeCheck: options.typeCheck === true,
    programDir,
    stack: "dev",
    workDir: path.join(programDir, "..", `${path.basename(programDir)}-work`),
    passphrase: PASSPHRASE,
    config: stackConfig(installations),
    secretKeys: installations.map(([stem]) => `${stem}ApiKeySecret`),
    env: { PULUMI_PYTHON_CMD: python },
  });
  await cli.init();
  return cli;
}

/** One step against both emulators: the requests each got, and the writes among them (in the figures too). */
async function step(label: string, run: () => Promise<CliSteps>) {
  const labBefore = lab.requests.length;
  const result = await measuredStep(prod, [], label, run);
  const labRequests = lab.requests.slice(labBefore);
  const writes = [...writesIn(result.requests, "product"), ...writesIn(labRequests, "spec")];
  figures.push(`${label}: ${result.requests.length} request(s) to prod, ${labRequests.length} to lab, ${writes.length} write(s)`);
  return { ...result, writes, all: result.requests.length + labRequests.length };
}

/** The commands of the generated README's first sh block that start with `pulumi <verb>`, comments cut, as the CLI's arguments. */
function readmeCommands(programDir: string, verb: string): string[][] {
  const readme = readFileSync(path.join(programDir, "README.md"), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.split(/\s+#/)[0].trim())
    .filter((line) => line.startsWith(`pulumi ${verb} `))
    .map((line) => line.split(/\s+/).slice(1));
}

/**
 * The take-over the generated README describes, its commands run as written: the providers alone
 * (`pulumi up --target`), then `pulumi import --file import.json`; neither writes to Kasm. Then the
 * first preview plans no change (every resource the same, in the JSON and in the CLI's own summary)
 * and sends no write; the first up writes nothing; a preview after it sends no request.
 */
async function expectTakeOverWithoutWrites(cli: PulumiCli, programDir: string, label: string): Promise<void> {
  const providersUp = readmeCommands(programDir, "up");
  const imports = readmeCommands(programDir, "import");
  expect(providersUp.length).toBe(1);
  expect(imports.length).toBe(1);
  for (const [what, args] of [
    ["the providers", providersUp[0]],
    ["pulumi import --file", imports[0]],
  ] as const) {
    const result = await step(`${label}: ${what}`, async () => ({ ...(await cli.run(args)), ops: {}, errors: {} }));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.writes).toEqual([]);
  }

  const preview = await step(`${label}: first preview`, () => cli.steps("preview"));
  expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  expect(Object.entries(preview.ops).filter(([, op]) => op !== "same")).toEqual([]);
  expect(Object.keys(preview.ops).length).toBeGreaterThan(5);
  expect(preview.writes).toEqual([]);
  // What a reviewer reads: the CLI's own summary of the same preview.
  const printed = await cli.run(["preview", "--stack", "dev"]);
  expect(printed.code, printed.stdout + printed.stderr).toBe(0);
  expect(printed.stdout).toMatch(/Resources:\s+\d+ unchanged/);
  expect(printed.stdout).not.toMatch(/to (create|update|delete|replace|import)/);

  const up = await step(`${label}: first up`, () => cli.steps("up"));
  expect(up.code, up.stdout + up.stderr).toBe(0);
  expect(Object.entries(up.ops).filter(([, op]) => op !== "same")).toEqual([]);
  expect(up.writes).toEqual([]);

  const after = await step(`${label}: preview after the up`, () => cli.steps("preview"));
  expect(Object.entries(after.ops).filter(([, op]) => op !== "same")).toEqual([]);
  expect(after.all).toBe(0);
}

/** A user's record in an installation, with its group names. */
async function userIn(emulator: TestEmulator, username: string) {
  const users = (await emulator.specCall("get_users")).body.users as { username: string; user_id: string; groups?: { name: string }[] }[];
  return users.find((u) => u.username === username);
}

describe.skipIf(!hasPulumi || !hasPython)("kasm-import --language through the pulumi CLI (native provider)", () => {
  it("python, one installation in product mode: after the README's pulumi import, the first preview shows no change and the first up writes nothing", {
    timeout: SLOW,
  }, async () => {
    const programDir = path.join(dir, "python-prod");
    await kasmImport(programDir, ["--language", "python"], prod);
    await expectTakeOverWithoutWrites(await stackOf(programDir, [["kasm", prod]]), programDir, "python, prod");
  });

  it("yaml, one installation in spec mode: after the README's pulumi import, the first preview shows no change and the first up writes nothing", {
    timeout: SLOW,
  }, async () => {
    const programDir = path.join(dir, "yaml-lab");
    await kasmImport(programDir, ["--language", "yaml"], lab);
    await expectTakeOverWithoutWrites(await stackOf(programDir, [["kasm", lab]]), programDir, "yaml, lab");
  });

  it("python, both installations in one stack: no name collides, nothing is edited by hand, nothing is written", { timeout: SLOW }, async () => {
    const programDir = path.join(dir, "python-fleet");
    await kasmImport(programDir, ["--language", "python", "--installation", "prod", "--installation", "lab"]);
    await expectTakeOverWithoutWrites(
      await stackOf(programDir, [
        ["prod", prod],
        ["lab", lab],
      ]),
      programDir,
      "python, fleet",
    );
  });

  it("typescript on the native SDK, both installations in one stack: it type-checks against @pulumi-kasm/native; imported, it previews no change and writes nothing", {
    timeout: SLOW,
  }, async () => {
    const programDir = path.join(dir, "typescript-fleet");
    await kasmImport(programDir, ["--language", "typescript", "--form", "native", "--installation", "prod", "--installation", "lab"]);
    await programNodeModules(programDir, [nodejsTarball]);
    const cli = await stackOf(
      programDir,
      [
        ["prod", prod],
        ["lab", lab],
      ],
      { typeCheck: true },
    );
    await expectTakeOverWithoutWrites(cli, programDir, "typescript (native), fleet");
  });

  it("yaml, both installations in one stack: no write; a user deleted by hand comes back with its groups on the next up", { timeout: SLOW }, async () => {
    const programDir = path.join(dir, "yaml-fleet");
    await kasmImport(programDir, ["--language", "yaml", "--installation", "prod", "--installation", "lab"]);
    const cli = await stackOf(programDir, [
      ["prod", prod],
      ["lab", lab],
    ]);
    await expectTakeOverWithoutWrites(cli, programDir, "yaml, fleet");

    const before = await userIn(lab, "ada@corp.example");
    expect(before?.groups?.map((g) => g.name)).toContain("Engineering");
    await lab.specCall("delete_user", { target_user: { user_id: before?.user_id }, force: true });
    expect(await userIn(lab, "ada@corp.example")).toBeUndefined();

    const up = await step("yaml, fleet: up --refresh after a user deleted by hand", () => cli.steps("up", ["--refresh"]));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.ops["lab-ada-corp-example"]).toBe("create");
    // The refresh finds the user's groups gone with it: they are declared again for the new user (or updated to it).
    expect(["create", "update", "replace"]).toContain(up.ops["lab-ada-corp-example-groups"]);
    const after = await userIn(lab, "ada@corp.example");
    expect(after?.user_id).not.toBe(before?.user_id);
    expect(after?.groups?.map((g) => g.name)).toContain("Engineering");
    // Nothing of prod was written.
    expect(writesIn(up.requests, "product")).toEqual([]);
  });

  it("yaml, a whole installation (egress with its secrets, workspaces, casting, server assignments): imported, the first preview changes only the objects holding a secret (taken over), the first up writes nothing", {
    timeout: SLOW,
  }, async () => {
    const whole = await buildInstallation(6, { apiNames: "product" });
    try {
      const programDir = path.join(dir, "yaml-whole");
      const stdout = capture();
      const stderr = capture();
      const env = { KASM_BASE_URL: whole.emulator.url, KASM_API_KEY: ADMIN.key, KASM_API_KEY_SECRET: ADMIN.secret, KASM_API_NAMES: "product" };
      expect(await runImport(["--out", programDir, "--language", "yaml"], { stdout: stdout.stream, stderr: stderr.stream, cwd: dir, env }), stderr.text()).toBe(
        0,
      );
      // Each secret the project's README asks for, given the value Kasm holds.
      const secrets = [...readFileSync(path.join(programDir, "README.md"), "utf8").matchAll(/^pulumi config set --secret (\S+)/gm)]
        .map((m) => m[1])
        .filter((key) => key !== "kasmApiKeySecret");
      const value = (key: string) =>
        key.endsWith("WireguardPrivateKey")
          ? whole.secrets.wireguardKeys["support-team"]
          : key.endsWith("Password")
            ? whole.secrets.passwords["partner-login"]
            : "";
      expect(secrets.map(value).every(Boolean), secrets.join(", ")).toBe(true);
      const cli = new PulumiCli({
        programDir,
        stack: "dev",
        workDir: path.join(dir, "yaml-whole-work"),
        passphrase: PASSPHRASE,
        config: { ...stackConfig([["kasm", whole.emulator]]), ...Object.fromEntries(secrets.map((key) => [key, value(key)])) },
        secretKeys: ["kasmApiKeySecret", ...secrets],
      });
      await cli.init();
      const writes = () => writesIn(whole.emulator.requests, "product");
      whole.emulator.requests.length = 0;
      for (const args of [...readmeCommands(programDir, "up"), ...readmeCommands(programDir, "import")]) {
        const result = await measuredStep(whole.emulator, figures, `yaml, whole installation: pulumi ${args[0]}`, () => cli.run(args));
        expect(result.code, result.stdout + result.stderr).toBe(0);
      }
      // What Kasm shows is imported and previews unchanged; an object holding a secret Kasm never shows
      // keeps adopt: true (the README names it), is not in import.json, and previews as a take-over.
      const imported = new Set((JSON.parse(readFileSync(path.join(programDir, "import.json"), "utf8")).resources as { name: string }[]).map((r) => r.name));
      const preview = await measuredStep(whole.emulator, figures, "yaml, whole installation: first preview", () => cli.steps("preview"));
      expect(preview.code, preview.stdout + preview.stderr).toBe(0);
      const taken = Object.entries(preview.ops).filter(([, op]) => op !== "same");
      expect(
        taken.every(([name, op]) => op === "create" && !imported.has(name)),
        JSON.stringify(taken),
      ).toBe(true);
      expect(taken.map(([name]) => name).sort()).toEqual(
        [...readFileSync(path.join(programDir, "README.md"), "utf8").matchAll(/^- [A-Z]\w+ (\S+)$/gm)].map((m) => m[1]).sort(),
      );
      expect(imported.size).toBeGreaterThan(30);
      const up = await measuredStep(whole.emulator, figures, "yaml, whole installation: first up", () => cli.steps("up"));
      expect(up.code, up.stdout + up.stderr).toBe(0);
      expect(Object.keys(up.ops).length).toBeGreaterThan(30);
      expect(writes()).toEqual([]);
      const after = await measuredStep(whole.emulator, figures, "yaml, whole installation: preview after the up", () => cli.steps("preview"));
      expect(Object.entries(after.ops).filter(([, op]) => op !== "same")).toEqual([]);

      // The same installation in Go builds against the generated SDK: every kind's inputs typed as the SDK types them.
      if (hasGo) {
        const goDir = path.join(dir, "go-whole");
        expect(await runImport(["--out", goDir, "--language", "go"], { stdout: capture().stream, stderr: stderr.stream, cwd: dir, env }), stderr.text()).toBe(
          0,
        );
        const goEnv = { ...process.env, GOFLAGS: "-mod=mod" };
        expect((await run("go", ["mod", "edit", "-replace", `pulumi-kasm.local/sdk/go=${path.join(dir, "sdk", "go")}`], { cwd: goDir, env: goEnv })).code).toBe(
          0,
        );
        const built = await run("go", ["build", "-trimpath", "-o", path.join("bin", "program"), "."], { cwd: goDir, env: goEnv });
        figures.push(`go build (whole installation): ${built.seconds.toFixed(1)} s`);
        expect(built.code, built.output).toBe(0);
      }
    } finally {
      await whole.emulator.close();
    }
  });

  it.skipIf(!hasGo)("go, both installations: the program builds and vets against the generated Go SDK", { timeout: GO_TIMEOUT }, async () => {
    const programDir = path.join(dir, "go-fleet");
    await kasmImport(programDir, ["--language", "go", "--installation", "prod", "--installation", "lab"]);
    expect(readFileSync(path.join(programDir, "main.go"), "utf8")).toContain('kasm.NewProvider(ctx, "kasm-lab"');
    const env = { ...process.env, GOFLAGS: "-mod=mod" };
    const replaced = await run("go", ["mod", "edit", "-replace", `pulumi-kasm.local/sdk/go=${path.join(dir, "sdk", "go")}`], { cwd: programDir, env });
    expect(replaced.code, replaced.output).toBe(0);
    mkdirSync(path.join(programDir, "bin"), { recursive: true });
    const built = await run("go", ["build", "-trimpath", "-o", path.join("bin", "program"), "."], { cwd: programDir, env });
    figures.push(`go build: ${built.seconds.toFixed(1)} s`);
    expect(built.code, built.output).toBe(0);
    const vetted = await run("go", ["vet", "-trimpath", "."], { cwd: programDir, env });
    figures.push(`go vet: ${vetted.seconds.toFixed(1)} s`);
    expect(vetted.code, vetted.output).toBe(0);
  });
});
