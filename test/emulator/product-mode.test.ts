/**
 * Choosing the modes: `apiNames` and `authAnswers` from the option or the seed (the option wins),
 * kept across a restart from a data file; 1.15's authentication answers in both vocabularies;
 * credentials in the `api-key` / `api-key-secret` headers on every operation in product mode only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SeedInput } from "../../emulator/seed";
import { startEmulator } from "../../emulator/server";
import { ADMIN, operationPath, startTestEmulator, type TestEmulator, wire } from "../helpers/emulator";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const ALICE = "a1000000000000000000000000000001";
const ADMINISTRATORS = "90000000000000000000000000000002";

const USERS_VIEW = { key: "users-view", secret: "users-view-secret" };
const EXPIRED = { key: "expired", secret: "expired-secret" };
const READ_ONLY = { key: "read-only", secret: "read-only-secret" };
const GROUPS_MODIFY = { key: "groups-modify", secret: "groups-modify-secret" };

const SEED: SeedInput = {
  apiKeys: [
    { name: "users-view", ...USERS_VIEW, permissions: ["Users View"] },
    { name: "expired", ...EXPIRED, permissions: ["Users View"], expiresAt: "2001-02-03 04:05:06" },
    { name: "read-only", ...READ_ONLY, permissions: ["Global Admin"], readOnly: true },
    { name: "groups-modify", ...GROUPS_MODIFY, permissions: ["Groups Modify", "Groups View"] },
  ],
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
  groups: [{ group_id: ADMINISTRATORS, name: "Administrators" }],
  users: [{ user_id: ALICE, username: "alice" }],
};

const getAlice = (emulator: TestEmulator, creds: { key: string; secret: string } | null) =>
  emulator.call("get_user", { target_user: { user_id: ALICE } }, creds);

describe.each(["spec", "product"] as const)("1.15's authentication answers (%s names)", (apiNames) => {
  let emulator: TestEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator(SEED, { apiNames, authAnswers: "1.15" });
  });
  afterAll(() => emulator.close());

  it("lets a valid key in", async () => {
    expect(emulator.authAnswers).toBe("1.15");
    expect((await getAlice(emulator, USERS_VIEW)).status).toBe(200);
  });

  it("answers 403 Access Denied for an unknown key and for a wrong secret", async () => {
    const denied = { status: 403, body: { error_message: "Access Denied" } };
    expect(wire(await getAlice(emulator, { key: "no-such-key", secret: "x" }))).toEqual(denied);
    expect(wire(await getAlice(emulator, { key: USERS_VIEW.key, secret: "wrong" }))).toEqual(denied);
  });

  it("answers 401 Access has expired for an expired key, whatever the secret", async () => {
    const expired = { status: 401, body: { error_message: "Access has expired" } };
    expect(wire(await getAlice(emulator, EXPIRED))).toEqual(expired);
    expect(wire(await getAlice(emulator, { key: EXPIRED.key, secret: "wrong" }))).toEqual(expired);
  });

  it("answers 401 Unauthorized for a missing permission, a contextual one, and a Read Only key writing", async () => {
    const unauthorized = { status: 401, body: { error_message: "Unauthorized" } };
    expect(wire(await emulator.call("get_images", {}, USERS_VIEW))).toEqual(unauthorized);
    const joinAdmins = { target_user: { user_id: ALICE }, target_group: { group_id: ADMINISTRATORS } };
    expect(wire(await emulator.call("add_user_group", joinAdmins, GROUPS_MODIFY))).toEqual(unauthorized);
    expect(wire(await emulator.call("create_user", { target_user: { username: "x" } }, READ_ONLY))).toEqual(unauthorized);
  });

  it("answers 400 Invalid Request without a key or without a secret", async () => {
    const invalid = { status: 400, body: { error_message: "Invalid Request" } };
    expect(wire(await getAlice(emulator, null))).toEqual(invalid);
    expect(wire(await emulator.call("get_user", { api_key: USERS_VIEW.key, target_user: { user_id: ALICE } }, null))).toEqual(invalid);
  });
});

describe("the default authentication answers in product mode are the spec's (1.19)", () => {
  it("401 Invalid user name or password., 403 Unauthorized.", async () => {
    const emulator = await startTestEmulator(SEED, { apiNames: "product" });
    try {
      expect(emulator.authAnswers).toBe("1.19");
      expect(wire(await getAlice(emulator, EXPIRED))).toEqual({ status: 401, body: { error_message: "Invalid user name or password." } });
      expect(wire(await emulator.call("get_images", {}, USERS_VIEW))).toEqual({ status: 403, body: { error_message: "Unauthorized." } });
    } finally {
      await emulator.close();
    }
  });
});

describe("credentials in headers", () => {
  const headerCall = (emulator: TestEmulator, headers: Record<string, string>, body: Record<string, unknown> = {}) =>
    emulator.raw("POST", operationPath("get_user", emulator.apiNames), {
      body: JSON.stringify({ target_user: { user_id: ALICE }, ...body }),
      headers: { "content-type": "application/json", ...headers },
    });

  it("product mode reads api-key and api-key-secret on a JSON operation, before the body", async () => {
    const emulator = await startTestEmulator(SEED, { apiNames: "product" });
    try {
      const headers = { "api-key": USERS_VIEW.key, "api-key-secret": USERS_VIEW.secret };
      expect((await headerCall(emulator, headers)).status).toBe(200);
      expect((await headerCall(emulator, headers, { api_key: "wrong", api_key_secret: "wrong" })).status).toBe(200);
      const wrongHeaders = { "api-key": USERS_VIEW.key, "api-key-secret": "wrong" };
      expect((await headerCall(emulator, wrongHeaders, { api_key: USERS_VIEW.key, api_key_secret: USERS_VIEW.secret })).status).toBe(401);
    } finally {
      await emulator.close();
    }
  });

  it("spec mode reads them only on the multipart operations: a JSON call with header credentials is 401", async () => {
    const emulator = await startTestEmulator(SEED, { apiNames: "spec" });
    try {
      const res = await headerCall(emulator, { "api-key": ADMIN.key, "api-key-secret": ADMIN.secret });
      expect(wire(res)).toEqual({ status: 401, body: { error_message: "Invalid user name or password." } });
    } finally {
      await emulator.close();
    }
  });
});

describe("choosing and keeping the mode", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kasm-emulator-product-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const modesOf = async (seed: SeedInput, options: Parameters<typeof startEmulator>[0] = {}) => {
    const emulator = await startEmulator({ port: 0, seed, ...options });
    await emulator.close();
    return { apiNames: emulator.apiNames, authAnswers: emulator.authAnswers };
  };

  it("defaults to spec names and 1.19 answers, takes the seed's, and the option wins over the seed", async () => {
    expect(await modesOf({})).toEqual({ apiNames: "spec", authAnswers: "1.19" });
    expect(await modesOf({ apiNames: "product", authAnswers: "1.15" })).toEqual({ apiNames: "product", authAnswers: "1.15" });
    expect(await modesOf({ apiNames: "product", authAnswers: "1.15" }, { apiNames: "spec", authAnswers: "1.19" })).toEqual({
      apiNames: "spec",
      authAnswers: "1.19",
    });
  });

  it("refuses a seed whose apiNames or authAnswers is not one of the values, naming the field", async () => {
    await expect(startEmulator({ port: 0, seed: { apiNames: "kasm" as never } })).rejects.toThrow(/apiNames/);
    await expect(startEmulator({ port: 0, seed: { authAnswers: "1.16" as never } })).rejects.toThrow(/authAnswers/);
  });

  it("a restart from a data file keeps the seed's mode and what product mode stored", async () => {
    const dataFile = join(dir, "state.json");
    const seed = { ...SEED, apiNames: "product" } as const;
    const first = await startTestEmulator(seed, { dataFile });
    const created = await first.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 1, expiration: 1, allow_kasm_audio: true, allow_kasm_webcam: true },
    });
    const id = created.body.staging_config.staging_config_id;
    await first.close();

    const again = await startTestEmulator(seed, { dataFile });
    expect(again.apiNames).toBe("product");
    const read = await again.call("get_staging_config", { target_staging_config: { staging_config_id: id } });
    expect(read.body.staging_config).toMatchObject({ allow_kasm_audio: true, allow_kasm_webcam: true, allow_kasm_gamepad: false });
    await again.close();

    const asSpec = await startTestEmulator(seed, { dataFile, apiNames: "spec" });
    const spec = await asSpec.call("get_staging_config", { target_staging_config: { staging_config_id: id } });
    expect(spec.body.staging_config).toMatchObject({ allow_ws_audio: true });
    expect(spec.body.staging_config).not.toHaveProperty("allow_kasm_webcam");
    await asSpec.close();
  });
});
