/**
 * Lookups, configured from the stack configuration as in a Pulumi program, against the emulator.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kasm from "../../sdk";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";

let emulator: TestEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator({
    groups: [{ name: "Engineering" }],
    zones: [{ zone_name: "default" }, { zone_name: "eu" }],
    images: [
      { name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
      { name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
    ],
    servers: [{ server_id: "5e000000-0000-0000-0000-000000000001", hostname: "ws1.example.org", zone_name: "eu" }],
    users: Array.from({ length: 1205 }, (_, i) => ({ username: `user${String(i).padStart(4, "0")}`, groups: i % 2 ? ["Engineering"] : [] })),
  });
  pulumi.runtime.setConfig("kasm:baseUrl", emulator.url);
  pulumi.runtime.setConfig("kasm:apiKey", ADMIN.key);
  pulumi.runtime.setConfig("kasm:apiKeySecret", ADMIN.secret);
});
afterAll(() => emulator?.close());

describe("lookups", () => {
  it("getUser finds by username and by hyphenated id, with camelCase fields", async () => {
    const byName = await kasm.getUser({ username: "USER0001" });
    expect(byName).toMatchObject({ username: "user0001", realm: "local" });
    const hyphenated = byName.userId.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    expect((await kasm.getUser({ userId: hyphenated })).username).toBe("user0001");
    expect(byName.groups?.map((g) => g.name)).toEqual(["All Users", "Engineering"]);
  });

  it("getUsers reads every page and applies the filters", async () => {
    expect(await kasm.getUsers()).toHaveLength(1205);
    const filtered = await kasm.getUsers({ usernameContains: "user12" });
    expect(filtered.map((u) => u.username)).toEqual(["user1200", "user1201", "user1202", "user1203", "user1204"]);
  });

  it("getImage finds by name or friendly name, and says when there is none", async () => {
    expect((await kasm.getImage({ friendlyName: "Chrome" })).name).toBe("kasmweb/chrome:1.16.0");
    expect((await kasm.getImage({ name: "kasmweb/terminal:1.16.0" })).friendlyName).toBe("Terminal");
    await expect(kasm.getImage({ name: "nope" })).rejects.toThrow(/Kasm has no image "nope"/);
    expect(await kasm.getImages()).toHaveLength(2);
  });

  it("getZone and getServer", async () => {
    const eu = await kasm.getZone({ name: "eu" });
    expect(eu.zoneName).toBe("eu");
    expect(await kasm.getZones()).toHaveLength(2);
    const server = await kasm.getServer({ serverId: "5e000000000000000000000000000001" });
    expect(server).toMatchObject({ hostname: "ws1.example.org", zoneId: eu.zoneId });
  });

  it("Output twins take Inputs", async () => {
    const image = kasm.getImageOutput({ friendlyName: pulumi.output("Terminal") });
    const name = await new Promise((resolve) => image.apply((i) => resolve(i.name)));
    expect(name).toBe("kasmweb/terminal:1.16.0");
  });

  it("egress and staging lookups answer empty lists on a fresh Kasm", async () => {
    expect(await kasm.getEgressProviders({ name: "none" })).toEqual([]);
    expect(await kasm.getEgressGateways()).toEqual([]);
    expect(await kasm.getStagingConfigs()).toEqual([]);
  });
});
