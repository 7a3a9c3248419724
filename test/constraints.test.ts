/**
 * Every rule that refuses input is listed, with its source, in CONSTRAINTS.md: the provider's input
 * schemas and the bulk kinds' row schemas (both forms, list and CSV) are walked and each field's
 * rules compared with the file's table, and the emulator's
 * validators are counted per file and compared with the number of its rows. A rule added on either
 * side without a row (or a row left after its rule went) fails here, naming it.
 *
 * The walk reads zod 4's internal definitions (`schema._zod.def`: `type`, `checks`, `shape`,
 * `innerType`, `in`/`out`, `entries`, `values`, `options`, `element`, `keyType`/`valueType`, and
 * each check's `_zod.def.check`). It fails loudly, naming the internal, if a zod release moves them.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kinds } from "../provider";
import { serverRowSchema } from "../provider/resources/server-import/rows";
import { userRowSchema } from "../provider/resources/user-set/fields";

const REPO = path.resolve(__dirname, "..");
const DOC = readFileSync(path.join(REPO, "CONSTRAINTS.md"), "utf8");

/**
 * Each kind's input schema, from the registry's manifests. ServerImport's is only its shape (its
 * check applies the row schema row by row): its rules are the rows' (see {@link ROWS}).
 */
const KINDS: Record<string, unknown> = Object.fromEntries(
  Object.entries(kinds)
    .filter(([kind]) => kind !== "ServerImport")
    .map(([kind, { manifest }]) => [kind, manifest.schema]),
);

/**
 * The bulk kinds' row schemas, in the list form and the CSV form. A CSV form's field is listed as
 * `...CsvRow` only where its rules differ from the list form's.
 */
const ROWS: Record<string, { readonly list: unknown; readonly csv: unknown }> = {
  UserSetRow: { list: userRowSchema(false), csv: userRowSchema(true) },
  ServerImportRow: { list: serverRowSchema(false), csv: serverRowSchema(true) },
};

/** A zod schema's definition, or a loud failure naming the internal that is gone. */
function defOf(schema: unknown): any {
  const def = (schema as { _zod?: { def?: unknown } })?._zod?.def;
  if (def === undefined) throw new Error("zod internals moved: a schema has no `_zod.def`; update test/constraints.test.ts");
  return def;
}

/** The rules of one schema, in CONSTRAINTS.md's words. */
function rules(schema: unknown, out: string[] = []): string[] {
  const def = defOf(schema);
  for (const check of def.checks ?? []) {
    const c = check?._zod?.def;
    if (c?.check === undefined) throw new Error("zod internals moved: a check has no `_zod.def.check`; update test/constraints.test.ts");
    if (c.check === "min_length") out.push(`min length ${c.minimum}`);
    else if (c.check === "max_length") out.push(`max length ${c.maximum}`);
    else if (c.check === "greater_than") out.push(`${c.inclusive ? ">=" : ">"} ${c.value}`);
    else if (c.check === "less_than") out.push(`${c.inclusive ? "<=" : "<"} ${c.value}`);
    else if (c.check === "number_format") out.push("whole number");
    else if (c.check === "string_format") out.push("pattern");
    else if (c.check === "overwrite") out.push("trimmed");
    else if (c.check === "custom") out.push("custom rule");
    else out.push(c.check);
  }
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return rules(def.innerType, out);
    case "pipe":
      rules(def.in, out);
      return rules(def.out, out);
    case "enum":
      out.push(`one of ${Object.values(def.entries).join(", ")}`);
      return out;
    case "literal":
      out.push(`literal ${def.values.map((v: unknown) => JSON.stringify(v)).join(", ")}`);
      return out;
    case "union":
      for (const option of def.options) rules(option, out);
      return out;
    case "array":
      return rules(def.element, out);
    case "record":
      rules(def.keyType, out);
      return rules(def.valueType, out);
    default:
      return out;
  }
}

/** `field` -> its rules, for each field of an object schema that has any (`(whole)` for the object's own). */
function fieldRules(name: string, schema: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const whole = rules(schema);
  if (whole.length) found.set("(whole)", whole.join("; "));
  let object = defOf(schema);
  while (object.type === "pipe") object = defOf(object.in);
  if (object.shape === undefined) throw new Error(`zod internals moved: ${name} has no \`shape\`; update test/constraints.test.ts`);
  for (const [field, fieldSchema] of Object.entries(object.shape)) {
    const list = rules(fieldSchema);
    if (list.length) found.set(field, list.join("; "));
  }
  return found;
}

/** `Kind.field` (or `Kind (whole)`) -> its rules, from the provider's schemas and the bulk kinds' row schemas. */
function providerRules(): Map<string, string> {
  const found = new Map<string, string>();
  const add = (prefix: string, field: string, rule: string) => found.set(field === "(whole)" ? `${prefix} (whole)` : `${prefix}.${field}`, rule);
  for (const [kind, schema] of Object.entries(KINDS)) for (const [field, rule] of fieldRules(`${kind}Inputs`, schema)) add(kind, field, rule);
  for (const [row, { list, csv }] of Object.entries(ROWS)) {
    const listRules = fieldRules(row, list);
    for (const [field, rule] of listRules) add(row, field, rule);
    const csvRow = row.replace(/Row$/, "CsvRow");
    for (const [field, rule] of fieldRules(csvRow, csv)) if (listRules.get(field) !== rule) add(csvRow, field, rule);
  }
  return found;
}

/** The provider table's rows: field -> rule, as written. */
function documentedProviderRules(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of DOC.split("\n")) {
    const m = /^\| `([A-Za-z]+(?:\.[A-Za-z]+)?)`( \(whole\))? \| `([^`]+)` \|/.exec(line);
    if (m) rows.set(`${m[1]}${m[2] ?? ""}`, m[3]);
  }
  return rows;
}

/** Calls that make a rule in an emulator validator. */
const RULE_CALLS = /\.int\(|\.min\(|\.max\(|\.regex\(|\.refine\(|\.superRefine\(|z\.enum\(|\.positive\(|\.nonnegative\(/g;

describe("CONSTRAINTS.md", () => {
  it("lists every rule of the provider's input schemas, and no rule they do not have", () => {
    const found = providerRules();
    const documented = documentedProviderRules();
    const missing = [...found].filter(([field, rule]) => documented.get(field) !== rule).map(([field, rule]) => `${field}: \`${rule}\``);
    const stale = [...documented].filter(([field]) => !found.has(field)).map(([field, rule]) => `${field}: \`${rule}\``);
    expect(missing, "rules with no row (or another rule) in CONSTRAINTS.md: add a row with the source").toEqual([]);
    expect(stale, "rows of CONSTRAINTS.md that no schema has any more: remove them").toEqual([]);
  });

  it("lists as many rows per emulator file as the file has rule-making calls", () => {
    const files = ["handlers", "models"].flatMap((folder) =>
      readdirSync(path.join(REPO, "emulator", folder))
        .filter((name: string) => name.endsWith(".ts"))
        .map((name: string) => `emulator/${folder}/${name}`),
    );
    const counted: Record<string, number> = {};
    for (const file of files) {
      const calls = readFileSync(path.join(REPO, file), "utf8").match(RULE_CALLS)?.length ?? 0;
      if (calls > 0) counted[file] = calls;
    }
    const rows: Record<string, number> = {};
    for (const line of DOC.split("\n")) {
      const m = /^\| `(emulator\/[^`]+)` \|/.exec(line);
      if (m) rows[m[1]] = (rows[m[1]] ?? 0) + 1;
    }
    expect(rows, "rows per emulator file in CONSTRAINTS.md against the file's rule-making calls").toEqual(counted);
  });

  it("fails on a rule the table does not list (a fractional expiration refused again would be caught)", () => {
    const documented = documentedProviderRules();
    expect(documented.get("StagingConfig.expiration")).toBe("> 0");
    // The rule the project used to have, on both sides, and that no source states.
    expect(documented.get("StagingConfig.expiration")).not.toBe("whole number; >= 1");
  });
});
