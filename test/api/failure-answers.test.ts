/**
 * The client's reading of the product's failure answers (emulator/README.md, "Failure answers"),
 * against the emulator in product mode with 1.15's answers: an id that is no Kasm id, which 1.15's
 * database fails on (HTTP 500, a page that is not JSON), is one error (KasmMalformedIdError, a
 * not-found) sent once and named plainly; another server error with such a page is a server error
 * that quotes the page's words and names what the request named; 1.15's own words for a permission
 * are permission errors; and a page's words are scrubbed of the secret (a scripted server).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import {
  createKasmClient,
  KasmMalformedIdError,
  KasmNotFoundError,
  KasmPermissionError,
  KasmServerError,
  type ImageUpdate,
  type KasmClient,
} from "../../provider/api";
import { startLocalServer } from "./local-server";

const CHROME = "1b000000000000000000000000000001";
const ALL_USERS = "90000000000000000000000000000001";
const ENGINEERING = "e0e0e0e0e0e04e0e0e0e0e0e0e0e0003";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";
const NOT_AN_ID = "non-existent-group-id";
const SECRET = "s3cr3t-failures-Hq5";
const GROUPS_SECRET = "s3cr3t-groups-Lm2";
const IMAGES_SECRET = "s3cr3t-images-Vb8";

const SEED = {
  apiKeys: [
    { name: "admin", key: "admin-key", secret: SECRET, permissions: ["Global Admin" as const] },
    { name: "groups", key: "groups-key", secret: GROUPS_SECRET, permissions: ["Groups View" as const, "Groups Modify" as const] },
    { name: "images", key: "images-key", secret: IMAGES_SECRET, permissions: ["Images View" as const, "Images Modify" as const] },
  ],
  groups: [
    { group_id: ALL_USERS, name: "All Users" },
    { group_id: ENGINEERING, name: "Engineering" },
  ],
  images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
};

const RETRIES = 2;
let emulator: RunningEmulator;
/** One line per request the emulator served (`<operation> <status> <ms>`). */
const served: string[] = [];
const clients: KasmClient[] = [];

function clientAs(key: string, secret: string): KasmClient {
  const client = createKasmClient(
    { baseUrl: emulator.url, apiKey: key, apiKeySecret: secret, apiNames: "product", maxRetries: RETRIES, retryBaseDelayMs: 1, retryMaxDelayMs: 5 },
    {},
  );
  clients.push(client);
  return client;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: SEED, apiNames: "product", authAnswers: "1.15", log: (line) => served.push(line) });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await emulator?.close();
});

/** The error a call fails with, and how many requests it sent. */
async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; requests: number }> {
  served.length = 0;
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, requests: served.filter((line) => !line.includes("fault")).length };
}

describe("an id that is no Kasm id, which 1.15's database fails on", () => {
  const admin = () => clientAs("admin-key", SECRET);
  it.each([
    ["get_images_group", "target_group.group_id", "group", (c: KasmClient) => c.groups.getImagesGroup({ group_id: NOT_AN_ID })],
    ["get_users_group", "target_group.group_id", "group", (c: KasmClient) => c.groups.getUsersGroup({ group_id: NOT_AN_ID })],
    ["delete_group", "target_group.group_id", "group", (c: KasmClient) => c.groups.deleteGroup({ group_id: NOT_AN_ID })],
    ["add_images_group", "target_group.group_id", "group", (c: KasmClient) => c.groups.addImagesGroup({ group_id: NOT_AN_ID, image_id: CHROME })],
    ["remove_images_group", "target_image.image_id", "image", (c: KasmClient) => c.groups.removeImagesGroup({ group_id: ENGINEERING, image_id: NOT_AN_ID })],
    ["get_cast_config", "cast_config_id", "cast config", (c: KasmClient) => c.casting.getCastConfig({ cast_config_id: NOT_AN_ID })],
    ["delete_image", "target_image.image_id", "image", (c: KasmClient) => c.images.deleteImage({ image_id: NOT_AN_ID })],
  ] as const)("%s: a not-found naming %s, sent once", async (operation, field, object, call) => {
    const { error, requests } = await failure(() => call(admin()));
    expect(error).toBeInstanceOf(KasmMalformedIdError);
    expect(error).toBeInstanceOf(KasmNotFoundError);
    expect(error).toMatchObject({ kind: "not_found", operation, status: 500, attempts: 1, field, value: NOT_AN_ID });
    expect((error as Error).message).toBe(
      `${operation}: ${field} "${NOT_AN_ID}" is not a Kasm id (32 hexadecimal digits, or a hyphenated UUID), so no ${object} has it. ` +
        `the server at ${emulator.url} failed on it (HTTP 500 with a body that is not JSON: "An unhandled exception occurred check logs for details"), ` +
        `as Kasm does with an id its database cannot read; the request was not repeated, since it would fail the same way. Give the ${object}'s id as Kasm shows it.`,
    );
    expect(requests).toBe(1);
  });
});

describe("another server error whose body is not JSON", () => {
  it("add_images_group of a group that does not exist: the look-up that follows the server error finds no such group, and the add is not sent again", async () => {
    // An add whose answer is a server error may have committed: the group's images are read before any second add
    // (a second add of a pair makes a second authorisation in 1.15). Here that read says the group does not exist.
    const { error, requests } = await failure(() => clientAs("admin-key", SECRET).groups.addImagesGroup({ group_id: UNKNOWN, image_id: CHROME }));
    expect(error).toBeInstanceOf(KasmNotFoundError);
    expect(error).toMatchObject({ operation: "get_images_group" });
    expect((error as Error).message).toBe(`get_images_group (group ${UNKNOWN}): the server refused the request (HTTP 200 "Request group does not exist")`);
    expect(requests).toBe(2);
  });

  it("quotes a proxy's page by its words, the secret scrubbed out", async () => {
    const server = await startLocalServer();
    const client = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: SECRET, maxRetries: 0 }, {});
    try {
      server.script("get_users", {
        status: 502,
        raw: `<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1><p>upstream said ${SECRET}</p></body></html>`,
      });
      const error = await client.users.getUsers().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(KasmServerError);
      expect((error as Error).message).toBe(
        'get_users: the server failed (HTTP 502 with a body that is not JSON: "502 Bad Gateway Bad Gateway upstream said [REDACTED]") after 1 attempt(s)',
      );
      expect(JSON.stringify(error)).not.toContain(SECRET);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("1.15's own words for a permission it checks inside an operation", () => {
  it("update_group of a system group without Groups Modify System (401 `User not authorized to modify the target group.`): a permission error", async () => {
    const { error } = await failure(() => clientAs("groups-key", GROUPS_SECRET).groups.updateGroup({ group_id: ALL_USERS, description: "Everyone" }));
    expect(error).toBeInstanceOf(KasmPermissionError);
    expect(error).toMatchObject({ status: 401, errorMessage: "User not authorized to modify the target group." });
  });

  it("update_image's compute change without Images Modify Resources (HTTP 200 `User (None) is not authorized ...`): a permission error naming it", async () => {
    const admin = clientAs("admin-key", SECRET);
    const image = await admin.images.findImageById(CHROME);
    const update = {
      image_id: CHROME,
      name: image!.name!,
      friendly_name: image!.friendly_name!,
      cores: 4,
      memory: image!.memory!,
      gpu_count: 0,
      require_gpu: false,
      cpu_allocation_method: "Inherit",
      uncompressed_size_mb: 0,
      run_config: "{}",
      exec_config: "{}",
      volume_mappings: "{}",
      ctr_registry: null,
      ctr_user: null,
      ctr_token: null,
      hash: null,
      persistent_profile_path: null,
    };
    // Null for the settings the record has none of, as the Workspace kind sends them (1.15 fails an update without them).
    const { error } = await failure(() => clientAs("images-key", IMAGES_SECRET).images.updateImage(update as unknown as ImageUpdate));
    expect(error).toBeInstanceOf(KasmPermissionError);
    expect(error).toMatchObject({ status: 200, errorMessage: "User (None) is not authorized to make these changes to the image." });
    expect((error as Error).message).toContain("Images Modify Resources");
  });
});
