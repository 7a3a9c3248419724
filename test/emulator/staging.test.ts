/**
 * Session staging configurations: create, read, update, delete, and the rules around them
 * (required fields, one config per zone and image, unknown ids, lenient numbers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenated } from "../helpers/emulator";

const ZONE = "0a000000000000000000000000000001";
const OTHER_ZONE = "0a000000000000000000000000000002";
const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";

/** The hyphenated UUID form of a 32-hex id. */

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    zones: [
      { zone_id: ZONE, zone_name: "default" },
      { zone_id: OTHER_ZONE, zone_name: "eu-west" },
    ],
    images: [
      { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
      { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
    ],
  });
});
afterAll(() => emulator.close());

const MISSING = { error_message: "Invalid Request. Missing required parameters" };

describe("staging configs", () => {
  let chromeConfigId: string;

  it("starts with no staging configs", async () => {
    const res = await emulator.call("get_staging_configs");
    expect(res).toMatchObject({ status: 200, body: { staging_configs: [] } });
  });

  it.each([
    ["zone_id", { image_id: CHROME, num_sessions: 2, expiration: 4 }],
    ["image_id", { zone_id: ZONE, num_sessions: 2, expiration: 4 }],
    ["num_sessions", { zone_id: ZONE, image_id: CHROME, expiration: 4 }],
    ["expiration", { zone_id: ZONE, image_id: CHROME, num_sessions: 2 }],
  ])("refuses a create without %s with the product's missing-parameters error", async (_field, target) => {
    const res = await emulator.call("create_staging_config", { target_staging_config: target });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(MISSING);
  });

  it("refuses a create without target_staging_config at all", async () => {
    const res = await emulator.call("create_staging_config", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual(MISSING);
  });

  it("creates a staging config and answers {staging_config} with zone_name, image_friendly_name and num_current_sessions", async () => {
    const res = await emulator.call("create_staging_config", {
      target_staging_config: {
        zone_id: ZONE,
        image_id: CHROME,
        num_sessions: 2,
        expiration: 4,
        allow_ws_audio: true,
        allow_ws_uploads: false,
        allow_ws_downloads: true,
        allow_ws_clipboard_down: true,
        allow_ws_clipboard_up: false,
        allow_ws_microphone: false,
      },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["staging_config"]);
    chromeConfigId = res.body.staging_config.staging_config_id;
    expect(chromeConfigId).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.staging_config).toEqual({
      staging_config_id: chromeConfigId,
      zone_id: ZONE,
      zone_name: "default",
      image_id: CHROME,
      image_friendly_name: "Chrome",
      num_sessions: 2,
      num_current_sessions: expect.any(Number),
      expiration: 4,
      allow_ws_audio: true,
      allow_ws_uploads: false,
      allow_ws_downloads: true,
      allow_ws_clipboard_down: true,
      allow_ws_clipboard_up: false,
      allow_ws_microphone: false,
    });
    expect(Number.isInteger(res.body.staging_config.num_current_sessions)).toBe(true);
  });

  it("refuses a second config for the same zone and image with 400", async () => {
    const res = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 1, expiration: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toEqual(expect.any(String));
    const list = await emulator.call("get_staging_configs");
    expect(list.body.staging_configs).toHaveLength(1);
  });

  it("refuses a config for a zone that does not exist", async () => {
    const res = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: UNKNOWN, image_id: TERMINAL, num_sessions: 1, expiration: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain(UNKNOWN);
  });

  it("refuses a config for an image that does not exist", async () => {
    const res = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: UNKNOWN, num_sessions: 1, expiration: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain(UNKNOWN);
    const list = await emulator.call("get_staging_configs");
    expect(list.body.staging_configs).toHaveLength(1);
  });

  it("refuses a mistyped num_sessions with 400 naming the field", async () => {
    const res = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: TERMINAL, num_sessions: "abc", expiration: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain("num_sessions");
  });

  let terminalConfigId: string;

  it("accepts numbers sent as strings and hyphenated zone and image ids", async () => {
    const res = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: hyphenated(ZONE), image_id: hyphenated(TERMINAL), num_sessions: "3", expiration: "12" },
    });
    expect(res.status).toBe(200);
    terminalConfigId = res.body.staging_config.staging_config_id;
    expect(res.body.staging_config).toMatchObject({
      zone_id: ZONE,
      zone_name: "default",
      image_id: TERMINAL,
      image_friendly_name: "Terminal",
      num_sessions: 3,
      expiration: 12,
    });
  });

  it("lists both configs with get_staging_configs", async () => {
    const res = await emulator.call("get_staging_configs");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["staging_configs"]);
    const ids = res.body.staging_configs.map((c: { staging_config_id: string }) => c.staging_config_id);
    expect(ids.sort()).toEqual([chromeConfigId, terminalConfigId].sort());
    const chrome = res.body.staging_configs.find((c: { image_id: string }) => c.image_id === CHROME);
    expect(chrome).toMatchObject({ zone_name: "default", image_friendly_name: "Chrome", num_sessions: 2, expiration: 4 });
  });

  it("reads one config with get_staging_config, by hex or hyphenated id", async () => {
    const hex = await emulator.call("get_staging_config", { target_staging_config: { staging_config_id: chromeConfigId } });
    expect(hex.status).toBe(200);
    expect(Object.keys(hex.body)).toEqual(["staging_config"]);
    expect(hex.body.staging_config).toMatchObject({ staging_config_id: chromeConfigId, image_friendly_name: "Chrome" });
    const dashed = await emulator.call("get_staging_config", {
      target_staging_config: { staging_config_id: hyphenated(chromeConfigId) },
    });
    expect(dashed.status).toBe(200);
    expect(dashed.body).toEqual(hex.body);
  });

  it("answers get_staging_config of an unknown id with 400 `Staging config with id (<id>) does not exist`", async () => {
    const res = await emulator.call("get_staging_config", { target_staging_config: { staging_config_id: UNKNOWN } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_message: `Staging config with id (${UNKNOWN}) does not exist` });
  });

  it("updates only the fields sent", async () => {
    const before = (await emulator.call("get_staging_config", { target_staging_config: { staging_config_id: chromeConfigId } })).body.staging_config;
    const res = await emulator.call("update_staging_config", {
      target_staging_config: { staging_config_id: chromeConfigId, num_sessions: 5, allow_ws_uploads: true },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["staging_config"]);
    expect(res.body.staging_config).toEqual({
      ...before,
      num_sessions: 5,
      allow_ws_uploads: true,
      num_current_sessions: res.body.staging_config.num_current_sessions,
    });
    const read = await emulator.call("get_staging_config", { target_staging_config: { staging_config_id: chromeConfigId } });
    expect(read.body.staging_config).toEqual(res.body.staging_config);
  });

  it("moves a config to another zone when the new (zone, image) pair is free", async () => {
    const res = await emulator.call("update_staging_config", {
      target_staging_config: { staging_config_id: chromeConfigId, zone_id: OTHER_ZONE },
    });
    expect(res.status).toBe(200);
    expect(res.body.staging_config).toMatchObject({ zone_id: OTHER_ZONE, zone_name: "eu-west", image_id: CHROME, num_sessions: 5 });
  });

  it("refuses an update that moves a config onto another config's (zone, image) pair, and changes nothing", async () => {
    const res = await emulator.call("update_staging_config", {
      target_staging_config: { staging_config_id: terminalConfigId, zone_id: OTHER_ZONE, image_id: CHROME, num_sessions: 9 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toEqual(expect.any(String));
    const read = await emulator.call("get_staging_config", { target_staging_config: { staging_config_id: terminalConfigId } });
    expect(read.body.staging_config).toMatchObject({ zone_id: ZONE, image_id: TERMINAL, num_sessions: 3 });
  });

  it("refuses an update of an unknown id with 400 `Staging config with id (<id>) does not exist`", async () => {
    const res = await emulator.call("update_staging_config", {
      target_staging_config: { staging_config_id: UNKNOWN, num_sessions: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_message: `Staging config with id (${UNKNOWN}) does not exist` });
  });

  it("refuses an update with a mistyped expiration, naming the field, and changes nothing", async () => {
    const res = await emulator.call("update_staging_config", {
      target_staging_config: { staging_config_id: terminalConfigId, expiration: "soon" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain("expiration");
    const read = await emulator.call("get_staging_config", { target_staging_config: { staging_config_id: terminalConfigId } });
    expect(read.body.staging_config.expiration).toBe(12);
  });

  it("accepts an update addressed by the hyphenated id", async () => {
    const res = await emulator.call("update_staging_config", {
      target_staging_config: { staging_config_id: hyphenated(terminalConfigId), expiration: 24 },
    });
    expect(res.status).toBe(200);
    expect(res.body.staging_config).toMatchObject({ staging_config_id: terminalConfigId, expiration: 24 });
  });

  it("deletes a config and answers {}", async () => {
    const res = await emulator.call("delete_staging_config", { target_staging_config: { staging_config_id: terminalConfigId } });
    expect(res).toMatchObject({ status: 200, body: {} });
    expect(res.body).toEqual({});
    const list = await emulator.call("get_staging_configs");
    expect(list.body.staging_configs.map((c: { staging_config_id: string }) => c.staging_config_id)).toEqual([chromeConfigId]);
  });

  it("refuses to delete it again: 400 `Staging config with id (<id>) does not exist`", async () => {
    const res = await emulator.call("delete_staging_config", { target_staging_config: { staging_config_id: terminalConfigId } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_message: `Staging config with id (${terminalConfigId}) does not exist` });
  });

  it("frees the (zone, image) pair of a deleted config for a new one", async () => {
    const res = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: TERMINAL, num_sessions: 1, expiration: 1 },
    });
    expect(res.status).toBe(200);
  });

  it("deletes by hyphenated id", async () => {
    const res = await emulator.call("delete_staging_config", {
      target_staging_config: { staging_config_id: hyphenated(chromeConfigId) },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const state = await emulator.state();
    expect(state.stagingConfigs[chromeConfigId]).toBeUndefined();
  });
});
