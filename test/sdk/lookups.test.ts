/**
 * Lookups, configured from the stack configuration as in a Pulumi program, against the emulator.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kasm from "../../sdk";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { TEST_API_NAMES } from "../helpers/vocabulary";
import { PLAIN_SECRETS, PLAIN_SECRET_VALUES, startUnmaskedKasm, type UnmaskedKasm } from "./unmasked-kasm";

const SERVER_ID = "5e000000000000000000000000000001";
/** A WireGuard private key inside an egress gateway's config. */
const WIREGUARD_KEY = "wg-private-key-Qs38AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab=";

let emulator: TestEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator({
    groups: [{ name: "Engineering" }],
    // A VM agent image named as a cloud names it: the API documentation types the field as any string.
    zones: [{ zone_name: "default" }, { zone_name: "eu", vm_agent_image_id: "ami-0abc1234def567890" }],
    serverPools: [{ server_pool_name: "Lab" }],
    images: [
      { name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
      { name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
      // Workspaces that run no container image: Kasm stores them with a null name.
      { friendly_name: "Intranet", image_type: "Link", link_url: "https://intranet.example.org" },
      { friendly_name: "Lab desktops", image_type: "Server Pool", server_pool_name: "Lab" },
    ],
    servers: [{ server_id: "5e000000-0000-0000-0000-000000000001", hostname: "ws1.example.org", zone_name: "eu" }],
    users: Array.from({ length: 1205 }, (_, i) => ({ username: `user${String(i).padStart(4, "0")}`, groups: i % 2 ? ["Engineering"] : [] })),
  });
  pulumi.runtime.setConfig("kasm:baseUrl", emulator.url);
  pulumi.runtime.setConfig("kasm:apiKey", ADMIN.key);
  pulumi.runtime.setConfig("kasm:apiKeySecret", ADMIN.secret);
  pulumi.runtime.setConfig("kasm:apiNames", TEST_API_NAMES);
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

  it("getUser's groups carry each group's id: the way a program finds one, as the API cannot list groups (README, Group ids)", async () => {
    const engineering = Object.values<{ name: string; group_id: string }>((await emulator.state()).groups).find((g) => g.name === "Engineering")!;
    const { groups } = await kasm.getUser({ username: "user0001" });
    expect(groups?.find((g) => g.name === "Engineering")?.groupId).toBe(engineering.group_id);
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
    expect(await kasm.getImages()).toHaveLength(4);
  });

  it("getImages lists the workspaces without a container image (a link, a server pool) with name null; getImage finds them by friendly name", async () => {
    const images = await kasm.getImages();
    expect(
      images
        .filter((i) => i.name === null)
        .map((i) => i.friendlyName)
        .sort(),
    ).toEqual(["Intranet", "Lab desktops"]);
    const link = await kasm.getImage({ friendlyName: "Intranet" });
    expect(link).toMatchObject({ name: null, friendlyName: "Intranet" });
    expect(link.imageId).toMatch(/^[0-9a-f]{32}$/);
    const output = kasm.getImageOutput({ friendlyName: "Lab desktops" });
    expect(await new Promise((resolve) => output.apply((i) => resolve(i.name)))).toBeNull();
  });

  it("getZone and getServer", async () => {
    const eu = await kasm.getZone({ name: "eu" });
    expect(eu).toMatchObject({ zoneName: "eu", vmAgentImageId: "ami-0abc1234def567890" });
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

describe("getServer of an agent running staged sessions", () => {
  let agent: TestEmulator;

  beforeAll(async () => {
    agent = await startTestEmulator({
      zones: [{ zone_name: "default" }],
      images: [{ name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
      servers: [{ server_id: SERVER_ID, hostname: "agent1.example.org", zone_name: "default" }],
      users: [{ username: "ada" }],
      // Two staged sessions nobody holds yet, and one of ada's.
      sessions: [{ image_name: "kasmweb/chrome:1.16.0" }, { image_name: "kasmweb/chrome:1.16.0" }, { username: "ada", image_name: "kasmweb/chrome:1.16.0" }],
    });
    pulumi.runtime.setConfig("kasm-agent:baseUrl", agent.url);
    pulumi.runtime.setConfig("kasm-agent:apiKey", ADMIN.key);
    pulumi.runtime.setConfig("kasm-agent:apiKeySecret", ADMIN.secret);
    pulumi.runtime.setConfig("kasm-agent:apiNames", TEST_API_NAMES);
  });
  afterAll(() => agent?.close());

  // Kasm lists a session nobody holds yet with an empty user, `{ username: "", user_id: "" }` (the
  // 1.15 API server's get_servers): the lookup reads it, the user's id null.
  it("lists the sessions nobody holds yet, each with a null user id", async () => {
    const server = await kasm.getServer({ serverId: SERVER_ID }, { connection: "agent" });
    const ada = await kasm.getUser({ username: "ada" }, { connection: "agent" });
    expect(server.wss?.map((session) => session.user)).toEqual(
      expect.arrayContaining([
        { userId: null, username: "" },
        { userId: null, username: "" },
        { userId: ada.userId, username: "ada" },
      ]),
    );
    expect(server.wss).toHaveLength(3);
  });
});

/** The value of an Output and whether it is secret. */
async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => output.apply(resolve));
  return { value, secret: await pulumi.isSecret(output) };
}

describe("secret fields of lookups, from a Kasm that sends them in plain", () => {
  let unmasked: UnmaskedKasm;
  let userHash: string;

  beforeAll(async () => {
    unmasked = await startUnmaskedKasm(emulator.url, { serverId: SERVER_ID, imageName: "kasmweb/chrome:1.16.0", zoneName: "eu" });
    pulumi.runtime.setConfig("kasm:baseUrl", unmasked.url);
    userHash = (await emulator.specCall("get_user", { target_user: { username: "user0001" } })).body.user.hash;
    const provider = await emulator.specCall("create_egress_provider", {
      target_egress_provider: { name: "vpn", egress_provider_type: "wireguard", enabled: true },
    });
    await emulator.specCall("create_egress_gateway", {
      target_egress_gateway: {
        egress_provider_id: provider.body.egress_provider.egress_provider_id,
        name: "berlin",
        enabled: true,
        config: `[Interface]\nPrivateKey = ${WIREGUARD_KEY}\nAddress = 10.0.0.2/32\n`,
      },
    });
  });
  afterAll(async () => {
    pulumi.runtime.setConfig("kasm:baseUrl", emulator.url);
    await unmasked?.close();
  });

  it("the stand-in Kasm does send them, so that the tests below can fail", async () => {
    expect(userHash).toMatch(/^[0-9a-f]{16,}$/);
    const server = kasm.getServerOutput({ serverId: SERVER_ID }).apply((s) => s.connectionPassword);
    expect(await settle(server)).toEqual({ value: PLAIN_SECRETS.connection_password, secret: true });
  });

  it("the plain lookups leave them out, and keep the rest of the record", async () => {
    const results = {
      server: await kasm.getServer({ serverId: SERVER_ID }),
      images: await kasm.getImages(),
      image: await kasm.getImage({ friendlyName: "Chrome" }),
      zones: await kasm.getZones(),
      zone: await kasm.getZone({ name: "eu" }),
      user: await kasm.getUser({ username: "user0001" }),
      users: await kasm.getUsers({ usernameContains: "user000" }),
      gateways: await kasm.getEgressGateways(),
    };
    const text = JSON.stringify(results);
    for (const secret of [...PLAIN_SECRET_VALUES, WIREGUARD_KEY, userHash]) expect(text).not.toContain(secret);

    const { server, image, zone, user, gateways } = results;
    for (const field of ["connectionPassword", "connectionPrivateKey", "connectionPassphrase", "connectionInfo", "registrationJwt", "sessionToken"])
      expect(server).not.toHaveProperty(field);
    expect(server).toMatchObject({ serverId: SERVER_ID, hostname: "ws1.example.org", zoneName: "eu", connectionType: "SSH" });
    expect(image).not.toHaveProperty("ctrToken");
    expect(image).toMatchObject({ name: "kasmweb/chrome:1.16.0", friendlyName: "Chrome" });
    expect(zone).not.toHaveProperty("cloudSecretAccessKey");
    expect(zone.zoneName).toBe("eu");
    expect(user).not.toHaveProperty("hash");
    expect(results.users.map((u) => u.username)).toContain("user0001");
    expect(gateways).toHaveLength(1);
    expect(gateways[0]).not.toHaveProperty("config");
    expect(gateways[0]).toMatchObject({ name: "berlin", enabled: true });
  });

  it("the Output twins return each as a secret Output, and the rest of the record plain", async () => {
    const server = kasm.getServerOutput({ serverId: pulumi.output(SERVER_ID) });
    expect(await pulumi.isSecret(server)).toBe(false);
    expect(await settle(server.apply((s) => s.hostname))).toEqual({ value: "ws1.example.org", secret: false });
    expect(await settle(server.connectionPassword)).toEqual({ value: PLAIN_SECRETS.connection_password, secret: true });
    expect(await settle(server.connectionPrivateKey)).toEqual({ value: PLAIN_SECRETS.connection_private_key, secret: true });
    expect(await settle(server.connectionPassphrase)).toEqual({ value: PLAIN_SECRETS.connection_passphrase, secret: true });
    expect(await settle(server.registrationJwt)).toEqual({ value: PLAIN_SECRETS.registration_jwt, secret: true });
    const info = await settle(server.connectionInfo);
    expect(info.secret).toBe(true);
    expect(JSON.stringify(info.value)).toContain(PLAIN_SECRETS.connection_info_password);
    // A field the spec does not list, named like a secret, is left out of the Output twin too.
    expect(await settle(server.apply((s) => Object.keys(s)))).toEqual({ value: expect.not.arrayContaining(["sessionToken"]), secret: false });

    const images = kasm.getImagesOutput();
    const chrome = images.apply((list) => list.find((i) => i.name === "kasmweb/chrome:1.16.0")!);
    expect(await settle(chrome.imageId)).toMatchObject({ secret: false });
    expect(await settle(chrome.ctrToken)).toEqual({ value: PLAIN_SECRETS.ctr_token, secret: true });
    expect(await settle(kasm.getImageOutput({ friendlyName: "Chrome" }).ctrToken)).toEqual({ value: PLAIN_SECRETS.ctr_token, secret: true });

    const zone = kasm.getZoneOutput({ name: "eu" });
    expect(await settle(zone.zoneName)).toEqual({ value: "eu", secret: false });
    expect(await settle(zone.cloudSecretAccessKey)).toEqual({ value: PLAIN_SECRETS.cloud_secret_access_key, secret: true });

    const user = kasm.getUserOutput({ username: "user0001" });
    expect(await settle(user.username)).toEqual({ value: "user0001", secret: false });
    expect(await settle(user.hash)).toEqual({ value: userHash, secret: true });

    const gateway = kasm.getEgressGatewaysOutput({ name: "berlin" }).apply((list) => list[0]);
    expect(await settle(gateway.name)).toEqual({ value: "berlin", secret: false });
    const config = await settle(gateway.config);
    expect(config.secret).toBe(true);
    expect(config.value).toContain(WIREGUARD_KEY);
  });
});
