/**
 * Every operation of the client, round trip against the emulator over HTTP: each test reads like
 * a lifecycle (create, read, update, delete) and checks the emulator's state where it matters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../permissions";
import { KasmNotFoundError, wsStatusOf, type KasmClient } from "../../provider/api";
import * as api from "../../provider/api";
import { ACTIVATION_KEY, startHarness, type Harness } from "./helpers";

let h: Harness;
let client: KasmClient;
/** Ids of seeded objects, by name. */
const ids = {
  groups: {} as Record<string, string>,
  images: {} as Record<string, string>,
  zones: {} as Record<string, string>,
  servers: {} as Record<string, string>,
};

beforeAll(async () => {
  h = await startHarness();
  client = h.client;
  const state = await h.state();
  for (const g of Object.values<any>(state.groups)) ids.groups[g.name] = g.group_id;
  for (const i of Object.values<any>(state.images)) ids.images[i.friendly_name] = i.image_id;
  for (const z of Object.values<any>(state.zones)) ids.zones[z.zone_name] = z.zone_id;
  for (const s of Object.values<any>(state.servers)) ids.servers[s.hostname] = s.server_id;
});
afterAll(() => h.close());

describe("the client", () => {
  it("has one function per operation of the catalogue, in the module of the operation's area", () => {
    const modules: Record<string, object> = {
      users: api.users,
      groups: api.groups,
      servers: api.servers,
      staging: api.staging,
      casting: api.casting,
      egress: api.egress,
      licenses: api.licenses,
      images: api.images,
      zones: api.zones,
      sessions: api.sessions,
      recordings: api.recordings,
      login: api.login,
    };
    const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
    for (const spec of Object.values(OPERATIONS)) {
      expect(typeof (modules[spec.area] as Record<string, unknown>)[camel(spec.name)], `${spec.area}.${camel(spec.name)}`).toBe("function");
      const bound = (client as unknown as Record<string, Record<string, unknown>>)[spec.area];
      expect(typeof bound[camel(spec.name)]).toBe("function");
    }
  });
});

describe("users", () => {
  it("creates, reads, lists, updates and deletes a user", async () => {
    const created = await client.users.createUser({ username: "  Carol ", first_name: "Carol", password: "pw-carol-123" });
    expect(created.username).toBe("carol");
    expect(created.user_id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.groups?.map((g) => g.name)).toContain("All Users");

    expect((await client.users.getUser({ user_id: created.user_id })).username).toBe("carol");
    expect((await client.users.getUser({ username: "carol" })).user_id).toBe(created.user_id);

    const page = await client.users.getUsers({ page: 0, page_size: 10, filters: [{ id: "username", value: "car" }] });
    expect(page.users.map((u) => u.username)).toEqual(["carol"]);
    expect(page.total).toBe(1);
    expect(page.page).toBe(0);

    const updated = await client.users.updateUser({ user_id: created.user_id, username: "carol", last_name: "Jones", locked: true });
    expect(updated).toMatchObject({ last_name: "Jones", locked: true });

    await client.users.deleteUser({ user_id: created.user_id });
    await expect(client.users.getUser({ user_id: created.user_id })).rejects.toBeInstanceOf(KasmNotFoundError);
    expect(await client.users.findUser({ username: "carol" })).toBeUndefined();
  });

  it("reads and updates a user's attributes", async () => {
    const user = await client.users.createUser({ username: "dave" });
    await client.users.updateUserAttributes({ user_id: user.user_id, show_tips: false, default_image: ids.images.Chrome, auto_login_ws: true });
    const attributes = await client.users.getAttributes({ user_id: user.user_id });
    expect(attributes).toMatchObject({ user_id: user.user_id, show_tips: false, default_image: ids.images.Chrome, auto_login_ws: true });
  });

  it("assigns a server to a user and unassigns it (204)", async () => {
    const user = await client.users.createUser({ username: "erin" });
    const server_id = ids.servers["ws1.example.org"];
    expect(await client.users.assignUserServer({ user_id: user.user_id, server_id })).toEqual({ user_id: user.user_id, server_id });
    expect((await client.users.getUser({ user_id: user.user_id })).assigned_servers?.map((s) => s.server_id)).toEqual([server_id]);
    await client.users.unassignUserServer({ user_id: user.user_id, server_id });
    expect((await client.users.getUser({ user_id: user.user_id })).assigned_servers).toEqual([]);
  });

  it("logs a user out and makes a login link", async () => {
    const bob = await client.users.getUser({ username: "bob" });
    await client.users.logoutUser({ user_id: bob.user_id });
    const link = await client.login.getLogin({ user_id: bob.user_id });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it("imports users from a CSV file (multipart, header credentials)", async () => {
    const csv = "username,first_name,last_name,group_1\nfrank,Frank,Fisher,Engineering\ngrace,Grace,Green,\n";
    const result = await client.users.batchCreateUser({ csv, view: "all" });
    expect(result.error_message ?? null).toBeNull();
    expect(result.resources?.users.map((u) => u.username).sort()).toEqual(["frank", "grace"]);
    expect(result.csv_validation_data?.total_rows).toBe(2);
    const frank = await client.users.getUser({ username: "frank" });
    expect(frank.groups?.map((g) => g.name).sort()).toEqual(["All Users", "Engineering"]);
  });
});

describe("groups", () => {
  it("adds a user to a group and removes them", async () => {
    const user = await client.users.createUser({ username: "heidi" });
    const group_id = ids.groups.Contractors;
    await client.groups.addUserGroup({ user_id: user.user_id, group_id });
    expect((await client.users.getUser({ user_id: user.user_id })).groups?.map((g) => g.name)).toContain("Contractors");
    await client.groups.removeUserGroup({ user_id: user.user_id, group_id });
    expect((await client.users.getUser({ user_id: user.user_id })).groups?.map((g) => g.name)).not.toContain("Contractors");
  });
});

describe("sessions and recordings", () => {
  it("requests a session, polls it, reads its statistics and screenshot, runs commands, deletes it", async () => {
    const user = await client.users.createUser({ username: "ivan" });
    const ws = await client.sessions.requestWs({ user_id: user.user_id, image_id: ids.images.Terminal });
    expect(ws.ws_id).toMatch(/^[0-9a-f]{32}$/);
    const target = { ws_id: ws.ws_id, user_id: user.user_id };

    expect(wsStatusOf(await client.sessions.getWsStatus(target))).toBe("running");
    const bottleneck = await client.sessions.getWsBottleneckStats(target);
    for (const values of Object.values(bottleneck.ws_user)) for (const v of values) expect(v).toBeGreaterThanOrEqual(0);
    const system = await client.sessions.getWsSystemStats(target);
    expect(system.memory.total).toBeGreaterThan(0);

    const jpeg = await client.sessions.getWsScreenshot({ ...target, width: 300 });
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    const exec = await client.sessions.execCommandWs({ ...target, exec_config: { cmd: "echo hi", environment: { A: "1" } } });
    expect(exec.current_time).toMatch(/^\d{4}-\d\d-\d\d /);
    await client.sessions.execWs({ ...target, ws_exec: "first_launch", ws_url: "https://example.org/" });

    await client.sessions.deleteWs(target);
    await expect(client.sessions.getWsStatus(target)).rejects.toBeInstanceOf(KasmNotFoundError);
  });

  it("pages a session's recordings by 5, and reads several sessions' recordings", async () => {
    // Recordings outlive their session (bob's was ended by logout_user above).
    const state = await h.state();
    const ws_id = Object.values<any>(state.recordings)[0].ws_id as string;
    const first = await client.recordings.getSessionRecordings({ target_ws_id: ws_id, preauth_download_link: true });
    expect(first).toMatchObject({ items: 6, page: 1, per_page: 5, total_duration: 645 });
    expect(first.session_recordings).toHaveLength(5);
    expect(first.session_recordings[0].session_recording_download_url).toBeTruthy();
    expect((await client.recordings.getSessionRecordings({ target_ws_id: ws_id, page: 2 })).session_recordings).toHaveLength(1);

    const many = await client.recordings.getSessionsRecordings({ target_ws_ids: [ws_id] });
    expect(many.ws_sessions[ws_id].session_recordings).toHaveLength(6);
  });
});

describe("images, zones, servers", () => {
  it("lists images and zones", async () => {
    expect((await client.images.getImages()).map((i) => i.friendly_name).sort()).toEqual(["Chrome", "Firefox", "Terminal"]);
    const zones = await client.zones.getZones({ brief: true });
    expect(zones.map((z) => z.zone_name).sort()).toEqual(["default", "eu-west"]);
  });

  it("reads a server, drains it, and imports servers from a CSV file", async () => {
    const server_id = ids.servers["ws2.example.org"];
    const server = await client.servers.getServers({ server_id });
    expect(server).toMatchObject({ server_id, hostname: "ws2.example.org", connection_type: "RDP" });
    await client.servers.setDrainServer({ server_id, is_draining: true });
    // The server record shows is_draining only in the emulator's observed mode (the spec does not list it).
    expect((await h.state()).servers[server_id].is_draining).toBe(true);

    const csv = "name,ip_hostname,port,zone_name,connection_type\nWorkstation 3,ws3.example.org,22,default,SSH\n";
    const result = await client.servers.batchCreateServer({ csv });
    expect(result.resources?.servers.map((s) => s.hostname)).toEqual(["ws3.example.org"]);
  });
});

describe("licenses", () => {
  it("activates seats from an activation key", async () => {
    const license = await client.licenses.activate({ activation_key: ACTIVATION_KEY, seats: 10, issued_to: "team-a" });
    expect(license).toMatchObject({ limit: 10, issued_to: "team-a" });
  });
});

describe("staging", () => {
  it("creates, lists, reads, updates and deletes a staging config", async () => {
    const created = await client.staging.createStagingConfig({
      zone_id: ids.zones.default,
      image_id: ids.images.Chrome,
      num_sessions: 2,
      expiration: 4,
      allow_ws_audio: true,
    });
    expect(created).toMatchObject({ zone_id: ids.zones.default, image_id: ids.images.Chrome, num_sessions: 2, expiration: 4 });
    expect((await client.staging.getStagingConfigs()).map((c) => c.staging_config_id)).toContain(created.staging_config_id);
    expect(await client.staging.getStagingConfig({ staging_config_id: created.staging_config_id })).toEqual(created);
    const updated = await client.staging.updateStagingConfig({ staging_config_id: created.staging_config_id, num_sessions: 5 });
    expect(updated.num_sessions).toBe(5);
    await client.staging.deleteStagingConfig({ staging_config_id: created.staging_config_id });
    await expect(client.staging.getStagingConfig({ staging_config_id: created.staging_config_id })).rejects.toBeInstanceOf(KasmNotFoundError);
  });
});

describe("casting", () => {
  it("creates, updates and deletes a casting config", async () => {
    const created = await client.casting.createCastConfig({
      casting_config_name: "kiosk",
      image_id: ids.images.Chrome,
      key: "kiosk-key",
      allowed_referrers: ["example.org"],
      allow_anonymous: true,
    });
    expect(created.confirmed).toBe(true);
    if (!created.confirmed) throw new Error("unreachable");
    expect(created.cast_config).toMatchObject({ casting_config_name: "kiosk", key: "kiosk-key", allowed_referrers: ["example.org"] });
    const updated = await client.casting.updateCastConfig({ cast_config_id: created.cast_config.cast_config_id, limit_sessions: true, session_remaining: 3 });
    expect(updated).toMatchObject({ limit_sessions: true, session_remaining: 3 });
    await client.casting.deleteCastConfig({ cast_config_id: created.cast_config.cast_config_id, casting_config_name: "kiosk" });
    expect(Object.keys((await h.state()).castConfigs)).toEqual([]);
  });
});

describe("egress", () => {
  it("manages providers, gateways, mappings and credentials", async () => {
    const provider = await client.egress.createEgressProvider({ name: "vpn-eu", egress_provider_type: "wireguard", enabled: true });
    expect(await client.egress.getEgressProviders({ name: "vpn-eu" })).toEqual([provider]);
    const renamed = await client.egress.updateEgressProvider({ egress_provider_id: provider.egress_provider_id, enabled: false });
    expect(renamed.enabled).toBe(false);

    const gateway = await client.egress.createEgressGateway({
      egress_provider_id: provider.egress_provider_id,
      name: "paris",
      enabled: true,
      country: "FR",
      city: "Paris",
      config: "[Interface]\nAddress = 10.0.0.2/32\n",
    });
    expect((await client.egress.getEgressGateways({ egress_provider_id: provider.egress_provider_id })).map((g) => g.name)).toEqual(["paris"]);
    expect((await client.egress.updateEgressGateway({ egress_gateway_id: gateway.egress_gateway_id, city: "Lyon" })).city).toBe("Lyon");

    const bob = await client.users.getUser({ username: "bob" });
    const mapping = await client.egress.createEgressProviderMapping({
      egress_provider_id: provider.egress_provider_id,
      user_id: bob.user_id,
      enabled: true,
      allow_all_gateways: true,
    });
    expect(mapping.user_id).toBe(bob.user_id);
    const listed = await client.egress.getEgressProviderMapping({ egress_provider_id: provider.egress_provider_id });
    expect(listed.map((m) => m.egress_gateways?.map((g) => g.name))).toEqual([["paris"]]);
    const changed = await client.egress.updateEgressProviderMapping({
      egress_provider_mapping_id: mapping.egress_provider_mapping_id,
      allow_all_gateways: false,
      selected_gateways: [gateway.egress_gateway_id],
    });
    expect(changed.allow_all_gateways).toBe(false);

    const credential = await client.egress.createEgressCredential({
      egress_provider_id: provider.egress_provider_id,
      name: "bob-wg",
      user_id: bob.user_id,
      enabled: true,
      allow_all_gateways: true,
      wireguard_private_key: "cFJpdmF0ZUtleUZvclRlc3RzT25seQ==",
    });
    expect(credential).toMatchObject({ name: "bob-wg", user_id: bob.user_id });
    expect((await client.egress.getEgressCredentials({ egress_provider_id: provider.egress_provider_id })).map((c) => c.name)).toEqual(["bob-wg"]);

    const terminal = await client.egress.getImageEgressGateways({ user_id: bob.user_id, image_id: ids.images.Terminal });
    expect(terminal.image_id).toBe(ids.images.Terminal);

    await client.egress.deleteEgressProviderMapping({ egress_provider_mapping_id: mapping.egress_provider_mapping_id });
    await client.egress.deleteEgressGateway({ egress_gateway_id: gateway.egress_gateway_id });
    expect(await client.egress.getEgressProviderMapping({ egress_provider_id: provider.egress_provider_id })).toEqual([]);
    expect(await client.egress.getEgressGateways({ egress_provider_id: provider.egress_provider_id })).toEqual([]);
  });

  it("deletes an egress provider", async () => {
    const provider = await client.egress.createEgressProvider({ name: "vpn-us", egress_provider_type: "openvpn", enabled: true });
    await client.egress.deleteEgressProvider({ egress_provider_id: provider.egress_provider_id });
    expect(await client.egress.getEgressProviders({ name: "vpn-us" })).toEqual([]);
  });
});

describe("health", () => {
  it("waits for the health check to answer {ok: true}", async () => {
    expect(await client.waitForHealthy({ deadlineMs: 2000 })).toMatchObject({ attempts: 1 });
  });
});
