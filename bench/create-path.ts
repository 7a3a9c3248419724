/**
 * The files of this package one `User` create runs code in, from the provider's entry point to the
 * wire: the dynamic host's `providers.User` (`pulumi-kasm/provider`), in this process, against an
 * emulator. Node's precise coverage (`node:inspector`) counts the calls of every function; after
 * a first create has loaded every module, the files with a named function called during the
 * second create's `check` and, apart, its `create` are listed. Asserts nothing: it measures what
 * ARCHITECTURE.md's walk of one create describes, and how far it is from a short one.
 *
 *   npm run build && npm run bench:create-path
 */
import { Session } from "node:inspector/promises";
import path from "node:path";
import { ADMIN, startTestEmulator } from "../test/helpers/emulator";

const DIST = path.resolve(__dirname, "..", "dist");

interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly { readonly functionName: string; readonly ranges: readonly { readonly count: number }[] }[];
}

/** The package's files (under dist/) with a named function called since the last take. */
async function filesRun(session: Session): Promise<string[]> {
  const { result } = (await session.post("Profiler.takePreciseCoverage")) as { result: ScriptCoverage[] };
  return result
    .filter((script) => script.url.startsWith("file://") && new URL(script.url).pathname.startsWith(DIST))
    .filter((script) => script.functions.some((fn) => fn.functionName !== "" && fn.ranges.some((range) => range.count > 0)))
    .map((script) => path.relative(DIST, new URL(script.url).pathname))
    .sort();
}

async function main(): Promise<void> {
  const emulator = await startTestEmulator({});
  try {
    const runtime = require(path.join(DIST, "provider", "runtime.js")) as typeof import("../provider/runtime");
    const { providers } = require(path.join(DIST, "provider", "index.js")) as typeof import("../provider");
    const settings: Record<string, string> = { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret };
    runtime.configure({ config: { get: (key) => settings[key] } });
    // A first create loads every module it needs: the second one's figures are the path alone.
    const first = await providers.User.check({}, { username: "first" });
    await providers.User.create(first.inputs);

    const session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
    await filesRun(session);
    const checked = await providers.User.check({}, { username: "ada", firstName: "Ada" });
    const checkFiles = await filesRun(session);
    await providers.User.create(checked.inputs);
    const createFiles = await filesRun(session);
    await session.post("Profiler.stopPreciseCoverage");

    console.log(`One User create through the dynamic host's providers.User: files of this package it runs code in`);
    console.log(`  check: ${checkFiles.length} files`);
    console.log(`  create: ${createFiles.length} files`);
    for (const file of createFiles) console.log(`    ${file}`);
  } finally {
    await emulator.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
