/**
 * GroupMembership through Pulumi's real dynamic-provider host against the emulator: check,
 * create, diff with other id forms, the in-place change of `adopt`, replacement, refresh after an
 * out-of-band removal and after the user's deletion, a membership that exists already (recorded
 * without a write, with adopt or without, also after an add whose answers were all lost), delete
 * (also of what is already gone), and the permission a system group needs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const ENGINEERING = "1e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const OPS = "2f1b3c4d5e6f708192a3b4c5d6e7f809";
const ADMINISTRATORS = "fa0e1d2c3b4a59687766554433221100";
const LIMITED = { key: "groups-key", secret: "groups-secret-5d1e" };

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [{ name: "groups", key: LIMITED.key, secret: LIMITED.secret, permissions: ["Users View", "Groups View", "Groups Modify"] }],
    groups: [
      { group_id: ENGINEERING, name: "Engineering" },
      { group_id: OPS, name: "Ops" },
      { group_id: ADMINISTRATORS, name: "Administrators" },
    ],
    users: [{ username: "alice" }, { username: "bob", groups: ["Ops"] }, { username: "carol" }, { username: "dave" }, { username: "erin" }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The operations the emulator served since request number `before`. */
function sentSince(before: number): string[] {
  return emulator.requests.slice(before).map((line) => line.split(" ")[0]);
}

/** The ids of the user's groups in Kasm (sorted), or undefined when the user is gone. */
async function groupsInKasm(id: string): Promise<string[] | undefined> {
  const res = await emulator.specCall("get_user", { target_user: { user_id: id } });
  return res.status === 200 ? res.body.user.groups.map((g: { group_id: string }) => g.group_id).sort() : undefined;
}

describe("GroupMembership", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const membership = new Driven(host, "GroupMembership", "bad");
    const before = emulator.requests.length;
    const { failures } = await membership.check({ userId: "alice", groupId: 7, adopt: "yes", role: "admin" });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "adopt", "groupId", "userId"].sort());
    expect(failures.find((f) => f.property === "userId")?.reason).toMatch(/Kasm id/);
    const { failures: missing } = await membership.check({ userId: ENGINEERING });
    expect(missing.map((f) => f.property)).toEqual(["groupId"]);
    expect(emulator.requests.length).toBe(before);
  });

  it("creates, plans no change in other id forms, updates adopt in place, replaces on another group or user, and deletes", async () => {
    const alice = await emulator.userId("alice");
    const membership = new Driven(host, "GroupMembership", "alice-engineering");
    const inputs = { userId: alice, groupId: ENGINEERING };
    const state = await membership.create(inputs);
    expect(membership.id).toBe(`${alice}:${ENGINEERING}`);
    expect(state).toMatchObject(inputs);
    expect(await groupsInKasm(alice)).toContain(ENGINEERING);

    expect(await membership.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await membership.diff({ userId: hyphenated(alice), groupId: hyphenated(ENGINEERING) })).toMatchObject({ changes: "none" });
    expect((await membership.read()).inputs).toMatchObject(inputs);

    // `adopt` is the only input that changes in place; it sends nothing.
    expect(await membership.diff({ ...inputs, adopt: true })).toMatchObject({ changes: "some", replaces: [] });
    const before = emulator.requests.length;
    expect(await membership.update({ ...inputs, adopt: true })).toMatchObject({ ...inputs, adopt: true });
    expect(emulator.requests.length).toBe(before);

    expect(await membership.diff({ ...inputs, groupId: OPS })).toMatchObject({ changes: "some", replaces: ["groupId"] });
    expect(await membership.diff({ ...inputs, userId: await emulator.userId("carol") })).toMatchObject({ changes: "some", replaces: ["userId"] });

    await membership.delete();
    expect(await groupsInKasm(alice)).not.toContain(ENGINEERING);
    // Destroying what is already gone succeeds.
    await membership.delete();
  });

  it("refresh after an out-of-band removal drops it, and the next up adds it back", async () => {
    const carol = await emulator.userId("carol");
    const membership = new Driven(host, "GroupMembership", "carol-ops");
    const inputs = { userId: carol, groupId: OPS };
    await membership.create(inputs);
    await emulator.specCall("remove_user_group", { target_user: { user_id: carol }, target_group: { group_id: OPS } });
    expect((await membership.read()).id).toBe("");
    await membership.create(inputs);
    expect(await groupsInKasm(carol)).toContain(OPS);
    await membership.delete();
  });

  it("refresh after the user was deleted drops it, and destroying it then succeeds", async () => {
    const dave = await emulator.userId("dave");
    const membership = new Driven(host, "GroupMembership", "dave-ops");
    await membership.create({ userId: dave, groupId: OPS });
    await emulator.specCall("delete_user", { target_user: { user_id: dave } });
    expect((await membership.read()).id).toBe("");
    await membership.delete();
  });

  it("a second declaration of one membership, or one beside a UserGroups that made it, is recorded as the membership there, without a write", async () => {
    // Two declarations of one membership are the hardening pack's to refuse (conflicting-declarations), before anything is applied.
    const erin = await emulator.userId("erin");
    const first = new Driven(host, "GroupMembership", "erin-ops");
    await first.create({ userId: erin, groupId: OPS });
    const second = new Driven(host, "GroupMembership", "erin-ops-again");
    const before = emulator.requests.length;
    expect(await second.create({ userId: hyphenated(erin), groupId: OPS })).toMatchObject({ userId: hyphenated(erin), groupId: OPS });
    expect(second.id).toBe(`${erin}:${OPS}`);
    expect(sentSince(before)).toEqual(["get_user"]);
    await first.delete();

    const groups = new Driven(host, "UserGroups", "erin-groups");
    await groups.create({ userId: erin, groupIds: [ENGINEERING] });
    const beside = new Driven(host, "GroupMembership", "erin-engineering");
    const then = emulator.requests.length;
    await beside.create({ userId: erin, groupId: ENGINEERING });
    expect(beside.id).toBe(`${erin}:${ENGINEERING}`);
    expect(sentSince(then)).toEqual(["get_user"]);
    await groups.delete();
    expect(await groupsInKasm(erin)).not.toContain(ENGINEERING);
  });

  it("a membership that exists in Kasm is recorded as it is, without a write, with adopt or without", async () => {
    const bob = await emulator.userId("bob");
    for (const [name, adopt] of [
      ["bob-ops", undefined],
      ["bob-ops-adopted", true],
      ["bob-ops-not-adopted", false],
    ] as const) {
      const before = emulator.requests.length;
      const membership = new Driven(host, "GroupMembership", name);
      const state = await membership.create({ userId: hyphenated(bob), groupId: OPS, ...(adopt === undefined ? {} : { adopt }) });
      expect(membership.id).toBe(`${bob}:${OPS}`);
      expect(state).toMatchObject({ userId: hyphenated(bob), groupId: OPS, ...(adopt === undefined ? {} : { adopt }) });
      if (adopt === undefined) expect(state).not.toHaveProperty("adopt");
      expect(sentSince(before)).toEqual(["get_user"]);
      expect((await membership.read()).id).toBe(`${bob}:${OPS}`);
    }
    expect(await groupsInKasm(bob)).toContain(OPS);
  });

  it("an add that committed but whose every answer was lost fails; the next create records the membership without a write and without an error", async () => {
    const carol = await emulator.userId("carol");
    const membership = new Driven(host, "GroupMembership", "carol-engineering");
    const inputs = { userId: carol, groupId: ENGINEERING };
    // Every add_user_group commits, then its answer is a 503: the first attempt's and the retries'.
    await emulator.faults({ rate: 1, kinds: ["503"], operations: ["add_user_group"], phase: "after" });
    try {
      await expect(membership.create(inputs)).rejects.toThrow(/^add_user_group \(user \w+, group \w+\): the server failed \(HTTP 503/);
    } finally {
      await emulator.faults(null);
    }
    expect(membership.id).toBe("");
    expect(await groupsInKasm(carol)).toContain(ENGINEERING);

    const before = emulator.requests.length;
    expect(await membership.create(inputs)).toMatchObject(inputs);
    expect(membership.id).toBe(`${carol}:${ENGINEERING}`);
    expect(sentSince(before)).toEqual(["get_user"]);
    await membership.delete();
    expect(await groupsInKasm(carol)).not.toContain(ENGINEERING);
  });

  it("adding a user to Administrators without Groups Modify System is refused, naming that permission, and changes nothing", async () => {
    const alice = await emulator.userId("alice");
    const limited = await hostFor(emulator, LIMITED);
    try {
      const membership = new Driven(limited, "GroupMembership", "alice-admin");
      const error = await membership.create({ userId: alice, groupId: ADMINISTRATORS }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/Groups Modify System/);
      expect((error as Error).message).not.toContain(LIMITED.secret);
      expect(limited.stderr.join("")).not.toContain(LIMITED.secret);
      expect(await groupsInKasm(alice)).not.toContain(ADMINISTRATORS);

      // The same key may manage an ordinary group.
      const ordinary = new Driven(limited, "GroupMembership", "alice-engineering-limited");
      await ordinary.create({ userId: alice, groupId: ENGINEERING });
      expect(await groupsInKasm(alice)).toContain(ENGINEERING);
      await ordinary.delete();
    } finally {
      await limited.stop();
    }
  });
});
