/**
 * The internals of @pulumi/pulumi and @pulumi/policy that the policy packs, the provider and the
 * test engine rely on (scripts/compat-internals.ts), checked one by one against the versions this
 * repository pins; `npm run test:compat` checks the same list against the newest releases. A
 * failure names the symbol and the files that need it. A second test reads the sources, so that a
 * deep import or proxy key added later without an entry in the list fails here too.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COVERED_MODULES, INTERNALS, checkInternals } from "../../scripts/compat-internals";

const REPO = path.resolve(__dirname, "..", "..");
/** Where code that ships, or that runs Pulumi's processes for the tests, lives. */
const SOURCE_DIRS = ["provider", "sdk", "policy", "emulator", "testing", "test/helpers", "scripts"];

function sources(dir: string): string[] {
  const full = path.join(REPO, dir);
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path.join(dir, e.name)] : [],
  );
}

/** Code only: comments mention module paths without importing them. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

describe("internals of @pulumi/pulumi and @pulumi/policy this package relies on", () => {
  const results = checkInternals(require);

  for (const result of results) {
    it(result.symbol, () => {
      expect(result.problem, `${result.symbol} is gone or has changed (used by ${result.usedBy}): ${result.problem}`).toBeUndefined();
    });
  }

  it("the check fails, naming the symbol, when an internal is missing", () => {
    // A require that finds @pulumi/policy's proxy without its unwrapping key.
    const fake = ((id: string) => {
      if (id.endsWith(`${path.sep}proxy.js`)) return { ...require(id), getSpecialProxyTarget: undefined };
      return require(id);
    }) as NodeRequire;
    fake.resolve = require.resolve;
    const broken = checkInternals(fake).find((r) => r.problem !== undefined);
    expect(broken?.symbol).toBe("@pulumi/policy: __getSpecialProxyTarget");
    expect(broken?.problem).toContain("unwrapping key");
  });

  it("every deep import of @pulumi/pulumi or @pulumi/policy in the sources is in the list", () => {
    const found = new Map<string, string>();
    for (const file of SOURCE_DIRS.flatMap(sources)) {
      if (file === path.join("scripts", "compat-internals.ts")) continue;
      const code = withoutComments(readFileSync(path.join(REPO, file), "utf8"));
      for (const match of code.matchAll(/["'`](@pulumi\/(?:pulumi|policy)\/[A-Za-z0-9_\-/.]+|@pulumi\/(?:pulumi|policy)\/\$\{[^}]+\})["'`]/g)) {
        found.set(match[1], file);
      }
      // The engine resolves its command scripts through a template: `@pulumi/pulumi/${script}`.
      for (const match of code.matchAll(/["'](cmd\/[a-z-]+)["']/g)) found.set(`@pulumi/pulumi/${match[1]}`, file);
      if (code.includes("__getSpecialProxyTarget")) found.set("@pulumi/policy: __getSpecialProxyTarget", file);
      if (/\bUnknownValueError\b/.test(code)) found.set("@pulumi/policy: UnknownValueError", file);
    }
    const listed = new Set([...COVERED_MODULES, ...INTERNALS.map((i) => i.symbol)]);
    const unlisted = [...found]
      .filter(
        ([module]) => !module.includes("${") && module !== "@pulumi/pulumi/package.json" && module !== "@pulumi/policy/package.json" && !listed.has(module),
      )
      .map(([module, file]) => `${module} (${file})`);
    expect(unlisted, "add these to INTERNALS in scripts/compat-internals.ts").toEqual([]);
    // The list is not stale either: each deep module it names is still used somewhere.
    const unused = [...COVERED_MODULES].filter((m) => !found.has(m));
    expect(unused, "no longer used: remove from INTERNALS").toEqual([]);
  });
});
