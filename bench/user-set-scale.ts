/**
 * One `UserSet` of 20,000 users (a CSV in Kasm's import format), through the test engine (Pulumi's
 * runtime and dynamic-provider host, as in bench/bulk-users.ts) against an emulator started in this
 * process: create, an `up` with no change, an `up` that changes 1% of the rows (their first names),
 * refresh, destroy. For each, prints the API requests the emulator served (from its request log),
 * the seconds, and the peak memory of the provider host, of the program and of this process (the
 * engine and the emulator). Asserts only that each operation succeeded and Kasm holds the users.
 *
 *   npm run build && node scripts/link-self.js   # the provider host loads pulumi-kasm/provider from dist/
 *   npm run bench:scale
 *   BENCH_USERS=5000 npm run bench:scale         # another size
 *
 * Memory: the peak resident set (VmHWM in /proc/<pid>/status, which the kernel keeps for each
 * process) of every process this one started, read every 100 ms while an operation runs, the
 * provider host and the program told apart by their command lines; the largest of each during the
 * operation. A process's VmHWM only grows, so the last reading before it exits is within 100 ms of
 * its peak. Linux only; elsewhere the memory columns are empty.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TestEngine, type RunResult } from "../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "../test/helpers/emulator";

const USERS = Math.max(1, Number(process.env.BENCH_USERS ?? 20_000));
const GROUPS = [
  { group_id: "6c3a0b2e4d5f6a7b8c9d0e1f2a3b4c5d", name: "Engineering" },
  { group_id: "7d4b1c3f5e6a7b8c9d0e1f2a3b4c5d6e", name: "Sales" },
];

/** The CSV of the set; rows whose index is in `renamed` get another first name. */
function usersCsv(renamed: (i: number) => boolean): string {
  const lines = ["username,first_name,last_name,group_1"];
  for (let i = 0; i < USERS; i++) {
    const name = `scale${String(i).padStart(5, "0")}`;
    lines.push(`${name},${renamed(i) ? "Changed" : "First"} ${i},Last ${i},${GROUPS[i % GROUPS.length].name}`);
  }
  return `${lines.join("\n")}\n`;
}

// --- memory ----------------------------------------------------------------------------------------

/** The processes below `root` (its children, theirs, ...), from /proc. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    for (const [child, ppid] of parent) if (ppid === pid) found.push(child), queue.push(child);
  }
  return found;
}

/** VmHWM of a process in MiB, or undefined. */
function peakMiB(pid: number | "self"): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

type Role = "host" | "program";

/** Which of the engine's processes a command line is. */
function roleOf(pid: number): Role | undefined {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (/dynamic-provider/.test(cmdline)) return "host";
    if (/cmd[/\\]run/.test(cmdline)) return "program";
  } catch {
    // gone meanwhile
  }
  return undefined;
}

/** Watch the processes below this one while `run` runs: the peak of each role, in MiB. */
async function watchingMemory<T>(run: () => Promise<T>): Promise<{ result: T; peaks: Partial<Record<Role, number>> }> {
  const peaks: Partial<Record<Role, number>> = {};
  const sample = () => {
    if (process.platform !== "linux") return;
    for (const pid of descendants(process.pid)) {
      const role = roleOf(pid);
      const peak = role && peakMiB(pid);
      if (role && peak !== undefined) peaks[role] = Math.max(peaks[role] ?? 0, peak);
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await run();
    return { result, peaks };
  } finally {
    clearInterval(timer);
  }
}

// --- measuring -------------------------------------------------------------------------------------

interface Measure {
  readonly requests: number;
  readonly byOperation: string;
  readonly seconds: number;
  readonly host?: number;
  readonly program?: number;
  readonly self?: number;
}

function countBy(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => `${n} ${c.toLocaleString("en")}`).join(", ");
}

async function measure(emulator: TestEmulator, what: string, run: () => Promise<RunResult>): Promise<Measure> {
  const from = emulator.requests.length;
  const started = Date.now();
  const { result, peaks } = await watchingMemory(run);
  const seconds = (Date.now() - started) / 1000;
  if (!result.ok) throw new Error(`${what} failed: ${JSON.stringify(result.errors.slice(0, 3), null, 1)}\n${result.programOutput.slice(-4000)}`);
  const names = emulator.requests
    .slice(from)
    .filter((line) => /^\S+ \d{3} /.test(line))
    .map((line) => line.split(" ")[0]);
  const m = { requests: names.length, byOperation: countBy(names), seconds, ...peaks, self: peakMiB("self") };
  console.error(
    `  ${what}: ${m.requests.toLocaleString("en")} requests (${m.byOperation || "none"}), ${seconds.toFixed(1)} s, ${JSON.stringify(result.summary)}`,
  );
  return m;
}

async function usersInKasm(emulator: TestEmulator): Promise<number> {
  return Object.values<{ username: string }>((await emulator.state()).users).filter((u) => u.username.startsWith("scale")).length;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-user-set-scale-"));
  const emulator = await startTestEmulator({ groups: GROUPS });
  const rows: [string, Measure][] = [];
  try {
    const programDir = path.join(dir, "program");
    mkdirSync(programDir);
    writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "bench-user-set-scale", main: "index.ts" }));
    writeFileSync(
      path.join(programDir, "index.ts"),
      [
        `import { readFileSync } from "node:fs";`,
        `import path from "node:path";`,
        `import * as kasm from "pulumi-kasm";`,
        `const team = new kasm.UserSet("team", { csv: readFileSync(path.join(__dirname, "users.csv"), "utf8") });`,
        `export const count = team.count;`,
        "",
      ].join("\n"),
    );
    const csv = path.join(programDir, "users.csv");
    writeFileSync(
      csv,
      usersCsv(() => false),
    );
    const engine = new TestEngine({
      programDir,
      project: "bench-user-set-scale",
      stack: "bench",
      stateFile: path.join(dir, "state.json"),
      passphrase: "bench correct horse",
      config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1" },
      secretKeys: ["kasm:apiKeySecret"],
    });
    console.error(`UserSet of ${USERS.toLocaleString("en")} users, through the test engine against the emulator`);
    rows.push(["create", await measure(emulator, "create", () => engine.up())]);
    if ((await usersInKasm(emulator)) !== USERS) throw new Error(`Kasm holds ${await usersInKasm(emulator)} users after create, expected ${USERS}`);
    rows.push(["no-change up", await measure(emulator, "no-change up", () => engine.up())]);
    // 1% of the rows: every 100th user's first name.
    writeFileSync(
      csv,
      usersCsv((i) => i % 100 === 0),
    );
    rows.push(["change 1% of rows", await measure(emulator, "change 1% of rows", () => engine.up())]);
    rows.push(["refresh", await measure(emulator, "refresh", () => engine.refresh())]);
    rows.push(["destroy", await measure(emulator, "destroy", () => engine.destroy())]);
    if ((await usersInKasm(emulator)) !== 0) throw new Error(`Kasm holds ${await usersInKasm(emulator)} users after destroy`);
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const mib = (v: number | undefined) => (v === undefined ? "" : `${Math.round(v)} MiB`);
  const lines = [
    `| UserSet of ${USERS.toLocaleString("en")} users | Requests | Seconds | Provider host peak | Program peak | Engine + emulator peak |`,
    "|---|---|---|---|---|---|",
    ...rows.map(([op, m]) => `| ${op} | ${m.requests.toLocaleString("en")} | ${m.seconds.toFixed(1)} | ${mib(m.host)} | ${mib(m.program)} | ${mib(m.self)} |`),
  ];
  console.log(lines.join("\n"));
  console.log("\nRequests by API operation:");
  for (const [op, m] of rows) console.log(`  ${op}: ${m.byOperation || "none"}`);
  console.log(
    "\nPeak memory: VmHWM of the provider host and of the program (read from /proc every 100 ms while each operation ran; " +
      "the largest reading); the engine and the emulator run in this process, whose VmHWM is its peak since it started.",
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
