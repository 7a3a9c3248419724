/**
 * An emulator per wire vocabulary for a file's tests, started in `beforeAll` and closed in
 * `afterAll`. Apart from emulator.ts because it registers hooks with the test runner, and the
 * benchmarks load emulator.ts outside of it (`test/benchmarks-load.test.ts`).
 */
import { afterAll, beforeAll } from "vitest";
import type { SeedInput } from "../../emulator/seed";
import { startTestEmulator, type TestEmulator } from "./emulator";

/** An emulator per wire vocabulary, both seeded with the same seed, for a file's tests. */
export interface EmulatorPair {
  readonly product: TestEmulator;
  readonly spec: TestEmulator;
}

/**
 * Start, for the file's tests (in `beforeAll`), an emulator speaking the released product's names
 * and one speaking the spec's, both seeded with `seed`, and close them after (`afterAll`). Read
 * them as `emulators.product` and `emulators.spec` inside the tests.
 */
export function emulatorsInBothVocabularies(seed: SeedInput): EmulatorPair {
  const emulators = {} as { product: TestEmulator; spec: TestEmulator };
  beforeAll(async () => {
    emulators.product = await startTestEmulator(seed, { apiNames: "product" });
    emulators.spec = await startTestEmulator(seed, { apiNames: "spec" });
  });
  afterAll(async () => {
    await emulators.product?.close();
    await emulators.spec?.close();
  });
  return emulators;
}
