/**
 * Runs the compile-time check of `sdk-args.test-d.ts` (the SDK's arguments and the provider's zod
 * inputs of every kind agree), so that `npm test` fails when they drift apart. The check is a
 * type-only file: compiling it is the test.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const tsc = require.resolve("typescript/bin/tsc");
const project = join(__dirname, "tsconfig.json");

describe("SDK arguments and zod inputs", () => {
  it("agree for every kind (sdk-args.test-d.ts compiles)", async () => {
    const outcome = await run(process.execPath, [tsc, "-p", project, "--noEmit", "--pretty", "false"]).then(
      () => "",
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`.trim() || "tsc failed",
    );
    expect(outcome).toBe("");
  }, 120_000);
});
