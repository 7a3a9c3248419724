/**
 * The benchmarks run outside the test runner (`npm run bench*`: `node --import tsx bench/<name>.ts`),
 * and they reuse test helpers (the emulator harness, the installation builder). A helper that
 * imports vitest makes every benchmark that loads it fail at start ("Vitest cannot be imported in
 * a CommonJS module"), which no test would notice. So: no module a benchmark loads, through any
 * chain of relative imports, imports vitest.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const BENCH = path.join(ROOT, "bench");
/** `import ... from "x"`, `export ... from "x"`, `import("x")` and `require("x")`. */
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

/** The file a relative specifier names: itself with `.ts`, or its folder's `index.ts`. */
function resolveLocal(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, "index.ts"), base].find((candidate) => existsSync(candidate) && candidate.endsWith(".ts"));
}

/** Every chain of relative imports from `entry` that reaches a module importing vitest. */
function chainsToVitest(entry: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, chain: readonly string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, path.relative(ROOT, file)];
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (specifier === "vitest" || specifier.startsWith("vitest/")) found.push(here.join(" -> "));
      else if (specifier.startsWith(".")) {
        const next = resolveLocal(file, specifier);
        if (next) visit(next, here);
      }
    }
  };
  visit(entry, []);
  return found;
}

describe("the benchmarks", () => {
  const benchmarks = readdirSync(BENCH).filter((name) => name.endsWith(".ts"));

  it("are there to check", () => {
    expect(benchmarks.length).toBeGreaterThan(0);
  });

  it.each(benchmarks)("%s loads no module that imports vitest", (name) => {
    expect(chainsToVitest(path.join(BENCH, name))).toEqual([]);
  });
});
