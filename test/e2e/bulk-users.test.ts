/**
 * examples/bulk-users end to end: 1,000 users in their team groups from users.csv (Kasm's batch
 * import format) as one `UserSet`, through the test engine against an emulator seeded with the
 * example's seed.json and the seed's key. One stack's lifecycle, in order: preview (with both
 * policy packs, which pass), up, an up with no change (which sends Kasm nothing but reads), changed
 * rows (a renamed first name, a removed row, an added row), refresh after changes and deletions
 * made in Kasm, a bad row refused in preview with its row number, the permissions pack failing for
 * a key without Groups Modify, destroy back to the seed. The API requests of each step are read
 * from the emulator's request log; durations are printed, never asserted (bench/bulk-users.ts
 * measures them).
 */
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunResult, TestEngine } from "../../testing/engine";
import type { TestEmulator } from "../helpers/emulator";
import {
  HARDENING_PACK,
  SLOW,
  copyExample,
  editFile,
  exampleDir,
  exampleEngine,
  expectAllSame,
  expectOk,
  mandatory,
  ops,
  permissionsPack,
  resource,
  seconds,
  startExampleEmulator,
  tempDir,
  type StackOptions,
} from "./helpers";

const GROUPS = {
  Engineering: "b0000000000040000000000000000001",
  Support: "b0000000000040000000000000000002",
  Sales: "b0000000000040000000000000000003",
  Finance: "b0000000000040000000000000000004",
};

interface Row {
  username: string;
  firstName: string;
  lastName: string;
  team: keyof typeof GROUPS;
}

/** users.csv of the example: username, first_name, last_name, force_password_reset, group_1 (its rows are plain: no quoting). */
const CSV_TEXT = readFileSync(path.join(exampleDir("bulk-users"), "users.csv"), "utf8");
const ROWS: Row[] = CSV_TEXT.trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [username, firstName, lastName, , team] = line.trim().split(",");
    return { username, firstName, lastName, team: team as Row["team"] };
  });

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let seeded: any;
let engine: TestEngine;
const timings: Record<string, number> = {};

function stack(extra: Partial<StackOptions> = {}): TestEngine {
  return exampleEngine({ example: "bulk-users", emulator, dir: tmp.dir, ...extra });
}

function timed(label: string, result: RunResult): RunResult {
  timings[label] = result.durationMs;
  console.log(`bulk-users, ${label}: ${seconds(result.durationMs)} (${JSON.stringify(result.summary)})`);
  return result;
}

/** The API operations the emulator served while `run` ran, in order. */
async function requestsDuring<T>(run: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const from = emulator.requests.length;
  const result = await run();
  const requests = emulator.requests
    .slice(from)
    .filter((line) => /^\S+ \d{3} /.test(line))
    .map((line) => line.split(" ")[0]);
  return { result, requests };
}

/** The users of the emulator (the seed has none), by username. */
async function kasmUsers(): Promise<Map<string, any>> {
  const state = await emulator.state();
  return new Map(Object.values<any>(state.users).map((u) => [u.username, u]));
}

/** The ids of the built-in groups, as the permissions pack must be told them. */
function systemGroupIds(state: any) {
  const id = (name: string) => Object.values<any>(state.groups).find((g) => g.name === name).group_id;
  return { allUsers: id("All Users"), administrators: id("Administrators") };
}

/** Kasm holds exactly these rows: each user with its names, to choose a password at first sign-in, in All Users and its team's group. */
function expectUsers(users: Map<string, any>, rows: readonly Row[]): void {
  expect([...users.keys()].sort()).toEqual(rows.map((r) => r.username).sort());
  for (const row of rows) {
    const user = users.get(row.username);
    expect(user, row.username).toMatchObject({ first_name: row.firstName, last_name: row.lastName, force_password_reset: true });
    expect(user.group_ids, row.username).toContain(GROUPS[row.team]);
    expect(user.group_ids, row.username).toHaveLength(2); // All Users and the team's group
  }
}

beforeAll(async () => {
  tmp = tempDir("bulk-users");
  emulator = await startExampleEmulator("bulk-users");
  seeded = await emulator.state();
  engine = stack();
  expect(ROWS).toHaveLength(1000);
});

afterAll(async () => {
  console.log(
    `bulk-users (1 UserSet of 1,000 rows): ${Object.entries(timings)
      .map(([k, v]) => `${k} ${seconds(v)}`)
      .join(", ")}`,
  );
  await emulator?.close();
  tmp?.remove();
});

describe("examples/bulk-users", () => {
  it("preview with both policy packs (the seed's key) plans one UserSet, passes, and sends Kasm only the one read of the installation", {
    timeout: SLOW,
  }, async () => {
    const checked = stack({ policyPacks: [permissionsPack({ permissions: ["Global Admin"] }), { dir: HARDENING_PACK }] });
    const { result: preview, requests } = await requestsDuring(() => checked.preview());
    timed("preview with both packs", preview);
    expectOk(preview);
    expect(preview.summary).toEqual({ create: 2 });
    expect(ops(preview)).toMatchObject({ team: "create" });
    expect(mandatory(preview)).toEqual([]);
    expect(preview.policyViolations.map((v) => `${v.policyName} ${v.enforcementLevel}`)).toEqual(["least-privilege advisory"]);
    // The read a change makes of its installation before the plan (README, "A preview that can gate a pull request").
    expect(requests).toEqual([emulator.apiNames === "product" ? "get_groups" : "get_ws_status"]);
    expect(await emulator.state()).toEqual(seeded);
  });

  it("up creates every user in its team's group with one batch request", { timeout: SLOW }, async () => {
    const { result: up, requests } = await requestsDuring(() => engine.up());
    timed("up", up);
    expectOk(up);
    expect(up.summary).toEqual({ create: 2 });
    expect(requests.filter((r) => r === "batch_create_user")).toHaveLength(1);
    expect(requests.filter((r) => r !== "batch_create_user" && !r.startsWith("get_"))).toEqual([]);
    expectUsers(await kasmUsers(), ROWS);
    expect(up.outputs).toEqual({ userCount: 1000 });
    const userIds = resource(up, "team").outputs.userIds as Record<string, string>;
    expect(Object.keys(userIds)).toHaveLength(1000);
    expect(userIds.user0000).toBe((await kasmUsers()).get("user0000").user_id);
  });

  it("an up with no change changes nothing and sends Kasm nothing but reads", { timeout: SLOW }, async () => {
    const { result: second, requests } = await requestsDuring(() => engine.up());
    timed("no-change up", second);
    expectAllSame(second);
    expect(second.summary).toEqual({ same: 2 });
    expect(requests.filter((r) => !r.startsWith("get_"))).toEqual([]);
  });

  it("changed rows: a renamed first name updates that user in place, a removed row deletes its user, an added row creates one", { timeout: SLOW }, async () => {
    const before = await kasmUsers();
    const changed = copyExample("bulk-users", tmp.dir);
    const csv = path.join(changed, "users.csv");
    editFile(csv, [
      ["user0000,Ada,Lovelace,true,Engineering", "user0000,Augusta,Lovelace,true,Engineering"],
      ["user0999,John,Backus,true,Finance\n", ""],
    ]);
    appendFileSync(csv, "user1000,Barbara,Liskov,true,Engineering\n");
    engine = stack({ programDir: changed });
    const { result: up, requests } = await requestsDuring(() => engine.up());
    timed("changed up", up);
    expectOk(up);
    expect(up.summary).toEqual({ same: 1, update: 1 });
    expect(ops(up)).toMatchObject({ team: "update" });
    // One request per changed row (and the reads), never one per user.
    expect(requests.filter((r) => r === "update_user")).toHaveLength(1);
    expect(requests.filter((r) => r === "delete_user")).toHaveLength(1);
    expect(requests.filter((r) => r === "batch_create_user")).toHaveLength(1);
    expect(requests.filter((r) => r === "create_user")).toHaveLength(0);

    const rows = [
      { ...ROWS[0], firstName: "Augusta" },
      ...ROWS.slice(1, 999),
      { username: "user1000", firstName: "Barbara", lastName: "Liskov", team: "Engineering" as const },
    ];
    const users = await kasmUsers();
    expectUsers(users, rows);
    expect(users.get("user0000").user_id).toBe(before.get("user0000").user_id);
    expect(users.get("user0500").user_id).toBe(before.get("user0500").user_id);
    expect(up.outputs).toEqual({ userCount: 1000 });
  });

  it("refresh reads a user renamed in Kasm, a user deleted there and a group removed there; the next up puts them back", { timeout: SLOW }, async () => {
    const users = await kasmUsers();
    expect(
      (await emulator.call("update_user", { target_user: { user_id: users.get("user0002").user_id, username: "user0002", first_name: "Renamed" } })).status,
    ).toBe(200);
    expect((await emulator.call("delete_user", { target_user: { user_id: users.get("user0005").user_id } })).status).toBe(200);
    const removed = await emulator.call("remove_user_group", {
      target_user: { user_id: users.get("user0006").user_id },
      target_group: { group_id: GROUPS.Sales },
    });
    expect(removed.status).toBe(200);

    const { result: refresh, requests } = await requestsDuring(() => engine.refresh());
    timed("refresh", refresh);
    expectOk(refresh);
    expect(refresh.summary).toEqual({ read: 1 });
    expect(resource(refresh, "team").changed).toContain("userIds");
    expect((resource(refresh, "team").outputs.userIds as Record<string, string>).user0005).toBeUndefined();
    expect(requests.filter((r) => !r.startsWith("get_"))).toEqual([]);

    const { result: up, requests: upRequests } = await requestsDuring(() => engine.up());
    timed("up after refresh", up);
    expectOk(up);
    expect(up.summary).toEqual({ same: 1, update: 1 });
    expect(upRequests.filter((r) => r === "create_user")).toHaveLength(0);
    const after = await kasmUsers();
    expect(after.get("user0002").first_name).toBe("Grace");
    expect(after.get("user0005")).toMatchObject({ first_name: ROWS[5].firstName });
    expect(after.get("user0005").group_ids).toContain(GROUPS.Support);
    expect(after.get("user0006").group_ids).toContain(GROUPS.Sales);
    expect((resource(up, "team").outputs.userIds as Record<string, string>).user0005).toBe(after.get("user0005").user_id);
  });

  it("a bad row fails the preview with its row number, before any request", { timeout: SLOW }, async () => {
    const bad = copyExample("bulk-users", tmp.dir, "bad-row");
    // Row 500 (user0499) loses its username.
    editFile(path.join(bad, "users.csv"), [["\nuser0499,", "\n,"]]);
    const before = await emulator.state();
    const { result: preview, requests } = await requestsDuring(() => stack({ programDir: bad }).preview());
    expect(preview.ok).toBe(false);
    expect(preview.errors).toHaveLength(1);
    expect(preview.errors[0].message).toMatch(/\brow 500\b/);
    expect(preview.errors[0].message).toMatch(/username/);
    expect(requests).toEqual([]);
    expect(await emulator.state()).toEqual(before);
  });

  it("the permissions pack fails for a key without Groups Modify, and the up stops before any change", { timeout: SLOW }, async () => {
    const before = await emulator.state();
    const key = {
      permissions: ["Users View", "Users Create", "Users Modify", "Users Delete", "Groups View"],
      systemGroupIds: systemGroupIds(seeded),
      globalAdminUserIds: [],
    };
    const checked = stack({ programDir: engine.options.programDir, policyPacks: [permissionsPack(key)] });
    // `up` with packs runs the preview first, and stops there on a mandatory violation.
    const { result: up, requests } = await requestsDuring(() => checked.up());
    timed("up refused by the permissions pack", up);
    expect(up.ok).toBe(false);
    expect(up.resources).toEqual([]);
    expect(mandatory(up)).toEqual(["resource-needs-permissions team"]);
    expect(up.errors).toHaveLength(1);
    expect(up.errors[0].message).toContain("Grant the key: 'Groups Modify'");
    expect(requests.filter((r) => !r.startsWith("get_"))).toEqual([]);
    expect(await emulator.state()).toEqual(before);
  });

  it("destroy deletes every user of the set and leaves Kasm as it was seeded", { timeout: SLOW }, async () => {
    const { result: destroy, requests } = await requestsDuring(() => engine.destroy());
    timed("destroy", destroy);
    expectOk(destroy);
    expect(destroy.summary).toEqual({ delete: 2 });
    expect(requests.filter((r) => r === "delete_user")).toHaveLength(1000);
    expect(engine.readState()).toEqual([]);
    expect(await emulator.state()).toEqual(seeded);
  });
});
