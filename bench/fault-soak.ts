/**
 * The long soak of the fault suite (`test/cli/fault-suite.test.ts`): the suite run again and again
 * through the `pulumi` CLI, each run with its own seed (so its kill points and faults differ), at
 * 30% and at 50% failing answers. It prints, per rate, how many runs passed, how the kills were
 * recovered, and how many runs each fault phase needed to converge, with the seed of any run that
 * failed, to replay: `KASM_FAULT_SEED=<seed> KASM_FAULT_RATE=<rate> npx vitest run test/cli/fault-suite.test.ts`.
 *
 *   npm run build && npm run bench:faults            # 3 seeds per rate
 *   BENCH_SOAK_RUNS=10 BENCH_SOAK_RATES=0.5 npm run bench:faults
 *
 * Needs the `pulumi` CLI on PATH (scripts/pulumi-cli/build.sh builds one).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const RUNS = Number(process.env.BENCH_SOAK_RUNS ?? "3");
const RATES = (process.env.BENCH_SOAK_RATES ?? "0.3,0.5").split(",");

/** The figures a suite run printed (its "the fault suite through the CLI:" block), one per line. */
function figuresOf(stdout: string): string[] {
  const start = stdout.indexOf("the fault suite through the CLI:");
  if (start < 0) return [];
  return stdout
    .slice(start)
    .split("\n")
    .slice(1)
    .filter((line) => /^\s{2}\S/.test(line))
    .map((line) => line.trim());
}

function main(): void {
  for (const rate of RATES) {
    const converged: Record<string, number[]> = {};
    const failed: string[] = [];
    let recovered = 0;
    const started = performance.now();
    for (let run = 0; run < RUNS; run++) {
      const seed = String(1000 + run * 7919 + Math.round(Number(rate) * 100));
      const result = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "test/cli/fault-suite.test.ts"], {
        cwd: ROOT,
        env: { ...process.env, KASM_FAULT_SEED: seed, KASM_FAULT_RATE: rate },
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      });
      if (result.status !== 0) {
        // The first assertion or error the failed run printed, to read beside its seed.
        const why = result.stdout.split("\n").find((line) => /AssertionError|Error: /.test(line)) ?? "(see the run's output)";
        failed.push(`${seed} (${why.trim().slice(0, 200)})`);
      }
      for (const figure of figuresOf(result.stdout)) {
        if (figure.includes("recovered with kasm-recover")) recovered++;
        const phase = /^(.*) under [\d.]+% faults: converged in (\d) run/.exec(figure);
        if (phase) (converged[phase[1]] ??= []).push(Number(phase[2]));
      }
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`\n${Number(rate) * 100}% faults, ${RUNS} seeded runs of the suite (${seconds.toFixed(0)} s):`);
    console.log(`  runs passed: ${RUNS - failed.length} of ${RUNS}${failed.length ? `; failed seeds: ${failed.join(", ")}` : ""}`);
    console.log(`  kills recovered with kasm-recover and one up: ${recovered}`);
    for (const [phase, runs] of Object.entries(converged))
      console.log(`  ${phase}: converged in ${runs.join(", ")} run(s) (worst ${Math.max(...runs)}, of 3 allowed)`);
  }
}

main();
