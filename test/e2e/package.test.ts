/**
 * The npm package as a user gets it: `npm pack` of this repository, installed with its peers
 * into a fresh project, a tiny program (`import * as kasm from "pulumi-kasm"`, one User) type
 * checked against the installed typings and run through the test engine with the repository link
 * turned off (`linkRepository: false`), so that the program's `pulumi-kasm` and the serialized
 * providers' `require("pulumi-kasm/provider")` can only come from the project's node_modules. A
 * line appended to the installed copy's entry files records which file each process loaded; the
 * installed policy pack runs from node_modules too.
 *
 * `npm pack --ignore-scripts` packs the current dist/ without rebuilding it (`prepack` would run
 * `tsc` into dist/ while the other test files load it): `npm run build` first, as `pretest` does.
 * The installs use the local npm cache (`--prefer-offline`); without the packages there, npm
 * needs the registry.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync, appendFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine, UNKNOWN } from "../../testing/engine";
import { kinds } from "../../provider";
import { kindModuleName } from "../../permissions/kinds";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, REPO, expectOk, ops, packPackage, seconds, strictHardeningPack, tempDir } from "./helpers";

const run = promisify(execFile);
const PULUMI_VERSION: string = require("@pulumi/pulumi/package.json").version;
const POLICY_VERSION: string = require("@pulumi/policy/package.json").version.replace(/^v/, "");
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

let tmp: ReturnType<typeof tempDir>;
let emulator: TestEmulator;
let projectDir: string;
let tarball: string;
let packedFiles: string[];
const loadLog = () => path.join(tmp.dir, "loaded.log");
const timings: string[] = [];

async function timedStep<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await fn();
  } finally {
    timings.push(`${label} ${seconds(Date.now() - started)}`);
  }
}

/** The newest modification time of the TypeScript sources that dist/ is built from. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();
const user: kasm.User = new kasm.User("packaged", {
  username: "packaged",
  firstName: "Packaged",
  password: config.requireSecret("password"),
});
export const userId: pulumi.Output<string> = user.userId;
`;

function engine(options: { programDir?: string; stack?: string; policy?: boolean } = {}): TestEngine {
  return new TestEngine({
    programDir: options.programDir ?? projectDir,
    project: "packaged",
    stack: options.stack ?? "dev",
    stateFile: path.join(tmp.dir, `${options.stack ?? "dev"}.json`),
    passphrase: PASSPHRASE,
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "packaged:password": "a-long-packaged-password" },
    secretKeys: ["kasm:apiKeySecret", "packaged:password"],
    linkRepository: false,
    env: { KASM_E2E_LOAD_LOG: loadLog() },
    policyPacks: options.policy ? [{ ...strictHardeningPack(), dir: path.join(projectDir, "node_modules", "pulumi-kasm", "policy", "hardening") }] : undefined,
  });
}

beforeAll(async () => {
  tmp = tempDir("package");
  emulator = await startTestEmulator();
}, 60_000);

afterAll(async () => {
  console.log(`package check: ${timings.join(", ")}`);
  await emulator?.close();
  tmp?.remove();
});

describe("the npm package, installed in a fresh project", () => {
  it("packs the built dist/, the README and the policy packs' manifests, and nothing of the sources or tests", { timeout: 120_000 }, async () => {
    expect(existsSync(path.join(REPO, "dist", "sdk", "index.js")), "dist/ is missing: run `npm run build`").toBe(true);
    expect(statSync(path.join(REPO, "dist", "sdk", "index.js")).mtimeMs, "dist/ is older than the sources: run `npm run build`").toBeGreaterThanOrEqual(
      Math.max(...["provider", "sdk", "policy", "emulator", "testing", "importer"].map((d) => newestSource(path.join(REPO, d)))) - 1000,
    );
    ({ tarball, files: packedFiles } = await timedStep("npm pack", () => packPackage(tmp.dir)));
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "dist/sdk/index.js",
        "dist/sdk/index.d.ts",
        "dist/provider/index.js",
        "dist/emulator/cli.js",
        "dist/policy/hardening/index.js",
        "policy/hardening/PulumiPolicy.yaml",
        "policy/hardening/package.json",
        "policy/permissions/PulumiPolicy.yaml",
      ]),
    );
    // The emulator's README is shipped: the package's README links to it, and `npx kasm-emulator` users read it.
    expect(packedFiles).toContain("emulator/README.md");
    // The examples the README names are shipped (their programs and seeds), without anything installed in them.
    expect(packedFiles).toEqual(
      expect.arrayContaining(["examples/seed.json", "examples/onboarding/index.ts", "examples/onboarding/users.csv", "examples/two-installations/index.ts"]),
    );
    expect(packedFiles.filter((f) => f.startsWith("examples/") && /(^|\/)(node_modules|\.state|\.kasm-state)\//.test(f))).toEqual([]);
    expect(
      packedFiles.filter(
        (f) => (/^(test|provider|sdk|emulator|scripts|bench)\//.test(f) && f !== "emulator/README.md") || f.endsWith(".test.js") || /^policy\/.*\.ts$/.test(f),
      ),
    ).toEqual([]);
  });

  it(`installs with @pulumi/pulumi ${PULUMI_VERSION} and @pulumi/policy from the npm cache`, { timeout: 120_000 }, async () => {
    projectDir = path.join(tmp.dir, "project");
    mkdirSync(projectDir);
    writeFileSync(path.join(projectDir, "package.json"), JSON.stringify({ name: "packaged", private: true, main: "index.ts" }, null, 2));
    writeFileSync(path.join(projectDir, "Pulumi.yaml"), "name: packaged\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
    writeFileSync(path.join(projectDir, "index.ts"), PROGRAM);
    await timedStep("npm install", () =>
      run("npm", ["install", tarball, `@pulumi/pulumi@${PULUMI_VERSION}`, `@pulumi/policy@${POLICY_VERSION}`, ...NPM_FLAGS], {
        cwd: projectDir,
        timeout: 110_000,
      }),
    );
    const installed = path.join(projectDir, "node_modules", "pulumi-kasm");
    // A real copy, not a link back to this repository.
    expect(realpathSync(installed)).toBe(installed);
    const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    expect(manifest.peerDependencies).toMatchObject({ "@pulumi/pulumi": expect.any(String) });
    // No install script for npm to warn about ("not yet covered by allowScripts"): the repository builds through `dependencies`, which npm runs only in the repository itself.
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => ["preinstall", "install", "postinstall", "prepare"].includes(name))).toEqual([]);
    // Resolved as a module of the project resolves it. (Not `require.resolve(x, { paths: [projectDir] })` from
    // here: this file is inside the package `pulumi-kasm`, and Node resolves a package's own name to itself first.)
    const fromProject = createRequire(path.join(projectDir, "index.js"));
    expect(fromProject.resolve("pulumi-kasm")).toBe(path.join(installed, "dist", "sdk", "index.js"));
    expect(fromProject.resolve("pulumi-kasm/provider")).toBe(path.join(installed, "dist", "provider", "index.js"));
    expect(fromProject.resolve("@pulumi/pulumi")).toBe(path.join(projectDir, "node_modules", "@pulumi", "pulumi", "index.js"));
    // Record, in each process, which copy of the SDK and of the provider it loads.
    for (const entry of ["dist/sdk/index.js", "dist/provider/index.js", "dist/policy/hardening/index.js"]) {
      appendFileSync(
        path.join(installed, entry),
        `\nif (process.env.KASM_E2E_LOAD_LOG) require("fs").appendFileSync(process.env.KASM_E2E_LOAD_LOG, __filename + "\\n");\n`,
      );
    }
  });

  it("the program type-checks against the installed typings, which catch a misspelt input", { timeout: 60_000 }, async () => {
    const tsc = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
    // node16 resolution reads the package's `exports` (with their `types`), as a current TypeScript project does.
    const flags = ["--noEmit", "--strict", "--module", "node16", "--moduleResolution", "node16", "--target", "es2022", "--skipLibCheck"];
    await timedStep("tsc", () => run(process.execPath, [tsc, ...flags, "index.ts"], { cwd: projectDir }));
    writeFileSync(path.join(projectDir, "typo.ts"), `import * as kasm from "pulumi-kasm";\nnew kasm.User("typo", { usernam: "typo" });\n`);
    const typo = await run(process.execPath, [tsc, ...flags, "typo.ts"], { cwd: projectDir }).then(
      () => "",
      (e: { stdout: string }) => e.stdout,
    );
    expect(typo).toMatch(/typo\.ts\(2,\d+\): error TS2561: Object literal may only specify known properties, but 'usernam' does not exist in type 'UserArgs'/);
    rmSync(path.join(projectDir, "typo.ts"));
  });

  it("preview and up run from the installed package, with no link to this repository; destroy removes the user", { timeout: 180_000 }, async () => {
    const stack = engine();
    const preview = await stack.preview();
    expectOk(preview);
    expect(preview.outputs).toEqual({ userId: UNKNOWN });

    const up = await timedStep("up", () => stack.up());
    expectOk(up);
    expect(ops(up)).toEqual({ "packaged-dev": "create", packaged: "create" });
    const users = (await emulator.call("get_users")).body.users;
    const user = users.find((u: { username: string }) => u.username === "packaged");
    expect(user).toMatchObject({ first_name: "Packaged" });
    expect(up.outputs).toEqual({ userId: user.user_id });
    // The state holds the provider by package name, for whatever copy the host resolves: one require of the kind's module.
    const record = stack.readState().find((r) => r.urn.endsWith("::packaged"))!;
    const serialized = String(record.inputs.__provider);
    expect(serialized).toContain(`require("pulumi-kasm/dynamic/user")`);
    expect(serialized).not.toContain(REPO);
    expect(serialized.length).toBeLessThan(300);
    expect(record.outputs.__provider).toBe(record.inputs.__provider);
    // The User's whole record (inputs, outputs with the provider again, its URN and links): a budget, not a timing.
    expect(JSON.stringify(record).length).toBeLessThan(2_500);

    const installed = path.join(projectDir, "node_modules", "pulumi-kasm");
    const loaded = new Set(readFileSync(loadLog(), "utf8").trim().split("\n"));
    expect([...loaded].sort()).toEqual([path.join(installed, "dist", "provider", "index.js"), path.join(installed, "dist", "sdk", "index.js")]);

    const destroy = await stack.destroy();
    expectOk(destroy);
    expect((await emulator.call("get_users")).body.users.some((u: { username: string }) => u.username === "packaged")).toBe(false);
  });

  it("writes every kind's dynamic provider into the state as one require of its module, a few hundred bytes", { timeout: 60_000 }, async () => {
    // What Pulumi's dynamic.Resource does with a provider: serializeFunction(() => provider), run in the project as its program runs.
    const script = [
      `const pulumi = require("@pulumi/pulumi");`,
      `const kinds = ${JSON.stringify(Object.keys(kinds))};`,
      `const module = (kind) => kind.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();`,
      `Promise.all(kinds.map(async (kind) => { const provider = require("pulumi-kasm/dynamic/" + module(kind)); return [kind, (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text]; }))`,
      `  .then((texts) => console.log(JSON.stringify(Object.fromEntries(texts))));`,
    ].join("\n");
    const { stdout } = await run(process.execPath, ["-e", script], { cwd: projectDir });
    const texts = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(texts)).toEqual(Object.keys(kinds));
    for (const [kind, text] of Object.entries(texts)) {
      expect(text, kind).toContain(`require("pulumi-kasm/dynamic/${kindModuleName(kind)}")`);
      expect(text.length, kind).toBeLessThan(300);
      // The host evaluates it and calls `exports.handler()` for the provider: every method is there.
      const handler = (
        new Function("exports", "require", text + "\nreturn exports.handler;") as (e: object, r: NodeJS.Require) => () => Record<string, unknown>
      )({}, createRequire(path.join(projectDir, "index.js")));
      expect(Object.keys(handler()).sort(), kind).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    }
  });

  it("the policy pack shipped in the package runs from node_modules", { timeout: 120_000 }, async () => {
    const preview = await engine({ stack: "policy", policy: true }).preview();
    expectOk(preview);
    expect(preview.policyViolations).toEqual([]);
    const pack = path.join(projectDir, "node_modules", "pulumi-kasm", "dist", "policy", "hardening", "index.js");
    expect(readFileSync(loadLog(), "utf8").trim().split("\n")).toContain(pack);
  });

  it("without the installed package the program cannot find pulumi-kasm: the engine lends it nothing", { timeout: 60_000 }, async () => {
    const bare = path.join(tmp.dir, "bare");
    mkdirSync(bare);
    writeFileSync(path.join(bare, "package.json"), JSON.stringify({ name: "bare", private: true, main: "index.ts" }));
    writeFileSync(path.join(bare, "index.ts"), PROGRAM);
    // @pulumi/pulumi is there (the project's), pulumi-kasm is not.
    mkdirSync(path.join(bare, "node_modules"));
    symlinkSync(path.join(projectDir, "node_modules", "@pulumi"), path.join(bare, "node_modules", "@pulumi"), "dir");
    const preview = await engine({ programDir: bare, stack: "bare" }).preview();
    expect(preview.ok).toBe(false);
    expect(preview.programOutput + preview.errors.map((e) => e.message).join("\n")).toContain("Cannot find module 'pulumi-kasm'");
  });
});
