/**
 * What a program's `import * as kasm from "pulumi-kasm"` loads, in a Node process of its own as
 * Pulumi's program runner is one: the built package (dist/, as `npm test` builds it first). The
 * classes and the settings load at once; the lookups, with zod and the API's record schemas, and
 * the client, with undici, only when the program calls a lookup (sdk/lookups/common.ts). A
 * program that calls none spends none of that CPU in every `pulumi preview` and `pulumi up`.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const REPO = path.resolve(__dirname, "..", "..");

/**
 * The modules a fresh process holds after loading the package, then after one lookup (against an
 * address nothing answers, with no retry: the lookup fails, but it has loaded what it needs).
 */
const SCRIPT = `
const pulumi = require("@pulumi/pulumi");
const loaded = () => Object.keys(require.cache).map((file) => file.split(require("node:path").sep).join("/"));
const before = new Set(loaded());
const kasm = require("pulumi-kasm");
const afterImport = loaded().filter((file) => !before.has(file));
pulumi.runtime.setConfig("kasm:baseUrl", "http://127.0.0.1:1");
pulumi.runtime.setConfig("kasm:apiKey", "k");
pulumi.runtime.setConfig("kasm:apiKeySecret", "s");
pulumi.runtime.setConfig("kasm:maxRetries", "0");
kasm.getZones().then(
  () => { throw new Error("the lookup reached a Kasm at 127.0.0.1:1"); },
  (error) => {
    const afterLookup = loaded().filter((file) => !before.has(file));
    console.log(JSON.stringify({ classes: typeof kasm.User, afterImport, afterLookup, lookupError: error.name }));
  },
);
`;

/** Whether any of `files` is in the package `name`'s folder of node_modules. */
const hasPackage = (files: readonly string[], name: string) => files.some((file) => file.includes(`/node_modules/${name}/`));
/** Whether any of `files` is this package's built module `module` (a path under dist/, without .js). */
const hasModule = (files: readonly string[], module: string) => files.some((file) => file.endsWith(`/dist/${module}.js`));

describe("what a program loads with the SDK", () => {
  it("loads the classes without zod, undici or the lookups; the first lookup loads them", { timeout: 30_000 }, async () => {
    const { stdout } = await run(process.execPath, ["-e", SCRIPT], { cwd: REPO });
    const loaded = JSON.parse(stdout) as { classes: string; afterImport: string[]; afterLookup: string[]; lookupError: string };
    expect(loaded.classes).toBe("function");
    expect(hasModule(loaded.afterImport, "sdk/kinds/user")).toBe(true);
    expect(hasPackage(loaded.afterImport, "zod")).toBe(false);
    expect(hasPackage(loaded.afterImport, "undici")).toBe(false);
    expect(hasModule(loaded.afterImport, "provider/lookups/index")).toBe(false);
    expect(hasModule(loaded.afterImport, "provider/api/schemas/common")).toBe(false);

    expect(loaded.lookupError).toBe("KasmLookupError");
    expect(hasModule(loaded.afterLookup, "provider/lookups/index")).toBe(true);
    expect(hasPackage(loaded.afterLookup, "zod")).toBe(true);
    expect(hasPackage(loaded.afterLookup, "undici")).toBe(true);
  });
});
