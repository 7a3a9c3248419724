/**
 * What the program runtime's stack capture costs on a large stack, through the test engine
 * (Pulumi's own program runtime with ts-node, as `pulumi up` runs it) against an emulator started
 * in this process: a program of BENCH_USERS `kasm.User` resources (default 1,000) is created once,
 * then `up` runs with no change, alternately with the default stack trace limit (10 frames) and
 * with `NODE_OPTIONS=--stack-trace-limit=1` and `=0`. Prints, for each, the fastest of
 * BENCH_REPEAT runs (default 2): seconds, the program's CPU time and its peak memory (maxRSS).
 * Asserts nothing: the figures go into README.md ("When a program fails").
 *
 *   npm run build && node scripts/link-self.js   # the program and the host load pulumi-kasm from dist/
 *   node --import tsx bench/large-stack.ts
 *   BENCH_USERS=2000 BENCH_REPEAT=3 node --import tsx bench/large-stack.ts
 *
 * Why: Pulumi's runtime records `new Error().stack` for each promise it tracks (for its report of
 * promises still pending at exit), and ts-node's source-map support rewrites each of those stacks;
 * the V8 option `--stack-trace-limit` bounds how many frames each capture holds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TestEngine } from "../testing/engine";
import { ADMIN, startTestEmulator } from "../test/helpers/emulator";

const USERS = Number(process.env.BENCH_USERS ?? 1000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 2);

const PROGRAM = `import * as kasm from "pulumi-kasm";
for (let i = 0; i < ${USERS}; i++) {
  const n = String(i).padStart(5, "0");
  new kasm.User(\`user-\${n}\`, { username: \`bench-user-\${n}\`, firstName: "Bench", lastName: n });
}
`;

/** Loaded into every process of the run; in the program's process only, it writes its usage when it exits. */
const PRELOAD = `if (process.argv.some((a) => a.includes("cmd/run")) && process.env.BENCH_USAGE_FILE) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    require("fs").writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
  });
}
`;

interface Figures {
  seconds: number;
  cpuSeconds: number;
  peakMb: number;
}

const SETTINGS: { label: string; nodeOptions?: string }[] = [
  { label: "default (10 frames)" },
  { label: "--stack-trace-limit=1", nodeOptions: "--stack-trace-limit=1" },
  { label: "--stack-trace-limit=0", nodeOptions: "--stack-trace-limit=0" },
];

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), "kasm-bench-large-"));
  const preload = path.join(tmp, "usage.js");
  writeFileSync(preload, PRELOAD);
  const programDir = path.join(tmp, "program");
  mkdirSync(programDir);
  writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: large\nruntime: nodejs\n");
  writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "large", main: "index.ts" }));
  writeFileSync(path.join(programDir, "index.ts"), PROGRAM);
  const emulator = await startTestEmulator({});
  const usageFile = path.join(tmp, "usage.json");
  const engine = (nodeOptions?: string) =>
    new TestEngine({
      programDir,
      project: "large",
      stack: "dev",
      stateFile: path.join(tmp, "dev.json"),
      passphrase: "bench",
      config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret },
      secretKeys: ["kasm:apiKeySecret"],
      env: { NODE_OPTIONS: [`--require ${preload}`, nodeOptions].filter(Boolean).join(" "), BENCH_USAGE_FILE: usageFile },
    });
  const run = async (nodeOptions?: string): Promise<Figures> => {
    const started = process.hrtime.bigint();
    const result = await engine(nodeOptions).up();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (!result.ok) throw new Error(`up failed: ${JSON.stringify(result.errors)}\n${result.programOutput}`);
    const usage = JSON.parse(readFileSync(usageFile, "utf8")) as { maxRssKb: number; cpuMs: number };
    return { seconds, cpuSeconds: usage.cpuMs / 1000, peakMb: usage.maxRssKb / 1024 };
  };
  try {
    console.log(`Node ${process.version}, @pulumi/pulumi ${require("@pulumi/pulumi/package.json").version}, ${USERS} kasm.User\n`);
    const created = await run();
    console.log(`up (create): ${created.seconds.toFixed(1)} s\n`);
    const best = SETTINGS.map(() => undefined as Figures | undefined);
    for (let round = 0; round < REPEAT; round++) {
      for (const [i, setting] of SETTINGS.entries()) {
        const figures = await run(setting.nodeOptions);
        if (!best[i] || figures.seconds < best[i]!.seconds) best[i] = figures;
      }
    }
    console.log(["no-change up", "seconds", "program CPU s", "program peak MB"].join(" | "));
    for (const [i, setting] of SETTINGS.entries()) {
      const f = best[i]!;
      console.log([setting.label, f.seconds.toFixed(1), f.cpuSeconds.toFixed(1), f.peakMb.toFixed(0)].join(" | "));
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
