/**
 * Workspace sessions: request, status, delete, statistics, screenshots and commands; the
 * Community Edition's limit of 5 concurrent sessions; images; session recordings.
 */
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenated, wire } from "../helpers/emulator";
import { ADMIN } from "../helpers/emulator";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const WS1 = "5e000000000000000000000000000001";
const ALICE = "a1000000000000000000000000000001";
const BOB = "a1000000000000000000000000000002";
const RECORDED = "c0000000000000000000000000000001";
const RECORDED_2 = "c0000000000000000000000000000002";
const UNRECORDED = "c0000000000000000000000000000003";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
const HEX_ID = /^[0-9a-f]{32}$/;
const DURATIONS = [10, 20, 30, 40, 50, 60, 70];

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    zones: [{ zone_id: ZONE, zone_name: "default" }],
    images: [
      {
        image_id: CHROME,
        name: "kasmweb/chrome:1.16.0",
        friendly_name: "Chrome",
        description: "A browser",
        zone_name: "default",
        memory: 2768000000,
        cores: 2,
        exec_config: { go: { cmd: "bash -c 'google-chrome $KASM_URL'", environment: { KASM_URL: "https://example.org" } } },
      },
      { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
    ],
    servers: [{ server_id: WS1, hostname: "ws1.example.org", port: 22, zone_name: "default" }],
    users: [
      { user_id: ALICE, username: "alice" },
      { user_id: BOB, username: "bob" },
    ],
    sessions: [
      { ws_id: RECORDED, username: "bob", image_name: "kasmweb/terminal:1.16.0", recordings: DURATIONS },
      { ws_id: RECORDED_2, username: "bob", image_name: "kasmweb/terminal:1.16.0", recordings: [15, 25] },
      { ws_id: UNRECORDED, username: "bob", image_name: "kasmweb/terminal:1.16.0" },
    ],
  });
});
afterAll(() => emulator.close());

describe("a session's lifecycle", () => {
  let wsId: string;

  it("request_ws answers the new session: ws_id, status running, share_id, user, session_token, ws_url", async () => {
    const res = await emulator.call("request_ws", { user_id: ALICE, image_id: CHROME });
    expect(res.status).toBe(200);
    wsId = res.body.ws_id;
    expect(res.body).toEqual({
      ws_id: expect.stringMatching(HEX_ID),
      status: "running",
      share_id: expect.any(String),
      username: "alice",
      user_id: ALICE,
      session_token: expect.any(String),
      ws_url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/#/connect/ws/${wsId}$`)),
    });
  });

  it("get_ws_status answers operational_status and ws.operational_status running, with the session record's seen fields", async () => {
    const res = await emulator.call("get_ws_status", { ws_id: wsId, user_id: ALICE });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      operational_status: "running",
      ws: {
        ws_id: wsId,
        start_date: expect.stringMatching(TIMESTAMP),
        keepalive_date: expect.stringMatching(TIMESTAMP),
        expiration_date: expect.stringMatching(TIMESTAMP),
        operational_status: "running",
        server: { server_id: WS1, hostname: "ws1.example.org", port: 22 },
        user: { username: "alice", user_id: ALICE },
      },
      current_time: expect.stringMatching(TIMESTAMP),
      ws_url: expect.stringContaining(`/#/connect/ws/${wsId}`),
    });
  });

  it("accepts hyphenated session and user ids", async () => {
    const res = await emulator.call("get_ws_status", { ws_id: hyphenated(wsId), user_id: hyphenated(ALICE) });
    expect(res.status).toBe(200);
    expect(res.body.ws.ws_id).toBe(wsId);
  });

  it("shows the session in the user's wss and the server's wss", async () => {
    const user = await emulator.call("get_user", { target_user: { user_id: ALICE } });
    expect(user.body.user.wss).toEqual([
      { ws_id: wsId, start_date: expect.stringMatching(TIMESTAMP), keepalive_date: expect.stringMatching(TIMESTAMP), operational_status: "running" },
    ]);
    const server = await emulator.call("get_servers", { target_server: { server_id: WS1 } });
    expect(server.body.server.wss).toContainEqual({
      ws_id: wsId,
      start_date: expect.stringMatching(TIMESTAMP),
      keepalive_date: expect.stringMatching(TIMESTAMP),
      user: { username: "alice", user_id: ALICE },
    });
  });

  it("get_ws_bottleneck_stats answers {ws_user: {<connection>: [cpu, cpu avg, net, net avg]}} from 0 to 10", async () => {
    const res = await emulator.call("get_ws_bottleneck_stats", { ws_id: wsId, user_id: ALICE });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["ws_user"]);
    const connections = Object.values(res.body.ws_user) as number[][];
    expect(connections).toHaveLength(1);
    expect(connections[0]).toHaveLength(4);
    for (const value of connections[0]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(10);
    }
  });

  it("get_ws_system_stats answers cpu, memory in bytes and io_stats per mount", async () => {
    const res = await emulator.call("get_ws_system_stats", { ws_id: wsId, user_id: ALICE });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      cpu: { usage_percent: expect.any(Number) },
      memory: { total: expect.any(Number), free: expect.any(Number), cached: expect.any(Number), used: expect.any(Number) },
      io_stats: {
        "/": {
          bytes_read: expect.any(Number),
          bytes_read_per_sec: expect.any(Number),
          bytes_written: expect.any(Number),
          bytes_written_per_sec: expect.any(Number),
          iowait: expect.any(Number),
        },
      },
    });
  });

  it("get_ws_screenshot answers a JPEG image", async () => {
    const res = await request(`${emulator.url}/api/public/get_ws_screenshot`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: ADMIN.key, api_key_secret: ADMIN.secret, ws_id: wsId, user_id: ALICE, width: 300 }),
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["content-type"])).toMatch(/^image\/jpeg/);
    const bytes = Buffer.from(await res.body.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(4);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it("get_ws_screenshot without a width uses the default and still answers a JPEG", async () => {
    const res = await request(`${emulator.url}/api/public/get_ws_screenshot`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: ADMIN.key, api_key_secret: ADMIN.secret, ws_id: wsId, user_id: ALICE }),
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["content-type"])).toMatch(/^image\/jpeg/);
    const bytes = Buffer.from(await res.body.arrayBuffer());
    expect([...bytes.subarray(0, 2), ...bytes.subarray(-2)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
  });

  it("exec_command_ws answers {ws, current_time}", async () => {
    const res = await emulator.call("exec_command_ws", {
      ws_id: wsId,
      user_id: ALICE,
      exec_config: { cmd: "echo hello", environment: { GREETING: "hi" }, workdir: "/home/kasm-user", privileged: false, user: "root" },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["current_time", "ws"]);
    expect(res.body.ws).toMatchObject({ ws_id: wsId, operational_status: "running", user: { username: "alice", user_id: ALICE } });
    expect(res.body.current_time).toMatch(TIMESTAMP);
  });

  it("exec_command_ws without exec_config.cmd answers 400", async () => {
    const res = await emulator.call("exec_command_ws", { ws_id: wsId, user_id: ALICE, exec_config: { workdir: "/" } });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toMatch(/^Invalid Request: exec_config\.cmd/);
  });

  it("exec_ws runs an exec action of the image's exec_config and answers {ws, current_time}", async () => {
    const res = await emulator.call("exec_ws", { ws_id: wsId, user_id: ALICE, ws_exec: "go", ws_url: "https://example.org/page" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ws: expect.objectContaining({ ws_id: wsId }), current_time: expect.stringMatching(TIMESTAMP) });
  });

  it("exec_ws answers 400 for an exec action the image does not define", async () => {
    const res = await emulator.call("exec_ws", { ws_id: wsId, user_id: ALICE, ws_exec: "nope", ws_url: "https://example.org" });
    expect(wire(res)).toEqual({ status: 400, body: { error_message: "Invalid Request: the image has no exec action (nope)" } });
  });

  it("exec_ws answers 400 for a ws_url that is not a valid URL, even when the action ignores it", async () => {
    const res = await emulator.call("exec_ws", { ws_id: wsId, user_id: ALICE, ws_exec: "go", ws_url: "not a url" });
    expect(wire(res)).toEqual({ status: 400, body: { error_message: "Invalid Request: ws_url must be a valid URL" } });
  });

  it("treats another user's session as unknown in every session operation", async () => {
    const expected = { status: 400, body: { error_message: `Unknown session (${wsId})` } };
    for (const op of ["get_ws_status", "delete_ws", "get_ws_bottleneck_stats", "get_ws_system_stats", "get_ws_screenshot"] as const) {
      expect(wire(await emulator.call(op, { ws_id: wsId, user_id: BOB }))).toEqual(expected);
    }
    expect(wire(await emulator.call("exec_command_ws", { ws_id: wsId, user_id: BOB, exec_config: { cmd: "id" } }))).toEqual(expected);
    expect(wire(await emulator.call("exec_ws", { ws_id: wsId, user_id: BOB, ws_exec: "go", ws_url: "https://example.org" }))).toEqual(expected);
    expect((await emulator.state()).sessions[wsId]).toBeDefined();
  });

  it("delete_ws answers {} and the session is then unknown", async () => {
    expect(wire(await emulator.call("delete_ws", { ws_id: wsId, user_id: ALICE }))).toEqual({ status: 200, body: {} });
    expect(wire(await emulator.call("get_ws_status", { ws_id: wsId, user_id: ALICE }))).toEqual({
      status: 400,
      body: { error_message: `Unknown session (${wsId})` },
    });
    expect(wire(await emulator.call("delete_ws", { ws_id: wsId, user_id: ALICE }))).toEqual({
      status: 400,
      body: { error_message: `Unknown session (${wsId})` },
    });
  });

  it("request_ws answers 400 for missing parameters, an unknown user and an unknown image", async () => {
    expect(wire(await emulator.call("request_ws", { user_id: ALICE }))).toEqual({
      status: 400,
      body: { error_message: "Invalid Request: Missing required parameters" },
    });
    expect(wire(await emulator.call("request_ws", { user_id: UNKNOWN, image_id: CHROME }))).toEqual({
      status: 400,
      body: { error_message: `Unknown user (${UNKNOWN})` },
    });
    expect(wire(await emulator.call("request_ws", { user_id: ALICE, image_id: UNKNOWN }))).toEqual({
      status: 400,
      body: { error_message: `Invalid Image ID (${UNKNOWN})` },
    });
  });
});

describe("Community Edition capacity", () => {
  let community: TestEmulator;
  beforeAll(async () => {
    community = await startTestEmulator({
      images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0" }],
      users: [{ user_id: ALICE, username: "alice" }],
    });
  });
  afterAll(() => community.close());

  it("allows 5 concurrent sessions without a license and answers the 6th with 403", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await community.call("request_ws", { user_id: ALICE, image_id: CHROME });
      expect(res.status).toBe(200);
      ids.push(res.body.ws_id);
    }
    const before = await community.state();
    expect(wire(await community.call("request_ws", { user_id: ALICE, image_id: CHROME }))).toEqual({
      status: 403,
      body: { error_message: "License limit exceeded. Unable to create session" },
    });
    expect(await community.state()).toEqual(before);
    // Ending one session frees a place.
    expect((await community.call("delete_ws", { ws_id: ids[0], user_id: ALICE })).status).toBe(200);
    expect((await community.call("request_ws", { user_id: ALICE, image_id: CHROME })).status).toBe(200);
    expect((await community.call("request_ws", { user_id: ALICE, image_id: CHROME })).status).toBe(403);
  });
});

describe("images", () => {
  it("get_images answers {images} with every field of the spec's image record", async () => {
    const res = await emulator.call("get_images");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["images"]);
    const chrome = res.body.images.find((i: { image_id: string }) => i.image_id === CHROME);
    expect(Object.keys(chrome).sort()).toEqual(
      [
        "image_id",
        "name",
        "friendly_name",
        "description",
        "enabled",
        "available",
        "memory",
        "cores",
        "cpu_allocation_method",
        "x_res",
        "y_res",
        "ctr_registry",
        "ctr_user",
        "ctr_token",
        "hash",
        "volume_mappings",
        "run_config",
        "persistent_profile_config",
        "persistent_profile_path",
        "exec_config",
        "imageAttributes",
        "restrict_to_network",
        "restrict_to_zone",
        "restrict_to_server",
        "zone_id",
        "zone_name",
        "server_id",
        "network_name",
        "image_src",
      ].sort(),
    );
    expect(chrome).toMatchObject({
      name: "kasmweb/chrome:1.16.0",
      friendly_name: "Chrome",
      description: "A browser",
      enabled: true,
      available: true,
      memory: 2768000000,
      cores: 2,
      cpu_allocation_method: "Inherit",
      restrict_to_zone: true,
      zone_id: ZONE,
      zone_name: "default",
      exec_config: { go: { cmd: "bash -c 'google-chrome $KASM_URL'", environment: { KASM_URL: "https://example.org" } } },
      imageAttributes: [],
    });
    expect(res.body.images).toHaveLength(2);
  });
});

describe("session recordings", () => {
  type Recording = {
    recording_id: string;
    account_id: string;
    session_recording_url: string;
    session_recording_metadata: { duration: number; thumbnail: unknown; timestamp: number };
    session_recording_download_url?: string;
  };

  it("get_session_recordings answers page 1 by default, 5 per page, with items and total_duration", async () => {
    const res = await emulator.call("get_session_recordings", { target_ws_id: RECORDED });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_recordings: expect.any(Array),
      items: 7,
      page: 1,
      per_page: 5,
      total_duration: DURATIONS.reduce((a, b) => a + b, 0),
    });
    expect(res.body.session_recordings).toHaveLength(5);
    for (const r of res.body.session_recordings as Recording[]) {
      expect(r).toEqual({
        recording_id: expect.stringMatching(HEX_ID),
        account_id: BOB,
        session_recording_url: expect.any(String),
        session_recording_metadata: { duration: expect.any(Number), thumbnail: expect.anything(), timestamp: expect.any(Number) },
      });
    }
  });

  it("pages stay fixed at 5, whatever page_size is sent, and together list every recording once", async () => {
    const first = await emulator.call("get_session_recordings", { target_ws_id: RECORDED, page: 1, page_size: 100 });
    const second = await emulator.call("get_session_recordings", { target_ws_id: hyphenated(RECORDED), page: 2 });
    expect(first.body.session_recordings).toHaveLength(5);
    expect(second.body).toMatchObject({ items: 7, page: 2, per_page: 5 });
    expect(second.body.session_recordings).toHaveLength(2);
    const all = [...first.body.session_recordings, ...second.body.session_recordings] as Recording[];
    expect(new Set(all.map((r) => r.recording_id)).size).toBe(7);
    expect(all.map((r) => r.session_recording_metadata.duration).sort((a, b) => a - b)).toEqual(DURATIONS);
  });

  it("adds session_recording_download_url only when preauth_download_link is true", async () => {
    const without = await emulator.call("get_session_recordings", { target_ws_id: RECORDED, preauth_download_link: false });
    for (const r of without.body.session_recordings as Recording[]) expect(r).not.toHaveProperty("session_recording_download_url");
    const withLink = await emulator.call("get_session_recordings", { target_ws_id: RECORDED, preauth_download_link: true });
    for (const r of withLink.body.session_recordings as Recording[]) expect(r.session_recording_download_url).toMatch(/^http/);
  });

  it("answers an empty page for a session without recordings", async () => {
    const res = await emulator.call("get_session_recordings", { target_ws_id: UNRECORDED });
    expect(wire(res)).toEqual({
      status: 200,
      body: { session_recordings: [], items: 0, page: 1, per_page: 5, total_duration: 0 },
    });
  });

  it("answers 400 without target_ws_id", async () => {
    expect(wire(await emulator.call("get_session_recordings", {}))).toEqual({
      status: 400,
      body: { error_message: "Invalid Request: Missing required parameters" },
    });
  });

  it("get_sessions_recordings answers {ws_sessions: {<ws_id>: {session_recordings}}} for several sessions", async () => {
    const res = await emulator.call("get_sessions_recordings", { target_ws_ids: [RECORDED, hyphenated(RECORDED_2), UNRECORDED] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["ws_sessions"]);
    expect(Object.keys(res.body.ws_sessions).sort()).toEqual([RECORDED, RECORDED_2, UNRECORDED].sort());
    expect(res.body.ws_sessions[RECORDED].session_recordings).toHaveLength(7);
    expect((res.body.ws_sessions[RECORDED_2].session_recordings as Recording[]).map((r) => r.session_recording_metadata.duration).sort()).toEqual([15, 25]);
    expect(res.body.ws_sessions[UNRECORDED]).toEqual({ session_recordings: [] });
    for (const r of res.body.ws_sessions[RECORDED].session_recordings as Recording[]) expect(r).not.toHaveProperty("session_recording_download_url");
  });

  it("get_sessions_recordings adds download links only when asked", async () => {
    const res = await emulator.call("get_sessions_recordings", { target_ws_ids: [RECORDED_2], preauth_download_link: true });
    for (const r of res.body.ws_sessions[RECORDED_2].session_recordings as Recording[]) expect(r.session_recording_download_url).toMatch(/^http/);
  });
});
