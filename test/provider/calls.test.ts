/**
 * API calls at the minimum, through Pulumi's real dynamic-provider host against the emulator,
 * counted from the emulator's request log: `check` sends no request for any kind; an update of
 * provider flags only (`forceDelete`, `adopt`) sends none; reads of one user that overlap share one
 * request; a refresh of many users reads `get_users` pages, still sees a rename and a removed
 * membership, and reads again after a write of the same host; the connection pool stays within
 * `kasm:maxConnections`.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KindName } from "../../provider";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost, Props } from "../helpers/host";
import { Driven, hostFor, serializedProvider, urnOf, FAST_RETRIES } from "../helpers/provider";
import { API_NAMES_CONFIG } from "../helpers/vocabulary";
import { ProviderHost as Host } from "../helpers/host";
import { ADMIN } from "../helpers/emulator";

const ALL_USERS = "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a";
const ENGINEERING = "1e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const SERVER = "5e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const ZONE = "6e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const IMAGE = "7e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const USERS = Array.from({ length: 40 }, (_, i) => `member${String(i).padStart(2, "0")}`);

let emulator: TestEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator({
    groups: [
      { group_id: ALL_USERS, name: "All Users" },
      { group_id: ENGINEERING, name: "Engineering" },
    ],
    users: USERS.map((username) => ({ username, first_name: "Member", groups: ["Engineering"] })),
    images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0" }],
    zones: [{ zone_id: ZONE, zone_name: "default" }],
    servers: [{ server_id: SERVER, hostname: "build-box", friendly_name: "build-box", assigned_users: [USERS[0]] }],
  });
});
afterAll(async () => {
  await emulator?.close();
});

/** The operations the emulator served while `run` ran, in order. */
async function callsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const from = emulator.requests.length;
  await run();
  return emulator.requests
    .slice(from)
    .filter((line) => !line.includes(" fault "))
    .map((line) => line.split(" ")[0]);
}

/** A fresh host: what a host learned or holds is its own. */
async function withHost<T>(run: (host: ProviderHost) => Promise<T>): Promise<T> {
  const host = await hostFor(emulator);
  try {
    return await run(host);
  } finally {
    await host.stop();
  }
}

/** Read a resource through the host, as refresh does, with its state `props`. */
async function read(host: ProviderHost, kind: KindName, id: string, props: Props) {
  return host.read(urnOf(kind, id), id, { ...props, __provider: await serializedProvider(kind) });
}

describe("API calls at the minimum", () => {
  it("check sends no request, for every kind that hangs off a user, whatever its inputs", async () => {
    const bob = await emulator.userId(USERS[1]);
    const calls = await callsDuring(() =>
      withHost(async (host) => {
        await new Driven(host, "User", "u").check({ username: "someone", firstName: "Some" });
        await new Driven(host, "GroupMembership", "m").check({ userId: bob, groupId: ENGINEERING });
        await new Driven(host, "UserGroups", "g").check({ userId: bob, groupIds: [ENGINEERING, ALL_USERS] });
        await new Driven(host, "UserServerAssignment", "a").check({ userId: bob, serverId: SERVER });
        await new Driven(host, "UserAttributes", "t").check({ userId: bob, showTips: true });
        await new Driven(host, "StagingConfig", "s").check({ zoneId: ZONE, imageId: IMAGE, numSessions: 1, expiration: 1 });
      }),
    );
    expect(calls).toEqual([]);
  });

  it("an update of provider flags only (forceDelete, adopt) sends no request and keeps the computed outputs", async () => {
    await withHost(async (host) => {
      const user = new Driven(host, "User", "flags");
      const created = await user.create({ username: "flags", firstName: "Flag" });
      const membership = new Driven(host, "GroupMembership", "flags-eng");
      await membership.create({ userId: user.id, groupId: ENGINEERING });
      const assignment = new Driven(host, "UserServerAssignment", "flags-box");
      await assignment.create({ userId: user.id, serverId: SERVER });
      const staging = new Driven(host, "StagingConfig", "flags-staging");
      const stagingState = await staging.create({ zoneId: ZONE, imageId: IMAGE, numSessions: 1, expiration: 2 });

      const calls = await callsDuring(async () => {
        expect(await user.update({ username: "flags", firstName: "Flag", forceDelete: true, adopt: true })).toMatchObject({
          forceDelete: true,
          adopt: true,
          userId: created.userId,
          realm: created.realm,
          created: created.created,
        });
        expect(await membership.update({ userId: user.id, groupId: ENGINEERING, adopt: true })).toMatchObject({ adopt: true });
        expect(await assignment.update({ userId: user.id, serverId: SERVER, adopt: true })).toMatchObject({ adopt: true });
        expect(await staging.update({ zoneId: ZONE, imageId: IMAGE, numSessions: 1, expiration: 2, adopt: true })).toMatchObject({
          adopt: true,
          stagingConfigId: stagingState.stagingConfigId,
        });
      });
      expect(calls).toEqual([]);

      // A real change still goes to Kasm, once.
      expect(await callsDuring(() => user.update({ username: "flags", firstName: "Changed", forceDelete: true }))).toEqual(["update_user"]);
      await staging.delete();
      await assignment.delete();
      await membership.delete();
      await user.delete();
    });
  });

  it("reads of one user that overlap share one get_user", async () => {
    const id = await emulator.userId(USERS[2]);
    const calls = await callsDuring(() =>
      withHost(async (host) => {
        // Two reads at once, of the user and of its membership (in either id form), as a refresh runs them side by side.
        const [user, membership] = await Promise.all([
          read(host, "User", id, { username: USERS[2], userId: id }),
          read(host, "GroupMembership", `${id}:${ENGINEERING}`, { userId: id.toUpperCase(), groupId: ENGINEERING }),
        ]);
        expect(user.id).toBe(id);
        expect(membership.id).toBe(`${id}:${ENGINEERING}`);
      }),
    );
    expect(calls).toEqual(["get_user"]);
  });

  it("a refresh of many users and memberships reads get_users pages, sees changes made in Kasm, and reads again after its own write", async () => {
    const ids = await Promise.all(USERS.map((u) => emulator.userId(u)));
    // Made in Kasm before the refresh: a rename and a removed membership.
    expect((await emulator.specCall("update_user", { target_user: { user_id: ids[5], username: "renamed05" } })).status).toBe(200);
    expect((await emulator.specCall("remove_user_group", { target_user: { user_id: ids[6] }, target_group: { group_id: ENGINEERING } })).status).toBe(200);

    await withHost(async (host) => {
      const results: Record<string, Awaited<ReturnType<typeof read>>> = {};
      const calls = await callsDuring(async () => {
        for (const [i, id] of ids.entries()) {
          results[`user${i}`] = await read(host, "User", id, { username: USERS[i], firstName: "Member", userId: id });
          results[`member${i}`] = await read(host, "GroupMembership", `${id}:${ENGINEERING}`, { userId: id, groupId: ENGINEERING });
        }
        results.assignment = await read(host, "UserServerAssignment", `${ids[0]}:${SERVER}`, { userId: ids[0], serverId: SERVER });
        results.groups = await read(host, "UserGroups", ids[1], { userId: ids[1], groupIds: [ENGINEERING] });
      });
      // The first reads of a burst go to get_user; then one page of get_users serves the rest.
      expect(calls).toEqual(["get_user", "get_user", "get_users"]);
      expect(results.user5.properties.username).toBe("renamed05");
      expect(results.member6.id).toBe("");
      expect(results.member7.id).toBe(`${ids[7]}:${ENGINEERING}`);
      expect(results.assignment.id).toBe(`${ids[0]}:${SERVER}`);
      expect(results.groups.properties.groupIds).toEqual([ENGINEERING]);

      // A write of this host ends the snapshot: the next read asks Kasm again and sees the write.
      const user = new Driven(host, "User", "member08");
      user.id = ids[8];
      user.state = (results.user8 as { properties: Props }).properties;
      const after = await callsDuring(async () => {
        await user.update({ username: USERS[8], firstName: "Written" });
        const reread = await read(host, "User", ids[8], user.state);
        expect(reread.properties.firstName).toBe("Written");
      });
      expect(after).toEqual(["update_user", expect.stringMatching(/^get_users?$/)]);
    });
  });

  it("opens at most kasm:maxConnections connections, however many operations run at once", async () => {
    const proxy = await countingProxy(new URL(emulator.url));
    const host = await Host.start();
    try {
      await host.configure(
        {
          "kasm:baseUrl": proxy.url,
          "kasm:apiKey": ADMIN.key,
          "kasm:apiKeySecret": ADMIN.secret,
          "kasm:maxConnections": "3",
          ...FAST_RETRIES,
          ...API_NAMES_CONFIG,
        },
        ["kasm:apiKeySecret"],
      );
      const users = Array.from({ length: 24 }, (_, i) => new Driven(host, "User", `burst${i}`));
      await Promise.all(users.map((u, i) => u.create({ username: `burst${i}` })));
      await Promise.all(users.map((u) => u.delete()));
      console.log(`connections opened for 48 operations at once with kasm:maxConnections 3: ${proxy.opened()}, at most ${proxy.peak()} open together`);
      expect(proxy.peak()).toBeLessThanOrEqual(3);
      expect(proxy.peak()).toBeGreaterThan(0);
    } finally {
      await host.stop();
      await proxy.close();
    }
  });
});

/** A TCP proxy in front of `target` that counts the connections made through it. */
async function countingProxy(target: URL): Promise<{ url: string; opened(): number; peak(): number; close(): Promise<void> }> {
  let opened = 0;
  let open = 0;
  let peak = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    opened += 1;
    open += 1;
    peak = Math.max(peak, open);
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const done = () => {
      if (sockets.delete(client)) open -= 1;
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", done).on("error", done);
    upstream.on("close", done).on("error", done);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    opened: () => opened,
    peak: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
