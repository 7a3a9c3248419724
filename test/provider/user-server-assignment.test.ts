/**
 * UserServerAssignment through Pulumi's real dynamic-provider host against the emulator: check,
 * create, diff with other id forms, the in-place change of `adopt`, replacement, refresh after an
 * out-of-band unassignment and after the user's deletion, an assignment that exists already
 * (recorded without a write, with adopt or without, also after an assign whose answers were all
 * lost), delete (also of what is already gone), and a key that cannot read assignments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const WS1 = "5a1b2c3d4e5f60718293a4b5c6d7e8f9";
const WS2 = "6b2c3d4e5f60718293a4b5c6d7e8f90a";
const NO_SERVERS_VIEW = { key: "users-key", secret: "users-secret-3c7d" };

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [
      {
        name: "users",
        key: NO_SERVERS_VIEW.key,
        secret: NO_SERVERS_VIEW.secret,
        permissions: ["Users View", "Users Modify", "Server Pools View", "Zones View"],
      },
    ],
    zones: [{ zone_name: "default" }],
    servers: [
      { server_id: WS1, hostname: "ws1.example.org", friendly_name: "Workstation 1", zone_name: "default" },
      { server_id: WS2, hostname: "ws2.example.org", friendly_name: "Workstation 2", zone_name: "default", assigned_users: ["bob"] },
    ],
    users: [{ username: "alice" }, { username: "bob" }, { username: "carol" }, { username: "gone" }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The ids of the servers assigned to the user (sorted), or undefined when the user is gone. */
async function serversInKasm(id: string): Promise<string[] | undefined> {
  const res = await emulator.specCall("get_user", { target_user: { user_id: id } });
  return res.status === 200 ? res.body.user.assigned_servers.map((s: { server_id: string }) => s.server_id).sort() : undefined;
}

describe("UserServerAssignment", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const assignment = new Driven(host, "UserServerAssignment", "bad");
    const before = emulator.requests.length;
    const { failures } = await assignment.check({ userId: "alice", serverId: "ws1.example.org", adopt: 1, hostname: "ws1" });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "adopt", "serverId", "userId"].sort());
    expect(failures.find((f) => f.property === "serverId")?.reason).toMatch(/Kasm id/);
    const { failures: missing } = await assignment.check({ serverId: WS1 });
    expect(missing.map((f) => f.property)).toEqual(["userId"]);
    expect(emulator.requests.length).toBe(before);
  });

  it("creates, plans no change in other id forms, updates adopt in place, replaces on another server or user, and deletes", async () => {
    const alice = await emulator.userId("alice");
    const assignment = new Driven(host, "UserServerAssignment", "alice-ws1");
    const inputs = { userId: alice, serverId: WS1 };
    const state = await assignment.create(inputs);
    expect(assignment.id).toBe(`${alice}:${WS1}`);
    expect(state).toMatchObject(inputs);
    expect(await serversInKasm(alice)).toEqual([WS1]);

    expect(await assignment.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await assignment.diff({ userId: hyphenated(alice), serverId: hyphenated(WS1) })).toMatchObject({ changes: "none" });
    expect((await assignment.read()).inputs).toMatchObject(inputs);

    expect(await assignment.diff({ ...inputs, adopt: true })).toMatchObject({ changes: "some", replaces: [] });
    const before = emulator.requests.length;
    expect(await assignment.update({ ...inputs, adopt: true })).toMatchObject({ ...inputs, adopt: true });
    expect(emulator.requests.length).toBe(before);

    expect(await assignment.diff({ ...inputs, serverId: WS2 })).toMatchObject({ changes: "some", replaces: ["serverId"] });
    expect(await assignment.diff({ ...inputs, userId: await emulator.userId("carol") })).toMatchObject({ changes: "some", replaces: ["userId"] });

    await assignment.delete();
    expect(await serversInKasm(alice)).toEqual([]);
    await assignment.delete();
  });

  it("refresh after an out-of-band unassignment drops it, and the next up assigns it again", async () => {
    const carol = await emulator.userId("carol");
    const assignment = new Driven(host, "UserServerAssignment", "carol-ws1");
    const inputs = { userId: carol, serverId: WS1 };
    await assignment.create(inputs);
    await emulator.specCall("unassign_user_server", { target_user: { user_id: carol }, target_server: { server_id: WS1 } });
    expect((await assignment.read()).id).toBe("");
    await assignment.create(inputs);
    expect(await serversInKasm(carol)).toEqual([WS1]);
    await assignment.delete();
  });

  it("refresh after the user was deleted drops it, and destroying it then succeeds", async () => {
    const gone = await emulator.userId("gone");
    const assignment = new Driven(host, "UserServerAssignment", "gone-ws1");
    await assignment.create({ userId: gone, serverId: WS1 });
    await emulator.specCall("delete_user", { target_user: { user_id: gone } });
    expect((await assignment.read()).id).toBe("");
    await assignment.delete();
  });

  it("an assignment that exists in Kasm is recorded as it is, without a write, with adopt or without; destroying it unassigns the server", async () => {
    const bob = await emulator.userId("bob");
    const recorded: Driven[] = [];
    for (const [name, adopt] of [
      ["bob-ws2", undefined],
      ["bob-ws2-adopted", true],
    ] as const) {
      const before = emulator.requests.length;
      const assignment = new Driven(host, "UserServerAssignment", name);
      recorded.push(assignment);
      await assignment.create({ userId: bob, serverId: hyphenated(WS2), ...(adopt === undefined ? {} : { adopt }) });
      expect(assignment.id).toBe(`${bob}:${WS2}`);
      // The user's record shows the assignment: no assign_user_server is sent.
      expect(emulator.requests.slice(before).map((line) => line.split(" ")[0])).toEqual(["get_user"]);
    }
    expect(await serversInKasm(bob)).toEqual([WS2]);
    await recorded[0].delete();
    expect(await serversInKasm(bob)).toEqual([]);
  });

  it("an assignment that committed but whose every answer was lost fails; the next create records it without a write", async () => {
    const carol = await emulator.userId("carol");
    const assignment = new Driven(host, "UserServerAssignment", "carol-ws1");
    await emulator.faults({ rate: 1, kinds: ["reset"], operations: ["assign_user_server"], phase: "after" });
    try {
      await expect(assignment.create({ userId: carol, serverId: WS1 })).rejects.toThrow(/assign_user_server: could not reach the server/);
    } finally {
      await emulator.faults(null);
    }
    expect(await serversInKasm(carol)).toEqual([WS1]);
    const before = emulator.requests.length;
    await assignment.create({ userId: carol, serverId: WS1 });
    expect(assignment.id).toBe(`${carol}:${WS1}`);
    expect(emulator.requests.slice(before).map((line) => line.split(" ")[0])).toEqual(["get_user"]);
    await assignment.delete();
    expect(await serversInKasm(carol)).toEqual([]);
  });

  it("a key without Servers View is told to grant it rather than seeing no assignment", async () => {
    const alice = await emulator.userId("alice");
    const limited = await hostFor(emulator, NO_SERVERS_VIEW);
    try {
      const assignment = new Driven(limited, "UserServerAssignment", "alice-ws2");
      await expect(assignment.create({ userId: alice, serverId: WS2 })).rejects.toThrow(/needs Servers View.*Grant the API key: Servers View/s);
      expect(await serversInKasm(alice)).toEqual([]);
    } finally {
      await limited.stop();
    }
  });
});
