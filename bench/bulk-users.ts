/**
 * 1,000 users three ways, through the test engine (Pulumi's runtime and
 * dynamic-provider host, the same engine as the end-to-end tests) against an emulator started in
 * this process: one `UserSet`, 1,000 `User` resources, and 1,000 `User` plus 1,000
 * `GroupMembership` resources (the same users in the same groups as the `UserSet`). For `up`, a
 * second `up` with no change, `refresh` and `destroy`, prints the API requests the emulator served
 * (counted from its request log) and the seconds each took (for the operations that change
 * nothing, the fastest of BENCH_REPEAT runs), and whether the `UserSet` meets its targets.
 * Asserts nothing: the figures go into examples/bulk-users/README.md and README.md.
 *
 *   npm run build && node scripts/link-self.js   # the provider host loads pulumi-kasm/provider from dist/
 *   npm run bench:bulk
 *   BENCH_ONLY=UserSet npm run bench:bulk        # one of UserSet, User, User+GroupMembership
 *   BENCH_REPEAT=5 npm run bench:bulk            # runs of each no-change up and refresh (default 3; the fastest counts)
 *
 * The users are examples/bulk-users/users.csv (Kasm's batch import format: username, first_name,
 * last_name, force_password_reset, group_1), in the example's four team groups.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { TestEngine, type RunResult } from "../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "../test/helpers/emulator";

const REPO = path.resolve(__dirname, "..");
const EXAMPLE = path.join(REPO, "examples", "bulk-users");
const CSV = path.join(EXAMPLE, "users.csv");

/** The example's seed: its four team groups (the harness adds the admin key the engine uses). */
const SEED = { groups: JSON.parse(readFileSync(path.join(EXAMPLE, "seed.json"), "utf8")).groups as { group_id: string; name: string }[] };

interface Row {
  username: string;
  first_name: string;
  last_name: string;
  group_1: string;
}
const ROWS = parse(readFileSync(CSV, "utf8"), { columns: true, skip_empty_lines: true, trim: true }) as Row[];

/** One way of declaring the users: the body of its index.ts, after the imports. */
interface Variant {
  readonly name: "UserSet" | "User" | "User+GroupMembership";
  readonly label: string;
  readonly program: string;
}

const READ_ROWS = `const rows: { username: string; first_name: string; last_name: string; group_1: string }[] = parse(
  readFileSync(path.join(__dirname, "users.csv"), "utf8"), { columns: true, skip_empty_lines: true, trim: true });`;

const VARIANTS: Variant[] = [
  {
    name: "UserSet",
    label: "1 UserSet (1,000 rows)",
    program: `const team = new kasm.UserSet("team", { csv: readFileSync(path.join(__dirname, "users.csv"), "utf8") });
export const count = team.count;`,
  },
  {
    name: "User",
    label: "1,000 User",
    program: `${READ_ROWS}
for (const row of rows) new kasm.User(row.username, { username: row.username, firstName: row.first_name, lastName: row.last_name });
export const count = rows.length;`,
  },
  {
    name: "User+GroupMembership",
    label: "1,000 User + 1,000 GroupMembership",
    program: `const groupIds: Record<string, string> = JSON.parse(config.require("groupIds"));
${READ_ROWS}
for (const row of rows) {
  const user = new kasm.User(row.username, { username: row.username, firstName: row.first_name, lastName: row.last_name });
  new kasm.GroupMembership(\`\${row.username}-membership\`, { userId: user.userId, groupId: groupIds[row.group_1] });
}
export const count = rows.length;`,
  },
];

const OPERATIONS = ["up", "no-change up", "refresh", "destroy"] as const;
/**
 * How many times the operations that change nothing (no-change up, refresh) run; the fastest
 * counts. On a shared machine one run can be slowed by anything else running.
 */
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
type OperationLabel = (typeof OPERATIONS)[number];

/** What one operation cost. */
interface Measure {
  readonly requests: number;
  /** Requests by API operation, such as `get_users 1, batch_create_user 1`. */
  readonly byOperation: string;
  readonly ms: number;
  /**
   * CPU seconds spent by this process (the engine and the emulator) and the processes it started
   * and waited for (the program, the provider host): what the operation costs whatever else the
   * machine is running, where wall time depends on it. NaN where /proc is not available.
   */
  readonly cpuMs: number;
  readonly summary: string;
}

/** CPU milliseconds of this process and of its children that have exited (Linux: /proc/self/stat cutime and cstime). */
function cpuMsSoFar(): number {
  const own = process.cpuUsage();
  let children = Number.NaN;
  try {
    // Fields after the command name (which is in parentheses and may hold spaces): cutime and cstime are the 14th and 15th.
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    const ticks = Number(fields[13]) + Number(fields[14]);
    children = (ticks * 1000) / CLOCK_TICKS;
  } catch {
    // not Linux
  }
  return (own.user + own.system) / 1000 + children;
}
/** The kernel's clock ticks per second (USER_HZ), 100 on Linux everywhere that matters. */
const CLOCK_TICKS = 100;

/** The API requests the emulator served since `from` (its request log has one `<operation> <status> <ms>` line each). */
function requestsSince(emulator: TestEmulator, from: number): string[] {
  return emulator.requests
    .slice(from)
    .filter((line) => /^\S+ \d{3} /.test(line))
    .map((line) => line.split(" ")[0]);
}

function countBy(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => `${n} ${c}`).join(", ");
}

async function measure(emulator: TestEmulator, run: () => Promise<RunResult>, what: string): Promise<Measure> {
  const from = emulator.requests.length;
  const cpuBefore = cpuMsSoFar();
  const result = await run();
  const cpuMs = cpuMsSoFar() - cpuBefore;
  if (!result.ok) {
    throw new Error(`${what} failed: ${JSON.stringify(result.errors.slice(0, 3), null, 1)}\n${result.programOutput.slice(-4000)}`);
  }
  const names = requestsSince(emulator, from);
  return { requests: names.length, byOperation: countBy(names), ms: result.durationMs, cpuMs, summary: JSON.stringify(result.summary) };
}

/** One variant's lifecycle against a fresh emulator: up, a second up, refresh, destroy. */
async function runVariant(variant: Variant): Promise<Record<OperationLabel, Measure>> {
  const dir = mkdtempSync(path.join(tmpdir(), `bench-bulk-${variant.name.toLowerCase().replace(/\W/g, "-")}-`));
  const emulator = await startTestEmulator(SEED);
  try {
    const programDir = path.join(dir, "program");
    mkdirSync(programDir);
    writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "bench-bulk-users", main: "index.ts" }));
    copyFileSync(CSV, path.join(programDir, "users.csv"));
    writeFileSync(
      path.join(programDir, "index.ts"),
      [
        `import { readFileSync } from "node:fs";`,
        `import path from "node:path";`,
        `import * as pulumi from "@pulumi/pulumi";`,
        `import { parse } from "csv-parse/sync";`,
        `import * as kasm from "pulumi-kasm";`,
        `const config = new pulumi.Config();`,
        variant.program,
        "",
      ].join("\n"),
    );
    const engine = new TestEngine({
      programDir,
      project: "bench-bulk-users",
      stack: "bench",
      stateFile: path.join(dir, "state.json"),
      passphrase: "bench correct horse",
      config: {
        "kasm:baseUrl": emulator.url,
        "kasm:apiKey": ADMIN.key,
        "kasm:apiKeySecret": ADMIN.secret,
        "kasm:maxRetries": "1",
        "bench-bulk-users:groupIds": JSON.stringify(Object.fromEntries(SEED.groups.map((g) => [g.name, g.group_id]))),
      },
      secretKeys: ["kasm:apiKeySecret"],
    });
    const measures = {} as Record<OperationLabel, Measure>;
    /** Run an operation `times` times (only for the ones that change nothing) and keep the fastest, with the most requests. */
    const step = async (label: OperationLabel, run: () => Promise<RunResult>, times = 1) => {
      for (let i = 0; i < times; i++) {
        const m = await measure(emulator, run, `${variant.label}, ${label}`);
        console.error(
          `  ${variant.label}, ${label}: ${m.requests} requests (${m.byOperation || "none"}), ${seconds(m.ms)} s, CPU ${seconds(m.cpuMs)} s, ${m.summary}`,
        );
        const best = measures[label];
        measures[label] =
          best === undefined ? m : { ...(m.ms < best.ms ? m : best), requests: Math.max(m.requests, best.requests), cpuMs: Math.min(m.cpuMs, best.cpuMs) };
      }
    };
    await step("up", () => engine.up());
    const users = Object.values<any>((await emulator.state()).users).length;
    if (users !== ROWS.length) throw new Error(`${variant.label}: Kasm holds ${users} users after up, expected ${ROWS.length}`);
    await step("no-change up", () => engine.up(), REPEAT);
    await step("refresh", () => engine.refresh(), REPEAT);
    await step("destroy", () => engine.destroy());
    return measures;
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

/** The targets of the UserSet: requests per operation, and how much faster its no-change up must be. */
const TARGETS: Partial<Record<OperationLabel, number>> = { up: 5, "no-change up": 12, refresh: 12 };
const NO_CHANGE_SPEEDUP = 10;

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  const variants = VARIANTS.filter((v) => !only || v.name === only);
  if (variants.length === 0) throw new Error(`BENCH_ONLY must be one of ${VARIANTS.map((v) => v.name).join(", ")}`);
  console.error(`bulk users: ${ROWS.length} users from examples/bulk-users/users.csv, through the test engine against the emulator`);
  const results = new Map<Variant, Record<OperationLabel, Measure>>();
  for (const variant of variants) results.set(variant, await runVariant(variant));

  const head = ["Operation", ...variants.map((v) => v.label)];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const op of OPERATIONS) {
    const cells = variants.map((v) => {
      const m = results.get(v)![op];
      return `${m.requests.toLocaleString("en")} request${m.requests === 1 ? "" : "s"}, ${seconds(m.ms)} s (CPU ${seconds(m.cpuMs)} s)`;
    });
    lines.push(`| ${op} | ${cells.join(" | ")} |`);
  }
  console.log(lines.join("\n"));

  const set = [...results].find(([v]) => v.name === "UserSet")?.[1];
  if (set) {
    console.log("\nUserSet requests by API operation:");
    for (const op of OPERATIONS) console.log(`  ${op}: ${set[op].byOperation || "none"}`);
    console.log("\nUserSet targets:");
    for (const [op, max] of Object.entries(TARGETS)) {
      const got = set[op as OperationLabel].requests;
      console.log(`  ${op}: ${got} requests, target <= ${max}: ${got <= max ? "met" : "NOT met"}`);
    }
    const users = [...results].find(([v]) => v.name === "User")?.[1];
    if (users) {
      for (const [what, key] of [
        ["seconds", "ms"],
        ["CPU seconds", "cpuMs"],
      ] as const) {
        const speedup = users["no-change up"][key] / set["no-change up"][key];
        console.log(
          `  no-change up: ${speedup.toFixed(1)} times fewer ${what} than 1,000 User, target >= ${NO_CHANGE_SPEEDUP}: ${speedup >= NO_CHANGE_SPEEDUP ? "met" : "NOT met"}`,
        );
      }
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
