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
      { extends: true, test: { name: "spec", include: ["test/**/*.test.ts"] } },
      { extends: true, test: { name: "product", include: BOTH_VOCABULARIES, env: { KASM_TEST_API_NAMES: "product" } } },
    ],
  },
});
