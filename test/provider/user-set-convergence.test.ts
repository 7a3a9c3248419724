/**
 * A UserSet of 300 users through Pulumi's real dynamic-provider host while the emulator fails half
 * of all requests (500, 503 or a reset connection, before or after the request commits, from a
 * fixed seed): create, change (20 rows added, 20 removed, 20 first names changed, 20 users moved
 * to the other group) and destroy, each phase run as the engine runs it (a resource that failed to
 * initialise keeps the state the provider gave, and the next run updates it) until it succeeds.
 * Every phase converges within 3 runs, and with the faults off Kasm holds exactly the declared
 * users, each once, with the declared first name and groups; after the destroy, none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { HostError, type ProviderHost, type Props } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const ENGINEERING = "4a1e8f0c2b3d4e5f6a7b8c9d0e1f2a3b";
const SALES = "5b2f9a1d3c4e5f6a7b8c9d0e1f2a3b4c";
const GROUP_IDS = { Engineering: ENGINEERING, Sales: SALES };
const PREFIX = "conv-";
const FAULTS = { rate: 0.5, phase: "either", seed: 20240611, kinds: ["500", "503", "reset"] };
/** Client retries with short waits: the faults are many, and the test must stay short. */
const RETRIES = { "kasm:maxRetries": "6", "kasm:retryBaseDelayMs": "1", "kasm:retryMaxDelayMs": "5" };
const MAX_RUNS = 3;

interface Entry {
  username: string;
  firstName: string;
  lastName: string;
  groups: string[];
}

function entry(i: number): Entry {
  return { username: `${PREFIX}${String(i).padStart(3, "0")}`, firstName: `First ${i}`, lastName: `Last ${i}`, groups: [i % 2 ? "Sales" : "Engineering"] };
}

/** 300 users, then the change: rows 0-19 removed, 300-319 added, first names of 20-39 changed, 40-59 moved to the other group. */
const BEFORE: Entry[] = Array.from({ length: 300 }, (_, i) => entry(i));
const AFTER: Entry[] = [
  ...BEFORE.slice(20).map((row, j) => {
    const i = j + 20;
    if (i < 40) return { ...row, firstName: `Renamed ${i}` };
    if (i < 60) return { ...row, groups: [row.groups[0] === "Sales" ? "Engineering" : "Sales"] };
    return row;
  }),
  ...Array.from({ length: 20 }, (_, j) => entry(300 + j)),
];

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    groups: [
      { group_id: ENGINEERING, name: "Engineering" },
      { group_id: SALES, name: "Sales" },
    ],
  });
  host = await hostFor(emulator, undefined, RETRIES);
});
afterAll(async () => {
  await emulator?.faults(null);
  await host?.stop();
  await emulator?.close();
});

function faults(on: boolean): Promise<void> {
  return emulator.faults(on ? FAULTS : null);
}

/** The users Kasm holds with the prefix, read with the faults off: username, first name, groups besides All Users. */
async function kasmUsers(): Promise<{ username: string; firstName: string; groups: string[] }[]> {
  const res = await emulator.specCall("get_users", { page_size: 1000 });
  expect(res.status).toBe(200);
  return (res.body.users as any[])
    .filter((u) => String(u.username).startsWith(PREFIX))
    .map((u) => ({
      username: u.username,
      firstName: u.first_name,
      groups: (u.groups ?? [])
        .map((g: { name: string }) => g.name)
        .filter((n: string) => n !== "All Users")
        .sort(),
    }))
    .sort((a, b) => a.username.localeCompare(b.username));
}

/** What one phase took: runs until it succeeded, seconds, and the messages of the failed runs. */
interface Phase {
  runs: number;
  seconds: number;
  failures: string[];
}

/**
 * One `pulumi up` of the set as the engine runs it: create when the state has none, else diff and
 * update (always, after a failure to initialise). A failure to initialise keeps the id and the
 * properties the provider gave; any other failure leaves the state as it was.
 */
async function up(set: Driven, program: Props, initErrors: { value: boolean }): Promise<void> {
  try {
    if (!set.id) await set.create(program);
    else {
      const diff = await set.diff(program);
      if (diff.changes !== "none" || initErrors.value) await set.update(program);
    }
    initErrors.value = false;
  } catch (error) {
    const failure = error instanceof HostError ? error.initFailure : undefined;
    if (failure) {
      set.id = failure.id;
      set.state = failure.properties;
      initErrors.value = true;
    }
    throw error;
  }
}

/** Run `run` until it succeeds, at most MAX_RUNS times, with the faults on. */
async function converge(run: () => Promise<void>): Promise<Phase> {
  const started = Date.now();
  const failures: string[] = [];
  await faults(true);
  try {
    for (let i = 1; i <= MAX_RUNS; i++) {
      try {
        await run();
        return { runs: i, seconds: (Date.now() - started) / 1000, failures };
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  } finally {
    await faults(false);
  }
  throw new Error(`did not converge within ${MAX_RUNS} runs:\n${failures.join("\n---\n")}`);
}

/**
 * A failed run's message says how far it got, and that running again continues; or the run failed
 * at its first read of the users pages (every retry failed), before it wrote anything.
 */
function expectProgressMessages(messages: readonly string[], again: RegExp): void {
  for (const message of messages) {
    if (/^get_users: /.test(message)) continue;
    expect(message).toMatch(/\d+ of (the )?\d+ (writes were made|users left were deleted)/);
    expect(message).toMatch(again);
  }
}

describe("UserSet of 300 users at a 50% fault rate, through the host", () => {
  let set: Driven;
  const initErrors = { value: false };
  const phases: Record<string, Phase> = {};

  beforeAll(() => {
    set = new Driven(host, "UserSet", "converging");
  });
  afterAll(() => {
    const lines = Object.entries(phases).map(([name, p]) => `${name}: ${p.runs} run(s), ${p.seconds.toFixed(1)} s`);
    console.log(`UserSet of 300 users at a 50% fault rate: ${lines.join("; ")}`);
  });

  it("is created within 3 runs, with every user once and nothing else", async () => {
    const program = { users: BEFORE, groupsMode: "authoritative", groupIds: GROUP_IDS };
    phases.create = await converge(() => up(set, program, initErrors));
    expectProgressMessages(
      phases.create.failures.filter((m) => !/^batch_create_user: /.test(m)),
      /run `pulumi up` again/,
    );
    expect(await kasmUsers()).toEqual(BEFORE.map((r) => ({ username: r.username, firstName: r.firstName, groups: r.groups })));
    expect(Object.keys(set.state.userIds as object)).toHaveLength(300);
    expect(set.state.unconfirmed).toBeUndefined();
  }, 60_000);

  it("takes 20 added, 20 removed, 20 renamed and 20 regrouped rows within 3 runs", async () => {
    const program = { users: AFTER, groupsMode: "authoritative", groupIds: GROUP_IDS };
    phases.change = await converge(() => up(set, program, initErrors));
    expectProgressMessages(phases.change.failures, /run `pulumi up` again/);
    const expected = AFTER.map((r) => ({ username: r.username, firstName: r.firstName, groups: r.groups })).sort((a, b) =>
      a.username.localeCompare(b.username),
    );
    expect(await kasmUsers()).toEqual(expected);
    const ids = set.state.userIds as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual(expected.map((r) => r.username));
    // The state's ids are Kasm's: no user of the set was re-created behind its back.
    const res = await emulator.specCall("get_users", { page_size: 1000 });
    const byName = new Map((res.body.users as any[]).map((u) => [u.username, String(u.user_id).replace(/-/g, "")]));
    for (const [name, id] of Object.entries(ids)) expect(id.replace(/-/g, "")).toBe(byName.get(name));
    // No change is left to make.
    expect(await set.diff(program)).toMatchObject({ changes: "none" });
  }, 60_000);

  it("is destroyed within 3 runs, leaving none of its users", async () => {
    phases.destroy = await converge(() => set.delete());
    expectProgressMessages(phases.destroy.failures, /run the destroy again/);
    expect(await kasmUsers()).toEqual([]);
  }, 60_000);
});
