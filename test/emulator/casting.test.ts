/**
 * Casting configurations: create (key required, key and name unique), the shape of the record,
 * update, delete by id and by name. The API has no read of casting configs, so the store is
 * checked through the control route where a test needs to see what is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const CHROME = "1b000000000000000000000000000001";
const KIOSK_GROUP = "2c000000000000000000000000000001";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";
const VISITORS_GROUP = "2c000000000000000000000000000002";
/** Keys with Casting Modify: alone, with Groups Modify, and with Groups Modify System too. */
const CASTING = { key: "key-casting", secret: "secret-casting" };
const CASTING_GROUPS = { key: "key-casting-groups", secret: "secret-casting-groups" };
const CASTING_SYSTEM_GROUPS = { key: "key-casting-system-groups", secret: "secret-casting-system-groups" };
const hyphenated = (id: string) => `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    zones: [{ zone_name: "default" }],
    images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
    groups: [
      { group_id: KIOSK_GROUP, name: "Kiosk" },
      { group_id: VISITORS_GROUP, name: "Visitors" },
    ],
    apiKeys: [
      { name: "casting", key: CASTING.key, secret: CASTING.secret, permissions: ["Casting View", "Casting Create", "Casting Modify"] },
      {
        name: "casting-groups",
        key: CASTING_GROUPS.key,
        secret: CASTING_GROUPS.secret,
        permissions: ["Casting View", "Casting Modify", "Groups View", "Groups Modify"],
      },
      {
        name: "casting-system-groups",
        key: CASTING_SYSTEM_GROUPS.key,
        secret: CASTING_SYSTEM_GROUPS.secret,
        permissions: ["Casting View", "Casting Modify", "Groups View", "Groups Modify", "Groups View System", "Groups Modify System"],
      },
    ],
  });
});
afterAll(() => emulator.close());

const duplicate = (key: string, name: string) => ({
  error_message: `A Cast config with existing key (${key}) OR configuration name (${name}) exists. Key/Configuration Name must be unique`,
});

describe("casting configs", () => {
  let lobbyId: string;

  it("refuses a create without key", async () => {
    const res = await emulator.call("create_cast_config", { target_cast_config: { casting_config_name: "No key" } });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toMatch(/Missing required parameters/);
    expect(Object.keys((await emulator.state()).castConfigs)).toEqual([]);
  });

  it("creates a config and answers {cast_config} with image_friendly_name and group_name, valid_until exactly as sent", async () => {
    const res = await emulator.call("create_cast_config", {
      target_cast_config: {
        casting_config_name: "Lobby",
        key: "lobby",
        image_id: CHROME,
        group_id: KIOSK_GROUP,
        allowed_referrers: ["example.org", "intranet.example.org"],
        allow_anonymous: true,
        limit_sessions: true,
        session_remaining: 10,
        valid_until: "2031-06-30 23:59:59",
        error_url: "https://example.org/oops",
        enforce_client_settings: true,
        allow_ws_audio: true,
      },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["cast_config"]);
    const config = res.body.cast_config;
    lobbyId = config.cast_config_id;
    expect(lobbyId).toMatch(/^[0-9a-f]{32}$/);
    expect(config).toMatchObject({
      cast_config_id: lobbyId,
      casting_config_name: "Lobby",
      key: "lobby",
      image_id: CHROME,
      image_friendly_name: "Chrome",
      group_id: KIOSK_GROUP,
      group_name: "Kiosk",
      allowed_referrers: ["example.org", "intranet.example.org"],
      allow_anonymous: true,
      limit_sessions: true,
      session_remaining: 10,
      valid_until: "2031-06-30 23:59:59",
      error_url: "https://example.org/oops",
      enforce_client_settings: true,
      allow_ws_audio: true,
    });
  });

  it("returns every field of the casting config table", async () => {
    const state = await emulator.state();
    const stored = state.castConfigs[lobbyId];
    for (const field of [
      "cast_config_id",
      "casting_config_name",
      "image_id",
      "key",
      "allowed_referrers",
      "limit_sessions",
      "session_remaining",
      "limit_ips",
      "ip_request_limit",
      "ip_request_seconds",
      "error_url",
      "enable_sharing",
      "disable_control_panel",
      "disable_tips",
      "disable_fixed_res",
      "allow_anonymous",
      "group_id",
      "require_recaptcha",
      "ws_url",
      "dynamic_ws_url",
      "dynamic_ctr_network",
      "allow_resume",
      "enforce_client_settings",
      "allow_ws_audio",
      "allow_ws_uploads",
      "allow_ws_downloads",
      "allow_ws_clipboard_down",
      "allow_ws_clipboard_up",
      "allow_ws_microphone",
      "allow_ws_sharing",
      "ws_audio_default_on",
      "ws_ime_mode_default_on",
      "valid_until",
    ])
      expect(stored, field).toHaveProperty(field);
    const res = await emulator.call("update_cast_config", { target_cast_config: { cast_config_id: lobbyId } });
    expect(res.status).toBe(200);
    for (const field of Object.keys(stored)) expect(res.body.cast_config, field).toHaveProperty(field);
    expect(res.body.cast_config).toHaveProperty("image_friendly_name", "Chrome");
    expect(res.body.cast_config).toHaveProperty("group_name", "Kiosk");
  });

  it("refuses a second config with the same key, with the product's uniqueness message", async () => {
    const res = await emulator.call("create_cast_config", { target_cast_config: { casting_config_name: "Other", key: "lobby" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(duplicate("lobby", "Other"));
  });

  it("refuses a second config with the same name, with the product's uniqueness message", async () => {
    const res = await emulator.call("create_cast_config", { target_cast_config: { casting_config_name: "Lobby", key: "lobby-2" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(duplicate("lobby-2", "Lobby"));
    expect(Object.keys((await emulator.state()).castConfigs)).toEqual([lobbyId]);
  });

  it.each([["next tuesday"], ["2031-13-45 25:61:00"], ["31/12/2031 10:00:00"]])("refuses an invalid valid_until (%s) with 400", async (validUntil) => {
    const res = await emulator.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Bad time", key: "bad-time", valid_until: validUntil },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain("valid_until");
  });

  let kioskId: string;

  it("stores allowed_referrers sent as a newline-separated string as a list", async () => {
    const res = await emulator.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Kiosk", key: "kiosk", allowed_referrers: "a.example.org\nb.example.org\r\nc.example.org" },
    });
    expect(res.status).toBe(200);
    kioskId = res.body.cast_config.cast_config_id;
    expect(res.body.cast_config.allowed_referrers).toEqual(["a.example.org", "b.example.org", "c.example.org"]);
    expect((await emulator.state()).castConfigs[kioskId].allowed_referrers).toEqual(["a.example.org", "b.example.org", "c.example.org"]);
  });

  it("answers image_friendly_name and group_name null when the config has neither", async () => {
    const res = await emulator.call("update_cast_config", { target_cast_config: { cast_config_id: kioskId } });
    expect(res.body.cast_config).toMatchObject({ image_id: null, image_friendly_name: null, group_id: null, group_name: null });
  });

  it("refuses limit_ips without a positive ip_request_limit and ip_request_seconds", async () => {
    const bare = await emulator.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Limited", key: "limited", limit_ips: true },
    });
    expect(bare.status).toBe(400);
    expect(bare.body.error_message).toContain("limit_ips");
    const half = await emulator.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Limited", key: "limited", limit_ips: true, ip_request_limit: 5 },
    });
    expect(half.status).toBe(400);
    const update = await emulator.call("update_cast_config", { target_cast_config: { cast_config_id: kioskId, limit_ips: true } });
    expect(update.status).toBe(400);
    expect((await emulator.state()).castConfigs[kioskId].limit_ips).toBe(false);
  });

  it("accepts limit_ips with its limits", async () => {
    const res = await emulator.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Limited", key: "limited", limit_ips: true, ip_request_limit: 5, ip_request_seconds: 60 },
    });
    expect(res.status).toBe(200);
    expect(res.body.cast_config).toMatchObject({ limit_ips: true, ip_request_limit: 5, ip_request_seconds: 60 });
  });

  it("refuses an unknown image or group", async () => {
    const image = await emulator.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Ghost", key: "ghost", image_id: UNKNOWN },
    });
    expect(image.status).toBe(400);
    expect(image.body.error_message).toContain(UNKNOWN);
    const group = await emulator.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Ghost", key: "ghost", group_id: UNKNOWN },
    });
    expect(group.status).toBe(400);
    expect(group.body.error_message).toContain(UNKNOWN);
  });

  it("updates only the fields sent, and keeps a new valid_until exactly as given", async () => {
    const before = (await emulator.state()).castConfigs[lobbyId];
    const res = await emulator.call("update_cast_config", {
      target_cast_config: { cast_config_id: lobbyId, valid_until: "2032-01-01 00:00:00", disable_tips: true },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["cast_config"]);
    expect(res.body.cast_config).toEqual({
      ...before,
      valid_until: "2032-01-01 00:00:00",
      disable_tips: true,
      image_friendly_name: "Chrome",
      group_name: "Kiosk",
    });
  });

  it("refuses an update that takes another config's key, with the uniqueness message, and changes nothing", async () => {
    const res = await emulator.call("update_cast_config", { target_cast_config: { cast_config_id: kioskId, key: "lobby" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(duplicate("lobby", "Kiosk"));
    expect((await emulator.state()).castConfigs[kioskId].key).toBe("kiosk");
  });

  it("refuses an update with an invalid valid_until and keeps the old one", async () => {
    const res = await emulator.call("update_cast_config", { target_cast_config: { cast_config_id: lobbyId, valid_until: "never" } });
    expect(res.status).toBe(400);
    expect((await emulator.state()).castConfigs[lobbyId].valid_until).toBe("2032-01-01 00:00:00");
  });

  it("refuses an update of an unknown id with 400 `Cast config with id (<id>) does not exist`", async () => {
    const res = await emulator.call("update_cast_config", { target_cast_config: { cast_config_id: UNKNOWN, disable_tips: true } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_message: `Cast config with id (${UNKNOWN}) does not exist` });
  });

  it("deletes a config by id and answers {}", async () => {
    const res = await emulator.call("delete_cast_config", { cast_config_id: kioskId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await emulator.state()).castConfigs[kioskId]).toBeUndefined();
  });

  it("refuses to delete an unknown id with 400 `Cast config with id (<id>) does not exist`", async () => {
    const res = await emulator.call("delete_cast_config", { cast_config_id: kioskId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_message: `Cast config with id (${kioskId}) does not exist` });
  });

  it("deletes a config by name and answers {}", async () => {
    const res = await emulator.call("delete_cast_config", { casting_config_name: "Lobby" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await emulator.state()).castConfigs[lobbyId]).toBeUndefined();
  });

  it("lets a deleted config's key and name be used again", async () => {
    const res = await emulator.call("create_cast_config", { target_cast_config: { casting_config_name: "Lobby", key: "lobby" } });
    expect(res.status).toBe(200);
  });

  it("refuses to delete an unknown name with 400", async () => {
    const res = await emulator.call("delete_cast_config", { casting_config_name: "Nothing by that name" });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain("Nothing by that name");
  });
});

describe("an update that moves a config between groups (1.15's check, read in its compiled code)", () => {
  let configId: string;
  const update = (fields: Record<string, unknown>, creds: { key: string; secret: string }) =>
    emulator.call("update_cast_config", { target_cast_config: { cast_config_id: configId, ...fields } }, creds);

  beforeAll(async () => {
    const res = await emulator.call(
      "create_cast_config",
      { target_cast_config: { casting_config_name: "Moves", key: "moves", group_id: KIOSK_GROUP } },
      CASTING,
    );
    configId = res.body.cast_config.cast_config_id;
  });

  it("needs only Casting Modify when the group sent is the config's, in its 32 hex digits", async () => {
    expect((await update({ group_id: KIOSK_GROUP, error_url: "https://example.org/a" }, CASTING)).status).toBe(200);
  });

  it("needs Groups Modify when the group sent differs, or is the config's spelled with hyphens, or is left out while the config has one; nothing changes", async () => {
    const before = await emulator.state();
    for (const fields of [{ group_id: VISITORS_GROUP }, { group_id: hyphenated(KIOSK_GROUP) }, { error_url: "https://example.org/b" }]) {
      expect((await update(fields, CASTING)).status).toBe(403);
    }
    expect(await emulator.state()).toEqual(before);
    const moved = await update({ group_id: VISITORS_GROUP }, CASTING_GROUPS);
    expect(moved.status).toBe(200);
    expect(moved.body.cast_config.group_id).toBe(VISITORS_GROUP);
  });

  it("needs Groups Modify System as well to move a config to or from a system group", async () => {
    const allUsers = Object.values<{ group_id: string; name: string }>((await emulator.state()).groups).find((g) => g.name === "All Users")!.group_id;
    expect((await update({ group_id: allUsers }, CASTING_GROUPS)).status).toBe(403);
    expect((await update({ group_id: allUsers }, CASTING_SYSTEM_GROUPS)).status).toBe(200);
    expect((await update({ group_id: VISITORS_GROUP }, CASTING_GROUPS)).status).toBe(403);
    expect((await update({ group_id: VISITORS_GROUP }, CASTING_SYSTEM_GROUPS)).status).toBe(200);
  });
});
