/**
 * The emulator in its own process, as `npx kasm-emulator` runs it (from the build, `dist/`), for
 * the benchmarks that must not share a process with what they measure.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** A running emulator process: its URL, and how to stop it. */
export interface EmulatorProcess {
  readonly url: string;
  stop(): void;
}

/** Start the emulator with `seed` (written to a seed file) on a port the OS picks. */
export async function startEmulatorProcess(seed: object): Promise<EmulatorProcess> {
  const seedDir = mkdtempSync(join(tmpdir(), "kasm-bench-"));
  const seedFile = join(seedDir, "seed.json");
  writeFileSync(seedFile, JSON.stringify(seed));
  const child = spawn(process.execPath, [join(__dirname, "..", "dist", "emulator", "cli.js"), "--port", "0", "--seed", seedFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The emulator's first line on stdout names its URL.
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, "line")) as [string];
  const url = /https?:\/\/\S+/.exec(line)?.[0];
  if (!url) throw new Error(`unexpected first line from the emulator: ${line}`);
  return {
    url,
    stop: () => {
      child.kill("SIGTERM");
      rmSync(seedDir, { recursive: true, force: true });
    },
  };
}
