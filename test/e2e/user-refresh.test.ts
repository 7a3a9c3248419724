/**
 * A stack of 250 `User` resources and 250 `GroupMembership`s through the test engine (Pulumi's
 * runtime and dynamic-provider host) against the emulator: the calls each operation sends, from
 * the emulator's request log. A preview and an `up` with no change send none; a refresh reads
 * `get_users` pages (at most 25 calls, where a `get_user` per resource would be 500) and still
 * sees a user renamed and a membership removed in Kasm. Durations are printed, never asserted.
 * The same at 1,000 users and memberships is measured by bench/provider.ts and bench/bulk-users.ts
 * (kept out of the suite for its run time: about 100 seconds).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestEngine } from "../../testing/engine";
import type { TestEmulator } from "../helpers/emulator";
import { operationsDuring, programGroupId, programUsername, startUsersEmulator, usersEngine, writeUsersProgram } from "../helpers/users-program";
import { SLOW, expectAllSame, expectOk, resource, seconds, tempDir } from "./helpers";

const COUNT = 250;

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let engine: TestEngine;

/** Count the operations by name: `{ get_users: 2 }`. */
function tally(operations: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const op of operations) counts[op] = (counts[op] ?? 0) + 1;
  return counts;
}

beforeAll(async () => {
  tmp = tempDir("user-refresh");
  emulator = await startUsersEmulator();
  engine = usersEngine(writeUsersProgram(path.join(tmp.dir, "program"), COUNT), tmp.dir, emulator);
});

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe(`${COUNT} users and ${COUNT} memberships`, () => {
  it("up creates them with one write each, the users' lookups from one listing of usernames, after the one read of the installation", {
    timeout: SLOW,
  }, async () => {
    const { result, operations } = await operationsDuring(emulator, () => engine.up());
    expectOk(result);
    console.log(`users and memberships, up: ${seconds(result.durationMs)}, ${JSON.stringify(tally(operations))}`);
    expect(result.summary).toEqual({ create: 2 * COUNT + 1 });
    // The read a change makes of its installation before the plan (README, "A preview that can gate a pull request").
    const installationRead = emulator.apiNames === "product" ? "get_groups" : "get_ws_status";
    // Each create looks its key up first (README, "Calls per operation"): the usernames from one get_users page shared by
    // the users' checks, and each membership's user's groups.
    expect(tally(operations)).toEqual({ [installationRead]: 1, get_users: 1, get_user: COUNT, create_user: COUNT, add_user_group: COUNT });
  });

  it("a preview and an up with no change send no request", { timeout: SLOW }, async () => {
    const preview = await operationsDuring(emulator, () => engine.preview());
    expectOk(preview.result);
    expect(preview.operations).toEqual([]);
    const up = await operationsDuring(emulator, () => engine.up());
    expectAllSame(up.result);
    console.log(
      `users and memberships, preview: ${seconds(preview.result.durationMs)}, no-change up: ${seconds(up.result.durationMs)}, requests: ${up.operations.length}`,
    );
    expect(up.operations).toEqual([]);
  });

  it("refresh reads get_users pages, at most 25 calls, and sees a rename and a removed membership", { timeout: SLOW }, async () => {
    const renamed = await emulator.userId(programUsername(17));
    const unjoined = await emulator.userId(programUsername(200));
    expect((await emulator.call("update_user", { target_user: { user_id: renamed, username: "person00017-renamed" } })).status).toBe(200);
    const removal = { target_user: { user_id: unjoined }, target_group: { group_id: programGroupId(200) } };
    expect((await emulator.call("remove_user_group", removal)).status).toBe(200);

    const { result, operations } = await operationsDuring(emulator, () => engine.refresh());
    expectOk(result);
    console.log(`users and memberships, refresh: ${seconds(result.durationMs)}, ${operations.length} calls ${JSON.stringify(tally(operations))}`);
    expect(operations.length).toBeLessThanOrEqual(25);
    expect(operations.filter((op) => op !== "get_user" && op !== "get_users")).toEqual([]);
    expect(resource(result, programUsername(17)).outputs.username).toBe("person00017-renamed");
    expect(resource(result, `${programUsername(200)}-team`).op).toBe("delete");
    // Refresh drops the membership from the state (the CLI's words: deleted); the rest is read.
    expect(result.summary).toEqual({ read: 2 * COUNT - 1, delete: 1 });
  });
});
