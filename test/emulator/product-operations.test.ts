/**
 * The product's own operations (get_groups, get_users_group, create_group, update_group,
 * delete_group, get_cast_configs, get_cast_config, get_licenses): served in product mode only,
 * with 1.15's request fields, answers and refusals (HTTP 200 with an `error_message` for the
 * admin-inherited group operations); and which paths each mode serves.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { closeUnderDependencies, isSpecOperation, OPERATIONS, requiredPermissions, type OperationName, type PermissionName } from "../../permissions";
import { OPERATION_RENAMES } from "../../emulator/vocabulary";
import { operationPath, wire } from "../helpers/emulator";
import { emulatorsInBothVocabularies } from "../helpers/emulator-pair";

const CHROME = "1b000000000000000000000000000001";
const ALL_USERS = "90000000000000000000000000000001";
const ADMINISTRATORS = "90000000000000000000000000000002";
const ENGINEERING = "90000000000000000000000000000003";
const ALICE = "a1000000000000000000000000000001";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";

const PRODUCT_OPERATIONS = (Object.keys(OPERATIONS) as OperationName[]).filter((op) => !isSpecOperation(op));
const RENAMED = Object.keys(OPERATION_RENAMES) as OperationName[];

/** Keys for the permission table: one holding exactly what an operation needs, and one per permission less. */
const keys: { name: string; key: string; secret: string; permissions: PermissionName[] }[] = [];
const table = PRODUCT_OPERATIONS.map((operation) => {
  // All that it requires, and the first of the permissions one of which it requires (update_image: Images Modify or Images Modify Resources).
  const requirement = requiredPermissions(operation);
  const needed = [...closeUnderDependencies([...requirement.all, ...requirement.oneOf.slice(0, 1)])];
  const creds = (name: string, permissions: PermissionName[]) => {
    keys.push({ name, key: `key-${name}`, secret: `secret-${name}`, permissions });
    return { key: `key-${name}`, secret: `secret-${name}` };
  };
  return {
    operation,
    exact: creds(`exact-${operation}`, needed),
    lacking: needed.map((removed, i) => ({
      removed,
      creds: creds(
        `lacks-${operation}-${i}`,
        needed.filter((p) => p !== removed),
      ),
    })),
  };
});

const SEED = {
  apiKeys: [...keys, { name: "groups-view", key: "groups-view", secret: "s", permissions: ["Groups View"] as PermissionName[] }],
  groups: [
    { group_id: ALL_USERS, name: "All Users" },
    { group_id: ADMINISTRATORS, name: "Administrators" },
    { group_id: ENGINEERING, name: "Engineering", description: "Builders", priority: 10 },
  ],
  images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
  zones: [{ zone_id: "0a000000000000000000000000000001", zone_name: "default" }],
  users: [{ user_id: ALICE, username: "alice", groups: ["Engineering"] }, { username: "bob", groups: ["Engineering"] }, { username: "carol" }],
  activationKeys: [{ activation_key: "ACTIVATION-KEY-1", seats: 10, features: { session_casting: true } }],
};

const emulators = emulatorsInBothVocabularies(SEED);

describe("which paths each mode serves", () => {
  it.each(PRODUCT_OPERATIONS)("spec mode answers %s as an unknown operation", async (operation) => {
    expect(wire(await emulators.spec.call(operation, {}))).toEqual({ status: 404, body: { error_message: `Unknown API path (/api/public/${operation})` } });
  });

  it.each(RENAMED)("product mode has no %s, only its product name", async (operation) => {
    const res = await emulators.product.raw("POST", OPERATIONS[operation].path, { body: "{}", headers: { "content-type": "application/json" } });
    expect(wire(res)).toEqual({ status: 404, body: { error_message: `Unknown API path (/api/public/${operation})` } });
    expect((await emulators.product.call(operation, {})).status).not.toBe(404);
  });

  it.each(RENAMED)("spec mode has no product name for %s", async (operation) => {
    const path = operationPath(operation, "product");
    const res = await emulators.spec.raw("POST", path, { body: "{}", headers: { "content-type": "application/json" } });
    expect(wire(res)).toEqual({ status: 404, body: { error_message: `Unknown API path (${path})` } });
  });
});

describe("the permissions of the product's operations (catalogue)", () => {
  it.each(table.map((row) => [row.operation, row.exact] as const))("%s is not refused to a key holding exactly what it needs", async (operation, creds) => {
    const res = await emulators.product.call(operation, {}, creds);
    expect([401, 403]).not.toContain(res.status);
    expect(res.status).toBeLessThan(500);
  });

  it.each(table.flatMap((row) => row.lacking.map((l) => [row.operation, l.removed, l.creds] as const)))(
    "%s is refused with 403 without %s",
    async (operation, _removed, creds) => {
      expect(wire(await emulators.product.call(operation, {}, creds))).toEqual({ status: 403, body: { error_message: "Unauthorized." } });
    },
  );
});

describe("groups", () => {
  it("get_groups lists every group with its priority, description and metadata", async () => {
    const res = await emulators.product.call("get_groups");
    expect(res.status).toBe(200);
    expect(res.body.groups).toEqual([
      {
        group_id: ALL_USERS,
        name: "All Users",
        description: "Every user belongs to this group",
        priority: 4095,
        is_system: true,
        group_metadata: {},
        group_mappings: [],
      },
      {
        group_id: ADMINISTRATORS,
        name: "Administrators",
        description: "Administrators of the installation",
        priority: 1,
        is_system: true,
        group_metadata: {},
        group_mappings: [],
      },
      { group_id: ENGINEERING, name: "Engineering", description: "Builders", priority: 10, is_system: false, group_metadata: {}, group_mappings: [] },
    ]);
  });

  it("get_groups shows system groups only to a key that may view them (Groups View System)", async () => {
    const res = await emulators.product.call("get_groups", {}, { key: "groups-view", secret: "s" });
    expect(res.body.groups.map((g: { name: string }) => g.name)).toEqual(["Engineering"]);
  });

  it("get_users_group answers the members as {name, user_id} with the total, filters by name, sorts and pages", async () => {
    const members = await emulators.product.call("get_users_group", { target_group: { group_id: ENGINEERING } });
    expect(wire(members)).toEqual({
      status: 200,
      body: {
        users: [
          { name: "alice", user_id: ALICE },
          { name: "bob", user_id: expect.any(String) },
        ],
        total: 2,
      },
    });
    const page = await emulators.product.call("get_users_group", { target_group: { group_id: ENGINEERING }, sort_by: "username", page: 0, page_size: 1 });
    expect(page.body).toEqual({ users: [{ name: "bob", user_id: expect.any(String) }], total: 2 });
    const filtered = await emulators.product.call("get_users_group", { target_group: { group_id: ENGINEERING }, filters: [{ id: "name", value: "ali" }] });
    expect(filtered.body).toEqual({ users: [{ name: "alice", user_id: ALICE }], total: 1 });
  });

  it("get_users_group refuses with HTTP 200: no group, an unknown group", async () => {
    expect(wire(await emulators.product.call("get_users_group", {}))).toEqual({
      status: 200,
      body: { error_message: "Invalid Request: Missing required parameters" },
    });
    expect(wire(await emulators.product.call("get_users_group", { target_group: { group_id: UNKNOWN } }))).toEqual({
      status: 200,
      body: { error_message: `Invalid Group ID (${UNKNOWN})` },
    });
  });

  it("get_users_group of a system group needs Groups View System", async () => {
    const res = await emulators.product.call("get_users_group", { target_group: { group_id: ALL_USERS } }, { key: "groups-view", secret: "s" });
    expect(wire(res)).toEqual({ status: 403, body: { error_message: "Unauthorized." } });
  });

  let created: string;
  it("create_group answers {group_mappings, group} with the data model's fields", async () => {
    const res = await emulators.product.call("create_group", {
      target_group: { name: "Ops", priority: 50, description: "Night shift", group_metadata: { team: "ops" } },
    });
    created = res.body.group?.group_id;
    expect(wire(res)).toEqual({
      status: 200,
      body: {
        group_mappings: [],
        group: {
          group_id: created,
          name: "Ops",
          is_system: false,
          description: "Night shift",
          priority: 50,
          program_data: {},
          group_metadata: { team: "ops" },
        },
      },
    });
  });

  it.each([
    ["no target_group", {}, "Invalid Request. Missing required parameters"],
    ["no priority", { target_group: { name: "X" } }, "Invalid Request. Missing required parameters"],
    ["no name", { target_group: { priority: 5 } }, "Invalid Request. Missing required parameters"],
    ["a name in use", { target_group: { name: "Engineering", priority: 5 } }, "Group (Engineering) already exists"],
    ["priority 0", { target_group: { name: "X", priority: 0 } }, "Invalid priority value (0)"],
    ["priority 4096", { target_group: { name: "X", priority: 4096 } }, "Invalid priority value (4096)"],
  ])("create_group refuses %s with HTTP 200 and changes nothing", async (_what, body, message) => {
    const before = await emulators.product.state();
    expect(wire(await emulators.product.call("create_group", body))).toEqual({ status: 200, body: { error_message: message } });
    expect(await emulators.product.state()).toEqual(before);
  });

  it("update_group changes the fields sent and answers the group", async () => {
    const res = await emulators.product.call("update_group", { target_group: { group_id: created, name: "Operations", priority: 60 } });
    expect(wire(res)).toEqual({
      status: 200,
      body: {
        group_mappings: [],
        group: {
          group_id: created,
          name: "Operations",
          is_system: false,
          description: "Night shift",
          priority: 60,
          program_data: {},
          group_metadata: { team: "ops" },
        },
      },
    });
  });

  it.each([
    ["no group_id", { target_group: { name: "Y" } }, "Invalid Request. Missing required parameters"],
    ["a group_id that is not a UUID", { target_group: { group_id: "nope" } }, "Invalid Request. group_id must be a uuid"],
    ["an unknown group", { target_group: { group_id: UNKNOWN } }, "Invalid Request. group does not exit by that id"],
  ])("update_group refuses %s with HTTP 200", async (_what, body, message) => {
    expect(wire(await emulators.product.call("update_group", body))).toEqual({ status: 200, body: { error_message: message } });
  });

  it("update_group refuses another group's name with HTTP 200 (the emulator's rule: names identify groups)", async () => {
    expect(wire(await emulators.product.call("update_group", { target_group: { group_id: created, name: "Engineering" } }))).toEqual({
      status: 200,
      body: { error_message: "Group (Engineering) already exists" },
    });
  });

  it("update_group of a system group needs Groups Modify System", async () => {
    const key = table.find((r) => r.operation === "update_group")!.exact;
    const res = await emulators.product.call("update_group", { target_group: { group_id: ALL_USERS, description: "x" } }, key);
    expect(wire(res)).toEqual({ status: 403, body: { error_message: "Unauthorized." } });
  });

  it.each([
    ["no group", {}, "Invalid Request: Missing required parameters"],
    ["a force that is not a boolean", { target_group: { group_id: ENGINEERING }, force: "yes" }, "Invalid Request. 'force' option must be boolean"],
    ["an unknown group", { target_group: { group_id: UNKNOWN } }, `Group ${UNKNOWN} does not exist`],
    ["a system group", { target_group: { group_id: ADMINISTRATORS } }, "Group (Administrators) is a protected group and cannot be deleted"],
    ["a group with members, without force", { target_group: { group_id: ENGINEERING } }, "Group contains (2) users and 'force' option not set to True"],
  ])("delete_group refuses %s with HTTP 200", async (_what, body, message) => {
    expect(wire(await emulators.product.call("delete_group", body))).toEqual({ status: 200, body: { error_message: message } });
  });

  it("delete_group refuses a group a cast config names, then deletes it with its members once free", async () => {
    const cast = await emulators.product.call("create_cast_config", { target_cast_config: { key: "eng", image_id: CHROME, group_id: ENGINEERING } });
    const castId = cast.body.cast_config.cast_config_id;
    expect(wire(await emulators.product.call("delete_group", { target_group: { group_id: ENGINEERING }, force: true }))).toEqual({
      status: 200,
      body: { error_message: `Group (Engineering) is referenced in Cast configuration (${castId}) and cannot be deleted` },
    });
    await emulators.product.call("delete_cast_config", { cast_config_id: castId });
    expect(wire(await emulators.product.call("delete_group", { target_group: { group_id: ENGINEERING }, force: true }))).toEqual({ status: 200, body: {} });
    const alice = (await emulators.product.call("get_user", { target_user: { user_id: ALICE } })).body.user;
    expect(alice.groups.map((g: { name: string }) => g.name)).toEqual(["All Users"]);
    expect(wire(await emulators.product.call("delete_group", { target_group: { group_id: created } }))).toEqual({ status: 200, body: {} });
  });
});

describe("cast configs", () => {
  let id: string;
  beforeAll(async () => {
    id = (await emulators.product.call("create_cast_config", { target_cast_config: { key: "kiosk", image_id: CHROME, allow_kasm_audio: true } })).body
      .cast_config.cast_config_id;
  });

  it("get_cast_configs lists them; get_cast_config reads one by a top-level cast_config_id", async () => {
    const list = await emulators.product.call("get_cast_configs");
    expect(list.status).toBe(200);
    const one = await emulators.product.call("get_cast_config", { cast_config_id: id });
    expect(one.status).toBe(200);
    expect(list.body.cast_configs).toEqual([one.body.cast_config]);
    expect(one.body.cast_config).toMatchObject({
      cast_config_id: id,
      key: "kiosk",
      image_friendly_name: "Chrome",
      allow_kasm_audio: true,
      allow_kasm_gamepad: false,
    });
  });

  it("update_cast_config leaves a field sent as null as it is (1.15), valid_until included; spec mode's null clears it", async () => {
    for (const emulator of [emulators.product, emulators.spec]) {
      const key = `expiring-${emulator.apiNames}`;
      const made = await emulator.call("create_cast_config", {
        target_cast_config: { key, image_id: CHROME, valid_until: "2031-12-31 23:59:59", error_url: "https://example.org/sorry" },
      });
      const configId = made.body.cast_config.cast_config_id;
      const res = await emulator.call("update_cast_config", {
        target_cast_config: { cast_config_id: configId, valid_until: null, error_url: null, casting_config_name: "Renamed" },
      });
      expect(res.status).toBe(200);
      const kept = emulator === emulators.product;
      expect(res.body.cast_config).toMatchObject({
        casting_config_name: "Renamed",
        valid_until: kept ? "2031-12-31 23:59:59" : null,
        error_url: kept ? "https://example.org/sorry" : null,
      });
    }
  });

  it("get_cast_config refuses with 400: no id, an unknown id", async () => {
    expect(wire(await emulators.product.call("get_cast_config", {}))).toEqual({
      status: 400,
      body: { error_message: "Invalid Request. Missing required parameters" },
    });
    expect(wire(await emulators.product.call("get_cast_config", { cast_config_id: UNKNOWN }))).toEqual({
      status: 400,
      body: { error_message: `Cast config with id (${UNKNOWN}) does not exist` },
    });
  });
});

describe("staging configs", () => {
  it("a second config of a zone and image fails with 500, as 1.15's unique constraint fails the write unhandled; spec mode answers 400", async () => {
    for (const emulator of [emulators.product, emulators.spec]) {
      const zone = Object.keys((await emulator.state()).zones)[0];
      const target = { zone_id: zone, image_id: CHROME, num_sessions: 1, expiration: 1 };
      expect((await emulator.call("create_staging_config", { target_staging_config: target })).status).toBe(200);
      const before = await emulator.state();
      const second = await emulator.call("create_staging_config", { target_staging_config: { ...target, num_sessions: 2 } });
      expect(second.status).toBe(emulator === emulators.product ? 500 : 400);
      expect(await emulator.state()).toEqual(before);
    }
  });
});

describe("an unknown user, in each operation's own words", () => {
  it("get_attributes, get_login and update_user_attributes answer 400 as 1.15 words it; spec mode answers Unknown user (<id>)", async () => {
    expect(wire(await emulators.product.call("get_attributes", { target_user: { user_id: UNKNOWN } }))).toEqual({
      status: 400,
      body: { error_message: `No user found with name/id: (${UNKNOWN})` },
    });
    expect(wire(await emulators.product.call("get_login", { target_user: { user_id: UNKNOWN } }))).toEqual({
      status: 400,
      body: { error_message: `No user found with id: (${UNKNOWN})` },
    });
    expect(wire(await emulators.product.call("update_user_attributes", { target_user_attributes: { user_id: UNKNOWN, show_tips: true } }))).toEqual({
      status: 400,
      body: { error_message: "Missing or invalid user" },
    });
    for (const operation of ["get_attributes", "get_login"] as const)
      expect(wire(await emulators.spec.call(operation, { target_user: { user_id: UNKNOWN } }))).toEqual({
        status: 400,
        body: { error_message: `Unknown user (${UNKNOWN})` },
      });
  });
});

describe("licenses", () => {
  it("get_licenses lists none, then the license activate added", async () => {
    expect(wire(await emulators.product.call("get_licenses"))).toEqual({ status: 200, body: { licenses: [] } });
    const { license } = (await emulators.product.call("activate", { activation_key: "ACTIVATION-KEY-1", seats: 3 })).body;
    expect(wire(await emulators.product.call("get_licenses"))).toEqual({ status: 200, body: { licenses: [license] } });
    expect(license).toMatchObject({ limit: 3, features: expect.objectContaining({ session_casting: true }) });
  });
});
