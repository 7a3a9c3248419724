/**
 * Which fields of Kasm API records the provider's code reads, found with the TypeScript type
 * checker rather than by pattern: every property read (`server.is_draining`, `record["name"]`,
 * `"is_draining" in server`, `const { user_id } = user`) whose property is declared by a schema of
 * provider/api/schemas, or that goes through the index signature of such a record (a field the
 * schema does not declare). Reads through camelCased copies (the lookups' results) are followed
 * back to the snake_case field they came from.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** The repository's root. */
export const ROOT = join(__dirname, "../..");

const SCHEMAS = join(ROOT, "provider/api/schemas") + "/";

/** One field read: the schema that declares the record (such as `Server`), and the field's wire name. */
export interface FieldRead {
  readonly schema: string;
  readonly field: string;
}

/** The files scanned: every kind of provider/resources, and the lookups. */
export function scannedFiles(): string[] {
  const resources = readdirSync(join(ROOT, "provider/resources"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(ROOT, "provider/resources", f));
  return [...resources, join(ROOT, "sdk/lookups.ts")];
}

/**
 * The symbol a property comes from. A mapped type (zod's inferred types, `Pick`, the lookups'
 * camelCased copies) makes a new symbol per property and keeps the original as its synthetic
 * origin; that internal link is the only way back from `friendlyName` to `friendly_name`.
 */
function origin(symbol: ts.Symbol): ts.Symbol {
  let current = symbol as ts.Symbol & { links?: { syntheticOrigin?: ts.Symbol } };
  for (let i = 0; i < 16 && current.links?.syntheticOrigin; i++) current = current.links.syntheticOrigin as typeof current;
  return current;
}

/** The name of the schema (variable, function or type) that declares a property, when it is in provider/api/schemas. */
function declaringSchema(symbol: ts.Symbol | undefined): string | undefined {
  if (!symbol) return undefined;
  for (const declaration of origin(symbol).declarations ?? []) {
    if (!declaration.getSourceFile().fileName.startsWith(SCHEMAS)) continue;
    for (let node: ts.Node | undefined = declaration; node; node = node.parent) {
      if (
        (ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) &&
        node.name &&
        ts.isIdentifier(node.name)
      )
        return node.name.text;
    }
    return "(unnamed schema)";
  }
  return undefined;
}

/** Where a read is made: the kind's file, or `sdk/lookups.ts#<lookup>` for a lookup. */
function placeOf(file: string, node: ts.Node): string {
  const path = relative(ROOT, file);
  if (!path.startsWith("sdk/")) return path;
  for (let n: ts.Node | undefined = node; n; n = n.parent)
    if (ts.isFunctionDeclaration(n) && n.name && n.parent && ts.isSourceFile(n.parent)) return `${path}#${n.name.text}`;
  return path;
}

/**
 * Every API record field each scanned file reads, by place (kind file, or lookup). Takes a few
 * seconds: it type-checks the provider.
 */
export function fieldReads(files: string[] = scannedFiles()): Map<string, FieldRead[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  if (!config) throw new Error("cannot read tsconfig.json");
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();

  /** The schema of a record type: the first of its properties declared by a schema. */
  const recordSchema = (type: ts.Type): string | undefined => {
    for (const part of type.isUnion() ? type.types : [type])
      for (const property of checker.getNonNullableType(part).getProperties()) {
        const schema = declaringSchema(property);
        if (schema) return schema;
      }
    return undefined;
  };

  const reads = new Map<string, FieldRead[]>();
  const add = (place: string, schema: string, field: string) => {
    const list = reads.get(place) ?? [];
    if (!list.some((r) => r.schema === schema && r.field === field)) list.push({ schema, field });
    reads.set(place, list);
  };

  /** A read of `name` on `object`: through a declared property, or through the record's index signature. */
  const read = (place: string, object: ts.Expression | ts.BindingPattern, name: string, nameNode?: ts.Node) => {
    const declared = nameNode ? checker.getSymbolAtLocation(nameNode) : undefined;
    const type = checker.getTypeAtLocation(object);
    const property = declared ?? checker.getPropertyOfType(checker.getNonNullableType(type), name);
    const schema = declaringSchema(property);
    if (schema) return add(place, schema, origin(property!).name);
    if (!property) {
      const record = recordSchema(type);
      if (record) add(place, record, name);
    }
  };

  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`not in the program: ${file}`);
    const visit = (node: ts.Node) => {
      const place = placeOf(file, node);
      if (ts.isPropertyAccessExpression(node)) read(place, node.expression, node.name.text, node.name);
      else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression))
        read(place, node.expression, node.argumentExpression.text, node.argumentExpression);
      else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword && ts.isStringLiteralLike(node.left))
        read(place, node.right, node.left.text);
      else if (ts.isObjectBindingPattern(node))
        for (const element of node.elements) {
          const key = element.propertyName ?? element.name;
          if (ts.isIdentifier(key) || ts.isStringLiteralLike(key)) read(place, node, key.text);
        }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return reads;
}
