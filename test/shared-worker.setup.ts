/**
 * Setup of the test files that share a worker (vitest.config.mts, `isolate: false`): a file must
 * leave the process's environment as it found it, or the files after it in the worker would run
 * with its variables (a `KASM_*` setting read by the provider or the lookups). A file that changes
 * `process.env` fails here, after its last test; it belongs in OWN_PROCESS (vitest.config.mts),
 * whose files each get a worker of their own.
 */
import { afterAll, beforeAll, expect } from "vitest";

let before: Record<string, string | undefined> = {};

beforeAll(() => {
  before = { ...process.env };
});

afterAll(() => {
  expect({ ...process.env }, "this file changed process.env: restore it, or list the file in OWN_PROCESS (vitest.config.mts)").toEqual(before);
});
