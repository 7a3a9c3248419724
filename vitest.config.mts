import { defineConfig } from "vitest/config";

/**
 * The tests that run a second time against an emulator speaking the released product's wire
 * vocabulary (`kasm-emulator --api-names product`), with the provider and the lookups configured
 * `kasm:apiNames product` (test/helpers/vocabulary.ts): every kind through the provider host, the
 * lookups, and the property that the permissions pack agrees with the providers. The emulator's
 * own wire tests assert literal JSON in one vocabulary each and run once.
 */
const BOTH_VOCABULARIES = [
  "test/provider/**/*.test.ts",
  "test/sdk/lookups.test.ts",
  "test/policy/lookups.test.ts",
  "test/policy/consistency.test.ts",
];

/**
 * The files that change what their process holds beyond their own test: the provider's connection
 * registry configured in the worker (`configure`), `process.env`, fresh copies of modules
 * (`vi.resetModules`), or @pulumi/policy's analyzer server, which a process serves once. Each runs
 * in a worker of its own. Every other file shares its worker with the files before it (`isolate:
 * false`), so Pulumi's runtime and the provider are loaded once per worker instead of once per file:
 * on 2 cores the suite took 990 s with every file in a worker of its own, 850 s so (vitest's import
 * time 178 s, now 35 s). test/shared-worker.setup.ts fails a shared file that leaves `process.env`
 * changed: move such a file here.
 */
const OWN_PROCESS = [
  "test/policy/analyzer-bulk.test.ts",
  "test/policy/analyzer-hardening.test.ts",
  "test/policy/analyzer-permissions.test.ts",
  "test/policy/consistency.test.ts",
  "test/policy/lookups.test.ts",
  "test/provider/resource-errors.test.ts",
  "test/provider/serialization.test.ts",
  "test/sdk/health.test.ts",
  "test/sdk/settings.test.ts",
];

/** Whether a file is among BOTH_VOCABULARIES (a file itself, or under test/provider/). */
function inBothVocabularies(file: string): boolean {
  return file.startsWith("test/provider/") || BOTH_VOCABULARIES.includes(file);
}

/** What the shared projects add: no isolation, and the check that a file leaves the process as it found it. */
const SHARED = { isolate: false, setupFiles: ["./test/shared-worker.setup.ts"], exclude: OWN_PROCESS };

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Emulators listen on loopback ports picked by the OS, so files can run in parallel.
    pool: "forks",
    // Most files spend their time waiting on child processes (Pulumi's program runtime, the
    // provider host, the policy runner), not in the worker itself: two workers keep a 2-core
    // machine busy where vitest's default (cores - 1) leaves it half idle.
    maxWorkers: 2,
    // Without a `pulumi` CLI on PATH, the run ends with one line counting the CLI scenarios not run.
    reporters: ["default", "./test/cli/not-run-reporter.ts"],
    projects: [
      { extends: true, test: { name: "spec", include: ["test/**/*.test.ts"], ...SHARED } },
      { extends: true, test: { name: "spec-own", include: OWN_PROCESS, isolate: true } },
      { extends: true, test: { name: "product", include: BOTH_VOCABULARIES, ...SHARED, env: { KASM_TEST_API_NAMES: "product" } } },
      { extends: true, test: { name: "product-own", include: OWN_PROCESS.filter(inBothVocabularies), isolate: true, env: { KASM_TEST_API_NAMES: "product" } } },
    ],
  },
});
