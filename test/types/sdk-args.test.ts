/**
 * Runs the compile-time checks of this folder's type-only files, so that `npm test` fails when
 * what they tie together drifts apart: `sdk-args.test-d.ts` (the SDK's arguments and outputs and
 * the provider's inputs and outputs of every kind agree) and `row-properties.test-d.ts` (every
 * property the permission rows read is one its kind declares). Compiling them is the test.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const tsc = require.resolve("typescript/bin/tsc");
const project = join(__dirname, "tsconfig.json");

describe("SDK arguments and zod inputs", () => {
  it("agree for every kind (sdk-args.test-d.ts and row-properties.test-d.ts compile)", async () => {
    const outcome = await run(process.execPath, [tsc, "-p", project, "--noEmit", "--pretty", "false"]).then(
      () => "",
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`.trim() || "tsc failed",
    );
    expect(outcome).toBe("");
  }, 120_000);
});
