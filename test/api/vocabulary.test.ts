/**
 * The client's two wire vocabularies, against a scripted server that answers as a released Kasm
 * does (or as the API documentation says): what is written in each, what is read from either,
 * that a mismatch fails naming `kasm:apiNames`, the product's answer shapes, 1.15's error texts,
 * and the product's operations refused in spec mode before anything is sent.
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  KasmAuthenticationError,
  KasmBadRequestError,
  KasmConfigurationError,
  KasmLicenseLimitError,
  KasmNotFoundError,
  KasmPermissionError,
  KasmUnsupportedOperationError,
  KasmVocabularyError,
  createKasmClient,
  type KasmClient,
} from "../../provider/api";
import type { ApiNames, LenientReads } from "../../provider/api/records";
import { startLocalServer, userRecord, type LocalServer } from "./local-server";

const SECRET = "vocabulary-secret-Zq9";
const ZONE = "0123456789abcdef0123456789abcd01";
const IMAGE = "0123456789abcdef0123456789abcd02";
const CONFIG_ID = "0123456789abcdef0123456789abcd03";
const SERVER = "0123456789abcdef0123456789abcd04";

let server: LocalServer;
const clients: KasmClient[] = [];
beforeAll(async () => {
  server = await startLocalServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  server.requests.length = 0;
  server.fallback = () => ({ status: 200, body: {} });
});
afterAll(() => server.close());

function client(apiNames?: ApiNames): KasmClient {
  const made = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: SECRET, maxRetries: 0, apiNames }, {});
  clients.push(made);
  return made;
}

/** A staging config answer with the session permissions under the product's names. */
function productStagingConfig(value: boolean) {
  return {
    staging_config: {
      staging_config_id: CONFIG_ID,
      zone_id: ZONE,
      image_id: IMAGE,
      num_sessions: 1,
      expiration: 2,
      allow_kasm_audio: value,
      allow_kasm_uploads: value,
      allow_kasm_downloads: value,
      allow_kasm_clipboard_down: value,
      allow_kasm_clipboard_up: value,
      allow_kasm_microphone: value,
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );
}

describe("the setting", () => {
  it("defaults to spec, takes product from the option or KASM_API_NAMES, and names a wrong value", () => {
    expect(createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: SECRET }, {}).transport.apiNames).toBe("spec");
    expect(createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: SECRET }, { KASM_API_NAMES: "Product" }).transport.apiNames).toBe("product");
    let error: unknown;
    try {
      createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: SECRET, apiNames: "kasm" as ApiNames }, {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(KasmConfigurationError);
    expect((error as Error).message).toContain('apiNames must be "spec"');
    expect((error as Error).message).toContain("kasm:apiNames");
    expect((error as Error).message).toContain("KASM_API_NAMES");
  });
});

describe("writing: exact, in the configured vocabulary", () => {
  it("product: the session permissions and operation names are the product's", async () => {
    server.script("create_staging_config", { status: 200, body: productStagingConfig(true) });
    const config = await client("product").staging.createStagingConfig({
      zone_id: ZONE,
      image_id: IMAGE,
      num_sessions: 1,
      expiration: 2,
      allow_ws_audio: true,
      allow_ws_microphone: true,
    });
    const sent = server.requests[0].json.target_staging_config;
    expect(sent).toMatchObject({ allow_kasm_audio: true, allow_kasm_microphone: true });
    expect(Object.keys(sent).filter((k) => k.includes("_ws_"))).toEqual([]);
    // Read back under the names the rest of the package uses.
    expect(config).toMatchObject({ allow_ws_audio: true, allow_ws_microphone: true });

    await client("product")
      .sessions.getWsStatus({ ws_id: CONFIG_ID, user_id: CONFIG_ID })
      .catch(() => undefined);
    expect(server.requests.at(-1)?.path).toBe("/api/public/get_kasm_status");
  });

  it("product: exec_ws is exec_kasm, with the session, action and URL inside target_kasm", async () => {
    server.script("exec_kasm", { status: 200, body: { kasm: { kasm_id: CONFIG_ID }, current_time: "2026-11-24 10:00:00.000000" } });
    const result = await client("product").sessions.execWs({ ws_id: CONFIG_ID, user_id: SERVER, ws_exec: "first_launch", ws_url: "https://app.example.com" });
    expect(result.ws).toMatchObject({ ws_id: CONFIG_ID });
    expect(server.requests[0].path).toBe("/api/public/exec_kasm");
    expect(server.requests[0].json).toMatchObject({
      user_id: SERVER,
      target_kasm: { kasm_id: CONFIG_ID, kasm_exec: "first_launch", kasm_url: "https://app.example.com" },
    });
  });

  it("spec: unchanged", async () => {
    server.script("create_staging_config", {
      status: 200,
      body: { staging_config: { staging_config_id: CONFIG_ID, zone_id: ZONE, image_id: IMAGE, num_sessions: 1, expiration: 2, allow_ws_audio: true } },
    });
    await client("spec").staging.createStagingConfig({ zone_id: ZONE, image_id: IMAGE, num_sessions: 1, expiration: 2, allow_ws_audio: true });
    expect(server.requests[0].json.target_staging_config).toMatchObject({ allow_ws_audio: true });
    expect(server.requests[0].path).toBe("/api/public/create_staging_config");
  });
});

describe("a mismatch fails loudly, naming the setting", () => {
  it("spec meeting the product: a write answered with allow_kasm_* fails and carries what was read", async () => {
    // The product ignored allow_ws_audio and answered with its default.
    server.script("create_staging_config", { status: 200, body: productStagingConfig(false) });
    const error = await failure(
      client("spec").staging.createStagingConfig({ zone_id: ZONE, image_id: IMAGE, num_sessions: 1, expiration: 2, allow_ws_audio: true }),
    );
    expect(error).toBeInstanceOf(KasmVocabularyError);
    expect(error.message).toContain('kasm:apiNames is "spec"');
    expect(error.message).toContain("pulumi config set kasm:apiNames product");
    expect(error.message).toContain("allow_kasm_audio");
    expect((error as KasmVocabularyError).answer).toMatchObject({ staging_config: { staging_config_id: CONFIG_ID, allow_ws_audio: false } });
    expect(error.message).not.toContain(SECRET);
  });

  it("the error carries the answer for the provider, but never prints, inspects or serialises it", async () => {
    const secretPassword = "conn-password-Vq81";
    server.script("get_servers", { status: 200, body: { servers: [{ server_id: SERVER, docker_images: {}, connection_password: secretPassword }] } });
    const error = await failure(client("spec").servers.getServers({ server_id: SERVER }));
    expect(error).toBeInstanceOf(KasmVocabularyError);
    expect(JSON.stringify((error as KasmVocabularyError).answer)).toContain(secretPassword);
    const shown = [String(error), JSON.stringify(error), inspect(error, { showHidden: true, depth: 20 })].join("\n");
    expect(shown).not.toContain(secretPassword);
  });

  it("product meeting the spec: a write answered with allow_ws_* fails, naming the other value", async () => {
    const specAnswer = {
      staging_config: { staging_config_id: CONFIG_ID, zone_id: ZONE, image_id: IMAGE, num_sessions: 1, expiration: 2, allow_ws_audio: false },
    };
    server.script("update_staging_config", { status: 200, body: specAnswer });
    // The pool and the autoscale config sent: the write goes out at once, and its answer shows the other vocabulary.
    const update = { staging_config_id: CONFIG_ID, allow_ws_audio: true, server_pool_id: null, autoscale_config_id: null };
    const error = await failure(client("product").staging.updateStagingConfig(update));
    expect(error).toBeInstanceOf(KasmVocabularyError);
    expect(error.message).toContain('kasm:apiNames is "product"');
    expect(error.message).toContain("pulumi config set kasm:apiNames spec");

    // Without them a released Kasm's update is preceded by a read of the config (operations/staging.ts),
    // which already shows the other vocabulary: the update is never sent.
    server.script("get_staging_config", { status: 200, body: specAnswer });
    const sent = server.operations().length;
    const readFirst = await failure(client("product").staging.updateStagingConfig({ staging_config_id: CONFIG_ID, allow_ws_audio: true }));
    expect(readFirst).toBeInstanceOf(KasmVocabularyError);
    expect(readFirst.message).toContain('kasm:apiNames is "product"');
    expect(server.operations().slice(sent)).toEqual(["get_staging_config"]);
  });

  it("a read fails too, but through a lenient view (a refresh) it is noted and the answer is used", async () => {
    server.fallback = () => ({ status: 200, body: productStagingConfig(true) });
    const strict = await failure(client("spec").staging.getStagingConfig({ staging_config_id: CONFIG_ID }));
    expect(strict).toBeInstanceOf(KasmVocabularyError);
    const spec = client("spec");
    const notes: LenientReads = { mismatches: [] };
    const result = await spec.readingLeniently(notes).staging.getStagingConfig({ staging_config_id: CONFIG_ID });
    const { mismatches } = notes;
    expect(result.allow_ws_audio).toBe(true);
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]).toContain("kasm:apiNames");
  });

  it("an answer without any name of either vocabulary is no evidence", async () => {
    server.script("get_user", { status: 200, body: { user: userRecord("ada") } });
    await expect(client("spec").users.getUser({ username: "ada" })).resolves.toMatchObject({ username: "ada" });
    server.script("get_user", { status: 200, body: { user: userRecord("ada") } });
    await expect(client("product").users.getUser({ username: "ada" })).resolves.toMatchObject({ username: "ada" });
  });
});

describe("reading: tolerant of the product's shapes", () => {
  it("get_servers as a list, even for one id; a list without it is not found", async () => {
    server.script("get_servers", { status: 200, body: { servers: [{ server_id: SERVER, hostname: "box", docker_images: {} }] } });
    await expect(client("product").servers.getServers({ server_id: SERVER })).resolves.toMatchObject({ server_id: SERVER, hostname: "box" });
    server.script("get_servers", { status: 200, body: { servers: [] } });
    await expect(client("product").servers.getServers({ server_id: SERVER })).rejects.toBeInstanceOf(KasmNotFoundError);
  });

  it("get_users answering {} is an empty page", async () => {
    server.script("get_users", { status: 200, body: { page: 0 } });
    await expect(client("product").users.getAllUsers()).resolves.toEqual([]);
    expect(server.operations()).toEqual(["get_users"]);
  });

  it("HTTP 200 with an error_message is an error, classified by its text", async () => {
    server.script("create_group", { status: 200, body: { error_message: "Group (ops) already exists" } });
    const refused = await failure(client("product").groups.createGroup({ name: "ops", priority: 10 }));
    expect(refused).toBeInstanceOf(KasmBadRequestError);
    expect(refused.message).toContain("Group (ops) already exists");
    server.script("update_group", { status: 200, body: { error_message: "Invalid Request. group does not exit by that id" } });
    await expect(client("product").groups.updateGroup({ group_id: CONFIG_ID, name: "x" })).rejects.toBeInstanceOf(KasmNotFoundError);
  });
});

describe("errors on every release", () => {
  const cases: [status: number, text: string, kind: new (...args: never[]) => Error][] = [
    [401, "Invalid user name or password.", KasmAuthenticationError], // 1.19 (the spec)
    [403, "Unauthorized.", KasmPermissionError], // 1.19 (the spec)
    [403, "Access Denied", KasmAuthenticationError], // 1.15: wrong key or secret
    [401, "Access has expired", KasmAuthenticationError], // 1.15: expired key
    [401, "Unauthorized", KasmPermissionError], // 1.15: missing permission, or a Read Only key writing
    [403, "Access Denied. This feature is not licensed", KasmLicenseLimitError], // 1.15
    [403, "License limit exceeded. Unable to create user", KasmLicenseLimitError],
  ];
  for (const [status, text, kind] of cases)
    it(`${status} ${JSON.stringify(text)} is a ${kind.name}`, async () => {
      server.script("get_images", { status, body: { error_message: text } });
      const error = await failure(client("product").images.getImages());
      expect(error).toBeInstanceOf(kind);
      if (text === "Access has expired") expect(error.message).toContain("has expired");
      if (kind === KasmPermissionError) expect(error.message).toContain("Images View");
    });
});

describe("the product's operations", () => {
  it("spec mode refuses them before sending anything, naming the setting", async () => {
    const spec = client("spec");
    for (const call of [() => spec.groups.getGroups(), () => spec.casting.getCastConfigs(), () => spec.licenses.getLicenses()]) {
      const error = await failure(call());
      expect(error).toBeInstanceOf(KasmUnsupportedOperationError);
      expect(error.message).toContain("kasm:apiNames");
    }
    expect(server.requests).toEqual([]);
  });

  it("product mode calls them, and reads an empty listing answered as {}", async () => {
    await expect(client("product").groups.getGroups()).resolves.toEqual([]);
    server.script("get_cast_config", {
      status: 200,
      body: { cast_config: { cast_config_id: CONFIG_ID, casting_config_name: "kiosk", image_id: IMAGE, key: "kiosk", kasm_url: "https://x.example" } },
    });
    await expect(client("product").casting.getCastConfig({ cast_config_id: CONFIG_ID })).resolves.toMatchObject({ ws_url: "https://x.example" });
    expect(server.requests.at(-1)?.json).toMatchObject({ cast_config_id: CONFIG_ID });
    expect(server.operations()).toEqual(["get_groups", "get_cast_config"]);
  });
});
