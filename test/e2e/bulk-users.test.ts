/**
 * examples/bulk-users end to end: 1,000 users and 1,000 group memberships from users.csv (2,000
 * resources in one stack), through the test engine against an emulator seeded with the example's
 * seed.json and the seed's key. One stack's lifecycle, in order: preview (with both policy packs,
 * which pass), up, a second up, a changed program (a renamed user, a removed and an added row, and
 * a team mapped to another group, which replaces its memberships), refresh after changes made in
 * Kasm, the permissions pack failing for a key without Groups Modify, destroy. The durations of
 * up, second up and destroy are printed (measured, never asserted).
 */
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunResult, TestEngine } from "../engine/engine";
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
  userNamed,
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

/** users.csv of the example (its rows are plain: no quoting). */
const ROWS: Row[] = readFileSync(path.join(exampleDir("bulk-users"), "users.csv"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [username, firstName, lastName, team] = line.trim().split(",");
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

beforeAll(async () => {
  tmp = tempDir("bulk-users");
  emulator = await startExampleEmulator("bulk-users");
  seeded = await emulator.state();
  engine = stack();
  expect(ROWS).toHaveLength(1000);
});

afterAll(async () => {
  console.log(`bulk-users (2,000 resources): ${Object.entries(timings).map(([k, v]) => `${k} ${seconds(v)}`).join(", ")}`);
  await emulator?.close();
  tmp?.remove();
});

describe("examples/bulk-users", () => {
  it("preview with both policy packs (the seed's key) plans 2,000 creates, passes, and creates nothing in Kasm", { timeout: SLOW }, async () => {
    const checked = stack({ policyPacks: [permissionsPack({ permissions: ["Global Admin"] }), { dir: HARDENING_PACK }] });
    const preview = timed("preview with both packs", await checked.preview());
    expectOk(preview);
    expect(preview.summary).toEqual({ create: 2001 });
    expect(ops(preview)).toMatchObject({ user0000: "create", "user0000-engineering": "create", user0999: "create", "user0999-finance": "create" });
    expect(preview.outputs).toEqual({ userCount: 1000 });
    expect(preview.policyViolations.map((v) => `${v.policyName} ${v.enforcementLevel}`)).toEqual(["least-privilege advisory"]);
    expect(await emulator.state()).toEqual(seeded);
  });

  it("up creates every user with its team's membership", { timeout: SLOW }, async () => {
    const up = timed("up", await engine.up());
    expectOk(up);
    expect(up.summary).toEqual({ create: 2001 });
    const users = await kasmUsers();
    expect(users.size).toBe(1000);
    for (const row of ROWS) {
      const user = users.get(row.username);
      expect(user, row.username).toMatchObject({ first_name: row.firstName, last_name: row.lastName });
      expect(user.group_ids, row.username).toContain(GROUPS[row.team]);
      expect(user.group_ids, row.username).toHaveLength(2); // All Users and the team's group
    }
    expect(up.outputs).toEqual({ userCount: 1000 });
  });

  it("a second up changes nothing", { timeout: SLOW }, async () => {
    const second = timed("second up", await engine.up());
    expectAllSame(second);
    expect(second.summary).toEqual({ same: 2001 });
  });

  it("a changed program: a renamed user updates, a removed row deletes, an added row creates, a team mapped to another group replaces its memberships", { timeout: SLOW }, async () => {
    const before = await kasmUsers();
    const changed = copyExample("bulk-users", tmp.dir);
    const csv = path.join(changed, "users.csv");
    editFile(csv, [
      ["user0000,Ada,Lovelace,Engineering", "user0000,Augusta,Lovelace,Engineering"],
      ["user0999,John,Backus,Finance\n", ""],
    ]);
    appendFileSync(csv, "user1000,Barbara,Liskov,Engineering\n");
    // Finance's users now go to the Sales group: the config the example reads.
    engine = stack({ programDir: changed, config: { groupIds: JSON.stringify({ ...GROUPS, Finance: GROUPS.Sales }) } });
    const up = timed("changed up", await engine.up());
    expectOk(up);
    // 249 Finance memberships move (user0999, in Finance, is gone); 1,000 - 1 users and 750 - 1 memberships stay.
    expect(up.summary).toEqual({ same: 1 + 999 - 1 + 750, update: 1, delete: 2, create: 2, replace: 249 });
    expect(ops(up)).toMatchObject({ user0000: "update", user0999: "delete", "user0999-finance": "delete", user1000: "create", "user1000-engineering": "create", "user0003-finance": "replace" });
    expect(resource(up, "user0000").changed).toEqual(["firstName"]);
    expect(resource(up, "user0003-finance").changed).toEqual(["groupId"]);

    const users = await kasmUsers();
    expect(users.size).toBe(1000);
    expect(users.get("user0000")).toMatchObject({ user_id: before.get("user0000").user_id, first_name: "Augusta" });
    expect(users.has("user0999")).toBe(false);
    expect(users.get("user1000")).toMatchObject({ first_name: "Barbara", last_name: "Liskov" });
    expect(users.get("user1000").group_ids).toContain(GROUPS.Engineering);
    for (const row of ROWS.filter((r) => r.team === "Finance" && r.username !== "user0999")) {
      const user = users.get(row.username);
      expect(user.user_id, row.username).toBe(before.get(row.username).user_id);
      expect(user.group_ids, row.username).toContain(GROUPS.Sales);
      expect(user.group_ids, row.username).not.toContain(GROUPS.Finance);
    }
  });

  it("refresh reads a user changed in Kasm and drops a user deleted there and a removed membership; the next up puts them back", { timeout: SLOW }, async () => {
    const users = await kasmUsers();
    expect((await emulator.call("update_user", { target_user: { user_id: users.get("user0002").user_id, first_name: "Renamed" } })).status).toBe(200);
    expect((await emulator.call("delete_user", { target_user: { user_id: users.get("user0005").user_id } })).status).toBe(200);
    const removed = await emulator.call("remove_user_group", { target_user: { user_id: users.get("user0006").user_id }, target_group: { group_id: GROUPS.Sales } });
    expect(removed.status).toBe(200);

    const refresh = timed("refresh", await engine.refresh());
    expectOk(refresh);
    expect(refresh.summary).toEqual({ read: 1997, delete: 3 });
    expect(ops(refresh)).toMatchObject({ user0002: "read", user0005: "delete", "user0005-support": "delete", "user0006-sales": "delete", user0006: "read" });
    expect(resource(refresh, "user0002").changed).toEqual(["firstName"]);
    expect(refresh.resources.filter((r) => r.op === "read" && r.changed.length > 0).map((r) => r.urn.split("::").pop())).toEqual(["user0002"]);

    const up = timed("up after refresh", await engine.up());
    expectOk(up);
    expect(up.summary).toEqual({ same: 1997, update: 1, create: 3 });
    expect(ops(up)).toMatchObject({ user0002: "update", user0005: "create", "user0005-support": "create", "user0006-sales": "create" });
    const after = await kasmUsers();
    expect(after.get("user0002").first_name).toBe("Grace");
    expect(after.get("user0005").group_ids).toContain(GROUPS.Support);
    expect(after.get("user0006").group_ids).toContain(GROUPS.Sales);
  });

  it("the permissions pack fails for a key without Groups Modify: every membership, and the up stops before any change", { timeout: SLOW }, async () => {
    const before = await emulator.state();
    const key = {
      permissions: ["Users View", "Users Create", "Users Modify", "Users Delete", "Groups View"],
      systemGroupIds: systemGroupIds(seeded),
      globalAdminUserIds: [],
    };
    const checked = stack({ programDir: engine.options.programDir, config: { groupIds: JSON.stringify({ ...GROUPS, Finance: GROUPS.Sales }) }, policyPacks: [permissionsPack(key)] });
    // `up` with packs runs the preview first, and stops there on a mandatory violation.
    const up = timed("up refused by the permissions pack", await checked.up());
    expect(up.ok).toBe(false);
    expect(up.resources).toEqual([]);
    const refused = mandatory(up);
    expect(refused).toHaveLength(1000);
    expect(refused.every((v) => /^resource-needs-permissions user\d{4}-(engineering|support|sales|finance)$/.test(v))).toBe(true);
    expect(up.errors).toHaveLength(1000);
    expect(up.errors[0].message).toContain("Grant the key: 'Groups Modify'");
    expect(await emulator.state()).toEqual(before);
  });

  it("destroy deletes the 2,000 resources and leaves Kasm as it was seeded", { timeout: SLOW }, async () => {
    const destroy = timed("destroy", await engine.destroy());
    expectOk(destroy);
    expect(destroy.summary).toEqual({ delete: 2001 });
    expect(engine.readState()).toEqual([]);
    expect(await emulator.state()).toEqual(seeded);
    expect(userNamed(await emulator.state(), "user0000")).toBeUndefined();
  });
});
