/**
 * Which fields of Kasm API records the provider's code reads, found with the TypeScript type
 * checker rather than by pattern: every property read (`server.is_draining`, `record["name"]`,
 * `"is_draining" in server`, `const { user_id } = user`) whose property is declared by a schema of
 * provider/api/schemas, or that goes through the index signature of such a record (a field the
 * schema does not declare). Reads through camelCased copies (the lookups' results) are followed
 * back to the snake_case field they came from, and the fields a call of `fromApiFields(record,
 * [...names])` picks by their camelCase names count as reads of those fields of the record.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

/** The repository's root. */
export const ROOT = join(__dirname, "../..");

const SCHEMAS = join(ROOT, "provider/api/schemas") + "/";

/** One field read: the schema that declares the record (such as `Server`), and the field's wire name. */
export interface FieldRead {
  readonly schema: string;
  readonly field: string;
}

/** The TypeScript files of a folder of the repository, its subfolders' too. */
function tsFilesIn(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return tsFilesIn(path);
    return entry.name.endsWith(".ts") ? [join(ROOT, path)] : [];
  });
}

/**
 * The files scanned: every kind of provider/resources (with the parts of a kind split into a
 * folder named after it, whose index is the kind's module), the client's refresh reads (the user
 * records it reads from `get_users` pages on the kinds' behalf), and the lookups (provider/lookups/,
 * which finds the records, and sdk/lookups/, which presents them to a program: each an index and
 * the areas beside it). The client's operations are not scanned: besides the records the kinds
 * read again, they read only their own request parameters.
 */
export function scannedFiles(): string[] {
  // client.ts reads the user records of a refresh (UserReads) and the users the checks before creates look up (UsernameLookups), both
  // from user-pages.ts's get_users pages (and, beside them, the other kinds' listings those checks share); the schemas
  // listed map a record to a kind's inputs (for the kind and kasm-import).
  const mappings = ["images", "staging", "casting", "egress", "groups", "users"].map((area) => join(ROOT, `provider/api/schemas/${area}.ts`));
  const userReads = ["user-pages", "client"].map((file) => join(ROOT, `provider/api/${file}.ts`));
  return [...tsFilesIn("provider/resources"), ...userReads, ...mappings, ...tsFilesIn("provider/lookups"), ...tsFilesIn("sdk/lookups")];
}

/** The folders whose subfolders are modules split into parts: the kinds' and the sdk's. */
const SPLIT_MODULE_ROOTS = ["provider/resources", "sdk"];

/** Other folders that are one module split into parts: the lookups'. */
const SPLIT_MODULES = ["provider/lookups"];

/**
 * The module a file belongs to: a file in a folder of parts with an `index.ts` (the parts of a kind
 * in `provider/resources/user-set/`, the areas of the lookups in `provider/lookups/` and
 * `sdk/lookups/`) counts as that index, the module its importers name by the folder
 * (`provider/resources/user-set/index.ts`, `provider/lookups/index.ts`), so that the table does
 * not change when a module is split. Other files
 * (the client's `provider/api/client.ts`) count as themselves.
 */
function moduleOf(path: string): string {
  const folder = dirname(path);
  const index = join(folder, "index.ts");
  const split = SPLIT_MODULE_ROOTS.includes(dirname(folder)) || SPLIT_MODULES.includes(folder);
  return split && existsSync(join(ROOT, index)) ? index : path;
}

/** The module of the one mapping between records and camelCase, whose `fromApiFields` picks fields by name. */
const RECORDS_MODULE = join(ROOT, "provider/api/records.ts");

/** `casting_config_name` -> `castingConfigName` (the rule of provider/api/records.ts). */
function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
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

/** Where a read is made: the kind's (or the client's) file, or `sdk/lookups/index.ts#<lookup>` for a lookup. */
function placeOf(file: string, node: ts.Node): string {
  const path = moduleOf(relative(ROOT, file));
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
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
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

  /** Whether a call is one of `fromApiFields` of provider/api/records.ts (imported under any name). */
  const isFromApiFields = (call: ts.CallExpression): boolean => {
    let symbol = checker.getSymbolAtLocation(call.expression);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return !!symbol?.declarations?.some(
      (d) => d.getSourceFile().fileName === RECORDS_MODULE && ts.isFunctionDeclaration(d) && d.name?.text === "fromApiFields",
    );
  };

  /** The string literals a list of names can hold, from its type (a literal array, `as const`, or a constant's). */
  const namesOf = (list: ts.Expression): string[] => {
    const type = checker.getTypeAtLocation(list);
    const elements = checker.isTupleType(type)
      ? checker.getTypeArguments(type as ts.TypeReference)
      : [checker.getIndexTypeOfType(type, ts.IndexKind.Number)].filter((t): t is ts.Type => t !== undefined);
    return elements.flatMap((element) => (element.isUnion() ? element.types : [element])).flatMap((t) => (t.isStringLiteral() ? [t.value] : []));
  };

  /** `fromApiFields(record, ["numSessions", ...])`: a read of each named field of the record, by its API name. */
  const readNamed = (place: string, call: ts.CallExpression) => {
    const [record, list] = call.arguments;
    if (!record || !list) return;
    const properties = checker.getPropertiesOfType(checker.getNonNullableType(checker.getTypeAtLocation(record)));
    for (const name of namesOf(list)) {
      const property = properties.find((p) => camelCase(p.name) === name);
      read(place, record, property?.name ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
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
      else if (ts.isCallExpression(node) && isFromApiFields(node)) readNamed(place, node);
      else if (ts.isObjectBindingPattern(node))
        for (const element of node.elements) {
          // `...rest` reads no field of its own: it is what the other elements leave.
          if (element.dotDotDotToken) continue;
          const key = element.propertyName ?? element.name;
          if (ts.isIdentifier(key) || ts.isStringLiteralLike(key)) read(place, node, key.text);
        }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return reads;
}
