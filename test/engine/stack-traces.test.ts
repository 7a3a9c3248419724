/**
 * The program's stack trace limit: 1 frame by default, so that an error thrown inside an `apply`
 * is reported in seconds on Node 20 and 22 (with Node's 10 frames, Pulumi's runtime takes minutes
 * to format it: README.md, "When a program fails"); Node's default with `stackTraceLimit: false`
 * or a `--stack-trace-limit` of the user's NODE_OPTIONS; a program's own `Error.stackTraceLimit`
 * still takes effect. No Kasm involved: the programs declare no resource.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { TestEngine, type RunResult, type TestEngineOptions } from "../../testing/engine";

const SLOW = 120_000;

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "engine-stack-traces-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function engineFor(source: string, extra: Partial<TestEngineOptions> = {}): TestEngine {
  const programDir = path.join(dir, "program");
  mkdirSync(programDir, { recursive: true });
  writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "stack-traces", main: "index.ts" }));
  writeFileSync(path.join(programDir, "index.ts"), `import * as pulumi from "@pulumi/pulumi";\n${source}\n`);
  return new TestEngine({ programDir, project: "stack-traces", stack: "dev", stateFile: path.join(dir, "state.json"), passphrase: "pw", ...extra });
}

function expectOk(result: RunResult): void {
  if (!result.ok) throw new Error(`${result.operation} failed: ${JSON.stringify(result.errors)}\n${result.programOutput}`);
}

/** Exports the limit the program starts with, and the frames of a deep stack after it set its own. */
const LIMITS = `
export const initial = Error.stackTraceLimit;
function deep(n: number): string { return n === 0 ? new Error("here").stack! : deep(n - 1); }
Error.stackTraceLimit = 25;
export const framesAfterSetting = deep(40).split("\\n").filter((l) => l.trim().startsWith("at ")).length;
`;

// How fast it is reported is bench/program-errors.ts's to measure (a timed assertion fails on a busy machine).
it("a throw inside an apply is reported with its message and the frame that threw, without colour escapes", { timeout: SLOW }, async () => {
  const engine = engineFor(`export const value = pulumi.output("x").apply((v) => {
  throw new Error("the program failed on " + v);
});`);
  const result = await engine.up();
  expect(result.ok).toBe(false);
  const message = result.errors.map((e) => e.message).join("\n");
  expect(message).toContain("the program failed on x");
  expect(message).toMatch(/index\.ts:3:9/); // the frame that threw
  expect(message).not.toContain("\u001b["); // without util.inspect's colours
});

it("starts the program with 1 frame; a program's own Error.stackTraceLimit takes effect", { timeout: SLOW }, async () => {
  const result = await engineFor(LIMITS).up();
  expectOk(result);
  expect(result.outputs).toEqual({ initial: 1, framesAfterSetting: 25 });
});

it("stackTraceLimit: false leaves Node's default; a number sets it", { timeout: SLOW }, async () => {
  const off = await engineFor(LIMITS, { stackTraceLimit: false }).up();
  expectOk(off);
  expect(off.outputs).toEqual({ initial: 10, framesAfterSetting: 25 });
  const three = await engineFor(LIMITS, { stackTraceLimit: 3 }).up();
  expectOk(three);
  expect(three.outputs).toMatchObject({ initial: 3 });
});

it("a --stack-trace-limit in the user's NODE_OPTIONS wins over the default", { timeout: SLOW }, async () => {
  const result = await engineFor(LIMITS, { env: { NODE_OPTIONS: "--stack-trace-limit=7" } }).up();
  expectOk(result);
  expect(result.outputs).toMatchObject({ initial: 7 });
});
