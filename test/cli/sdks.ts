/**
 * The native provider's generated SDKs for the CLI tests: `npm run sdk:generate`'s script run into
 * a test's folder, a Python virtual environment with Pulumi's Python SDK and the generated one
 * installed, a TypeScript program's node_modules with the generated Node.js SDK unpacked into it,
 * and the Go toolchain's presence. Each step is timed, so that a test can report what a cold and a
 * warm run cost.
 */
import { execFile, spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

const REPO = path.resolve(__dirname, "..", "..");

/** Whether a `go` toolchain answers on PATH (the Go SDK's build needs one). */
export const hasGo: boolean = spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;

/** Whether `python3` answers on PATH with its `venv` and `pip` modules (the Python program needs them). */
export const hasPython: boolean = spawnSync("python3", ["-c", "import venv, pip"], { stdio: "ignore" }).status === 0;

/** What a command printed and its exit code; `seconds` how long it took. */
export interface Ran {
  readonly code: number;
  readonly output: string;
  readonly seconds: number;
}

/** Run a command asynchronously (an emulator in the test's own process must keep serving meanwhile). */
export function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: `${String(stdout)}${String(stderr)}`, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** The end of a command's output: pip's refusal can list every release of a package first. */
function tail(output: string, characters = 2000): string {
  return output.length > characters ? `...${output.slice(-characters)}` : output;
}

/** Fail with the command's output unless it succeeded. */
function ok(ran: Ran, what: string): Ran {
  if (ran.code !== 0) throw new Error(`${what} failed (exit ${ran.code}):\n${tail(ran.output)}`);
  return ran;
}

/**
 * Generate the SDKs of `languages` into `out` (`out/<language>`, and `out/schema.json`) with
 * scripts/sdk/generate.sh, the script `npm run sdk:generate` runs; the Node.js SDK is built and
 * packed too (see {@link nodejsSdkTarball}). `env` carries PULUMI_HOME, so that the CLI's plugin
 * lookups stay in the test's folder.
 */
export async function generateSdks(out: string, languages: readonly ("python" | "go" | "nodejs")[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return ok(await run("bash", [path.join(REPO, "scripts", "sdk", "generate.sh"), out, ...languages], { cwd: REPO, env }), "scripts/sdk/generate.sh");
}

/** The folder the project's build caches live in (the CLI's, and here the Python wheels), outside the repository. */
export function cacheRoot(): string {
  const cli = process.env.PULUMI_KASM_CLI_CACHE;
  return cli ? path.dirname(cli) : path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "pulumi-kasm");
}

/** A virtual environment ready to run a program on the generated Python SDK, and what it cost. */
export interface PythonEnvironment {
  /** The environment's interpreter. */
  readonly python: string;
  /** The seconds each step took: the environment's creation, filling the wheel cache (0 when it was full), the install. */
  readonly seconds: { readonly venv: number; readonly download: number; readonly install: number };
}

/**
 * Create a virtual environment in `venv` and install into it Pulumi's Python SDK from PyPI, at
 * `pulumiVersion` (the CLI's release) or the newest release before it that the index holds (a
 * package index can lag the CLI's release by a few weeks, and a Python SDK older than the CLI is
 * a combination Pulumi supports), and the generated SDK from its sources (`sdkDir`, with its
 * pyproject.toml).
 *
 * pip's own cache keeps nothing on a machine whose index answers uncacheable responses (this
 * project's CI, for one), so the wheels are kept in a folder of the cache root, by the CLI's
 * release and Python's version: a warm run installs from it without the index, and a cold one (or a generated SDK
 * that needs a package the folder lacks) downloads them into it first. A failed download fails
 * with pip's own words.
 */
export async function pythonEnvironment(venv: string, sdkDir: string, pulumiVersion: string): Promise<PythonEnvironment> {
  // Created without pip (ensurepip takes seconds): the system's pip installs into it (`--python`), pip included.
  const created = ok(await run("python3", ["-m", "venv", "--without-pip", venv]), `python3 -m venv ${venv}`);
  const python = path.join(venv, "bin", "python");
  const pip = (...args: string[]) => run("python3", ["-m", "pip", "--python", python, ...args]);
  const pythonVersion = (await run(python, ["-c", "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"])).output.trim();
  const wheels = path.join(cacheRoot(), "python-wheels", `pulumi-upto-${pulumiVersion}-py${pythonVersion}`);
  // setuptools builds the SDK from its pyproject.toml, in pip's isolated build environment; pip
  // itself, because the Python host lists a program's packages with the environment's own pip.
  const wanted = [`pulumi<=${pulumiVersion}`, "setuptools>=61", "pip"];
  // --no-compile: the modules a program imports are compiled when imported, not the whole of grpc's and Pulumi's.
  const install = () => pip("install", "--quiet", "--no-compile", "--no-index", "--find-links", wheels, ...wanted, sdkDir);

  let download = 0;
  let installed = existsSync(wheels) ? await install() : undefined;
  if (installed?.code !== 0) {
    const partial = `${wheels}.partial.${process.pid}`;
    mkdirSync(partial, { recursive: true });
    const fetched = await pip("download", "--quiet", "--dest", partial, ...wanted, sdkDir);
    if (fetched.code !== 0) {
      rmSync(partial, { recursive: true, force: true });
      throw new Error(
        `pip could not download pulumi<=${pulumiVersion} and the generated SDK's dependencies from the package index (is PyPI reachable?):\n${tail(fetched.output)}`,
      );
    }
    // The SDK itself is built afresh at every install: only its dependencies are kept.
    for (const file of readdirSync(partial)) if (/^pulumi[_-]kasm/i.test(file)) rmSync(path.join(partial, file));
    for (const file of existsSync(wheels) ? readdirSync(wheels) : [])
      if (!existsSync(path.join(partial, file))) renameSync(path.join(wheels, file), path.join(partial, file));
    rmSync(wheels, { recursive: true, force: true });
    renameSync(partial, wheels);
    download = fetched.seconds;
    installed = await install();
  }
  ok(installed, `pip install of pulumi<=${pulumiVersion} and the generated SDK (${sdkDir})`);
  return { python, seconds: { venv: created.seconds, download, install: installed.seconds } };
}

/** The version of the `pulumi` CLI on PATH, without its `v`: Pulumi's Python SDK is taken at that release at the most (see {@link pythonEnvironment}). */
export async function pulumiCliVersion(): Promise<string> {
  return ok(await run("pulumi", ["version"]), "pulumi version")
    .output.trim()
    .replace(/^v/, "");
}

/** The tarball of the Node.js SDK that {@link generateSdks} packed into `out` (the one `.tgz` there). */
export function nodejsSdkTarball(out: string): string {
  const tarballs = readdirSync(out).filter((name) => name.endsWith(".tgz"));
  if (tarballs.length !== 1) throw new Error(`expected one packed Node.js SDK in ${out}, found: ${tarballs.join(", ") || "none"}`);
  return path.join(out, tarballs[0]);
}

/**
 * Give a TypeScript program its own node_modules: each package of this repository's node_modules
 * linked in (pulumi-kasm among them, a link to this checkout, whose bin/ holds the plugin the
 * program's Pulumi.yaml names), and each tarball of `tarballs` unpacked into it under its
 * package's name, as `npm install <tarball>` places it (a packed pulumi-kasm takes the place of
 * the link to the checkout). An unpacked package resolves `@pulumi/pulumi` from the program's
 * node_modules, so the program and the SDK share one copy of Pulumi's runtime, as npm would have
 * them. (npm itself is not run in the program: it would rewrite the linked packages.) Answers the
 * names of the packages unpacked.
 *
 * `copied` names packages copied from this repository's node_modules instead of linked: where a
 * package lies matters to `@pulumi/pulumi`, whose closure serializer resolves the packages a
 * dynamic provider comes from starting at its own folder (linked, that is this repository's
 * node_modules, whose pulumi-kasm is this checkout, not the unpacked package).
 */
export async function programNodeModules(
  programDir: string,
  tarballs: readonly string[],
  options: { readonly copied?: readonly string[] } = {},
): Promise<string[]> {
  const modules = path.join(programDir, "node_modules");
  const copied = options.copied ?? [];
  mkdirSync(modules, { recursive: true });
  const linkAll = (from: string, to: string) => {
    for (const entry of readdirSync(from)) {
      if (entry === ".bin" || entry.startsWith(".")) continue;
      const name = path.relative(path.join(REPO, "node_modules"), path.join(from, entry));
      if (copied.includes(name)) cpSync(path.join(from, entry), path.join(to, entry), { recursive: true });
      else if (copied.some((c) => c.startsWith(`${name}/`))) {
        // The scope of a copied package: a folder of its own, its other packages linked.
        mkdirSync(path.join(to, entry));
        linkAll(path.join(from, entry), path.join(to, entry));
      } else symlinkSync(path.join(from, entry), path.join(to, entry));
    }
  };
  linkAll(path.join(REPO, "node_modules"), modules);
  const names: string[] = [];
  for (const tarball of tarballs) {
    const unpacked = mkdtempSync(path.join(programDir, ".unpack-"));
    ok(await run("tar", ["-xzf", tarball, "-C", unpacked]), `tar -xzf ${tarball}`);
    // npm's tarballs hold the package under package/.
    const name = (JSON.parse(readFileSync(path.join(unpacked, "package", "package.json"), "utf8")) as { name: string }).name;
    const target = path.join(modules, name);
    const scope = path.dirname(target);
    // Inside a linked folder (the scope @pulumi), the package would be written into this repository's node_modules.
    if (scope !== modules && existsSync(scope) && lstatSync(scope).isSymbolicLink())
      throw new Error(`${tarball}: ${name} would go into this repository's node_modules`);
    // The link itself is removed, never what it points at.
    const existing = lstatSync(target, { throwIfNoEntry: false });
    if (existing?.isSymbolicLink()) unlinkSync(target);
    else if (existing) throw new Error(`${tarball}: ${target} exists`);
    mkdirSync(scope, { recursive: true });
    renameSync(path.join(unpacked, "package"), target);
    rmSync(unpacked, { recursive: true, force: true });
    names.push(name);
  }
  return names;
}
