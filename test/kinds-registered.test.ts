/**
 * A new kind is registered in every place ARCHITECTURE.md's "a new kind" checklist names, and
 * nothing is registered that is not a kind: the permission catalogue's list (`KASM_KINDS`), the provider
 * registry (`provider/index.ts`), the sdk's class (exported from `sdk/index.ts`, with the kind's
 * type token), the permission table's row (`KIND_ROWS`), the importer (an area that writes the
 * kind, or a reason it does not), the sdk-vs-zod type test, the README's Resources table and
 * the files of the kind (`provider/resources/<kind>.ts`, or `provider/resources/<kind>/index.ts`
 * for a kind split into parts; `sdk/<kind>.ts`). Each failure names the kind and the place. The
 * policy packs' property types are derived from the registry's manifests (`KindInputs` in
 * policy/shared/inputs.ts), so they cannot miss a kind.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KASM_KINDS, kasmTypeToken } from "../permissions";
import { KIND_ROWS } from "../permissions/kind-table";
import { IMPORT_KINDS } from "../importer/kinds";
import { kinds, providers } from "../provider";
import * as sdk from "../sdk";

const ROOT = path.resolve(__dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
/** `UserServerAssignment` -> `user-server-assignment`. */
const fileName = (kind: string) => kind.replace(/[A-Z]/g, (c, i: number) => `${i ? "-" : ""}${c.toLowerCase()}`);

/** The kinds each place registers, by the names it uses. */
const PLACES: Record<string, readonly string[]> = {
  "provider/index.ts (providers)": Object.keys(providers),
  "sdk/index.ts (a class with the kind's type token)": Object.entries(sdk)
    .filter(([, value]) => typeof value === "function" && typeof (value as { kind?: unknown }).kind === "string")
    .map(([name]) => name),
  "permissions/kind-table.ts (KIND_ROWS)": Object.keys(KIND_ROWS),
  "importer/kinds.ts (IMPORT_KINDS' kinds), or the kind's docs.notImported with a reason": [
    ...IMPORT_KINDS.flatMap((area) => area.kinds),
    ...Object.entries(kinds)
      .filter(([, kind]) => (kind.manifest.docs.notImported ?? "").trim() !== "")
      .map(([name]) => name),
  ],
  "test/types/sdk-args.test-d.ts (Args agree with the zod inputs)": [...read("test/types/sdk-args.test-d.ts").matchAll(/KindArgs<sdk\.(\w+)Args>/g)].map(
    (m) => m[1],
  ),
  "README.md (### Resources table)": [...read("README.md").matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]).filter((name) => /^[A-Z]/.test(name)),
};

describe("every kind is registered everywhere a kind must be", () => {
  for (const [place, names] of Object.entries(PLACES)) {
    it(place, () => {
      expect([...new Set(names)].sort(), `${place} registers another set of kinds than KASM_KINDS`).toEqual([...KASM_KINDS].sort());
    });
  }

  it("each sdk class carries its kind's type token", () => {
    for (const kind of KASM_KINDS) {
      const cls = (sdk as unknown as Record<string, { kind?: string; isInstance?: unknown }>)[kind];
      expect(cls?.kind, kind).toBe(kind);
      expect(sdk.typeToken(kind as never), kind).toBe(kasmTypeToken(kind));
    }
  });

  it("each kind has its provider module (a file, or the index of a folder of parts) and its generated sdk file", () => {
    for (const kind of KASM_KINDS) {
      const single = `provider/resources/${fileName(kind)}.ts`;
      const folder = `provider/resources/${fileName(kind)}/index.ts`;
      expect(existsSync(path.join(ROOT, single)) || existsSync(path.join(ROOT, folder)), `${kind}: ${single} or ${folder}`).toBe(true);
      // Not both: `./resources/<kind>` would then resolve to the file, and the folder's index would be dead code.
      expect(existsSync(path.join(ROOT, single)) && existsSync(path.join(ROOT, folder)), `${kind}: both ${single} and ${folder}`).toBe(false);
      // Generated from the manifest by `npm run build` (scripts/sdk/typescript.ts).
      const sdkFile = `sdk/kinds/${fileName(kind)}.ts`;
      expect(existsSync(path.join(ROOT, sdkFile)), `${kind}: ${sdkFile} (run \`npm run build\`)`).toBe(true);
    }
  });
});
