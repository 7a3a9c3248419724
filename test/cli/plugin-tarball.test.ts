/**
 * The plugin tarball (`npm run plugin:pack`, scripts/plugin/pack.js) through the real `pulumi`
 * CLI: packed, installed with `pulumi plugin install resource kasm <version> --file <tarball>`
 * into a PULUMI_HOME of its own, listed by `pulumi plugin ls`, started on its own from its
 * installed folder (no NODE_PATH, outside the repository), then used by a YAML program that names
 * no plugin path: `up` creates a user in an emulator through the installed plugin, and `destroy`
 * removes it. Needs a current dist/ (the suite's `pretest` builds it).
 */
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, REPO, SLOW } from "../e2e/helpers";
import { explicitProvider } from "./native-yaml-programs";
import { hasPulumi, measuredStep, PulumiCli } from "./pulumi-cli";

const VERSION: string = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).version;

/** The program: an explicit provider on the emulator and one user; no `plugins.providers` path, so the engine takes the installed plugin. */
function program(url: string): string {
  return `name: plugin-tarball
runtime: yaml
resources:
${explicitProvider("prov", url)}  ada:
    type: kasm:index:User
    properties:
      username: ada
      firstName: Ada
    options:
      provider: \${prov}
outputs:
  userId: \${ada.userId}
`;
}

/** Start the plugin as the engine would and hand back the first line it prints (its port), then stop it. */
function firstLineOf(executable: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [], { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (stdout.includes("\n")) child.kill("SIGTERM");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (stdout.includes("\n")) resolve(stdout.split("\n")[0]);
      else reject(new Error(`${executable} printed no line (exit ${code})\n${stderr}`));
    });
  });
}

describe.skipIf(!hasPulumi)("the plugin tarball, installed with `pulumi plugin install --file`", () => {
  let dir: string;
  let emulator: TestEmulator;
  let cli: PulumiCli;
  let tarball: string;
  /** The plugin's folder in the plugin cache, once installed. */
  let installed: string;
  const figures: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-plugin-tarball-"));
    emulator = await startTestEmulator();
    const programDir = path.join(dir, "program");
    mkdirSync(programDir, { recursive: true });
    writeFileSync(path.join(programDir, "Pulumi.yaml"), program(emulator.url));
    cli = new PulumiCli({
      programDir,
      stack: "dev",
      workDir: path.join(dir, "work"),
      passphrase: PASSPHRASE,
      config: {},
      secretKeys: [],
      // A `pulumi-resource-kasm` on PATH (node_modules/.bin under npm) would otherwise win over the cache.
      env: { PULUMI_IGNORE_AMBIENT_PLUGINS: "true" },
    });
    installed = path.join(dir, "work", "pulumi-home", "plugins", `resource-kasm-v${VERSION}`);
    await cli.init();
  }, SLOW);
  afterAll(async () => {
    console.log(`plugin tarball:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("packs offline into a tarball named for the version and platform", { timeout: SLOW }, () => {
    const started = performance.now();
    const packed = spawnSync(process.execPath, [path.join(REPO, "scripts", "plugin", "pack.js"), "--out", path.join(dir, "out")], {
      cwd: REPO,
      encoding: "utf8",
    });
    expect(packed.status, packed.stderr).toBe(0);
    figures.push(`pack: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    tarball = packed.stdout.trim();
    expect(path.basename(tarball)).toMatch(new RegExp(`^pulumi-resource-kasm-v${VERSION.replace(/\./g, "\\.")}-(linux|darwin)-(amd64|arm64)\\.tar\\.gz$`));
    figures.push(`tarball: ${(statSync(tarball).size / 1024 / 1024).toFixed(1)} MB`);

    const entries = spawnSync("tar", ["-tzvf", tarball], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).stdout.split("\n");
    expect(entries.find((line) => / pulumi-resource-kasm$/.test(line))).toMatch(/^-rwxr-xr-x /);
    const names = entries.map((line) => line.split(/\s+/).pop());
    for (const name of [
      "package.json",
      "dist/provider/native/main.js",
      "node_modules/@grpc/grpc-js/package.json",
      "node_modules/@pulumi/pulumi/package.json",
      "node_modules/zod/package.json",
    ]) {
      expect(names).toContain(name);
    }
    // Only the production dependencies: no test runner, no compiler.
    expect(names.some((name) => name?.startsWith("node_modules/vitest/") || name?.startsWith("node_modules/typescript/"))).toBe(false);
    // The language host would install dependencies over the network for a plugin with one.
    expect(names).not.toContain("PulumiPlugin.yaml");
  });

  it("installs from the file, and `pulumi plugin ls` lists it", { timeout: SLOW }, async () => {
    const started = performance.now();
    await cli.ok(["plugin", "install", "resource", "kasm", VERSION, "--file", tarball]);
    figures.push(`install: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const listed = JSON.parse((await cli.ok(["plugin", "ls", "--json"])).stdout) as { name: string; kind: string; version: string }[];
    expect(listed).toContainEqual(expect.objectContaining({ name: "kasm", kind: "resource", version: VERSION }));

    // Everything it runs with is in its folder, none of it a link back to the checkout.
    expect(readdirSync(installed)).toEqual(expect.arrayContaining(["dist", "node_modules", "package.json", "pulumi-resource-kasm"]));
    expect(realpathSync(path.join(installed, "node_modules", "@pulumi", "pulumi")).startsWith(realpathSync(installed))).toBe(true);
    expect(readdirSync(path.join(installed, "node_modules")).filter((name) => lstatSync(path.join(installed, "node_modules", name)).isSymbolicLink())).toEqual(
      [],
    );
  });

  it("starts on its own from the installed folder: outside the repository, with no NODE_PATH", { timeout: SLOW }, async () => {
    const outside = mkdtempSync(path.join(dir, "cwd-"));
    // Only Node's own folder and the system's on PATH: nothing of the checkout.
    const env = { PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter), HOME: outside };
    const port = await firstLineOf(path.join(installed, "pulumi-resource-kasm"), { cwd: outside, env });
    expect(port).toMatch(/^\d+$/);
  });

  it("runs a YAML program without a plugin path: `up` creates a user through the installed plugin, `destroy` removes it", { timeout: SLOW }, async () => {
    const usersInKasm = async () =>
      ((await emulator.specCall("get_users")).body.users as { username: string; first_name?: string; user_id: string }[]).filter((u) => u.username === "ada");

    // At -v=9 the engine logs the executable it launches for each plugin.
    const up = await measuredStep(emulator, figures, "up (create)", () => cli.steps("up", ["--logtostderr", "-v=9"]));
    expect(up.errors).toEqual({});
    expect(up.code, up.stderr.slice(-4000)).toBe(0);
    expect(up.ops).toMatchObject({ ada: "create" });
    expect(up.stderr).toContain(`from '${path.join(installed, "pulumi-resource-kasm")}'`);
    const [ada] = await usersInKasm();
    expect(ada?.first_name).toBe("Ada");
    expect(await cli.outputs()).toMatchObject({ userId: ada.user_id });

    const destroy = await measuredStep(emulator, figures, "destroy", () => cli.steps("destroy"));
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(await usersInKasm()).toEqual([]);
  });
});
