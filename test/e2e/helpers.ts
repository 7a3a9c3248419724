/**
 * What the end-to-end tests share: each example of examples/ run through the test engine
 * (the `pulumi-kasm/testing` engine, testing/) against an emulator seeded with the example's own seed.json, configured with the
 * seed's own API key, as `npm start` configures the quickstart. Needs a current dist/ (`npm run
 * build && node scripts/link-self.js`, which the suite's `pretest` runs): the provider host loads
 * `pulumi-kasm/provider` from it, and the policy packs load their compiled files.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import type { SeedInput } from "../../emulator/seed";
import { TestEngine, type PolicyPackConfig, type PolicyPackSpec, type RunResult } from "../../testing/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

export const REPO = path.resolve(__dirname, "..", "..");
export const EXAMPLES = path.join(REPO, "examples");
export const HARDENING_PACK = path.join(REPO, "policy", "hardening");
export const PERMISSIONS_PACK = path.join(REPO, "policy", "permissions");

/** Per test: several operations, each starting a program, a provider host and maybe policy packs. */
export const SLOW = 300_000;
/** Encrypts the secrets of the test stacks' state files. */
export const PASSPHRASE = "e2e correct horse battery";

export type ExampleName = "quickstart" | "casting-kiosk" | "egress-vpn" | "licensing" | "bulk-users" | "two-installations" | "workspace-catalogue";

/** The example's folder. */
export function exampleDir(example: ExampleName): string {
  return path.join(EXAMPLES, example);
}

/** The example's seed.json. */
export function seedOf(example: ExampleName): SeedInput & { apiKeys: { key: string; secret: string; permissions: string[] }[] } {
  return JSON.parse(readFileSync(path.join(exampleDir(example), "seed.json"), "utf8"));
}

/** The project name in the example's Pulumi.yaml (its config keys are namespaced with it). */
export function projectOf(example: ExampleName): string {
  const name = /^name:\s*(\S+)\s*$/m.exec(readFileSync(path.join(exampleDir(example), "Pulumi.yaml"), "utf8"))?.[1];
  if (!name) throw new Error(`examples/${example}/Pulumi.yaml has no name`);
  return name;
}

/** An emulator seeded with the example's seed.json (plus the harness's `admin-key`, for the raw calls of a test). */
export function startExampleEmulator(example: ExampleName): Promise<TestEmulator> {
  return startTestEmulator(seedOf(example));
}

/** A temporary folder, removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `e2e-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * This repository packed as `npm pack` packs it for the registry (its `files`, without running its
 * scripts: the suite's `pretest` has built dist/), into `dir`: the tarball's path and the packed files.
 */
export async function packPackage(dir: string): Promise<{ tarball: string; files: string[] }> {
  const packed = await promisify(execFile)("npm", ["pack", REPO, "--pack-destination", dir, "--ignore-scripts", "--json", "--loglevel=error"], { cwd: dir });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  return { tarball: path.join(dir, info.filename), files: info.files.map((file) => file.path) };
}

/** Copy the example's folder to `dir/<name>` (node_modules left out), so that a test can change it; returns the copy. */
export function copyExample(example: ExampleName, dir: string, name = "changed"): string {
  const target = path.join(dir, name);
  cpSync(exampleDir(example), target, { recursive: true, filter: (src) => !src.split(path.sep).includes("node_modules") });
  return target;
}

/**
 * Replace text in a file of a program copy. Each `from` must occur exactly once, so that a change
 * of the example itself makes the test fail instead of silently testing the unchanged program.
 */
export function editFile(file: string, edits: readonly (readonly [from: string, to: string])[]): void {
  let text = readFileSync(file, "utf8");
  for (const [from, to] of edits) {
    const count = text.split(from).length - 1;
    if (count !== 1) throw new Error(`${path.basename(file)}: expected "${from}" exactly once, found it ${count} times`);
    text = text.replace(from, to);
  }
  writeFileSync(file, text);
}

/** How a test runs one stack of an example. */
export interface StackOptions {
  readonly example: ExampleName;
  readonly emulator: TestEmulator;
  /** Where the state file goes (`<stack>.json`). */
  readonly dir: string;
  /** Default: the example's own folder. */
  readonly programDir?: string;
  readonly stack?: string;
  /** Project configuration, by key without the project prefix (`alicePassword`). */
  readonly config?: Readonly<Record<string, string>>;
  /** Which of `config`'s keys are secret. */
  readonly secretConfig?: readonly string[];
  /** Another key than the seed's first one. */
  readonly apiKey?: { readonly key: string; readonly secret: string };
  readonly policyPacks?: readonly PolicyPackSpec[];
}

/**
 * A test engine for a stack of the example: the emulator's address and the seed's API key as the
 * provider configuration (the secret as a secret), the project's config keys namespaced.
 */
export function exampleEngine(o: StackOptions): TestEngine {
  const project = projectOf(o.example);
  const key = o.apiKey ?? seedOf(o.example).apiKeys[0];
  const stack = o.stack ?? "dev";
  const config: Record<string, string> = {
    "kasm:baseUrl": o.emulator.url,
    "kasm:apiKey": key.key,
    "kasm:apiKeySecret": key.secret,
    // A test against a local emulator has no reason to wait out retries.
    "kasm:maxRetries": "1",
  };
  // A key with its namespace (`kasm:checkBeforeChanges`) is kept as it is.
  for (const [k, v] of Object.entries(o.config ?? {})) config[k.includes(":") ? k : `${project}:${k}`] = v;
  return new TestEngine({
    programDir: o.programDir ?? exampleDir(o.example),
    project,
    stack,
    stateFile: path.join(o.dir, `${stack}.json`),
    passphrase: PASSPHRASE,
    config,
    secretKeys: ["kasm:apiKeySecret", ...(o.secretConfig ?? []).map((k) => `${project}:${k}`)],
    policyPacks: o.policyPacks,
  });
}

/** The operation of each resource, by its name (the last part of the URN). */
export function ops(result: RunResult): Record<string, string> {
  return Object.fromEntries(result.resources.map((r) => [r.urn.split("::").pop(), r.op]));
}

/** The resource named `name` in a result. */
export function resource(result: RunResult, name: string) {
  const found = result.resources.find((r) => r.urn.endsWith(`::${name}`));
  if (!found) throw new Error(`no resource ${name} in the ${result.operation}: ${Object.keys(ops(result)).join(", ")}`);
  return found;
}

/** Fail with the run's errors and output when it did not succeed. */
export function expectOk(result: RunResult): void {
  if (!result.ok) {
    throw new Error(
      `${result.operation} failed: ${JSON.stringify(result.errors, null, 1)}\n` +
        `policy violations: ${JSON.stringify(result.policyViolations, null, 1)}\n${result.programOutput}`,
    );
  }
}

/** Every resource of the run was left as it was. */
export function expectAllSame(result: RunResult): void {
  expectOk(result);
  expect(result.resources.length).toBeGreaterThan(0);
  expect(result.resources.filter((r) => r.op !== "same").map((r) => `${r.op} ${r.urn}`)).toEqual([]);
}

/**
 * The warnings of a run: the engine's log lines (the provider's warnings reach the test engine's
 * Engine service, as they reach the CLI's), and any `warning: ...` line a process printed instead
 * (provider/engine-log.ts falls back to stderr when no engine answers).
 */
export function warnings(result: RunResult): string[] {
  const logged = result.logs.filter((l) => l.severity === "warning").map((l) => l.message);
  const printed = result.programOutput
    .split("\n")
    .filter((line) => line.startsWith("warning: "))
    .map((line) => line.slice("warning: ".length));
  return [...logged, ...printed];
}

/** The mandatory violations of a run, as `<policy> <resource name>`. */
export function mandatory(result: RunResult): string[] {
  return result.policyViolations.filter((v) => v.enforcementLevel === "mandatory").map((v) => `${v.policyName} ${v.urn.split("::").pop()}`);
}

/** The same key description for each policy of the permissions pack (Pulumi gives each policy its own config). */
export function permissionsPack(key: Record<string, unknown>): PolicyPackSpec {
  const names = ["key-permission-dependencies", "resource-needs-permissions", "read-only-key", "least-privilege"];
  return { dir: PERMISSIONS_PACK, config: Object.fromEntries(names.map((n) => [n, key])) as PolicyPackConfig };
}

/** The hardening pack with every policy mandatory (its policies are advisory by default), so that a violation fails. */
export function strictHardeningPack(extra: PolicyPackConfig = {}): PolicyPackSpec {
  return { dir: HARDENING_PACK, config: { all: "mandatory", ...extra } };
}

/**
 * What of the emulator's store a destroy must give back as seeded. Left out: what the API cannot
 * delete (`what.licenses`: license records and the seats they took from the activation keys;
 * `what.egressCredentials`: credentials), and nothing else unless a test says so.
 */
export function comparable(state: any, what: { licenses?: boolean; egressCredentials?: boolean } = {}): any {
  const copy = structuredClone(state);
  if (what.licenses) {
    delete copy.licenses;
    for (const k of Object.values<any>(copy.activationKeys ?? {})) delete k.seats_used;
  }
  if (what.egressCredentials) delete copy.egressCredentials;
  return copy;
}

/** A user of the emulator's store, by username, or undefined. */
export function userNamed(state: any, username: string): any {
  return Object.values<any>(state.users).find((u) => u.username === username);
}

/** A duration for the console, in seconds. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A users CSV in the format of `sample` (a header and the README's own rows, kept first), with
 * generated rows (`staff003`, ...; the teams alternating in `group_1`) up to `count` rows.
 */
export function usersCsvLike(sample: readonly string[], count: number, teams: readonly string[] = ["Engineering", "Support"]): string {
  const [header, ...rows] = sample;
  const columns = header.split(",");
  for (let i = rows.length; i < count; i++) {
    const username = `staff${String(i).padStart(3, "0")}`;
    const values: Record<string, string> = {
      username,
      first_name: `First${i}`,
      last_name: `Last${i}`,
      email: `${username}@example.org`,
      group_1: teams[i % teams.length],
    };
    rows.push(columns.map((c) => values[c] ?? "").join(","));
  }
  return [header, ...rows].join("\n") + "\n";
}

/** The README's text under `heading` (`### Bulk onboarding`), up to the next heading of any level. */
export function readmeSection(heading: string): string {
  const readme = readFileSync(path.join(REPO, "README.md"), "utf8");
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}" heading`);
  return readme.slice(start + heading.length + 2).split(/\n#{1,3} /)[0];
}

/** The first fenced block of `language` in the README's section under `heading`. */
export function readmeBlock(heading: string, language: string): string {
  const block = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(readmeSection(heading));
  if (!block) throw new Error(`README.md's "${heading}" section has no \`\`\`${language} block`);
  return block[1];
}
