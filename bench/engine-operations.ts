/**
 * What one operation of the test engine costs for a small program: preview, up, an up with no
 * change, refresh and destroy of a one-user program (with the hardening pack for the previews and
 * ups when BENCH_PACK=1), against an emulator started in this process. Each operation starts
 * Pulumi's program runtime, the dynamic-provider host and the packs; this is what most end-to-end
 * tests pay over and over. Prints, per operation, the fastest and the median of BENCH_REPEAT
 * rounds (default 3) in seconds. Asserts nothing.
 *
 *   npm run build && node scripts/link-self.js   # the program and the host load pulumi-kasm from dist/
 *   node --import tsx bench/engine-operations.ts
 *   BENCH_PACK=1 BENCH_REPEAT=5 node --import tsx bench/engine-operations.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TestEngine, type RunResult } from "../testing/engine";
import { ADMIN, startTestEmulator } from "../test/helpers/emulator";

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const WITH_PACK = process.env.BENCH_PACK === "1";

const PROGRAM = `import * as kasm from "pulumi-kasm";
const alice = new kasm.User("alice", { username: "bench-alice", firstName: "Alice" });
export const aliceId = alice.userId;
`;

const OPERATIONS = ["preview", "up", "up (no change)", "refresh", "destroy"] as const;
type OperationName = (typeof OPERATIONS)[number];

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), "kasm-bench-ops-"));
  const programDir = path.join(tmp, "program");
  mkdirSync(programDir);
  writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "ops", main: "index.ts" }));
  writeFileSync(path.join(programDir, "index.ts"), PROGRAM);
  const emulator = await startTestEmulator({});
  const seconds = new Map<OperationName, number[]>(OPERATIONS.map((op) => [op, []]));
  try {
    for (let round = 0; round < REPEAT; round++) {
      const engine = new TestEngine({
        programDir,
        project: "ops",
        stack: `round${round}`,
        stateFile: path.join(tmp, `round${round}.json`),
        passphrase: "bench",
        config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret },
        secretKeys: ["kasm:apiKeySecret"],
        policyPacks: WITH_PACK ? [{ dir: path.resolve(__dirname, "../policy/hardening") }] : [],
      });
      const steps: [OperationName, () => Promise<RunResult>][] = [
        ["preview", () => engine.preview()],
        ["up", () => engine.up()],
        ["up (no change)", () => engine.up()],
        ["refresh", () => engine.refresh()],
        ["destroy", () => engine.destroy()],
      ];
      for (const [name, step] of steps) {
        const started = process.hrtime.bigint();
        const result = await step();
        if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.errors)}`);
        seconds.get(name)!.push(Number(process.hrtime.bigint() - started) / 1e9);
      }
    }
  } finally {
    await emulator.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`engine operations, one-user program${WITH_PACK ? ", with the hardening pack" : ""}, ${REPEAT} rounds (seconds: fastest, median)`);
  for (const name of OPERATIONS) {
    const sorted = [...seconds.get(name)!].sort((a, b) => a - b);
    console.log(`  ${name.padEnd(15)} ${sorted[0].toFixed(2).padStart(6)} ${sorted[Math.floor(sorted.length / 2)].toFixed(2).padStart(6)}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
