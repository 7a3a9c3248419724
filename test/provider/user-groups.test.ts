/**
 * UserGroups through Pulumi's real dynamic-provider host against the emulator: check (duplicates,
 * All Users, never a request), create (adds the missing, removes the extra, never All Users), diff with reordered
 * lists and other id forms, update, replacement, refresh after drift, a partial create that stays
 * in the state, an add whose answers were all lost (the next create adds only what is missing),
 * refresh after the user's deletion, and delete.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { TEST_API_NAMES } from "../helpers/vocabulary";
import { Driven, hostFor, serializedProvider } from "../helpers/provider";
import { HostError } from "../helpers/host";

// Ids pinned so that the order of the changes is known: additions go in id order.
const ALL_USERS = "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a";
const ENGINEERING = "1e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const OPS = "2f1b3c4d5e6f708192a3b4c5d6e7f809";
const DESIGN = "3a2c4d5e6f708192a3b4c5d6e7f8091a";
const ADMINISTRATORS = "fa0e1d2c3b4a59687766554433221100";
const LIMITED = { key: "groups-key", secret: "groups-secret-9b3a" };

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [{ name: "groups", key: LIMITED.key, secret: LIMITED.secret, permissions: ["Users View", "Groups View", "Groups Modify"] }],
    groups: [
      { group_id: ALL_USERS, name: "All Users" },
      { group_id: ADMINISTRATORS, name: "Administrators" },
      { group_id: ENGINEERING, name: "Engineering" },
      { group_id: OPS, name: "Ops" },
      { group_id: DESIGN, name: "Design" },
    ],
    users: [
      { username: "bob", groups: ["Ops", "Design"] },
      { username: "carol" },
      { username: "erin", groups: ["Design"] },
      { username: "gone", groups: ["Ops"] },
    ],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The ids of the user's groups in Kasm, All Users included (sorted), or undefined when the user is gone. */
async function groupsInKasm(id: string): Promise<string[] | undefined> {
  const res = await emulator.specCall("get_user", { target_user: { user_id: id } });
  return res.status === 200 ? res.body.user.groups.map((g: { group_id: string }) => g.group_id).sort() : undefined;
}

describe("UserGroups", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const groups = new Driven(host, "UserGroups", "bad");
    const before = emulator.requests.length;
    const { failures } = await groups.check({ userId: "bob", groupIds: [ENGINEERING, "ops"], extra: true });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "groupIds.1", "userId"].sort());

    const { failures: duplicates } = await groups.check({ userId: ENGINEERING, groupIds: [OPS, ENGINEERING, hyphenated(OPS)] });
    expect(duplicates).toEqual([{ property: "groupIds", reason: expect.stringMatching(new RegExp(`${OPS} twice`)) }]);

    const { failures: missing } = await groups.check({ userId: ENGINEERING });
    expect(missing.map((f) => f.property)).toEqual(["groupIds"]);
    expect(emulator.requests.length).toBe(before);
  });

  it("check refuses All Users without a request once the host has seen its id; until then create refuses it, changing nothing", async () => {
    const bob = await emulator.userId("bob");
    // A host of its own: what it knows about All Users is its own.
    const fresh = await hostFor(emulator);
    try {
      const groups = new Driven(fresh, "UserGroups", "all-users");
      // A fresh host has seen no user record: check cannot know which id is All Users, and asks nothing.
      const before = emulator.requests.length;
      expect((await groups.check({ userId: bob, groupIds: [ENGINEERING, ALL_USERS] })).failures).toEqual([]);
      expect(emulator.requests.slice(before)).toEqual([]);
      // Create refuses it, before changing anything.
      const groupsBefore = await groupsInKasm(bob);
      const inputs = await groups.withProvider({ userId: bob, groupIds: [ENGINEERING, ALL_USERS] });
      await expect(fresh.create(groups.urn, inputs)).rejects.toThrow(/All Users .* is implicit/);
      expect(await groupsInKasm(bob)).toEqual(groupsBefore);
      // The create read bob's record, which lists All Users: from now on check refuses it, in either id form, with no request.
      const after = emulator.requests.length;
      for (const allUsers of [ALL_USERS, hyphenated(ALL_USERS)]) {
        const { failures } = await groups.check({ userId: bob, groupIds: [ENGINEERING, allUsers] });
        expect(failures).toEqual([{ property: "groupIds", reason: expect.stringMatching(/All Users .* is implicit/) }]);
      }
      expect(emulator.requests.slice(after)).toEqual([]);
    } finally {
      await fresh.stop();
    }
  });

  it("creates the exact set, plans no change when reordered or in other id forms, updates in place, reverts drift, and deletes", async () => {
    const bob = await emulator.userId("bob");
    const groups = new Driven(host, "UserGroups", "bob");
    const inputs = { userId: bob, groupIds: [OPS, ENGINEERING] };
    const state = await groups.create(inputs);
    expect(groups.id).toBe(bob);
    expect(state).toMatchObject(inputs);
    // Engineering added, Design (not listed) removed, All Users kept.
    expect(await groupsInKasm(bob)).toEqual([ALL_USERS, ENGINEERING, OPS].sort());

    expect(await groups.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await groups.diff({ userId: hyphenated(bob), groupIds: [hyphenated(ENGINEERING), OPS] })).toMatchObject({ changes: "none" });
    expect((await groups.read()).inputs).toMatchObject({ userId: bob, groupIds: inputs.groupIds });

    const changed = { userId: bob, groupIds: [DESIGN] };
    expect(await groups.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    await groups.update(changed);
    expect(await groupsInKasm(bob)).toEqual([ALL_USERS, DESIGN].sort());

    // Someone adds Engineering and removes Design in the Kasm UI: refresh shows it; the next up reverts it.
    await emulator.specCall("add_user_group", { target_user: { user_id: bob }, target_group: { group_id: ENGINEERING } });
    await emulator.specCall("remove_user_group", { target_user: { user_id: bob }, target_group: { group_id: DESIGN } });
    const refreshed = await groups.read();
    expect(refreshed.id).toBe(bob);
    expect(refreshed.inputs).toMatchObject({ userId: bob });
    expect(refreshed.inputs?.groupIds).toEqual([ENGINEERING]);
    expect(await groups.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    await groups.update(changed);
    expect(await groupsInKasm(bob)).toEqual([ALL_USERS, DESIGN].sort());
    await groups.read();
    expect(await groups.diff(changed)).toMatchObject({ changes: "none" });

    // Another user replaces.
    expect(await groups.diff({ userId: await emulator.userId("carol"), groupIds: [DESIGN] })).toMatchObject({ changes: "some", replaces: ["userId"] });

    // Destroying removes the declared groups and never All Users; again, it succeeds.
    await groups.delete();
    expect(await groupsInKasm(bob)).toEqual([ALL_USERS]);
    await groups.delete();
  });

  it("an empty list removes every group but All Users", async () => {
    const erin = await emulator.userId("erin");
    const groups = new Driven(host, "UserGroups", "erin");
    await groups.create({ userId: erin, groupIds: [] });
    expect(await groupsInKasm(erin)).toEqual([ALL_USERS]);
    expect(await groups.diff({ userId: erin, groupIds: [] })).toMatchObject({ changes: "none" });
  });

  it("a create refused half way on a named connection keeps the connection and the provider in the state, so the delete goes there", async () => {
    const carol = await emulator.userId("carol");
    // The connection "limited" is this emulator through the limited key; the default connection has no settings at all.
    const limited = await hostFor(emulator, ADMIN, {
      "kasm:baseUrl": "",
      "kasm-limited:baseUrl": emulator.url,
      "kasm-limited:apiKey": LIMITED.key,
      "kasm-limited:apiKeySecret": LIMITED.secret,
      // The named connection has its own vocabulary setting: the emulator's, as for kasm:.
      "kasm-limited:apiNames": TEST_API_NAMES,
    });
    try {
      const groups = new Driven(limited, "UserGroups", "carol-limited");
      const error = await groups.create({ userId: carol, groupIds: [ADMINISTRATORS, ENGINEERING], connection: "limited" }).catch((e: unknown) => e);
      const failure = (error as HostError).initFailure;
      expect(failure?.properties).toMatchObject({ connection: "limited", groupIds: [ENGINEERING], __provider: await serializedProvider("UserGroups") });
      // Cleaned up through the same connection the state names (the default one has no settings).
      const kept = new Driven(limited, "UserGroups", "carol-limited");
      kept.id = failure!.id;
      kept.state = failure!.properties;
      await kept.delete();
      expect(await groupsInKasm(carol)).toEqual([ALL_USERS]);
    } finally {
      await limited.stop();
    }
  });

  it("a create refused half way stays in the state with the groups as they are in Kasm, naming the permission", async () => {
    const carol = await emulator.userId("carol");
    const limited = await hostFor(emulator, LIMITED);
    try {
      const groups = new Driven(limited, "UserGroups", "carol");
      // Engineering is added first (id order); Administrators needs Groups Modify System.
      const error = await groups.create({ userId: carol, groupIds: [ADMINISTRATORS, ENGINEERING] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HostError);
      const failure = (error as HostError).initFailure;
      expect(failure).toBeDefined();
      expect(failure!.id).toBe(carol);
      expect(failure!.properties).toMatchObject({ userId: carol, groupIds: [ENGINEERING] });
      expect(failure!.reasons.join(" ")).toMatch(/Groups Modify System/);
      expect((error as Error).message).not.toContain(LIMITED.secret);
      expect(await groupsInKasm(carol)).toEqual([ALL_USERS, ENGINEERING].sort());

      // The engine keeps it with those properties, the serialized provider among them (the host adds
      // it to a success's outputs only); with the admin key the next up finishes the work.
      expect(failure!.properties.__provider).toBe(await serializedProvider("UserGroups"));
      const resumed = new Driven(host, "UserGroups", "carol");
      resumed.id = failure!.id;
      resumed.state = failure!.properties;
      const declared = { userId: carol, groupIds: [ADMINISTRATORS, ENGINEERING] };
      expect(await resumed.diff(declared)).toMatchObject({ changes: "some", replaces: [] });
      await resumed.update(declared);
      expect(await groupsInKasm(carol)).toEqual([ALL_USERS, ADMINISTRATORS, ENGINEERING].sort());
      await resumed.delete();
      expect(await groupsInKasm(carol)).toEqual([ALL_USERS]);
    } finally {
      await limited.stop();
    }
  });

  it("an add that committed but whose every answer was lost fails the create; the next create adds only the group still missing", async () => {
    const carol = await emulator.userId("carol");
    const groups = new Driven(host, "UserGroups", "carol-lost-answer");
    const inputs = { userId: carol, groupIds: [OPS, ENGINEERING] };
    // The first add (Engineering: additions go in id order) commits, then each of its answers is a 503.
    await emulator.faults({ rate: 1, kinds: ["503"], operations: ["add_user_group"], phase: "after" });
    try {
      await expect(groups.create(inputs)).rejects.toThrow(/^add_user_group \(user \w+, group \w+\): the server failed \(HTTP 503/);
    } finally {
      await emulator.faults(null);
    }
    expect(groups.id).toBe("");
    expect(await groupsInKasm(carol)).toEqual([ALL_USERS, ENGINEERING].sort());

    const before = emulator.requests.length;
    await groups.create(inputs);
    expect(groups.id).toBe(carol);
    // Engineering is there, as declared: only Ops is added.
    expect(emulator.requests.slice(before).map((line) => line.split(" ")[0])).toEqual(["get_user", "add_user_group"]);
    expect(await groupsInKasm(carol)).toEqual([ALL_USERS, ENGINEERING, OPS].sort());
    await groups.delete();
    expect(await groupsInKasm(carol)).toEqual([ALL_USERS]);
  });

  it("refresh after the user was deleted drops it, and destroying it then succeeds", async () => {
    const gone = await emulator.userId("gone");
    const groups = new Driven(host, "UserGroups", "gone");
    await groups.create({ userId: gone, groupIds: [OPS] });
    await emulator.specCall("delete_user", { target_user: { user_id: gone } });
    expect((await groups.read()).id).toBe("");
    await groups.delete();
  });
});
