#!/usr/bin/env node
/**
 * Make `require("pulumi-kasm/...")` resolve inside this repository, as it does in a project that
 * installed the package. Serialized dynamic providers load the provider by package name from the
 * Pulumi program's folder (the way they must work for users); without this link, the examples and
 * tests of this repository could not load them. Runs from `prepare`, so only in a checkout.
 */
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "pulumi-kasm");
fs.mkdirSync(path.dirname(link), { recursive: true });
try {
  if (fs.realpathSync(link) === root) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // no link yet
}
fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir");
