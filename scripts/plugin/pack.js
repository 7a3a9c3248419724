#!/usr/bin/env node
/**
 * Pack the native provider plugin as a tarball for `pulumi plugin install resource kasm <version>
 * --file <tarball>`: build/plugin/pulumi-resource-kasm-v<version>-<os>-<arch>.tar.gz (or in the
 * folder given with `--out <dir>`). Prints the tarball's path on stdout; progress goes to stderr.
 *
 * The tarball's root is the plugin's folder once installed, and holds everything the plugin runs
 * with, so that installing it and running it need no network, only Node:
 *   pulumi-resource-kasm   the launcher (bin/pulumi-resource-kasm), which the engine runs by name;
 *   package.json           this package's manifest: the plugin reports its version from it, and
 *                          its `exports` let `require("pulumi-kasm/...")` resolve to this copy;
 *   dist/                  the compiled package (run `npm run build` first: `npm run plugin:pack` does);
 *   node_modules/          the production dependencies, plus @pulumi/pulumi, whose gRPC
 *                          definitions the plugin serves with (a peer dependency of the package,
 *                          which a program's project provides; the plugin runs on its own).
 * No PulumiPlugin.yaml: with one, `pulumi plugin install` would have the Node.js language host
 * install the plugin's dependencies (npm, over the network), and the engine would run the plugin
 * through that host instead of the executable.
 *
 * node_modules is installed by npm from its cache (`--offline`) at the versions package-lock.json
 * pins, the ones the tests run with: a checkout's `npm ci` put them in the cache.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"));

/** Pulumi's names for the platform a plugin runs on. */
const OS = { linux: "linux", darwin: "darwin" };
const ARCH = { x64: "amd64", arm64: "arm64" };

function fail(message) {
  process.stderr.write(`plugin:pack: ${message}\n`);
  process.exit(1);
}

/** Run a command, its output on stderr (stdout carries only the tarball's path); fail unless it succeeds. */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", process.stderr, process.stderr] });
  if (result.error) fail(`${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(" ")} exited with ${result.status}`);
}

function main(argv) {
  const outIndex = argv.indexOf("--out");
  const out = outIndex >= 0 ? path.resolve(argv[outIndex + 1] ?? fail("--out needs a folder")) : path.join(root, "build", "plugin");
  // The launcher is a POSIX shell script: a Windows tarball would need a .cmd launcher, untested.
  const platform = OS[process.platform] ?? fail(`no plugin tarball for ${process.platform}: the launcher is a POSIX shell script`);
  const arch = ARCH[process.arch] ?? fail(`no Pulumi name for the architecture ${process.arch}`);
  if (!fs.existsSync(path.join(root, "dist", "provider", "native", "main.js"))) fail("no dist/: run `npm run build` first");
  const pulumiVersion = lock.packages?.["node_modules/@pulumi/pulumi"]?.version ?? fail("package-lock.json pins no @pulumi/pulumi");

  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-resource-kasm-"));
  try {
    // The dependencies, installed from the lock in a folder of their own: a manifest with the
    // package's `dependencies` and the locked @pulumi/pulumi (which the lock lists as a dev
    // dependency, hence named here), and the lock, so that npm keeps its versions.
    const deps = path.join(stage, "deps");
    fs.mkdirSync(deps);
    const depsManifest = { name: manifest.name, version: manifest.version, private: true, dependencies: { ...manifest.dependencies, "@pulumi/pulumi": pulumiVersion } };
    fs.writeFileSync(path.join(deps, "package.json"), `${JSON.stringify(depsManifest, null, 2)}\n`);
    fs.copyFileSync(path.join(root, "package-lock.json"), path.join(deps, "package-lock.json"));
    process.stderr.write(`plugin:pack: installing the production dependencies from npm's cache\n`);
    // No install scripts (none is needed: every dependency is plain JavaScript) and no .bin links.
    run("npm", ["install", "--offline", "--omit=dev", "--ignore-scripts", "--no-bin-links", "--no-audit", "--no-fund", "--loglevel=error"], deps);

    const plugin = path.join(stage, "plugin");
    fs.mkdirSync(plugin);
    fs.renameSync(path.join(deps, "node_modules"), path.join(plugin, "node_modules"));
    fs.cpSync(path.join(root, "dist"), path.join(plugin, "dist"), { recursive: true });
    fs.copyFileSync(path.join(root, "package.json"), path.join(plugin, "package.json"));
    fs.copyFileSync(path.join(root, "bin", "pulumi-resource-kasm"), path.join(plugin, "pulumi-resource-kasm"));
    fs.chmodSync(path.join(plugin, "pulumi-resource-kasm"), 0o755);

    fs.mkdirSync(out, { recursive: true });
    const tarball = path.join(out, `pulumi-resource-kasm-v${manifest.version}-${platform}-${arch}.tar.gz`);
    // The entries named one by one, so that they sit at the tarball's root (no "./" folder).
    run("tar", ["-czf", tarball, "-C", plugin, "pulumi-resource-kasm", "package.json", "dist", "node_modules"], root);
    process.stdout.write(`${tarball}\n`);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

main(process.argv.slice(2));
