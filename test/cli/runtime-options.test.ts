/**
 * A Node.js project's runtime options in `Pulumi.yaml` (`typescript`, `nodeargs`) reach the
 * program through the `pulumi` CLI, as a current Node.js host passes them. The host
 * scripts/pulumi-cli/build.sh builds is Pulumi 3.68's, which took them as flags that today's CLI no
 * longer passes; its launcher (scripts/pulumi-cli/hosts/nodejs-options) reads them from the
 * project. Without it both options were silently ignored, and the benchmarks that compare a
 * program compiled first, or run with a shorter stack trace limit, measured the defaults instead.
 * The program reports what its process was started with as stack outputs. The options are the
 * README's own (its "Which form?" section), as a user copies them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLOW } from "../e2e/helpers";
import { PulumiCli, hasPulumi } from "./pulumi-cli";

/** The `runtime` block the README gives for a large program on the native provider, unindented. */
function readmeRuntimeBlock(): string {
  const readme = readFileSync(path.resolve(__dirname, "..", "..", "README.md"), "utf8");
  const block = /```yaml\n(\s*)runtime:\n(?:(?!```)[\s\S])*?typescript: false(?:(?!```)[\s\S])*?```/.exec(readme);
  if (!block) throw new Error("README.md has no yaml block with a runtime of typescript: false");
  const indent = block[1];
  return block[0]
    .split("\n")
    .slice(1, -1)
    .map((line) => line.slice(indent.length))
    .join("\n")
    .concat("\n");
}

/** A program of no resources whose outputs say how Node.js runs it. */
const PROGRAM = `exports.execArgv = process.execArgv;
exports.stackTraceLimit = Error.stackTraceLimit;
exports.typescriptRegistered = require.extensions[".ts"] !== undefined;
`;

describe.skipIf(!hasPulumi)("a Node.js project's runtime options, through the pulumi CLI", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-runtime-options-"));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** `up` of the program with this `runtime` block, answering its outputs. */
  async function outputsWith(name: string, runtimeBlock: string): Promise<Record<string, unknown>> {
    const programDir = path.join(dir, name);
    mkdirSync(programDir);
    writeFileSync(path.join(programDir, "Pulumi.yaml"), `name: ${name}\n${runtimeBlock}`);
    writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name, main: "index.js" }));
    writeFileSync(path.join(programDir, "index.js"), PROGRAM);
    const cli = new PulumiCli({ programDir, stack: "dev", workDir: path.join(dir, `${name}-work`), passphrase: "options", config: {}, secretKeys: [] });
    await cli.init();
    await cli.ok(["up", "--yes", "--skip-preview", "--stack", "dev"]);
    return cli.outputs();
  }

  it("the README's typescript: false runs the program without ts-node, and its nodeargs reach node", { timeout: SLOW }, async () => {
    const outputs = await outputsWith("with-options", readmeRuntimeBlock());
    expect(outputs).toEqual({ execArgv: ["--stack-trace-limit=0"], stackTraceLimit: 0, typescriptRegistered: false });
  });

  it("without options the program runs with ts-node and Node's defaults", { timeout: SLOW }, async () => {
    const outputs = await outputsWith("without-options", "runtime: nodejs\n");
    expect(outputs).toEqual({ execArgv: [], stackTraceLimit: 10, typescriptRegistered: true });
  });
});
