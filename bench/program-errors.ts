/**
 * How long a failing program takes to report its error, through the test engine (Pulumi's own
 * program runtime, `@pulumi/pulumi/cmd/run`, with ts-node, as `pulumi up` runs it) against an
 * emulator started in this process. For each case, prints the seconds from the start of `up` to
 * its end (the program exits right after it has logged the error), the program's peak memory
 * (maxRSS) and CPU time, and the first line of the reported error. Asserts nothing: the figures go
 * into README.md ("When a program fails").
 *
 *   npm run build && node scripts/link-self.js   # the program loads pulumi-kasm from dist/
 *   node --import tsx bench/program-errors.ts
 *   BENCH_ONLY=lookup,limit1 node --import tsx bench/program-errors.ts   # some cases, by name
 *   /path/to/node-24 --import tsx bench/program-errors.ts               # the program runs under this Node too
 *
 * The cases:
 * - `throw`: `throw new Error(...)` inside an `apply`, nothing of this package involved.
 * - `limit1`, `limit0`: the same with `NODE_OPTIONS=--stack-trace-limit=1` (the error keeps the
 *   frame that threw) and `=0` (no frames).
 * - `client-error`: the API client's `getZones` awaited inside an async `apply`, with an API key
 *   lacking Zones View, its error left as it is: what `getZoneOutput` did before the lookups failed
 *   with a `KasmLookupError`.
 * - `lookup`: `getZoneOutput` with that key, the error left to Pulumi as the lookup throws it.
 * - `lookup-missing`: `getZoneOutput` of a zone Kasm does not have.
 *
 * The slow cases take minutes each on Node 20 and 22 (see README.md for why).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TestEngine } from "../testing/engine";
import { ADMIN, startTestEmulator } from "../test/helpers/emulator";

/** An API key that can read users but not zones. */
const NO_ZONES = { name: "no-zones", key: "no-zones-key", secret: "no-zones-secret", permissions: ["Users View"] };

interface Case {
  readonly name: string;
  readonly label: string;
  /** The body of index.ts. */
  readonly program: string;
  readonly nodeOptions?: string;
  /** The API key of the stack: default {@link NO_ZONES}. */
  readonly apiKey?: { readonly key: string; readonly secret: string };
}

const THROW = `import * as pulumi from "@pulumi/pulumi";
export const value = pulumi.output("x").apply((v) => {
  throw new Error("the program failed on " + v);
});`;

const CASES: Case[] = [
  { name: "throw", label: "throw in an apply", program: THROW },
  { name: "limit1", label: "throw in an apply, --stack-trace-limit=1", program: THROW, nodeOptions: "--stack-trace-limit=1" },
  { name: "limit0", label: "throw in an apply, --stack-trace-limit=0", program: THROW, nodeOptions: "--stack-trace-limit=0" },
  {
    name: "client-error",
    label: "getZoneOutput 403 as the lookups failed before (the client's error)",
    // What getZoneOutput did before it failed with a KasmLookupError: the client's call awaited in
    // an async apply, its error left as it is (the same frames, so the same stack).
    program: `import * as pulumi from "@pulumi/pulumi";
import { KasmClient } from "pulumi-kasm/api";
const get = (key: string) => pulumi.runtime.getConfig(key)!;
const client = new KasmClient({ baseUrl: get("kasm:baseUrl"), apiKey: get("kasm:apiKey"), apiKeySecret: get("kasm:apiKeySecret"), maxRetries: 1 });
async function fetchZone(args: { name: string }) {
  return (await client.zones.getZones({ brief: false })).find((z) => z.zone_name === args.name);
}
export const zoneId = pulumi.output({ name: "default" }).apply(async (a) => (await fetchZone(a))?.zone_id);`,
  },
  {
    name: "lookup",
    label: "getZoneOutput 403 (KasmLookupError)",
    program: `import * as kasm from "pulumi-kasm";
export const zone = kasm.getZoneOutput({ name: "default" }).apply((z) => z.zoneId);`,
  },
  {
    name: "lookup-missing",
    label: "getZoneOutput of a missing zone",
    program: `import * as kasm from "pulumi-kasm";
export const zone = kasm.getZoneOutput({ name: "nowhere" }).apply((z) => z.zoneId);`,
    apiKey: ADMIN,
  },
];

/**
 * Loaded into every process of the run with --require; in the program's process only, it writes
 * the peak memory and CPU time when the process exits.
 */
const PRELOAD = `if (process.argv.some((a) => a.includes("cmd/run")) && process.env.BENCH_USAGE_FILE) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    require("fs").writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
  });
}
`;

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
  const tmp = mkdtempSync(path.join(tmpdir(), "kasm-bench-errors-"));
  const preload = path.join(tmp, "usage.js");
  writeFileSync(preload, PRELOAD);
  const emulator = await startTestEmulator({ zones: [{ zone_name: "default" }], apiKeys: [NO_ZONES] });
  console.log(`Node ${process.version}, @pulumi/pulumi ${require("@pulumi/pulumi/package.json").version}\n`);
  console.log(["case", "seconds", "program peak MB", "program CPU s", "reported"].join(" | "));
  try {
    for (const c of CASES) {
      if (only && !only.includes(c.name)) continue;
      const dir = path.join(tmp, c.name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "Pulumi.yaml"), `name: errors\nruntime: nodejs\n`);
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "errors", main: "index.ts" }));
      writeFileSync(path.join(dir, "index.ts"), c.program + "\n");
      const usageFile = path.join(tmp, `${c.name}.usage.json`);
      const key = c.apiKey ?? NO_ZONES;
      const engine = new TestEngine({
        programDir: dir,
        project: "errors",
        stack: "dev",
        stateFile: path.join(tmp, `${c.name}.state.json`),
        passphrase: "bench",
        config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": key.key, "kasm:apiKeySecret": key.secret, "kasm:maxRetries": "1" },
        secretKeys: ["kasm:apiKeySecret"],
        env: { NODE_OPTIONS: [`--require ${preload}`, c.nodeOptions].filter(Boolean).join(" "), BENCH_USAGE_FILE: usageFile },
        // Node's own stack trace limit unless the case sets one: the engine's default of one frame would hide what is measured.
        stackTraceLimit: false,
      });
      const started = process.hrtime.bigint();
      const result = await engine.up();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      let usage = { maxRssKb: NaN, cpuMs: NaN };
      try {
        usage = JSON.parse(readFileSync(usageFile, "utf8"));
      } catch {
        // The program was killed before it could write it.
      }
      const message = result.errors.map((e) => e.message).join(" / ") || (result.ok ? "(no error)" : "(no message)");
      const firstLines = message.split("\n").slice(0, 2).join(" ⏎ ").slice(0, 160);
      console.log([c.label, seconds.toFixed(1), (usage.maxRssKb / 1024).toFixed(0), (usage.cpuMs / 1000).toFixed(1), firstLines].join(" | "));
    }
  } finally {
    await emulator.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
