import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Emulators listen on loopback ports picked by the OS, so files can run in parallel.
    pool: "forks",
    // Most files spend their time waiting on child processes (Pulumi's program runtime, the
    // provider host, the policy runner), not in the worker itself: two workers keep a 2-core
    // machine busy where vitest's default (cores - 1) leaves it half idle.
    maxWorkers: 2,
  },
});
