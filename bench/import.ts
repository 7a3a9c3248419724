/**
 * `kasm-import` reading installations of 1,000 and 5,000 users (three teams, attributes on every
 * third user, two server assignments, three staging configs, two egress providers with their
 * gateways, mappings and credentials), in both vocabularies (the product's adds groups and cast
 * configs). The emulator runs in this process; the command runs as users run it, the built
 * dist/importer/cli.js in a process of its own, under `/usr/bin/time` for its peak memory. Prints,
 * per size: the requests the emulator served, the command's wall seconds and its peak resident
 * memory, and the size of what it wrote. Asserts nothing: the figures go into README.md.
 *
 *   npm run build && npm run bench:import
 *   BENCH_SIZES=1000 npm run bench:import       # other sizes, comma-separated (default 1000,5000)
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ADMIN } from "../test/helpers/emulator";
import { buildInstallation } from "../test/helpers/installation";

const run = promisify(execFile);
const CLI = path.resolve(__dirname, "..", "dist", "importer", "cli.js");
const SIZES = (process.env.BENCH_SIZES ?? "1000,5000").split(",").map(Number);

async function measure(users: number, apiNames: "spec" | "product"): Promise<string> {
  const installation = await buildInstallation(users, { apiNames });
  const dir = mkdtempSync(path.join(tmpdir(), "bench-import-"));
  try {
    const out = path.join(dir, "kasm-stack");
    installation.emulator.requests.length = 0;
    const started = process.hrtime.bigint();
    const { stdout, stderr } = await run("/usr/bin/time", ["-f", "peak-rss-kb %M", process.execPath, CLI, "--out", out], {
      env: { ...process.env, KASM_BASE_URL: installation.emulator.url, KASM_API_KEY: ADMIN.key, KASM_API_KEY_SECRET: ADMIN.secret, KASM_API_NAMES: apiNames },
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const peakMb = Number(/peak-rss-kb (\d+)/.exec(stderr)![1]) / 1024;
    const printed = Number(/(\d+) requests to/.exec(stdout)![1]);
    const bytes = readdirSync(out).reduce((sum, name) => sum + statSync(path.join(out, name)).size, 0);
    return (
      `| ${users.toLocaleString("en")} | ${apiNames} | ${installation.emulator.requests.length.toLocaleString("en")} (printed: ${printed.toLocaleString("en")}) | ` +
      `${seconds.toFixed(1)} s | ${peakMb.toFixed(0)} MB | ${(bytes / 1024).toFixed(0)} KiB |`
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await installation.emulator.close();
  }
}

async function main(): Promise<void> {
  console.log("| users | vocabulary | requests served | wall time | peak memory | files written |");
  console.log("|---|---|---|---|---|---|");
  for (const users of SIZES) for (const apiNames of ["spec", "product"] as const) console.log(await measure(users, apiNames));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
