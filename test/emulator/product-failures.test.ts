/**
 * The failure answers of the product's own operations in product mode, swept: for each operation,
 * what 1.15 answers for an object that does not exist, an id that is no UUID, a missing permission
 * and a refused value (emulator/README.md, "Failure answers", with the sources). Each case is one
 * request over HTTP, its status, Content-Type and body compared with 1.15's, and the store compared
 * before and after (a failure changes nothing). An exception 1.15 does not handle answers its web
 * server's page: HTTP 500, labelled JSON, whose body is not JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationName, PermissionName } from "../../permissions";
import type { AuthAnswers } from "../../emulator/errors";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const ALL_USERS = "90000000000000000000000000000001";
const ENGINEERING = "e0e0e0e0e0e04e0e0e0e0e0e0e0e0003";
const ZONE = "0a000000000000000000000000000001";
const KIOSK = "ca000000000000000000000000000001";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";
/** An id the product's database cannot read as a UUID (the Terraform client's error test sends such a one). */
const NOT_A_UUID = "non-existent-group-id";

/** 1.15's page for an exception it does not handle (server.py, generic_error_response): not JSON. */
const PAGE = "<html><body>An unhandled exception occurred check logs for details<body><html>";

const key = (name: string, permissions: PermissionName[]) => ({ name, key: `key-${name}`, secret: `secret-${name}`, permissions });
const creds = (name: string) => ({ key: `key-${name}`, secret: `secret-${name}` });

const SEED = {
  apiKeys: [
    key("groups", ["Groups View", "Groups Modify", "Images View"]),
    key("images-modify", ["Images View", "Images Modify"]),
    key("nothing", ["Users View"]),
  ],
  groups: [
    { group_id: ALL_USERS, name: "All Users" },
    { group_id: ENGINEERING, name: "Engineering" },
  ],
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  images: [
    { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
    { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
  ],
  castConfigs: [{ cast_config_id: KIOSK, casting_config_name: "Kiosk", key: "kiosk", image_name: "kasmweb/chrome:1.16.0" }],
};

const emulators = {} as Record<AuthAnswers, TestEmulator>;
beforeAll(async () => {
  emulators["1.15"] = await startTestEmulator(SEED, { apiNames: "product", authAnswers: "1.15" });
  emulators["1.19"] = await startTestEmulator(SEED, { apiNames: "product", authAnswers: "1.19" });
});
afterAll(async () => {
  await emulators["1.15"]?.close();
  await emulators["1.19"]?.close();
});

type Kind = "missing object" | "malformed id" | "missing permission" | "refused value";

/** One case: a request and 1.15's answer (a JSON body, or the page). */
interface Case {
  readonly operation: OperationName;
  readonly kind: Kind;
  readonly what: string;
  readonly body: Record<string, unknown> | ((emulator: TestEmulator) => Promise<Record<string, unknown>>);
  readonly status: number;
  readonly answer: Record<string, unknown> | typeof PAGE;
  /** The key (default: Global Admin). */
  readonly as?: string;
  /** With which authentication answers (default 1.15's, whose in-operation refusals are the product's own). */
  readonly answers?: AuthAnswers;
}

const groupImage = (groupId: unknown, imageId: unknown) => ({ target_group: { group_id: groupId }, target_image: { image_id: imageId } });

/** Chrome's whole record as update_image takes it back, with `change` made (update_image reads every compute field). */
const chromeUpdate = (change: Record<string, unknown>) => async (emulator: TestEmulator) => {
  const image = (await emulator.call("get_image", { image_id: CHROME })).body.image;
  const settings = [
    "image_id",
    "name",
    "friendly_name",
    "description",
    "memory",
    "cores",
    "cpu_allocation_method",
    "docker_registry",
    "docker_user",
    "docker_token",
    "gpu_count",
    "require_gpu",
    "uncompressed_size_mb",
    "hash",
    "persistent_profile_path",
  ];
  const configs = ["run_config", "exec_config", "volume_mappings"];
  return {
    target_image: {
      ...Object.fromEntries(settings.map((field) => [field, image[field]])),
      ...Object.fromEntries(configs.map((field) => [field, JSON.stringify(image[field])])),
      ...change,
    },
  };
};

const unauthorized115 = { error_message: "Unauthorized" };

const CASES: readonly Case[] = [
  // get_groups: no id, no value; the permission is its authentication's.
  { operation: "get_groups", kind: "missing permission", what: "a key without Groups View", body: {}, as: "nothing", status: 401, answer: unauthorized115 },

  {
    operation: "get_users_group",
    kind: "missing object",
    what: "a group that does not exist",
    body: { target_group: { group_id: UNKNOWN } },
    status: 200,
    answer: { error_message: `Invalid Group ID (${UNKNOWN})` },
  },
  {
    operation: "get_users_group",
    kind: "malformed id",
    what: "a group id that is no UUID",
    body: { target_group: { group_id: NOT_A_UUID } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "get_users_group",
    kind: "missing permission",
    what: "a system group without Groups View System",
    body: { target_group: { group_id: ALL_USERS } },
    as: "groups",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "get_users_group",
    kind: "refused value",
    what: "no target_group",
    body: {},
    status: 200,
    answer: { error_message: "Invalid Request: Missing required parameters" },
  },

  {
    operation: "create_group",
    kind: "missing permission",
    what: "a key without Groups Create",
    body: { target_group: { name: "Support", priority: 5 } },
    as: "groups",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "create_group",
    kind: "refused value",
    what: "a priority out of range",
    body: { target_group: { name: "Support", priority: 0 } },
    status: 200,
    answer: { error_message: "Invalid priority value (0)" },
  },
  {
    operation: "create_group",
    kind: "refused value",
    what: "a priority that is no number (Python's int() raises)",
    body: { target_group: { name: "Support", priority: "high" } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "create_group",
    kind: "refused value",
    what: "a name in use",
    body: { target_group: { name: "Engineering", priority: 5 } },
    status: 200,
    answer: { error_message: "Group (Engineering) already exists" },
  },

  {
    operation: "update_group",
    kind: "missing object",
    what: "a group that does not exist",
    body: { target_group: { group_id: UNKNOWN, name: "X" } },
    status: 200,
    answer: { error_message: "Invalid Request. group does not exit by that id" },
  },
  {
    operation: "update_group",
    kind: "malformed id",
    what: "a group id that is no UUID (1.15 checks it)",
    body: { target_group: { group_id: NOT_A_UUID, name: "X" } },
    status: 200,
    answer: { error_message: "Invalid Request. group_id must be a uuid" },
  },
  {
    operation: "update_group",
    kind: "missing permission",
    what: "a system group without Groups Modify System",
    body: { target_group: { group_id: ALL_USERS, description: "x" } },
    as: "groups",
    status: 401,
    answer: { error_message: "User not authorized to modify the target group." },
  },
  {
    operation: "update_group",
    kind: "missing permission",
    what: "a system group without Groups Modify System, with 1.19's answers",
    body: { target_group: { group_id: ALL_USERS, description: "x" } },
    as: "groups",
    answers: "1.19",
    status: 403,
    answer: { error_message: "Unauthorized." },
  },
  {
    operation: "update_group",
    kind: "refused value",
    what: "a priority its database cannot store",
    body: { target_group: { group_id: ENGINEERING, priority: "high" } },
    status: 500,
    answer: PAGE,
  },

  {
    operation: "delete_group",
    kind: "missing object",
    what: "a group that does not exist",
    body: { target_group: { group_id: UNKNOWN } },
    status: 200,
    answer: { error_message: `Group ${UNKNOWN} does not exist` },
  },
  {
    operation: "delete_group",
    kind: "malformed id",
    what: "a group id that is no UUID",
    body: { target_group: { group_id: NOT_A_UUID } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "delete_group",
    kind: "missing permission",
    what: "a key without Groups Delete",
    body: { target_group: { group_id: ENGINEERING } },
    as: "groups",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "delete_group",
    kind: "refused value",
    what: "a system group",
    body: { target_group: { group_id: ALL_USERS } },
    status: 200,
    answer: { error_message: "Group (All Users) is a protected group and cannot be deleted" },
  },

  {
    operation: "get_cast_configs",
    kind: "missing permission",
    what: "a key without Casting View",
    body: {},
    as: "nothing",
    status: 401,
    answer: unauthorized115,
  },

  {
    operation: "get_cast_config",
    kind: "missing object",
    what: "a config that does not exist",
    body: { cast_config_id: UNKNOWN },
    status: 400,
    answer: { error_message: `Cast config with id (${UNKNOWN}) does not exist` },
  },
  { operation: "get_cast_config", kind: "malformed id", what: "a config id that is no UUID", body: { cast_config_id: NOT_A_UUID }, status: 500, answer: PAGE },
  {
    operation: "get_cast_config",
    kind: "missing permission",
    what: "a key without Casting View",
    body: { cast_config_id: KIOSK },
    as: "nothing",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "get_cast_config",
    kind: "refused value",
    what: "no cast_config_id",
    body: {},
    status: 400,
    answer: { error_message: "Invalid Request. Missing required parameters" },
  },

  {
    operation: "get_image",
    kind: "missing object",
    what: "an image that does not exist",
    body: { image_id: UNKNOWN },
    status: 200,
    answer: { error_message: `Image(${UNKNOWN}) Does not Exist` },
  },
  { operation: "get_image", kind: "malformed id", what: "an image id that is no UUID", body: { image_id: NOT_A_UUID }, status: 500, answer: PAGE },
  {
    operation: "get_image",
    kind: "missing permission",
    what: "a key without Images View",
    body: { image_id: CHROME },
    as: "nothing",
    status: 401,
    answer: unauthorized115,
  },

  {
    operation: "create_image",
    kind: "missing object",
    what: "a zone it is restricted to that does not exist",
    body: { target_image: { name: "x:1", restrict_to_zone: true, zone_id: UNKNOWN } },
    status: 200,
    answer: { error_message: "Invalid Request: No Zone exists with id (ffffffff-ffff-ffff-ffff-ffffffffffff)" },
  },
  {
    operation: "create_image",
    kind: "missing object",
    what: "a zone that does not exist, without restrict_to_zone (its foreign key)",
    body: { target_image: { name: "x:1", zone_id: UNKNOWN } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "create_image",
    kind: "missing object",
    what: "a server pool that does not exist (its foreign key)",
    body: { target_image: { name: "x:1", server_pool_id: UNKNOWN } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "create_image",
    kind: "malformed id",
    what: "a zone id that is no UUID, with restrict_to_zone (1.15 checks it)",
    body: { target_image: { name: "x:1", restrict_to_zone: true, zone_id: NOT_A_UUID } },
    status: 200,
    answer: { error_message: "Invalid Request: zone_id must be a uuid" },
  },
  {
    operation: "create_image",
    kind: "malformed id",
    what: "a server id that is no UUID, without restrict_to_server",
    body: { target_image: { name: "x:1", server_id: NOT_A_UUID } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "create_image",
    kind: "missing permission",
    what: "a key without Images Create",
    body: { target_image: { name: "x:1" } },
    as: "images-modify",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "create_image",
    kind: "refused value",
    what: "a persistent profile path without {username} or {user_id}",
    body: { target_image: { name: "x:1", persistent_profile_path: "/profiles/shared" } },
    status: 200,
    answer: { error_message: "Invalid Request:Persistent Profile Path must contain either (username} or {user_id} as part of the path" },
  },

  {
    operation: "update_image",
    kind: "missing object",
    what: "an image that does not exist",
    body: { target_image: { image_id: UNKNOWN } },
    status: 200,
    answer: { error_message: `User (None) attempted to update an image (${UNKNOWN}) that does not exist.` },
  },
  {
    operation: "update_image",
    kind: "malformed id",
    what: "an image id that is no UUID",
    body: { target_image: { image_id: NOT_A_UUID } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "update_image",
    kind: "missing permission",
    what: "a compute change without Images Modify Resources",
    body: chromeUpdate({ cores: 4 }),
    as: "images-modify",
    status: 200,
    answer: { error_message: "User (None) is not authorized to make these changes to the image." },
  },
  {
    operation: "update_image",
    kind: "missing permission",
    what: "a compute change without Images Modify Resources, with 1.19's answers",
    body: chromeUpdate({ cores: 4 }),
    as: "images-modify",
    answers: "1.19",
    status: 403,
    answer: { error_message: "Unauthorized." },
  },
  {
    operation: "update_image",
    kind: "refused value",
    what: "a compute field left out without Images Modify Resources",
    body: { target_image: { image_id: CHROME, description: "x" } },
    as: "images-modify",
    status: 500,
    answer: PAGE,
  },

  {
    operation: "delete_image",
    kind: "missing object",
    what: "an image that does not exist",
    body: { target_image: { image_id: UNKNOWN } },
    status: 200,
    answer: { error_message: `Image(${UNKNOWN}) Does not Exist` },
  },
  {
    operation: "delete_image",
    kind: "malformed id",
    what: "an image id that is no UUID",
    body: { target_image: { image_id: NOT_A_UUID } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "delete_image",
    kind: "missing permission",
    what: "a key without Images Delete",
    body: { target_image: { image_id: TERMINAL } },
    as: "images-modify",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "delete_image",
    kind: "refused value",
    what: "an image a cast config launches",
    body: { target_image: { image_id: CHROME } },
    status: 200,
    answer: { error_message: "Image (Chrome): ID (1b000000-0000-0000-0000-000000000001) currently has (1) associated Casting Config(s) and cannot be deleted" },
  },

  {
    operation: "get_images_group",
    kind: "missing object",
    what: "a group that does not exist",
    body: { target_group: { group_id: UNKNOWN } },
    status: 200,
    answer: { error_message: "Request group does not exist" },
  },
  {
    operation: "get_images_group",
    kind: "malformed id",
    what: "a group id that is no UUID",
    body: { target_group: { group_id: NOT_A_UUID } },
    status: 500,
    answer: PAGE,
  },
  {
    operation: "get_images_group",
    kind: "missing permission",
    what: "a system group without Groups View System",
    body: { target_group: { group_id: ALL_USERS } },
    as: "groups",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "get_images_group",
    kind: "refused value",
    what: "no group id",
    body: { target_group: {} },
    status: 200,
    answer: { error_message: "Invalid Request: Missing group id" },
  },

  {
    operation: "add_images_group",
    kind: "missing object",
    what: "a group that does not exist (1.15 checks neither)",
    body: groupImage(UNKNOWN, CHROME),
    status: 500,
    answer: PAGE,
  },
  {
    operation: "add_images_group",
    kind: "missing object",
    what: "an image that does not exist",
    body: groupImage(ENGINEERING, UNKNOWN),
    status: 500,
    answer: PAGE,
  },
  { operation: "add_images_group", kind: "malformed id", what: "a group id that is no UUID", body: groupImage(NOT_A_UUID, CHROME), status: 500, answer: PAGE },
  {
    operation: "add_images_group",
    kind: "malformed id",
    what: "an image id that is no UUID",
    body: groupImage(ENGINEERING, NOT_A_UUID),
    status: 500,
    answer: PAGE,
  },
  {
    operation: "add_images_group",
    kind: "missing permission",
    what: "a system group without Groups Modify System (before the image is used)",
    body: groupImage(ALL_USERS, UNKNOWN),
    as: "groups",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "add_images_group",
    kind: "refused value",
    what: "no image id",
    body: { target_group: { group_id: ENGINEERING } },
    status: 200,
    answer: { error_message: "Invalid request, missing group or image id" },
  },

  {
    operation: "remove_images_group",
    kind: "missing object",
    what: "a group that does not exist",
    body: groupImage(UNKNOWN, CHROME),
    status: 200,
    answer: { error_message: "Group or image does not exist" },
  },
  {
    operation: "remove_images_group",
    kind: "malformed id",
    what: "an image id that is no UUID",
    body: groupImage(ENGINEERING, NOT_A_UUID),
    status: 500,
    answer: PAGE,
  },
  {
    operation: "remove_images_group",
    kind: "missing permission",
    what: "a system group without Groups Modify System",
    body: groupImage(ALL_USERS, CHROME),
    as: "groups",
    status: 401,
    answer: unauthorized115,
  },
  {
    operation: "remove_images_group",
    kind: "refused value",
    what: "no group id",
    body: { target_image: { image_id: CHROME } },
    status: 200,
    answer: { error_message: "Invalid request, missing group or image id" },
  },

  { operation: "get_licenses", kind: "missing permission", what: "a key without Licenses View", body: {}, as: "nothing", status: 401, answer: unauthorized115 },
];

describe("the product's failure answers, 1.15's where the sources show them", () => {
  it.each(CASES.map((c) => [`${c.operation}: ${c.kind}: ${c.what}`, c] as const))("%s", async (_name, c) => {
    const emulator = emulators[c.answers ?? "1.15"];
    const body = typeof c.body === "function" ? await c.body(emulator) : c.body;
    const before = await emulator.state();
    const res = await emulator.call(c.operation, body, c.as === undefined ? undefined : creds(c.as));
    expect({ status: res.status, body: res.body }).toEqual({ status: c.status, body: c.answer });
    // 1.15's page goes out labelled as JSON, as its JSON tool labelled the answer before the handler failed.
    expect(res.headers["content-type"]).toBe(c.answer === PAGE ? "application/json" : "application/json; charset=utf-8");
    expect(await emulator.state()).toEqual(before);
  });

  it("covers each product operation with every kind of failure it can meet", () => {
    const kinds = (operation: OperationName) => new Set(CASES.filter((c) => c.operation === operation).map((c) => c.kind));
    // Operations that take no id and no value can only lack a permission.
    for (const operation of ["get_groups", "get_cast_configs", "get_licenses"] as const) expect([...kinds(operation)]).toEqual(["missing permission"]);
    for (const operation of [
      "get_users_group",
      "update_group",
      "delete_group",
      "get_cast_config",
      "create_image",
      "update_image",
      "delete_image",
      "get_images_group",
      "add_images_group",
      "remove_images_group",
    ] as const)
      expect([...kinds(operation)].sort()).toEqual(["malformed id", "missing object", "missing permission", "refused value"]);
    expect([...kinds("create_group")].sort()).toEqual(["missing permission", "refused value"]);
    expect([...kinds("get_image")].sort()).toEqual(["malformed id", "missing object", "missing permission"]);
  });
});

describe("an id the product's database can read", () => {
  it.each([
    ["hyphenated", "e0e0e0e0-e0e0-4e0e-0e0e-0e0e0e0e0003"],
    ["in braces, upper case", "{E0E0E0E0-E0E0-4E0E-0E0E-0E0E0E0E0003}"],
    ["with a hyphen after any group of four", "e0e0-e0e0-e0e0-4e0e-0e0e-0e0e-0e0e-0003"],
  ])("is taken %s, as PostgreSQL reads a UUID", async (_what, groupId) => {
    const res = await emulators["1.15"].call("get_images_group", { target_group: { group_id: groupId } });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { images: [] } });
  });

  it.each([
    ["with spaces around", " e0e0e0e0e0e04e0e0e0e0e0e0e0e0003 "],
    ["a number", 42],
    ["a hyphen after three digits", "e0e-0e0e0e0e04e0e0e0e0e0e0e0e0003"],
  ])("fails the call %s", async (_what, groupId) => {
    const res = await emulators["1.15"].call("get_images_group", { target_group: { group_id: groupId } });
    expect({ status: res.status, body: res.body }).toEqual({ status: 500, body: PAGE });
  });
});

describe("spec mode", () => {
  it("keeps the JSON body of the emulator's own failures (the staging config a second time: 400, as the spec's refusals)", async () => {
    const spec = await startTestEmulator(SEED, { apiNames: "spec" });
    try {
      const config = { zone_id: ZONE, image_id: CHROME, num_sessions: 1, expiration: 1 };
      expect((await spec.call("create_staging_config", { target_staging_config: config })).status).toBe(200);
      const res = await spec.call("create_staging_config", { target_staging_config: config });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error_message: expect.stringMatching(/^A staging config for zone .* already exists/) });
    } finally {
      await spec.close();
    }
  });
});
