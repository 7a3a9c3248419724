#!/usr/bin/env node
/**
 * Write dist/provider/native/descriptions.json: the descriptions of the native provider's package
 * schema, extracted from the TypeScript SDK's TSDoc (see provider/native/descriptions.ts). Runs in
 * `npm run build`, after `tsc`, with the compiled extraction: the installed package has neither
 * the sources nor the TypeScript compiler to read them, so the schema reads this file instead.
 */
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const compiled = path.join(root, "dist", "provider", "native", "descriptions.js");
if (!fs.existsSync(compiled)) {
  process.stderr.write("native-docs: dist/provider/native/descriptions.js is missing: run tsc first (npm run build does)\n");
  process.exit(1);
}
const { extractDescriptions, DESCRIPTIONS_FILE } = require(compiled);
const target = path.join(path.dirname(compiled), DESCRIPTIONS_FILE);
fs.writeFileSync(target, `${JSON.stringify(extractDescriptions(root), null, 2)}\n`);
