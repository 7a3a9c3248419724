/**
 * What the provider keeps between calls lives in one runtime object per host, handed down
 * explicitly, not in module variables that every importer shares. This test reads every module
 * under `provider/` with the TypeScript compiler and lists its module-level state: a `let` or `var`,
 * or a `const` holding a new object of a class (a `Map`, a `Set`, a registry) that is not typed
 * read-only (`ReadonlyMap`, `ReadonlySet`). The list must be exactly {@link ALLOWED}.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO } from "../e2e/helpers";

/**
 * The module-level state the provider may hold, each with why.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  // Pulumi's dynamic-provider host calls `configure` and each method of a provider it deserialized
  // from the state (`require("pulumi-kasm/provider")`), with no way to hand an object from one
  // call to the next: the host's one runtime is a module's.
  "provider/runtime.ts connections": "the dynamic-provider host's runtime",
};

/** The `.ts` files under `folder`, relative to the repository. */
function sources(folder: string): string[] {
  return readdirSync(path.join(REPO, folder)).flatMap((name) => {
    const relative = path.join(folder, name);
    if (statSync(path.join(REPO, relative)).isDirectory()) return sources(relative);
    return name.endsWith(".ts") ? [relative] : [];
  });
}

/** The module-level state of one file, as `<file> <name>`. */
function moduleState(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(REPO, file), "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of statement.declarationList.declarations) {
      const name = `${file} ${declaration.name.getText(source)}`;
      const readOnlyType = /^Readonly(Map|Set)\b/.test(declaration.type?.getText(source) ?? "");
      const made = declaration.initializer !== undefined && ts.isNewExpression(declaration.initializer);
      const empty =
        declaration.initializer !== undefined &&
        ((ts.isArrayLiteralExpression(declaration.initializer) && declaration.initializer.elements.length === 0) ||
          (ts.isObjectLiteralExpression(declaration.initializer) && declaration.initializer.properties.length === 0));
      if (!constant || ((made || empty) && !readOnlyType)) found.push(name);
    }
  }
  return found;
}

describe("module-level state in provider/", () => {
  it("is only the runtime the dynamic-provider host needs", () => {
    const found = sources("provider").flatMap(moduleState).sort();
    expect(found).toEqual(Object.keys(ALLOWED).sort());
  });

  it("would be found: a Map, a let and an empty list at the top of a module", () => {
    const file = path.join("test", "provider", "module-state.fixture.ts");
    expect(moduleState(file)).toEqual([`${file} cache`, `${file} counter`, `${file} pending`]);
  });
});
