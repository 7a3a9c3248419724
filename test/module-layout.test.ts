/**
 * The layout ARCHITECTURE.md promises ("Keeping it this way"):
 *
 * - No source file shares its name with a folder beside it (`user-set.ts` next to `user-set/`): a
 *   module that grows parts becomes the folder, with its entry point in the folder's `index.ts`.
 *   With both, `./user-set` names the file while its parts live in the folder, and
 *   `require("./user-set")` would load a stale `user-set.js` left in `dist/` before the folder's index.
 * - Every kind built by `defineKind` lists its definition in one order, so that a reader finds a
 *   kind's field rules, its refusals and its methods at the same place in every file.
 * - Every kind declares each input once (`declareFields`, framework/fields.ts): no kind file keeps a
 *   table of its inputs' docs of its own (`KindDocs` with `inputs`) or builds a body from its
 *   inputs by name (`toApi`, or `snake_case: inputs.camelCase`).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
/** The folders of source: the eight code folders, the tests, the scripts and the benchmarks. */
const SOURCE_FOLDERS = ["permissions", "provider", "emulator", "policy", "sdk", "testing", "importer", "recover", "test", "scripts", "bench"];
const MODULE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Every `<name>.<ext>` beside a folder `<name>/` under `folder`, as paths from the repository's root. */
function filesBesideTheirFolder(folder: string): string[] {
  const entries = readdirSync(path.join(ROOT, folder), { withFileTypes: true }).filter((e) => e.name !== "node_modules");
  const folders = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  const pairs = entries.filter((e) => e.isFile() && MODULE_FILE.test(e.name) && folders.has(e.name.replace(MODULE_FILE, ""))).map((e) => `${folder}/${e.name}`);
  return [...pairs, ...[...folders].flatMap((name) => filesBesideTheirFolder(`${folder}/${name}`))];
}

/**
 * The order a kind's definition lists its members in: what the kind is (its declared fields, with
 * their rules, then its outputs and docs), its refusals and steering, how it reads its record,
 * what its methods call, then its methods in the engine's order.
 */
const DEFINITION_ORDER = [
  "fields",
  "outputs",
  "docs",
  "productOnly",
  "sendsNothingWhen",
  "extraCheck",
  "previewNotes",
  "adjustDiff",
  "record",
  "adoption",
  "calls",
  "create",
  "read",
  "update",
  "delete",
];
const DEFINE_KIND = path.join(ROOT, "provider/resources/framework/define-kind.ts");
const KIND_FOLDER = path.join(ROOT, "provider/resources");

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
}

/** Every node below `node` that `pick` keeps. */
function nodesOf<T extends ts.Node>(node: ts.Node, pick: (n: ts.Node) => n is T): T[] {
  const found: T[] = [];
  const visit = (n: ts.Node) => {
    if (pick(n)) found.push(n);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** The member names of the interfaces a kind's definition is made of (KindDefinition's parts). */
function definitionMembers(): string[] {
  const parts = new Set(["KindMethods", "ReadsItself", "ReadsRecord"]);
  return nodesOf(parse(DEFINE_KIND), ts.isInterfaceDeclaration)
    .filter((i) => parts.has(i.name.text))
    .flatMap((i) => i.members.map((m) => (m.name && ts.isIdentifier(m.name) ? m.name.text : "")));
}

/** Each `defineKind({...})` call of the kinds, as its file and the member names it lists, in order. */
function defineKindCalls(): { file: string; members: string[] }[] {
  const files = readdirSync(KIND_FOLDER, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && !f.startsWith("framework"));
  return files.flatMap((file) =>
    nodesOf(parse(path.join(KIND_FOLDER, file)), ts.isCallExpression)
      .filter((call) => ts.isIdentifier(call.expression) && call.expression.text === "defineKind" && ts.isObjectLiteralExpression(call.arguments[0]))
      .map((call) => ({
        file,
        // A spread (the egress kinds' shared methods) names no member of its own: it is left out.
        members: (call.arguments[0] as ts.ObjectLiteralExpression).properties.flatMap((p) => (p.name && ts.isIdentifier(p.name) ? [p.name.text] : [])),
      })),
  );
}

/** The kinds' source files (their folders' parts included), without the framework and the calls declarations. */
function kindFiles(): string[] {
  return readdirSync(KIND_FOLDER, { recursive: true, encoding: "utf8" }).filter(
    (f) => f.endsWith(".ts") && !f.startsWith("framework") && !f.endsWith(".calls.ts"),
  );
}

describe("module layout", () => {
  it("has no file beside a folder of the same name", () => {
    expect(SOURCE_FOLDERS.flatMap(filesBesideTheirFolder)).toEqual([]);
  });

  it("lists every kind's definition in one order, which names each member a definition can have", () => {
    expect([...DEFINITION_ORDER].sort()).toEqual([...new Set(definitionMembers())].sort());
    const calls = defineKindCalls();
    expect(calls.length).toBeGreaterThanOrEqual(14);
    const outOfOrder = calls
      .filter(({ members }) => members.some((m, i) => i > 0 && DEFINITION_ORDER.indexOf(m) < DEFINITION_ORDER.indexOf(members[i - 1])))
      .map(({ file, members }) => `${file}: ${members.join(", ")}`);
    expect(outOfOrder).toEqual([]);
  });

  it("declares each kind's inputs once: no kind file keeps its inputs' docs apart or writes a body from their names", () => {
    const handWritten = kindFiles().filter((file) => {
      const text = readFileSync(path.join(KIND_FOLDER, file), "utf8");
      return /KindDocs</.test(text) || /\btoApi\(/.test(text) || /\b[a-z]+(_[a-z]+)+: (inputs|news|props|olds)\.[a-zA-Z]+/.test(text);
    });
    expect(handWritten).toEqual([]);
  });
});
