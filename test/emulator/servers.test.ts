/**
 * Deployment zones and servers: get_zones in brief and full form, get_servers with every field of
 * the spec's server record, and set_drain_server flipping is_draining both ways (shown on the wire
 * only in observed mode: the spec's server record does not list it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenated } from "../helpers/emulator";

const DEFAULT_ZONE = "0a000000000000000000000000000001";
const CLOUD_ZONE = "0a000000000000000000000000000002";
const WS1 = "3d000000000000000000000000000001";
const WS2 = "3d000000000000000000000000000002";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    zones: [
      { zone_id: DEFAULT_ZONE, zone_name: "default" },
      {
        zone_id: CLOUD_ZONE,
        zone_name: "aws-eu",
        cloud_enabled: true,
        cloud_region: "eu-west-1",
        cloud_access_key_id: "AKIAEXAMPLE",
        cloud_secret_access_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      },
    ],
    images: [{ name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome", zone_name: "default" }],
    serverPools: [{ server_pool_name: "Workstations" }],
    users: [{ username: "bob" }],
    servers: [
      {
        server_id: WS1,
        hostname: "ws1.example.org",
        friendly_name: "Workstation 1",
        connection_type: "SSH",
        zone_name: "default",
        server_pool_name: "Workstations",
        labels: ["gpu", "lab"],
        assigned_users: ["bob"],
      },
      { server_id: WS2, hostname: "ws2.example.org", connection_type: "RDP", zone_name: "aws-eu" },
    ],
    sessions: [{ username: "bob", image_name: "kasmweb/chrome:1.16.0" }],
  });
});
afterAll(() => emulator.close());

/** The fields of a zone in brief form, as the spec lists them. */
const BRIEF_ZONE_FIELDS = [
  "zone_id",
  "zone_name",
  "auto_scaling_enabled",
  "cloud_enabled",
  "cloud_region",
  "cloud_access_key_id",
  "cloud_secret_access_key",
  "vm_agent_image_id",
];

/** Every field the spec lists for a server record. */
const SERVER_FIELDS = [
  "server_id",
  "created",
  "server_type",
  "agent_version",
  "container_limit",
  "cores",
  "memory",
  "ctr_images",
  "ctr_info",
  "hostname",
  "instance_id",
  "last_reported",
  "last_reported_elapsed",
  "operational_status",
  "provider",
  "memory_stats",
  "disk_stats",
  "network_interfaces",
  "cpu_percent",
  "cores_override",
  "memory_override",
  "gpus",
  "gpu_info",
  "gpu_percent",
  "gpu_memory_used_percent",
  "gpu_temp",
  "gpus_override",
  "manager_id",
  "manager",
  "core_calculations",
  "memory_calculations",
  "public_ip",
  "enabled",
  "prune_images_mode",
  "connection_type",
  "connection_info",
  "connection_username",
  "connection_password",
  "connection_port",
  "connection_private_key",
  "connection_passphrase",
  "connection_credential_type",
  "connection_sso_username_domain",
  "use_user_private_key",
  "max_simultaneous_sessions",
  "max_simultaneous_users",
  "zone_id",
  "zone_name",
  "zone",
  "server_pool_id",
  "server_pool_name",
  "friendly_name",
  "is_autoscaled",
  "agent_installed",
  "drain_time",
  "labels",
  "inherited_labels",
  "server_template_id",
  "autoscale_config",
  "registration_jwt",
  "registration_jwt_expiration",
  "assigned_users",
  "wss",
];

describe("zones", () => {
  it("answers get_zones with brief: true with exactly the brief fields, the secret key masked with asterisks", async () => {
    const res = await emulator.call("get_zones", { brief: true });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["zones"]);
    expect(res.body.zones).toHaveLength(2);
    for (const zone of res.body.zones) expect(Object.keys(zone).sort()).toEqual([...BRIEF_ZONE_FIELDS].sort());
    const cloud = res.body.zones.find((z: { zone_id: string }) => z.zone_id === CLOUD_ZONE);
    expect(cloud).toMatchObject({
      zone_name: "aws-eu",
      cloud_enabled: true,
      cloud_region: "eu-west-1",
      cloud_access_key_id: "AKIAEXAMPLE",
      auto_scaling_enabled: false,
    });
    expect(cloud.cloud_secret_access_key).toMatch(/^\*+$/);
    expect(JSON.stringify(res.body)).not.toContain("wJalrXUtnFEMI");
  });

  it("does not show asterisks for a zone without a secret key", async () => {
    const res = await emulator.call("get_zones", { brief: true });
    const plain = res.body.zones.find((z: { zone_id: string }) => z.zone_id === DEFAULT_ZONE);
    expect(plain).toMatchObject({ zone_name: "default", cloud_enabled: false });
    expect(plain.cloud_secret_access_key).not.toMatch(/\*/);
  });

  it("answers get_zones without brief with the same fields (the spec lists no others), the secret still masked", async () => {
    const res = await emulator.call("get_zones", {});
    expect(res.status).toBe(200);
    expect(res.body.zones).toHaveLength(2);
    for (const zone of res.body.zones) expect(Object.keys(zone).sort()).toEqual([...BRIEF_ZONE_FIELDS].sort());
    const cloud = res.body.zones.find((z: { zone_id: string }) => z.zone_id === CLOUD_ZONE);
    expect(cloud.cloud_secret_access_key).toMatch(/^\*+$/);
    expect(JSON.stringify(res.body)).not.toContain("wJalrXUtnFEMI");
  });

  it("treats brief: false as the full form", async () => {
    const full = await emulator.call("get_zones", {});
    const explicit = await emulator.call("get_zones", { brief: false });
    expect(explicit.body).toEqual(full.body);
  });
});

describe("servers", () => {
  it("answers get_servers with {server} carrying exactly the fields the spec lists", async () => {
    const res = await emulator.call("get_servers", { target_server: { server_id: WS1 } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["server"]);
    expect(Object.keys(res.body.server).sort()).toEqual([...SERVER_FIELDS].sort());
  });

  it("fills the server record from the seed: zone, pool, labels, assigned users and sessions", async () => {
    const state = await emulator.state();
    const bob = Object.values(state.users as Record<string, { username: string; user_id: string }>).find((u) => u.username === "bob")!;
    const pool = Object.values(state.serverPools as Record<string, { server_pool_id: string }>)[0];
    const session = Object.values(state.sessions as Record<string, { ws_id: string; start_date: string; keepalive_date: string }>)[0];
    const res = await emulator.call("get_servers", { target_server: { server_id: WS1 } });
    const server = res.body.server;
    expect(server).toMatchObject({
      server_id: WS1,
      hostname: "ws1.example.org",
      friendly_name: "Workstation 1",
      connection_type: "SSH",
      connection_port: 22,
      zone_id: DEFAULT_ZONE,
      zone_name: "default",
      zone: { zone_id: DEFAULT_ZONE, zone_name: "default" },
      server_pool_id: pool.server_pool_id,
      server_pool_name: "Workstations",
      labels: ["gpu", "lab"],
      inherited_labels: [],
      enabled: true,
      operational_status: "running",
      assigned_users: [{ user_id: bob.user_id, username: "bob" }],
      wss: [
        {
          ws_id: session.ws_id,
          start_date: session.start_date,
          keepalive_date: session.keepalive_date,
          user: { username: "bob", user_id: bob.user_id },
        },
      ],
    });
    expect(server.created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(server.core_calculations).toEqual({ percentage: expect.any(Number), used: expect.any(Number), max: expect.any(Number) });
    expect(server.memory_calculations).toEqual({ percentage: expect.any(Number), used: expect.any(Number), max: expect.any(Number) });
    expect(Number.isInteger(server.memory)).toBe(true);
  });

  it("finds a server by its hyphenated id", async () => {
    const res = await emulator.call("get_servers", { target_server: { server_id: hyphenated(WS2) } });
    expect(res.status).toBe(200);
    expect(res.body.server).toMatchObject({
      server_id: WS2,
      connection_type: "RDP",
      connection_port: 3389,
      zone_name: "aws-eu",
      server_pool_id: null,
      assigned_users: [],
      wss: [],
    });
  });

  it("answers get_servers of an unknown server with 400 naming the id", async () => {
    const res = await emulator.call("get_servers", { target_server: { server_id: UNKNOWN } });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain(UNKNOWN);
  });

  it("answers get_servers without a server id with 400", async () => {
    const res = await emulator.call("get_servers", { target_server: {} });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toEqual(expect.any(String));
  });

  it("drains a server with set_drain_server is_draining: true and answers {}", async () => {
    expect((await emulator.state()).servers[WS1].is_draining).toBe(false);
    const res = await emulator.call("set_drain_server", { target_server: { server_id: WS1, is_draining: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await emulator.state()).servers[WS1].is_draining).toBe(true);
    const read = await emulator.call("get_servers", { target_server: { server_id: WS1 } });
    expect(read.body.server).not.toHaveProperty("is_draining");
  });

  it("sets the supplied value, so draining a draining server keeps it draining", async () => {
    const res = await emulator.call("set_drain_server", { target_server: { server_id: WS1, is_draining: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await emulator.state()).servers[WS1].is_draining).toBe(true);
  });

  it("undrains it with is_draining: false and answers {}", async () => {
    const res = await emulator.call("set_drain_server", { target_server: { server_id: WS1, is_draining: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await emulator.state()).servers[WS1].is_draining).toBe(false);
    const read = await emulator.call("get_servers", { target_server: { server_id: WS1 } });
    expect(read.body.server).not.toHaveProperty("is_draining");
  });

  it("leaves the other server alone", async () => {
    expect((await emulator.state()).servers[WS2].is_draining).toBe(false);
  });

  it("refuses set_drain_server without is_draining, and of an unknown server", async () => {
    const missing = await emulator.call("set_drain_server", { target_server: { server_id: WS1 } });
    expect(missing.status).toBe(400);
    const unknown = await emulator.call("set_drain_server", { target_server: { server_id: UNKNOWN, is_draining: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_message).toContain(UNKNOWN);
    expect((await emulator.state()).servers[WS1].is_draining).toBe(false);
  });

  it("refuses a non-boolean is_draining with 400 naming the field", async () => {
    const res = await emulator.call("set_drain_server", { target_server: { server_id: WS1, is_draining: "maybe" } });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain("is_draining");
  });
});

describe("servers in observed mode", () => {
  let observed: TestEmulator;
  beforeAll(async () => {
    observed = await startTestEmulator(
      { zones: [{ zone_id: DEFAULT_ZONE, zone_name: "default" }], servers: [{ server_id: WS1, hostname: "ws1.example.org" }] },
      { observedFields: true },
    );
  });
  afterAll(() => observed.close());

  it("shows is_draining in get_servers, as set_drain_server moves it both ways", async () => {
    const read = async () => (await observed.call("get_servers", { target_server: { server_id: WS1 } })).body.server;
    expect(Object.keys(await read()).sort()).toEqual([...SERVER_FIELDS, "is_draining"].sort());
    expect((await read()).is_draining).toBe(false);
    expect((await observed.call("set_drain_server", { target_server: { server_id: WS1, is_draining: true } })).status).toBe(200);
    expect((await read()).is_draining).toBe(true);
    expect((await observed.call("set_drain_server", { target_server: { server_id: WS1, is_draining: false } })).status).toBe(200);
    expect((await read()).is_draining).toBe(false);
  });
});
