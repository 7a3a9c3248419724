/**
 * The two wire vocabularies through Pulumi's real dynamic-provider host, against an emulator that
 * speaks the released product's names (`kasm-emulator --api-names product`):
 * - configured to match (`kasm:apiNames product`), every session permission declared true is true
 *   in Kasm, `autoLoginWs` converges, and a casting config edited in Kasm shows as drift;
 * - configured with the documentation's names (`spec`), each kind whose settings the product
 *   would silently ignore fails naming `kasm:apiNames`, and none reports success; a refresh warns;
 * and the other way round, configured `product` against an emulator that follows the
 * documentation (the default mode): the same kinds fail naming the setting, and the product's
 * operations meet a 404 that names it too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKasmClient, KasmMissingOperationError } from "../../provider/api";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { HostError, ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const FIREFOX = "1b000000000000000000000000000003";

const SESSION_PERMISSIONS = {
  allowWsAudio: true,
  allowWsUploads: true,
  allowWsDownloads: true,
  allowWsClipboardDown: true,
  allowWsClipboardUp: true,
  allowWsMicrophone: true,
};
const PRODUCT_PERMISSION_NAMES = [
  "allow_kasm_audio",
  "allow_kasm_uploads",
  "allow_kasm_downloads",
  "allow_kasm_clipboard_down",
  "allow_kasm_clipboard_up",
  "allow_kasm_microphone",
];

let product: TestEmulator;
let matching: ProviderHost;
let mismatched: ProviderHost;

beforeAll(async () => {
  product = await startTestEmulator(
    {
      zones: [{ zone_id: ZONE, zone_name: "default" }],
      images: [
        { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
        { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
        { image_id: FIREFOX, name: "kasmweb/firefox:1.16.0", friendly_name: "Firefox" },
      ],
      users: [{ username: "ada" }, { username: "grace" }],
    },
    { apiNames: "product" },
  );
  matching = await hostFor(product, ADMIN, { "kasm:apiNames": "product" });
  mismatched = await hostFor(product, ADMIN, { "kasm:apiNames": "spec" });
});
afterAll(async () => {
  await matching?.stop();
  await mismatched?.stop();
  await product?.close();
});

/** The product's answer for a staging config or a casting config, with its own names. */
async function productRecord(operation: "get_staging_config" | "get_cast_config", id: string) {
  const body = operation === "get_staging_config" ? { target_staging_config: { staging_config_id: id } } : { cast_config_id: id };
  const res = await product.call(operation, body);
  expect(res.status).toBe(200);
  return operation === "get_staging_config" ? res.body.staging_config : res.body.cast_config;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected the operation to fail");
    },
    (error: Error) => error,
  );
}

describe("kasm:apiNames product against the product", () => {
  it("a StagingConfig with every session permission true leaves every allow_kasm_* true in Kasm", async () => {
    const staging = new Driven(matching, "StagingConfig", "chrome");
    await staging.create({ zoneId: ZONE, imageId: CHROME, numSessions: 1, expiration: 2, ...SESSION_PERMISSIONS });
    const record = await productRecord("get_staging_config", staging.id);
    for (const name of PRODUCT_PERMISSION_NAMES) expect(record[name], name).toBe(true);
    expect(staging.state).toMatchObject(SESSION_PERMISSIONS);
    const refreshed = await staging.read();
    expect(refreshed.inputs).toMatchObject(SESSION_PERMISSIONS);
    expect((await staging.diff({ zoneId: ZONE, imageId: CHROME, numSessions: 1, expiration: 2, ...SESSION_PERMISSIONS })).changes).toBe("none");
  });

  it("a CastConfig with every session permission true leaves them true in Kasm; an edit in Kasm shows as drift", async () => {
    const cast = new Driven(matching, "CastConfig", "kiosk");
    const inputs = {
      castingConfigName: "Kiosk",
      imageId: CHROME,
      key: "kiosk",
      enforceClientSettings: true,
      ...SESSION_PERMISSIONS,
      allowWsSharing: true,
      wsUrl: "https://app.example.com",
    };
    await cast.create(inputs);
    const record = await productRecord("get_cast_config", cast.id);
    for (const name of [...PRODUCT_PERMISSION_NAMES, "allow_kasm_sharing"]) expect(record[name], name).toBe(true);
    expect(record.kasm_url).toBe("https://app.example.com");

    // Someone turns audio off and changes the URL in the admin UI.
    const edit = await product.call("update_cast_config", {
      target_cast_config: {
        cast_config_id: cast.id,
        casting_config_name: "Kiosk",
        image_id: CHROME,
        key: "kiosk",
        allow_kasm_audio: false,
        kasm_url: "https://other.example.com",
      },
    });
    expect(edit.status).toBe(200);
    const refreshed = await cast.read();
    expect(refreshed.inputs).toMatchObject({ allowWsAudio: false, wsUrl: "https://other.example.com", allowWsMicrophone: true });
    expect((await cast.diff(inputs)).changes).toBe("some");
    await cast.update(inputs);
    expect((await productRecord("get_cast_config", cast.id)).allow_kasm_audio).toBe(true);
  });

  it("a CastConfig adopts the config with its key, and a config deleted in Kasm is gone on refresh", async () => {
    const made = await product.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Lobby", image_id: TERMINAL, key: "lobby", allow_kasm_audio: false },
    });
    expect(made.status).toBe(200);
    const cast = new Driven(matching, "CastConfig", "lobby");
    await cast.create({ castingConfigName: "Lobby", imageId: TERMINAL, key: "lobby", allowWsAudio: true, adopt: true });
    expect(cast.id).toBe(made.body.cast_config.cast_config_id);
    expect((await productRecord("get_cast_config", cast.id)).allow_kasm_audio).toBe(true);

    expect((await product.call("delete_cast_config", { cast_config_id: cast.id, casting_config_name: "Lobby" })).status).toBe(200);
    expect((await cast.read()).id).toBe("");
  });

  it("UserAttributes.autoLoginWs is set in Kasm and converges (no change after a refresh)", async () => {
    const userId = await product.userId("ada");
    const attributes = new Driven(matching, "UserAttributes", "ada");
    await attributes.create({ userId, autoLoginWs: true, showTips: false });
    const res = await product.call("get_attributes", { target_user: { user_id: userId } });
    expect(res.body.user_attributes.auto_login_kasm).toBe(true);
    await attributes.read();
    expect((await attributes.diff({ userId, autoLoginWs: true, showTips: false })).changes).toBe("none");
  });
});

describe("kasm:apiNames spec against the product: loud, never a silent success", () => {
  it("StagingConfig: with configs to list, the create fails before writing, naming kasm:apiNames; with none, the config it made stays tracked", async () => {
    // Create looks the zone and image up first: the configs listed in the product's names fail it before any write.
    const configs = async () => Object.keys((await product.state()).stagingConfigs);
    const listed = await configs();
    expect(listed.length).toBeGreaterThan(0);
    const staging = new Driven(mismatched, "StagingConfig", "terminal");
    const declared = { zoneId: ZONE, imageId: TERMINAL, numSessions: 1, expiration: 2, ...SESSION_PERMISSIONS };
    const early = await failure(staging.create(declared));
    expect(early.message).toContain("kasm:apiNames");
    expect(early.message).toContain("pulumi config set kasm:apiNames product");
    expect(await configs()).toEqual(listed);

    // With no config to list, the create's own answer shows the product's names.
    for (const id of listed) await product.call("delete_staging_config", { target_staging_config: { staging_config_id: id } });
    const error = await failure(staging.create(declared));
    expect(error.message).toContain("kasm:apiNames");
    expect(error.message).toContain("pulumi config set kasm:apiNames product");
    // The host reports the half-made object with its id, so Pulumi keeps it in the state.
    const kept = (error as HostError).initFailure;
    expect(kept?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(kept?.properties).toMatchObject({ zoneId: ZONE, imageId: TERMINAL });
  });

  it("CastConfig: the create fails naming kasm:apiNames", async () => {
    const cast = new Driven(mismatched, "CastConfig", "firefox");
    const error = await failure(cast.create({ castingConfigName: "Firefox", imageId: FIREFOX, key: "firefox", ...SESSION_PERMISSIONS }));
    expect(error.message).toContain("kasm:apiNames");
  });

  it("UserAttributes: create and update of autoLoginWs fail before writing, naming kasm:apiNames", async () => {
    const userId = await product.userId("grace");
    const before = (await product.call("get_attributes", { target_user: { user_id: userId } })).body.user_attributes.auto_login_kasm;
    const attributes = new Driven(mismatched, "UserAttributes", "grace");
    const error = await failure(attributes.create({ userId, autoLoginWs: true }));
    expect(error.message).toContain("kasm:apiNames");
    const after = (await product.call("get_attributes", { target_user: { user_id: userId } })).body.user_attributes.auto_login_kasm;
    expect(after).toBe(before);
  });

  it("a refresh reads what the product holds and warns, naming kasm:apiNames", async () => {
    const staging = new Driven(matching, "StagingConfig", "firefox");
    await staging.create({ zoneId: ZONE, imageId: FIREFOX, numSessions: 1, expiration: 2, allowWsAudio: true });
    const reader = new Driven(mismatched, "StagingConfig", "firefox");
    reader.id = staging.id;
    reader.state = staging.state;
    const printed = mismatched.stderr.length;
    const refreshed = await reader.read();
    expect(refreshed.inputs).toMatchObject({ allowWsAudio: true });
    const warnings = mismatched.stderr.slice(printed).join("");
    expect(warnings).toContain("warning:");
    expect(warnings).toContain("kasm:apiNames");
  });
});

describe("kasm:apiNames product against an installation that follows the documentation", () => {
  let spec: TestEmulator;
  let productHost: ProviderHost;
  beforeAll(async () => {
    spec = await startTestEmulator(
      { zones: [{ zone_id: ZONE, zone_name: "default" }], images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0" }], users: [{ username: "lin" }] },
      { apiNames: "spec" },
    );
    productHost = await hostFor(spec, ADMIN, { "kasm:apiNames": "product" });
  });
  afterAll(async () => {
    await productHost?.stop();
    await spec?.close();
  });

  it("StagingConfig, CastConfig and UserAttributes fail naming kasm:apiNames; none reports success", async () => {
    const staging = await failure(
      new Driven(productHost, "StagingConfig", "s").create({ zoneId: ZONE, imageId: CHROME, numSessions: 1, expiration: 2, allowWsAudio: true }),
    );
    expect(staging.message).toContain('kasm:apiNames is "product"');
    expect(staging.message).toContain("pulumi config set kasm:apiNames spec");
    const cast = await failure(new Driven(productHost, "CastConfig", "c").create({ castingConfigName: "C", imageId: CHROME, key: "c", allowWsAudio: true }));
    expect(cast.message).toContain("kasm:apiNames");
    const userId = await spec.userId("lin");
    const attributes = await failure(new Driven(productHost, "UserAttributes", "a").create({ userId, autoLoginWs: true }));
    expect(attributes.message).toContain("kasm:apiNames");
  });

  it("a product operation, or one the product names otherwise, meets a 404 that names kasm:apiNames", async () => {
    const client = createKasmClient({ baseUrl: spec.url, apiKey: ADMIN.key, apiKeySecret: ADMIN.secret, apiNames: "product", maxRetries: 0 }, {});
    try {
      const groups = await failure(client.groups.getGroups());
      expect(groups).toBeInstanceOf(KasmMissingOperationError);
      expect(groups.message).toContain("has no operation get_groups (HTTP 404");
      expect(groups.message).toContain('Set kasm:apiNames to "spec"');
      const status = await failure(client.sessions.getWsStatus({ ws_id: CHROME, user_id: CHROME }));
      expect(status).toBeInstanceOf(KasmMissingOperationError);
      expect(status.message).toContain("get_kasm_status");
    } finally {
      await client.close();
    }
  });
});
