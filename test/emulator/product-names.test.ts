/**
 * Product mode (`apiNames: "product"`): every renamed field in both directions, the spec's names
 * silently ignored on the way in, the product's session operation paths (the spec's absent), the
 * product's answer shapes (get_servers, get_users, create_user), and the caller's own data never
 * renamed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, wire } from "../helpers/emulator";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const WS1 = "5e000000000000000000000000000001";
const ALICE = "a1000000000000000000000000000001";
const BOB = "a1000000000000000000000000000002";
const RECORDED = "c0000000000000000000000000000001";

/** An image whose exec actions and environment use names that the table renames elsewhere. */
const EXEC_CONFIG = { ws: { cmd: "echo", environment: { ws_id: "kept", wss: "kept" } }, go: { cmd: "open $KASM_URL" } };

/** Every permission of a staging config, in the product's names. */
const PRODUCT_PERMISSIONS = {
  allow_kasm_audio: true,
  allow_kasm_uploads: true,
  allow_kasm_downloads: true,
  allow_kasm_clipboard_down: true,
  allow_kasm_clipboard_up: true,
  allow_kasm_microphone: true,
  allow_kasm_gamepad: true,
  allow_kasm_webcam: true,
  allow_kasm_printing: true,
};
const ALL_OFF = Object.fromEntries(Object.keys(PRODUCT_PERMISSIONS).map((k) => [k, false]));
/** The same six, in the spec's names. */
const SPEC_PERMISSIONS = {
  allow_ws_audio: true,
  allow_ws_uploads: true,
  allow_ws_downloads: true,
  allow_ws_clipboard_down: true,
  allow_ws_clipboard_up: true,
  allow_ws_microphone: true,
};
const SPEC_ONLY = /(^|_)ws(_|s?$)|(^|_)ctr_/;

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator(
    {
      zones: [{ zone_id: ZONE, zone_name: "default" }],
      images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome", exec_config: EXEC_CONFIG }],
      servers: [{ server_id: WS1, hostname: "ws1.example.org", port: 22, zone_name: "default" }],
      users: [
        { user_id: ALICE, username: "alice" },
        { user_id: BOB, username: "bob", locked: true },
      ],
      sessions: [{ ws_id: RECORDED, username: "bob", image_name: "kasmweb/chrome:1.16.0", recordings: [10, 20] }],
    },
    { apiNames: "product" },
  );
});
afterAll(() => emulator.close());

/** Every key of an answer, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

describe("staging configs in product mode", () => {
  let id: string;
  afterAll(() => emulator.call("delete_staging_config", { target_staging_config: { staging_config_id: id } }));

  it("takes and answers allow_kasm_*, with the product's gamepad, webcam and printing; stores the emulator's names", async () => {
    const res = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 1, expiration: 0.5, ...PRODUCT_PERMISSIONS },
    });
    id = res.body.staging_config.staging_config_id;
    expect(wire(res)).toEqual({
      status: 200,
      body: {
        staging_config: {
          staging_config_id: id,
          zone_id: ZONE,
          zone_name: "default",
          image_id: CHROME,
          image_friendly_name: "Chrome",
          num_sessions: 1,
          num_current_sessions: 1,
          expiration: 0.5,
          ...PRODUCT_PERMISSIONS,
          // The product's record also names the config's server pool and autoscale config (1.15's StagingConfig).
          server_pool_id: null,
          server_pool_name: null,
          autoscale_config_id: null,
          autoscale_config_name: null,
        },
      },
    });
    expect((await emulator.state()).stagingConfigs[id]).toMatchObject({ ...SPEC_PERMISSIONS, allow_kasm_gamepad: true, expiration: 0.5 });
  });

  it("ignores the spec's names on update: 200, nothing changes (the product does not know them)", async () => {
    const off = Object.fromEntries(Object.keys(SPEC_PERMISSIONS).map((k) => [k, false]));
    const res = await emulator.call("update_staging_config", { target_staging_config: { staging_config_id: id, ...off } });
    expect(res.status).toBe(200);
    expect(res.body.staging_config).toMatchObject(PRODUCT_PERMISSIONS);
    expect(keysOf(res.body).filter((k) => SPEC_ONLY.test(k))).toEqual([]);
  });

  // 1.15's update_staging_config sets both to what it is sent, null when left out; every other
  // field it is not sent it leaves alone.
  it("an update sets the server pool and the autoscale config to what it is sent: null when left out", async () => {
    const pool = "5f000000000000000000000000000001";
    const autoscale = "6f000000000000000000000000000001";
    const set = await emulator.call("update_staging_config", {
      target_staging_config: { staging_config_id: id, server_pool_id: pool, autoscale_config_id: autoscale },
    });
    expect(set.body.staging_config).toMatchObject({ server_pool_id: pool, autoscale_config_id: autoscale, num_sessions: 1 });
    const other = await emulator.call("update_staging_config", { target_staging_config: { staging_config_id: id, num_sessions: 2 } });
    expect(other.body.staging_config).toMatchObject({ server_pool_id: null, autoscale_config_id: null, num_sessions: 2, expiration: 0.5 });
  });

  it("a create in the spec's names answers 200 with every permission at its default, false", async () => {
    await emulator.call("delete_staging_config", { target_staging_config: { staging_config_id: id } });
    const res = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 1, expiration: 2, ...SPEC_PERMISSIONS },
    });
    id = res.body.staging_config.staging_config_id;
    expect(res.status).toBe(200);
    expect(res.body.staging_config).toMatchObject(ALL_OFF);
    expect((await emulator.call("get_staging_config", { target_staging_config: { staging_config_id: id } })).body.staging_config).toMatchObject(ALL_OFF);
  });
});

describe("cast configs in product mode", () => {
  const PRODUCT_CAST = {
    allow_kasm_sharing: true,
    kasm_url: "https://kasm.example.org/",
    dynamic_kasm_url: true,
    dynamic_docker_network: true,
    kasm_audio_default_on: false,
    kasm_ime_mode_default_on: true,
  };
  let id: string;

  it("takes and answers every product name; none of the spec's", async () => {
    const res = await emulator.call("create_cast_config", { target_cast_config: { key: "kiosk", image_id: CHROME, ...PRODUCT_CAST, ...PRODUCT_PERMISSIONS } });
    expect(res.status).toBe(200);
    id = res.body.cast_config.cast_config_id;
    expect(res.body.cast_config).toMatchObject({ ...PRODUCT_CAST, ...PRODUCT_PERMISSIONS });
    expect(keysOf(res.body).filter((k) => SPEC_ONLY.test(k))).toEqual([]);
    expect((await emulator.state()).castConfigs[id]).toMatchObject({
      allow_ws_sharing: true,
      ws_url: "https://kasm.example.org/",
      dynamic_ws_url: true,
      dynamic_ctr_network: true,
      ws_audio_default_on: false,
      ws_ime_mode_default_on: true,
      ...SPEC_PERMISSIONS,
    });
  });

  it("ignores the spec's names: a create that sends them gets the product's defaults", async () => {
    const res = await emulator.call("create_cast_config", {
      target_cast_config: {
        key: "spec-names",
        ws_url: "https://ignored.example.org/",
        allow_ws_sharing: true,
        ws_audio_default_on: false,
        ...SPEC_PERMISSIONS,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.cast_config).toMatchObject({ kasm_url: null, allow_kasm_sharing: false, kasm_audio_default_on: true, ...ALL_OFF });
  });

  it("update_cast_config takes the product's names and ignores the spec's", async () => {
    const res = await emulator.call("update_cast_config", {
      target_cast_config: { cast_config_id: id, kasm_url: "https://new.example.org/", ws_url: "https://ignored.example.org/", allow_ws_audio: false },
    });
    expect(res.body.cast_config).toMatchObject({ kasm_url: "https://new.example.org/", allow_kasm_audio: true });
  });
});

describe("user attributes in product mode", () => {
  it("auto_login_kasm is written and read; auto_login_ws is ignored", async () => {
    const attributes = async () => (await emulator.call("get_attributes", { target_user: { user_id: ALICE } })).body.user_attributes;
    expect(await attributes()).toMatchObject({ auto_login_kasm: null });
    expect(await attributes()).not.toHaveProperty("auto_login_ws");
    const ignored = await emulator.call("update_user_attributes", { target_user_attributes: { user_id: ALICE, auto_login_ws: true } });
    expect(wire(ignored)).toEqual({ status: 200, body: {} });
    expect((await attributes()).auto_login_kasm).toBeNull();
    await emulator.call("update_user_attributes", { target_user_attributes: { user_id: ALICE, auto_login_kasm: true } });
    expect((await attributes()).auto_login_kasm).toBe(true);
  });
});

describe("sessions in product mode", () => {
  let kasmId: string;

  it("request_kasm answers kasm_id and kasm_url", async () => {
    const res = await emulator.call("request_ws", { user_id: ALICE, image_id: CHROME });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["kasm_id", "kasm_url", "session_token", "share_id", "status", "user_id", "username"]);
    kasmId = res.body.kasm_id;
  });

  it("get_kasm_status takes kasm_id and answers the session as `kasm`", async () => {
    const res = await emulator.call("get_ws_status", { kasm_id: kasmId, user_id: ALICE });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["current_time", "kasm", "kasm_url", "operational_status"]);
    expect(res.body.kasm).toMatchObject({ kasm_id: kasmId, operational_status: "running", user: { username: "alice", user_id: ALICE } });
  });

  it("get_kasm_status ignores ws_id, so the session is not found", async () => {
    const res = await emulator.call("get_ws_status", { ws_id: kasmId, user_id: ALICE });
    expect(res.status).toBe(400);
  });

  it("user and server records list sessions as kasms of kasm_id items", async () => {
    const user = (await emulator.call("get_user", { target_user: { user_id: ALICE } })).body.user;
    expect(user).not.toHaveProperty("wss");
    expect(user.kasms).toEqual([expect.objectContaining({ kasm_id: kasmId })]);
    const server = (await emulator.call("get_servers", { target_server: { server_id: WS1 } })).body.servers[0];
    expect(server.kasms).toEqual(expect.arrayContaining([expect.objectContaining({ kasm_id: kasmId })]));
    expect(Object.keys(server)).toEqual(expect.arrayContaining(["docker_images", "docker_info"]));
    expect(keysOf(server).filter((k) => SPEC_ONLY.test(k))).toEqual([]);
  });

  it("exec_command_kasm answers {kasm, current_time}", async () => {
    const res = await emulator.call("exec_command_ws", { kasm_id: kasmId, user_id: ALICE, exec_config: { cmd: "ls", environment: { ws_id: "x" } } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["current_time", "kasm"]);
    expect(res.body.kasm.kasm_id).toBe(kasmId);
  });

  it("exec_kasm takes target_kasm {kasm_id, kasm_exec, kasm_url}; kasm_url is optional", async () => {
    const full = await emulator.call("exec_ws", { user_id: ALICE, target_kasm: { kasm_id: kasmId, kasm_exec: "go", kasm_url: "https://example.org/" } });
    expect(full.status).toBe(200);
    expect(full.body.kasm.kasm_id).toBe(kasmId);
    expect((await emulator.call("exec_ws", { user_id: ALICE, target_kasm: { kasm_id: kasmId, kasm_exec: "go" } })).status).toBe(200);
    const flat = await emulator.call("exec_ws", { user_id: ALICE, kasm_id: kasmId, kasm_exec: "go" });
    expect(flat.status).toBe(400);
  });

  it("get_kasm_bottleneck_stats answers under kasm_user, keyed by connection as before", async () => {
    const res = await emulator.call("get_ws_bottleneck_stats", { kasm_id: kasmId, user_id: ALICE });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["kasm_user"]);
    expect(Object.values(res.body.kasm_user)).toEqual([expect.any(Array)]);
  });

  it("get_ws_system_stats keeps its name (no product counterpart) and takes kasm_id", async () => {
    const res = await emulator.call("get_ws_system_stats", { kasm_id: kasmId, user_id: ALICE });
    expect(res.status).toBe(200);
    expect(res.body.io_stats).toHaveProperty("/");
  });

  it("get_kasm_screenshot answers a JPEG", async () => {
    const res = await emulator.call("get_ws_screenshot", { kasm_id: kasmId, user_id: ALICE });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^image\/jpeg/);
  });

  it("destroy_kasm deletes it", async () => {
    expect(wire(await emulator.call("delete_ws", { kasm_id: kasmId, user_id: ALICE }))).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).sessions[kasmId]).toBeUndefined();
  });

  it("session recordings take target_kasm_id(s) and answer kasm_sessions", async () => {
    const one = await emulator.call("get_session_recordings", { target_kasm_id: RECORDED });
    expect(one.status).toBe(200);
    expect(one.body.session_recordings).toHaveLength(2);
    const many = await emulator.call("get_sessions_recordings", { target_kasm_ids: [RECORDED] });
    expect(Object.keys(many.body)).toEqual(["kasm_sessions"]);
    expect(many.body.kasm_sessions[RECORDED].session_recordings).toHaveLength(2);
    expect((await emulator.call("get_session_recordings", { target_ws_id: RECORDED })).status).toBe(400);
  });
});

describe("images in product mode", () => {
  it("answer docker_registry, docker_user and docker_token, and keep the image's own exec_config keys", async () => {
    const [image] = (await emulator.call("get_images")).body.images;
    expect(image).toMatchObject({ docker_registry: null, docker_user: null, docker_token: null, exec_config: EXEC_CONFIG });
    expect(Object.keys(image).filter((k) => k.startsWith("ctr_"))).toEqual([]);
  });
});

describe("the product's answer shapes", () => {
  it("get_servers answers {servers: [Server]}: the one asked for, every server without target_server, none for an unknown id", async () => {
    const one = await emulator.call("get_servers", { target_server: { server_id: WS1 } });
    expect(one.status).toBe(200);
    expect(Object.keys(one.body)).toEqual(["servers"]);
    expect(one.body.servers.map((s: { server_id: string }) => s.server_id)).toEqual([WS1]);
    expect((await emulator.call("get_servers", {})).body.servers).toHaveLength(1);
    expect(wire(await emulator.call("get_servers", { target_server: { server_id: "ffffffffffffffffffffffffffffffff" } }))).toEqual({
      status: 200,
      body: { servers: [] },
    });
  });

  it("get_users with no matching user answers {} (with page when one was sent)", async () => {
    const filters = [{ id: "username", value: "nobody" }];
    expect(wire(await emulator.call("get_users", { filters }))).toEqual({ status: 200, body: {} });
    expect(wire(await emulator.call("get_users", { filters, page: 0, page_size: 10 }))).toEqual({ status: 200, body: { page: 0 } });
  });

  it("get_users lists every user without page and page_size, and does not apply a false filter", async () => {
    const all = await emulator.call("get_users", { filters: [{ id: "locked", value: false }] });
    expect(all.body.users.map((u: { username: string }) => u.username).sort()).toEqual(["alice", "bob"]);
    expect(all.body.total).toBe(2);
    const locked = await emulator.call("get_users", { filters: [{ id: "locked", value: true }], page: 0, page_size: 1 });
    expect(locked.body).toMatchObject({ total: 1, page: 0, users: [expect.objectContaining({ username: "bob", kasms: expect.any(Array) })] });
  });

  it("create_user strips names, phone and organization and stores an empty one as null; update_user does not strip", async () => {
    const created = await emulator.call("create_user", {
      target_user: { username: "carol", first_name: "  Carol ", last_name: "", phone: " 555 ", organization: "  ", notes: " kept " },
    });
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({ first_name: "Carol", last_name: null, phone: "555", organization: "", notes: " kept " });
    const updated = await emulator.call("update_user", { target_user: { user_id: created.body.user.user_id, username: "carol", first_name: "  Carol " } });
    expect(updated.body.user.first_name).toBe("  Carol ");
  });
});
