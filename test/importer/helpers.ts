/**
 * What the importer's tests share: running `kasm-import` in-process against an emulator, the writes
 * among the emulator's requests, and the check that a generated program took everything over.
 */
import { PassThrough } from "node:stream";
import { expect } from "vitest";
import { OPERATIONS, type OperationName } from "../../permissions";
import { runImport } from "../../importer/cli";
import { wireOperationName, type ApiNames } from "../../emulator/vocabulary";
import { TestEngine } from "../../testing/engine";
import { ADMIN, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, expectOk } from "../e2e/helpers";

/** A stream that keeps what is written to it. */
export function capture(): { readonly stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk) => (text += String(chunk)));
  return { stream, text: () => text };
}

/** Run the command in-process in `cwd` against `emulator` with the admin key: its exit status and output. */
export async function kasmImport(emulator: TestEmulator, cwd: string, args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout = capture();
  const stderr = capture();
  const status = await runImport(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    cwd,
    env: { KASM_BASE_URL: emulator.url, KASM_API_KEY: ADMIN.key, KASM_API_KEY_SECRET: ADMIN.secret, KASM_API_NAMES: emulator.apiNames },
  });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

/** The write operations among the emulator's request log lines (`<operation> <status> <ms>`), in its vocabulary. */
export function writesIn(lines: readonly string[], apiNames: ApiNames): string[] {
  const writes = new Set(
    (Object.keys(OPERATIONS) as OperationName[]).filter((op) => OPERATIONS[op].access !== "read").map((op) => wireOperationName(op, apiNames)),
  );
  return lines.map((line) => line.split(" ")[0]).filter((op) => writes.has(op));
}

/** The test engine on a generated program, its stack on `emulator` with the admin key and the emulator's vocabulary. */
export function engineOn(emulator: TestEmulator, options: { programDir: string; project: string; stateFile: string }): TestEngine {
  return new TestEngine({
    ...options,
    stack: "dev",
    passphrase: PASSPHRASE,
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:apiNames": emulator.apiNames },
    secretKeys: ["kasm:apiKeySecret"],
  });
}

/** After a generated program's first `up`: a preview plans no step, and a refresh reads no change back. */
export async function expectNoChangeAfterTakeOver(engine: TestEngine): Promise<void> {
  const preview = await engine.preview();
  expectOk(preview);
  expect(preview.resources.filter((r) => r.op !== "same" && r.type !== "pulumi:pulumi:Stack").map((r) => `${r.op} ${r.urn}`)).toEqual([]);
  const refresh = await engine.refresh();
  expectOk(refresh);
  expect(refresh.resources.filter((r) => r.changed.length > 0).map((r) => `${r.urn} ${r.changed.join(",")}`)).toEqual([]);
}
