/**
 * The README's Resources table, generated from the kinds' manifests: each kind's inputs (required
 * ones in bold, secret ones marked, an enum's values given) from its zod schema and its field declarations,
 * its outputs and limits from its docs, what replaces it from its field rules. `npm run docs`
 * writes it between the README's markers; `test/readme-resources.test.ts` fails while the README
 * holds another table, so a new kind, input or limit reaches the README without being written there.
 *
 * Usage: node --import tsx scripts/docs/resources-table.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { kinds, type KindName } from "../../provider";
import { kindInputSchema, kindOutputSchema, type JsonSchema } from "../../provider/native/json-schema";

/** The lines around the generated table in the README. */
export const TABLE_MARKERS = {
  start: "<!-- The table below is generated from each kind's docs and schema (npm run docs): edit them there. -->",
  end: "<!-- End of the generated table. -->",
} as const;

/** One input as the table lists it: bold when required, its values when an enum, its rows' fields, marked when secret. */
function inputCell(name: string, schema: JsonSchema, required: boolean, secret: boolean): string {
  const values = schema.enum === undefined ? "" : ` (${schema.enum.map((value) => `\`${String(value)}\``).join(", ")})`;
  const rows = schema.items?.properties === undefined ? "" : ` (rows \`{ ${Object.keys(schema.items.properties).join(", ")} }\`)`;
  return `${required ? `**${name}**` : name}${values}${rows}${secret ? " (secret)" : ""}`;
}

/** The inputs whose change replaces the object, in few words where they are all or all but the provider's own. */
function replacesCell(fields: Readonly<Record<string, { readonly role: string; readonly replaces: boolean }>>): string {
  const names = Object.keys(fields);
  const replacing = names.filter((name) => fields[name].replaces);
  const others = names.filter((name) => !fields[name].replaces);
  if (replacing.length === 0) return "nothing";
  if (others.length === 0) return "every input";
  if (replacing.length > 3 && others.every((name) => fields[name].role === "provider")) return `every input but ${others.join(", ")}`;
  return replacing.join(", ");
}

/** One kind's row. */
function row(kind: KindName): string {
  const { manifest } = kinds[kind];
  const schema = kindInputSchema(manifest);
  const required = new Set(schema.required ?? []);
  const secrets = manifest.secrets ?? [];
  const [one, other] = manifest.exactlyOneOf ?? [];
  const inputs = Object.entries(schema.properties ?? {}).flatMap(([name, input]) => {
    if (name === other) return [];
    const cell = inputCell(name, input, required.has(name) || name === one, secrets.includes(name));
    if (name !== one || other === undefined) return [cell];
    return [`exactly one of ${cell} or ${inputCell(other, schema.properties?.[other] ?? {}, true, secrets.includes(other))}`];
  });
  const cells = [
    `\`${kind}\``,
    inputs.join(", "),
    Object.keys(kindOutputSchema(manifest).properties ?? {}).join(", "),
    replacesCell(manifest.fields),
    manifest.docs.limits,
  ];
  return `| ${cells.join(" | ")} |`.replaceAll("|  |", "| |");
}

/** The table, its markers included, in the registry's order. */
export function resourcesTable(): string {
  const rows = (Object.keys(kinds) as KindName[]).map(row);
  return [
    TABLE_MARKERS.start,
    "| Kind | Inputs (required in bold) | Outputs added | Replaces on | What the API cannot do |",
    "|---|---|---|---|---|",
    ...rows,
    TABLE_MARKERS.end,
  ].join("\n");
}

/** `readme` with the text between the markers (included) replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_MARKERS.start);
  const end = readme.indexOf(TABLE_MARKERS.end);
  if (start < 0 || end < start)
    throw new Error(`README.md has no generated Resources table: put the two lines\n${TABLE_MARKERS.start}\n${TABLE_MARKERS.end}\nwhere it goes`);
  return readme.slice(0, start) + table + readme.slice(end + TABLE_MARKERS.end.length);
}

if (require.main === module) {
  const readme = path.resolve(__dirname, "..", "..", "README.md");
  writeFileSync(readme, withTable(readFileSync(readme, "utf8"), resourcesTable()));
}
