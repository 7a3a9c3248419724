/**
 * `npm run test:compat`: the packed package with the newest @pulumi/pulumi and @pulumi/policy,
 * under this machine's Node and under Node 22 and 24, and with the oldest ones its peer
 * dependencies accept, under the oldest Node its `engines` accepts.
 *
 * 1. `npm pack` this repository (its `prepack` builds dist/).
 * 2. Install the tarball into a fresh temporary project with the newest @pulumi/pulumi and
 *    @pulumi/policy from the npm registry, and the `typescript` and `ts-node` that @pulumi/pulumi
 *    accepts (its optional peers: the newest version inside their ranges), as a TypeScript
 *    program's project has them; and into a second project, the same way, with the lowest
 *    versions package.json's `peerDependencies` accept and the registry serves (the README's
 *    compatibility promise).
 * 3. Install Node 22 and 24, and the oldest Node package.json's `engines` accepts, from the npm
 *    registry's `node` package (its install step fetches the binary from the registry's
 *    `node-<os>-<arch>` packages).
 * 4. Under each Node (the oldest one for the second project), run this file again with `--run`:
 *    in that process, the installed package's emulator (`pulumi-kasm/emulator`) and test engine
 *    (`pulumi-kasm/testing`), which starts the program, the dynamic-provider host and the policy
 *    pack with the same Node and from the installed @pulumi/pulumi. Steps: the internals check
 *    (scripts/compat-internals.ts) against the installed @pulumi/pulumi and @pulumi/policy,
 *    preview, up (which also reads the user back by its URN), a second up that changes nothing,
 *    destroy, and a preview with the installed hardening pack, every policy mandatory and one
 *    configured so that the program breaks it: that one must be reported, and no other.
 * 5. Print a summary (versions, each step's result and time) and exit 1 when anything failed.
 *
 * Options: `--node 20,22,24` (which to run with the newest versions; `20` is this machine's Node,
 * whatever its version), `--prebuilt` (pack dist/ as it is, without rebuilding: for CI right after
 * `npm test`), `--keep` (leave the temporary folder and print where it is). Needs the npm registry.
 */
import { execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { PolicyPackConfig } from "../testing/engine";
import { checkInternals } from "./compat-internals";

const run = promisify(execFile);
const REPO = path.resolve(__dirname, "..");
const NPM_FLAGS = ["--no-audit", "--no-fund", "--loglevel=error"];
const PROJECT = "kasm-compat";
/** Encrypts the secrets of the throwaway stacks' state files. */
const PASSPHRASE = "compat correct horse battery";
const ADMIN = { key: "compat-admin", secret: "compat-admin-secret" };
const GROUP_ID = "6d1c0a9e5b2f4c8d9e7a3b1f0c2d4e6f";

/**
 * The program every Node runs: a user with a password from config, a membership that needs the
 * user's id, and the user's object made again from its URN (which the engine answers).
 */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();
const user = new kasm.User("compat", {
  username: "compat-user",
  firstName: "Compat",
  password: config.requireSecret("password"),
});
new kasm.GroupMembership("compat-member", { userId: user.userId, groupId: config.require("groupId") });
export const userId = user.userId;
// The same user's object made from its URN: the engine's getResource invoke.
export const userIdByUrn = user.urn.apply((urn) => new kasm.User("compat-by-urn", { username: "compat-user" }, { urn })).apply((byUrn) => byUrn.userId);
`;

/** One step of a run under one Node. */
interface Step {
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  /** Why it failed, or a short note. */
  readonly detail?: string;
}

/** What a run under one Node reports back (as JSON in a file). */
interface NodeReport {
  readonly node: string;
  readonly pulumi: string;
  readonly policy: string;
  /** The `cmd/run` script the test engine starts programs with (the installed @pulumi/pulumi's). */
  runtime: string;
  readonly steps: Step[];
}

function seconds(ms: number): string {
  return ms >= 60_000 ? `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

function errorText(error: unknown): string {
  const e = error as { message?: string; stderr?: string };
  return [e?.message ?? String(error), e?.stderr].filter(Boolean).join("\n").trim();
}

async function timed<T>(label: string, fn: () => Promise<T>, times: string[]): Promise<T> {
  const started = Date.now();
  process.stdout.write(`compat: ${label}...\n`);
  try {
    return await fn();
  } finally {
    times.push(`${label} ${seconds(Date.now() - started)}`);
  }
}

async function npmView(spec: string, field: string): Promise<string> {
  const { stdout } = await run("npm", ["view", spec, field, "--json", "--loglevel=error"], { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout);
}

/** The ranges this package declares for its peers and for Node (package.json). */
const OWN_MANIFEST = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
  peerDependencies: Record<string, string>;
  engines: { node: string };
};

/** Compares two release versions (`x.y.z`) by their numbers. */
function byVersion(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/**
 * The lowest release of `name` that the registry serves inside package.json's peer range for it
 * (a registry may lack the range's first version).
 */
async function oldestSupported(name: "@pulumi/pulumi" | "@pulumi/policy"): Promise<string> {
  const range = OWN_MANIFEST.peerDependencies[name];
  const served = [await npmView(`${name}@${range}`, "version")].flat() as string[];
  const releases = served.filter((v) => /^\d+\.\d+\.\d+$/.test(v)).sort(byVersion);
  if (releases.length === 0) throw new Error(`the npm registry serves no release of ${name} in package.json's peer range ${range}`);
  return releases[0];
}

/** The lowest Node package.json's `engines` accepts, as a release (`>=20.19` gives 20.19.0). */
function oldestNode(): string {
  const range = OWN_MANIFEST.engines.node;
  const found = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(range);
  if (!found) throw new Error(`package.json's engines name no Node version: ${range}`);
  return `${found[1]}.${found[2] ?? 0}.${found[3] ?? 0}`;
}

/**
 * Like `Promise.all`, but fails only once every promise has settled, so that nothing is still
 * writing into the folder the cleanup removes.
 */
async function allSettledOrThrow<T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/**
 * A fresh project in `dir` with the program, the tarball, these @pulumi/pulumi and
 * @pulumi/policy, and the `typescript` and `ts-node` that @pulumi/pulumi accepts (in `peerRanges`,
 * its peer dependencies): what `pulumi new typescript` gives a project. Returns the install's promise.
 */
function installProject(dir: string, tarball: string, versions: { pulumi: string; policy: string }, peerRanges: Record<string, string>): Promise<unknown> {
  mkdirSync(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: PROJECT, private: true, main: "index.ts" }, null, 2));
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  writeFileSync(path.join(dir, "index.ts"), PROGRAM);
  const install = [
    tarball,
    `@pulumi/pulumi@${versions.pulumi}`,
    `@pulumi/policy@${versions.policy}`,
    `typescript@${peerRanges.typescript ?? "^5"}`,
    `ts-node@${peerRanges["ts-node"] ?? "^10"}`,
    "@types/node",
  ];
  return run("npm", ["install", ...install, ...NPM_FLAGS], { cwd: dir, timeout: 600_000 });
}

/** Install `node@<version>` (a major, such as `22`, or a release) from the npm registry into `dir`; the path of its binary. */
async function installNode(version: string, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `node-${version}`, private: true }));
  await run("npm", ["install", `node@${version}`, ...NPM_FLAGS], { cwd: dir, timeout: 300_000 });
  const binary = path.join(dir, "node_modules", "node", "bin", "node");
  const ran = (await run(binary, ["--version"])).stdout.trim();
  if (ran !== `v${version}` && !ran.startsWith(`v${version}.`)) throw new Error(`node@${version} from the registry runs as ${ran}`);
  return binary;
}

/** The orchestrating process: pack, install, run each Node, print the summary. */
async function main(args: string[]): Promise<number> {
  const started = Date.now();
  const nodeArg = args.includes("--node") ? args[args.indexOf("--node") + 1] : "20,22,24";
  const majors = nodeArg.split(",").map((s) => s.trim());
  const keep = args.includes("--keep");
  const tmp = mkdtempSync(path.join(tmpdir(), "kasm-compat-"));
  const times: string[] = [];
  const reports: NodeReport[] = [];
  const failures: string[] = [];
  try {
    const [pulumiVersion, policyVersion, peers, oldest] = await timed(
      "newest and oldest versions from the npm registry",
      () =>
        Promise.all([
          npmView("@pulumi/pulumi@latest", "version"),
          npmView("@pulumi/policy@latest", "version"),
          npmView("@pulumi/pulumi@latest", "peerDependencies"),
          Promise.all([oldestSupported("@pulumi/pulumi"), oldestSupported("@pulumi/policy")]).then(async ([pulumi, policy]) => ({
            pulumi,
            policy,
            peers: await npmView(`@pulumi/pulumi@${pulumi}`, "peerDependencies"),
          })),
        ]),
      times,
    );

    // `--prebuilt` (CI, right after `npm test` built dist/): pack dist/ as it is, without `prepack`.
    const prebuilt = args.includes("--prebuilt");
    const packArgs = ["pack", REPO, "--pack-destination", tmp, "--json", "--loglevel=error", ...(prebuilt ? ["--ignore-scripts"] : [])];
    const packed = await timed(prebuilt ? "npm pack" : "npm pack (builds dist/)", () => run("npm", packArgs, { cwd: tmp, maxBuffer: 64 * 1024 * 1024 }), times);
    const tarball = path.join(tmp, JSON.parse(packed.stdout.slice(packed.stdout.indexOf("[")))[0].filename);

    const projectDir = path.join(tmp, "project");
    const oldestDir = path.join(tmp, "project-oldest");
    // The projects and the Node binaries install at the same time: all of it is download time.
    const nodeDirs = majors.filter((m) => m !== "20");
    const nodeOldest = oldestNode();
    const [, , oldestBinary, ...binaries] = await timed(
      `npm install (project, oldest project, node@${nodeOldest}${nodeDirs.map((m) => `, node@${m}`).join("")})`,
      () =>
        allSettledOrThrow([
          installProject(projectDir, tarball, { pulumi: pulumiVersion, policy: policyVersion }, peers as unknown as Record<string, string>),
          installProject(oldestDir, tarball, oldest, oldest.peers as unknown as Record<string, string>),
          installNode(nodeOldest, path.join(tmp, "node-oldest")),
          ...nodeDirs.map((m) => installNode(m, path.join(tmp, `node-${m}`))),
        ]),
      times,
    );
    const typescriptOf = (dir: string): string => JSON.parse(readFileSync(path.join(dir, "node_modules", "typescript", "package.json"), "utf8")).version;
    // Each Node with the newest versions, then the oldest of everything: Node, @pulumi/pulumi, @pulumi/policy.
    const runs = [
      ...majors.map((m) => ({
        node: m === "20" ? process.execPath : binaries[nodeDirs.indexOf(m)],
        dir: projectDir,
        label: m === "20" ? "this machine's Node" : `Node ${m} from the registry`,
      })),
      { node: oldestBinary, dir: oldestDir, label: `Node ${nodeOldest} from the registry, oldest versions` },
    ];

    const tsx = pathToFileURL(require.resolve("tsx")).href;
    for (const [i, { node, dir, label }] of runs.entries()) {
      const out = path.join(tmp, `report-${i}.json`);
      await timed(
        `run under ${label}`,
        async () => {
          const code = await new Promise<number>((resolve, reject) => {
            const child = spawn(node, ["--import", tsx, __filename, "--run", dir, "--out", out], { cwd: REPO, stdio: ["ignore", "inherit", "inherit"] });
            child.once("error", reject);
            child.once("exit", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
          });
          try {
            reports.push(JSON.parse(readFileSync(out, "utf8")));
          } catch {
            failures.push(`${label}: the run exited with ${code} before reporting`);
          }
        },
        times,
      );
    }

    console.log(`\nCompatibility of the packed ${path.basename(tarball)}`);
    console.log(`newest: @pulumi/pulumi ${pulumiVersion}, @pulumi/policy ${policyVersion}, typescript ${typescriptOf(projectDir)}`);
    console.log(
      `oldest the peer dependencies accept that the registry serves: @pulumi/pulumi ${oldest.pulumi}, @pulumi/policy ${oldest.policy}, typescript ${typescriptOf(oldestDir)}`,
    );
    for (const report of reports) {
      console.log(
        `\nNode ${report.node}: @pulumi/pulumi ${report.pulumi} and @pulumi/policy ${report.policy} as loaded; runtime ${path.relative(tmp, report.runtime)}`,
      );
      for (const step of report.steps) {
        console.log(
          `  ${step.ok ? "ok  " : "FAIL"} ${step.name.padEnd(16)} ${seconds(step.ms).padStart(8)}${step.detail ? `  ${step.detail.split("\n").join("\n        ")}` : ""}`,
        );
        if (!step.ok) failures.push(`Node ${report.node}: ${step.name}`);
      }
    }
  } catch (error) {
    failures.push(errorText(error));
  } finally {
    if (keep) console.log(`kept: ${tmp}`);
    else await timed("cleanup", async () => rmSync(tmp, { recursive: true, force: true }), times);
  }
  console.log(`\nTimes: ${times.join(", ")}; whole run ${seconds(Date.now() - started)}`);
  if (failures.length) {
    console.log(`\nFAILED:\n  ${failures.join("\n  ")}`);
    return 1;
  }
  console.log("\nAll passed.");
  return 0;
}

/** The process under one Node: the steps, against the installed package in `projectDir`. */
async function runSteps(projectDir: string, out: string): Promise<void> {
  const req = createRequire(path.join(projectDir, "index.js"));
  const report: NodeReport = {
    node: process.version,
    pulumi: req("@pulumi/pulumi/package.json").version,
    policy: String(req("@pulumi/policy/package.json").version).replace(/^v/, ""),
    runtime: "",
    steps: [],
  };
  const save = () => writeFileSync(out, JSON.stringify(report, null, 2));
  const step = async (name: string, fn: () => Promise<string | void>): Promise<boolean> => {
    const started = Date.now();
    try {
      const detail = await fn();
      report.steps.push({ name, ok: true, ms: Date.now() - started, ...(detail ? { detail } : {}) });
      console.log(`compat: ${process.version} ${name} ok`);
      return true;
    } catch (error) {
      report.steps.push({ name, ok: false, ms: Date.now() - started, detail: errorText(error) });
      console.log(`compat: ${process.version} ${name} FAILED: ${errorText(error)}`);
      return false;
    } finally {
      save();
    }
  };

  await step("internals", async () => {
    const missing = checkInternals(req).filter((r) => r.problem);
    if (missing.length) throw new Error(missing.map((r) => `${r.symbol} (used by ${r.usedBy}): ${r.problem}`).join("\n"));
  });

  const { startEmulator } = req("pulumi-kasm/emulator") as typeof import("../emulator/server");
  const testing = req("pulumi-kasm/testing") as typeof import("../testing/engine");
  // The engine must run the program with the project's @pulumi/pulumi, not one of its own.
  const { pulumiScript } = testing as { pulumiScript?: (script: string, programDir: string) => string };
  const runtime = pulumiScript ? pulumiScript("cmd/run", projectDir) : req.resolve("@pulumi/pulumi/cmd/run");
  if (!runtime.startsWith(path.join(projectDir, "node_modules", "@pulumi", "pulumi") + path.sep))
    throw new Error(`the test engine runs programs with ${runtime}, not the project's @pulumi/pulumi`);
  report.runtime = runtime;
  const emulator = await startEmulator({
    seed: {
      apiKeys: [{ name: "compat", key: ADMIN.key, secret: ADMIN.secret, permissions: ["Global Admin"] }],
      groups: [{ group_id: GROUP_ID, name: "Compat" }],
    },
  });
  const stateDir = mkdtempSync(path.join(tmpdir(), "kasm-compat-state-"));
  const engine = (stack: string, options: { policyConfig?: PolicyPackConfig } = {}) =>
    new testing.TestEngine({
      programDir: projectDir,
      project: PROJECT,
      stack,
      stateFile: path.join(stateDir, `${stack}.json`),
      passphrase: PASSPHRASE,
      config: {
        "kasm:baseUrl": emulator.url,
        "kasm:apiKey": ADMIN.key,
        "kasm:apiKeySecret": ADMIN.secret,
        "kasm:maxRetries": "1",
        [`${PROJECT}:password`]: "a-long-compat-password-1234",
        [`${PROJECT}:groupId`]: GROUP_ID,
      },
      secretKeys: ["kasm:apiKeySecret", `${PROJECT}:password`],
      linkRepository: false,
      policyPacks: options.policyConfig
        ? [{ dir: path.join(projectDir, "node_modules", "pulumi-kasm", "policy", "hardening"), config: options.policyConfig }]
        : undefined,
    });
  /** The emulator's users, by username, from its state route. */
  const users = async (): Promise<string[]> => {
    const state = (await (await fetch(`${emulator.url}/__emulator/state`)).json()) as { users: Record<string, { username: string }> };
    return Object.values(state.users).map((u) => u.username);
  };
  type Result = Awaited<ReturnType<InstanceType<typeof testing.TestEngine>["up"]>>;
  const expectOk = (result: Result): void => {
    if (!result.ok) {
      throw new Error(
        `${result.operation} failed: ${JSON.stringify(result.errors)} ${JSON.stringify(result.policyViolations)}\n${result.programOutput.slice(-2000)}`,
      );
    }
  };
  const ops = (result: Result) =>
    result.resources
      .map((r) => `${r.urn.split("::").pop()}=${r.op}`)
      .sort()
      .join(", ");
  const expectOps = (result: Result, expected: string): void => {
    if (ops(result) !== expected) throw new Error(`${result.operation}: expected ${expected}, got ${ops(result)}`);
  };

  try {
    const dev = engine("dev");
    const steps: [string, () => Promise<string | void>][] = [
      [
        "preview",
        async () => {
          const r = await dev.preview();
          expectOk(r);
          expectOps(r, "compat-member=create, compat=create, kasm-compat-dev=create");
        },
      ],
      [
        "up",
        async () => {
          const r = await dev.up();
          expectOk(r);
          expectOps(r, "compat-member=create, compat=create, kasm-compat-dev=create");
          if (!(await users()).includes("compat-user")) throw new Error("the user is not in the emulator after up");
          if (typeof r.outputs.userId !== "string" || !r.outputs.userId) throw new Error(`no userId output: ${JSON.stringify(r.outputs)}`);
          if (r.outputs.userIdByUrn !== r.outputs.userId) throw new Error(`the user read by its URN is not the user: ${JSON.stringify(r.outputs)}`);
        },
      ],
      [
        "up (no change)",
        async () => {
          const r = await dev.up();
          expectOk(r);
          expectOps(r, "compat-member=same, compat=same, kasm-compat-dev=same");
        },
      ],
      [
        "destroy",
        async () => {
          const r = await dev.destroy();
          expectOk(r);
          if ((await users()).includes("compat-user")) throw new Error("the user is still in the emulator after destroy");
          if (dev.readState().length) throw new Error("the state is not empty after destroy");
        },
      ],
      [
        "policy preview",
        async () => {
          // Every hardening policy mandatory, and a minimum length the password does not reach: the
          // pack must report that one policy and no other (a false positive fails the step too).
          const config: PolicyPackConfig = { all: "mandatory", "user-password-length": { enforcementLevel: "mandatory", minLength: 64 } };
          const r = await engine("policy", { policyConfig: config }).preview();
          const found = r.policyViolations.map((v) => `${v.policyName} (${v.enforcementLevel})`);
          if (r.errors.length || found.join() !== "user-password-length (mandatory)") {
            throw new Error(
              `expected only user-password-length (mandatory), got ${found.join(", ") || "none"} ${JSON.stringify(r.policyViolations)} ${JSON.stringify(r.errors)}`,
            );
          }
          return "user-password-length reported, as configured to";
        },
      ],
    ];
    for (const [name, fn] of steps) if (!(await step(name, fn))) break;
  } finally {
    await emulator.close();
    rmSync(stateDir, { recursive: true, force: true });
    save();
  }
}

const argv = process.argv.slice(2);
if (argv[0] === "--run") {
  runSteps(argv[1], argv[argv.indexOf("--out") + 1]).then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main(argv).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
