/**
 * No source file shares its name with a folder beside it (`user-set.ts` next to `user-set/`): a
 * module that grows parts becomes the folder, with its entry point in the folder's `index.ts`
 * (ARCHITECTURE.md, "Keeping it this way"). With both, `./user-set` names the file while its
 * parts live in the folder, and `require("./user-set")` would load a stale `user-set.js` left in
 * `dist/` before the folder's index.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
/** The folders of source: the seven code folders, the tests, the scripts and the benchmarks. */
const SOURCE_FOLDERS = ["catalogue", "provider", "emulator", "policy", "sdk", "testing", "importer", "test", "scripts", "bench"];
const MODULE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Every `<name>.<ext>` beside a folder `<name>/` under `folder`, as paths from the repository's root. */
function filesBesideTheirFolder(folder: string): string[] {
  const entries = readdirSync(path.join(ROOT, folder), { withFileTypes: true }).filter((e) => e.name !== "node_modules");
  const folders = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  const pairs = entries.filter((e) => e.isFile() && MODULE_FILE.test(e.name) && folders.has(e.name.replace(MODULE_FILE, ""))).map((e) => `${folder}/${e.name}`);
  return [...pairs, ...[...folders].flatMap((name) => filesBesideTheirFolder(`${folder}/${name}`))];
}

describe("module layout", () => {
  it("has no file beside a folder of the same name", () => {
    expect(SOURCE_FOLDERS.flatMap(filesBesideTheirFolder)).toEqual([]);
  });
});
