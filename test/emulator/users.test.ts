/**
 * Users: create, read, list (paging, sorting, filters), update, delete, log out, attributes,
 * server assignments and login links. Texts from the spec and the product's observed answers are pinned
 * literally; so are the emulator's own texts that emulator/README.md documents.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "../../emulator/store";
import { startTestEmulator, type TestEmulator, hyphenated, wire } from "../helpers/emulator";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const WS1 = "5e000000000000000000000000000001";
const WS2 = "5e000000000000000000000000000002";
const ALL_USERS = "90000000000000000000000000000001";
const ADMINISTRATORS = "90000000000000000000000000000002";
const ENGINEERING = "90000000000000000000000000000003";
const ALICE = "a1000000000000000000000000000001";
const BOB = "a1000000000000000000000000000002";
const DAVE = "a1000000000000000000000000000004";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
const HEX_ID = /^[0-9a-f]{32}$/;

/** The hyphenated UUID form of a 32-hex id. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const KEYS = {
  usersView: { key: "users-view", secret: "s1" },
  usersGroupsView: { key: "users-groups-view", secret: "s2" },
  usersSessionsView: { key: "users-sessions-view", secret: "s3" },
  usersServersViewAlone: { key: "users-servers-view-alone", secret: "s4" },
  usersServersViewClosed: { key: "users-servers-view-closed", secret: "s5" },
};

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [
      { name: "uv", ...KEYS.usersView, permissions: ["Users View"] },
      { name: "ugv", ...KEYS.usersGroupsView, permissions: ["Users View", "Groups View"] },
      { name: "usv", ...KEYS.usersSessionsView, permissions: ["Users View", "Sessions View"] },
      { name: "usrv", ...KEYS.usersServersViewAlone, permissions: ["Users View", "Servers View"] },
      {
        name: "usrvc",
        ...KEYS.usersServersViewClosed,
        permissions: ["Users View", "Servers View", "Server Pools View", "Zones View"],
      },
    ].map(({ name, key, secret, permissions }) => ({ name, key, secret, permissions: permissions as never })),
    groups: [
      { group_id: ALL_USERS, name: "All Users" },
      { group_id: ADMINISTRATORS, name: "Administrators" },
      { group_id: ENGINEERING, name: "Engineering" },
    ],
    zones: [{ zone_id: ZONE, zone_name: "default" }],
    images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
    servers: [
      { server_id: WS1, hostname: "ws1.example.org", friendly_name: "Workstation 1", zone_name: "default" },
      { server_id: WS2, hostname: "ws2.example.org", friendly_name: "Workstation 2", zone_name: "default" },
    ],
    users: [
      { user_id: ALICE, username: "alice", first_name: "Alice", groups: ["Engineering"] },
      { user_id: BOB, username: "bob" },
      { user_id: DAVE, username: "dave" },
    ],
    sessions: [{ username: "alice", image_name: "kasmweb/chrome:1.16.0" }],
  });
});
afterAll(() => emulator.close());

describe("create_user", () => {
  let carolId: string;

  it("creates a user: username trimmed and lowercased, realm local, in All Users, answered as {user}", async () => {
    const res = await emulator.call("create_user", {
      target_user: {
        username: "  Carol.Smith  ",
        first_name: "Carol",
        last_name: "Smith",
        phone: "+1 555 0100",
        organization: "Example Org",
        locked: false,
        disabled: false,
        password: "Correct-Horse-42",
      },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["user"]);
    carolId = res.body.user.user_id;
    expect(res.body).toEqual({
      user: {
        user_id: expect.stringMatching(HEX_ID),
        username: "carol.smith",
        first_name: "Carol",
        last_name: "Smith",
        phone: "+1 555 0100",
        organization: "Example Org",
        notes: null,
        locked: false,
        disabled: false,
        anonymous: false,
        realm: "local",
        created: expect.stringMatching(TIMESTAMP),
        last_session: null,
        two_factor: false,
        program_id: null,
        hash: expect.any(String),
        groups: [{ name: "All Users", group_id: ALL_USERS }],
        wss: [],
        assigned_servers: [],
        company: {},
      },
    });
  });

  it("never returns the password, and the store keeps only a salted hash of it", async () => {
    const res = await emulator.call("get_user", { target_user: { user_id: carolId } });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("Correct-Horse-42");
    expect(text).not.toMatch(/password/i);
    const stored = (await emulator.state()).users[carolId];
    expect(JSON.stringify(stored)).not.toContain("Correct-Horse-42");
    expect(stored.password_hash).toBe(hashSecret("Correct-Horse-42", stored.password_salt));
  });

  it("creates a user without a password (a random one is set)", async () => {
    const res = await emulator.call("create_user", { target_user: { username: "nopass" } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe("nopass");
  });

  it.each([
    ["no target_user", {}],
    ["no username", { target_user: { first_name: "Nobody" } }],
    ["an empty username", { target_user: { username: "" } }],
    ["a blank username", { target_user: { username: "   " } }],
  ])("answers 400 Invalid Request: Missing required parameters for %s", async (_what, body) => {
    const before = await emulator.state();
    expect(wire(await emulator.call("create_user", body))).toEqual({
      status: 400,
      body: { error_message: "Invalid Request: Missing required parameters" },
    });
    expect(await emulator.state()).toEqual(before);
  });

  it("answers 400 for a duplicate username, whatever its case and surrounding spaces", async () => {
    const before = await emulator.state();
    expect(wire(await emulator.call("create_user", { target_user: { username: " CAROL.smith" } }))).toEqual({
      status: 400,
      body: { error_message: "Error creating user (carol.smith): (User already exists)" },
    });
    expect(await emulator.state()).toEqual(before);
  });

  it("cuts first_name, last_name, phone and organization to 64 characters", async () => {
    const long = "x".repeat(70);
    const res = await emulator.call("create_user", {
      target_user: { username: "longnames", first_name: long, last_name: long, phone: long, organization: long },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      first_name: "x".repeat(64),
      last_name: "x".repeat(64),
      phone: "x".repeat(64),
      organization: "x".repeat(64),
    });
  });
});

describe("get_user", () => {
  it("finds a user by 32-hex user_id", async () => {
    const res = await emulator.call("get_user", { target_user: { user_id: ALICE } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ user_id: ALICE, username: "alice", first_name: "Alice" });
  });

  it("finds a user by hyphenated user_id and answers with the hex id", async () => {
    const res = await emulator.call("get_user", { target_user: { user_id: hyphenated(ALICE) } });
    expect(res.status).toBe(200);
    expect(res.body.user.user_id).toBe(ALICE);
  });

  it("finds a user by username in any case", async () => {
    for (const username of ["alice", "ALICE", "Alice"]) {
      const res = await emulator.call("get_user", { target_user: { username } });
      expect(res.status).toBe(200);
      expect(res.body.user.user_id).toBe(ALICE);
    }
  });

  it("shows the spec's get_user fields: groups, active sessions, assigned servers, company", async () => {
    const res = await emulator.call("get_user", { target_user: { user_id: ALICE } });
    expect(Object.keys(res.body.user).sort()).toEqual(
      [
        "user_id",
        "username",
        "first_name",
        "last_name",
        "phone",
        "organization",
        "notes",
        "locked",
        "disabled",
        "anonymous",
        "realm",
        "created",
        "last_session",
        "two_factor",
        "program_id",
        "hash",
        "groups",
        "wss",
        "assigned_servers",
        "company",
      ].sort(),
    );
    expect(res.body.user.groups).toEqual(
      expect.arrayContaining([
        { name: "All Users", group_id: ALL_USERS },
        { name: "Engineering", group_id: ENGINEERING },
      ]),
    );
    expect(res.body.user.wss).toHaveLength(1);
    expect(res.body.user.wss[0]).toMatchObject({ ws_id: expect.stringMatching(HEX_ID), operational_status: "running" });
  });

  it.each([
    ["an unknown user_id", { target_user: { user_id: UNKNOWN } }],
    ["a user_id that is not a UUID", { target_user: { user_id: "alice" } }],
    ["an unknown username", { target_user: { username: "nobody" } }],
    ["an empty target_user", { target_user: {} }],
    ["no target_user", {}],
  ])("answers 400 Invalid Request for %s", async (_what, body) => {
    expect(wire(await emulator.call("get_user", body))).toEqual({ status: 400, body: { error_message: "Invalid Request" } });
  });
});

describe("user fields follow the key's View permissions", () => {
  const fieldsSeenBy = async (creds: { key: string; secret: string }) => {
    const one = await emulator.call("get_user", { target_user: { user_id: ALICE } }, creds);
    const list = await emulator.call("get_users", { filters: [{ id: "username", value: "alice" }] }, creds);
    expect(one.status).toBe(200);
    expect(list.status).toBe(200);
    const optional = ["groups", "wss", "assigned_servers", "company"];
    const seen = optional.filter((f) => f in one.body.user);
    expect(optional.filter((f) => f in list.body.users[0])).toEqual(seen);
    return seen;
  };

  it("a key with Users View only sees none of groups, wss, assigned_servers, company", async () => {
    expect(await fieldsSeenBy(KEYS.usersView)).toEqual([]);
  });

  it("groups needs Groups View", async () => {
    expect(await fieldsSeenBy(KEYS.usersGroupsView)).toEqual(["groups"]);
  });

  it("wss needs Sessions View", async () => {
    expect(await fieldsSeenBy(KEYS.usersSessionsView)).toEqual(["wss"]);
  });

  it("assigned_servers needs Servers View in effect: not without Server Pools View and Zones View", async () => {
    expect(await fieldsSeenBy(KEYS.usersServersViewAlone)).toEqual([]);
    expect(await fieldsSeenBy(KEYS.usersServersViewClosed)).toEqual(["assigned_servers"]);
  });
});

describe("update_user", () => {
  it("changes only the fields sent", async () => {
    const before = (await emulator.call("get_user", { target_user: { user_id: BOB } })).body.user;
    const res = await emulator.call("update_user", { target_user: { user_id: BOB, first_name: "Robert", locked: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: { ...before, first_name: "Robert", locked: true } });
    const after = await emulator.call("update_user", { target_user: { user_id: hyphenated(BOB), disabled: true, locked: false } });
    expect(after.body.user).toEqual({ ...before, first_name: "Robert", locked: false, disabled: true });
  });

  it("sets null fields and cuts names, phone and organization to 64 characters", async () => {
    const long = "y".repeat(65);
    const res = await emulator.call("update_user", {
      target_user: { user_id: BOB, last_name: long, phone: long, organization: long, first_name: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ first_name: null, last_name: "y".repeat(64), phone: "y".repeat(64), organization: "y".repeat(64) });
  });

  it("renames a user, trimming and lowercasing the new name", async () => {
    const res = await emulator.call("update_user", { target_user: { user_id: BOB, username: "  Robert " } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe("robert");
    expect((await emulator.call("get_user", { target_user: { username: "bob" } })).status).toBe(400);
    expect((await emulator.call("get_user", { target_user: { username: "robert" } })).body.user.user_id).toBe(BOB);
  });

  it("refuses a rename onto an existing username with 400, and changes nothing", async () => {
    const before = await emulator.state();
    expect(wire(await emulator.call("update_user", { target_user: { user_id: BOB, username: "ALICE", first_name: "Eve" } }))).toEqual({
      status: 400,
      body: { error_message: "Error updating user (alice): (User already exists)" },
    });
    expect(await emulator.state()).toEqual(before);
  });

  it("keeps a user's own name when it is sent unchanged", async () => {
    const res = await emulator.call("update_user", { target_user: { user_id: BOB, username: "robert", notes: "same name" } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ username: "robert", notes: "same name" });
  });

  it("changes the password: the stored hash matches the new one, and the response does not show it", async () => {
    const res = await emulator.call("update_user", { target_user: { user_id: BOB, password: "New-Secret-99" } });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain("New-Secret-99");
    const stored = (await emulator.state()).users[BOB];
    expect(stored.password_hash).toBe(hashSecret("New-Secret-99", stored.password_salt));
  });

  it("answers 400 Unknown User for an unknown user_id", async () => {
    expect(wire(await emulator.call("update_user", { target_user: { user_id: UNKNOWN, first_name: "X" } }))).toEqual({
      status: 400,
      body: { error_message: "Unknown User" },
    });
  });
});

describe("delete_user and logout_user", () => {
  const sessionsOf = async (userId: string) => Object.values((await emulator.state()).sessions).filter((s: any) => s.user_id === userId);

  it("refuses to delete a user with a session when force is not set, and deletes nothing", async () => {
    expect(await sessionsOf(ALICE)).toHaveLength(1);
    const before = await emulator.state();
    for (const body of [{ target_user: { user_id: ALICE } }, { target_user: { user_id: ALICE }, force: false }]) {
      expect(wire(await emulator.call("delete_user", body))).toEqual({
        status: 400,
        body: { error_message: "Users contains (1) kasms and 'force' option not set to True" },
      });
    }
    expect(await emulator.state()).toEqual(before);
  });

  it("logout_user ends every session of the user and answers {}", async () => {
    const req = await emulator.call("request_ws", { user_id: DAVE, image_id: CHROME });
    expect(req.status).toBe(200);
    await emulator.call("request_ws", { user_id: DAVE, image_id: CHROME });
    expect(await sessionsOf(DAVE)).toHaveLength(2);
    expect(wire(await emulator.call("logout_user", { target_user: { user_id: DAVE } }))).toEqual({ status: 200, body: {} });
    expect(await sessionsOf(DAVE)).toEqual([]);
    const user = await emulator.call("get_user", { target_user: { user_id: DAVE } });
    expect(user.body.user.wss).toEqual([]);
  });

  it("logout_user of an unknown user answers 400 Unknown user (<id>)", async () => {
    expect(wire(await emulator.call("logout_user", { target_user: { user_id: UNKNOWN } }))).toEqual({
      status: 400,
      body: { error_message: `Unknown user (${UNKNOWN})` },
    });
  });

  it("with force deletes the user and the sessions", async () => {
    expect(wire(await emulator.call("delete_user", { target_user: { user_id: ALICE }, force: true }))).toEqual({ status: 200, body: {} });
    const state = await emulator.state();
    expect(state.users[ALICE]).toBeUndefined();
    expect(state.userAttributes[ALICE]).toBeUndefined();
    expect(await sessionsOf(ALICE)).toEqual([]);
    expect(wire(await emulator.call("get_user", { target_user: { user_id: ALICE } }))).toEqual({
      status: 400,
      body: { error_message: "Invalid Request" },
    });
  });

  it("answers 400 Unknown user (<id>) for a user that does not exist (or no longer does)", async () => {
    for (const id of [UNKNOWN, ALICE]) {
      expect(wire(await emulator.call("delete_user", { target_user: { user_id: id } }))).toEqual({
        status: 400,
        body: { error_message: `Unknown user (${id})` },
      });
    }
  });

  it("deletes a user without sessions without force, by hyphenated id", async () => {
    const created = await emulator.call("create_user", { target_user: { username: "short-lived" } });
    const id = created.body.user.user_id;
    expect(wire(await emulator.call("delete_user", { target_user: { user_id: hyphenated(id) } }))).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).users[id]).toBeUndefined();
  });
});

describe("user attributes", () => {
  it("get_attributes answers {user_attributes} with the defaults of a new user", async () => {
    const res = await emulator.call("get_attributes", { target_user: { user_id: DAVE } });
    expect(wire(res)).toEqual({
      status: 200,
      body: {
        user_attributes: {
          user_attributes_id: expect.stringMatching(HEX_ID),
          user_id: DAVE,
          ssh_public_key: null,
          show_tips: true,
          toggle_control_panel: true,
          default_image: null,
          auto_login_ws: null,
        },
      },
    });
  });

  it("update_user_attributes answers {} and changes the fields sent", async () => {
    const res = await emulator.call("update_user_attributes", {
      target_user_attributes: { user_id: DAVE, default_image: hyphenated(CHROME), show_tips: false, auto_login_ws: true },
    });
    expect(wire(res)).toEqual({ status: 200, body: {} });
    const after = await emulator.call("get_attributes", { target_user: { user_id: DAVE } });
    expect(after.body.user_attributes).toMatchObject({
      user_id: DAVE,
      default_image: CHROME,
      show_tips: false,
      toggle_control_panel: true,
      auto_login_ws: true,
    });
  });

  it("refuses a default_image that does not exist, and changes nothing", async () => {
    const before = await emulator.state();
    const res = await emulator.call("update_user_attributes", {
      target_user_attributes: { user_id: DAVE, default_image: UNKNOWN, show_tips: true },
    });
    expect(wire(res)).toEqual({ status: 400, body: { error_message: `Invalid Image ID (${UNKNOWN})` } });
    expect(await emulator.state()).toEqual(before);
  });

  it("answers 400 Unknown user (<id>) for the attributes of an unknown user", async () => {
    const expected = { status: 400, body: { error_message: `Unknown user (${UNKNOWN})` } };
    expect(wire(await emulator.call("get_attributes", { target_user: { user_id: UNKNOWN } }))).toEqual(expected);
    expect(wire(await emulator.call("update_user_attributes", { target_user_attributes: { user_id: UNKNOWN, show_tips: true } }))).toEqual(expected);
  });
});

describe("server assignments (many-to-many)", () => {
  const assign = (userId: string, serverId: string) =>
    emulator.call("assign_user_server", { target_user: { user_id: userId }, target_server: { server_id: serverId } });
  const unassign = (userId: string, serverId: string) =>
    emulator.call("unassign_user_server", { target_user: { user_id: userId }, target_server: { server_id: serverId } });
  const assignedServers = async (userId: string) => (await emulator.call("get_user", { target_user: { user_id: userId } })).body.user.assigned_servers;
  const assignedUsers = async (serverId: string) => (await emulator.call("get_servers", { target_server: { server_id: serverId } })).body.server.assigned_users;

  it("assign_user_server answers {user_server_assignment: {user_id, server_id}}", async () => {
    expect(wire(await assign(DAVE, WS1))).toEqual({ status: 200, body: { user_server_assignment: { user_id: DAVE, server_id: WS1 } } });
  });

  it("one user may be assigned to two servers", async () => {
    expect(wire(await assign(hyphenated(DAVE), hyphenated(WS2)))).toEqual({
      status: 200,
      body: { user_server_assignment: { user_id: DAVE, server_id: WS2 } },
    });
    expect(await assignedServers(DAVE)).toEqual([
      { server_id: WS1, hostname: "ws1.example.org", friendly_name: "Workstation 1", server_assignment_enabled: true },
      { server_id: WS2, hostname: "ws2.example.org", friendly_name: "Workstation 2", server_assignment_enabled: true },
    ]);
  });

  it("two users may be assigned to one server, as get_servers shows", async () => {
    expect((await assign(BOB, WS1)).status).toBe(200);
    expect(await assignedUsers(WS1)).toEqual(
      expect.arrayContaining([
        { user_id: DAVE, username: "dave" },
        { user_id: BOB, username: "robert" },
      ]),
    );
    expect(await assignedUsers(WS1)).toHaveLength(2);
    expect(await assignedUsers(WS2)).toEqual([{ user_id: DAVE, username: "dave" }]);
  });

  it("assigning the same pair twice keeps one assignment", async () => {
    expect((await assign(DAVE, WS1)).status).toBe(200);
    expect(await assignedServers(DAVE)).toHaveLength(2);
  });

  it("unassign_user_server answers 204 with an empty body and removes only that assignment", async () => {
    const res = await unassign(DAVE, WS1);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await assignedServers(DAVE)).map((s: { server_id: string }) => s.server_id)).toEqual([WS2]);
    expect(await assignedUsers(WS1)).toEqual([{ user_id: BOB, username: "robert" }]);
  });

  it("unassigning what is not assigned answers 400 and changes nothing", async () => {
    const before = await emulator.state();
    expect(wire(await unassign(DAVE, WS1))).toEqual({
      status: 400,
      body: { error_message: `User (${DAVE}) is not assigned to server (${WS1})` },
    });
    expect(await emulator.state()).toEqual(before);
  });

  it("answers 400 for an unknown user or server", async () => {
    expect(wire(await assign(UNKNOWN, WS1))).toEqual({ status: 400, body: { error_message: `Invalid User ID (${UNKNOWN})` } });
    expect(wire(await assign(DAVE, UNKNOWN))).toEqual({ status: 400, body: { error_message: `Invalid Server ID (${UNKNOWN})` } });
    expect(wire(await unassign(UNKNOWN, WS1))).toEqual({ status: 400, body: { error_message: `Invalid User ID (${UNKNOWN})` } });
  });
});

describe("get_login", () => {
  it("answers {url} with a link that signs the user in", async () => {
    const res = await emulator.call("get_login", { target_user: { user_id: DAVE } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["url"]);
    expect(res.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#\/staticlogin\/\?token=[0-9a-f]{32}&username=dave$/);
  });

  it("answers 400 Unknown user (<id>) for an unknown user", async () => {
    expect(wire(await emulator.call("get_login", { target_user: { user_id: UNKNOWN } }))).toEqual({
      status: 400,
      body: { error_message: `Unknown user (${UNKNOWN})` },
    });
  });
});

// --- get_users -----------------------------------------------------------------------------------

describe("get_users", () => {
  const BULK = 105;
  const LOCKED = "b1000000000000000000000000000001";
  let lister: TestEmulator;
  const list = async (body: Record<string, unknown> = {}) => {
    const res = await lister.call("get_users", body);
    expect(res.status).toBe(200);
    return res.body as { users: { username: string; user_id: string; created: string }[]; total: number; page?: number };
  };
  const names = (body: { users: { username: string }[] }) => body.users.map((u) => u.username);

  beforeAll(async () => {
    lister = await startTestEmulator({
      groups: [{ group_id: ENGINEERING, name: "Engineering" }],
      users: [
        ...Array.from({ length: BULK }, (_, i) => ({ username: `bulk-${String(i).padStart(3, "0")}` })),
        { user_id: LOCKED, username: "Locked-Lisa", locked: true },
        { username: "disabled-dan", disabled: true },
        { username: "both-bea", locked: true, disabled: true, groups: ["Engineering"] },
        { username: "eng-erin", groups: ["Engineering"] },
        { username: "oidc-olga", realm: "oidc", oidc_id: "oidc|olga" },
        { username: "saml-sam", realm: "saml", saml_id: "saml-sam@idp" },
        { username: "anon-1", anonymous: true },
        { username: "anon-2", anonymous: true },
      ],
    });
  });
  afterAll(() => lister.close());

  const NAMED = BULK + 6; // everyone but the two anonymous users

  it("answers {users, total} with 100 users per page by default and no page unless sent", async () => {
    const body = await list();
    expect(Object.keys(body).sort()).toEqual(["total", "users"]);
    expect(body.users).toHaveLength(100);
    expect(body.total).toBe(NAMED);
  });

  it("echoes page when it is sent, and pages from 0", async () => {
    const first = await list({ page: 0, page_size: 50 });
    expect(first.page).toBe(0);
    expect(first.users).toHaveLength(50);
    const third = await list({ page: 2, page_size: 50 });
    expect(third).toMatchObject({ page: 2, total: NAMED });
    expect(third.users).toHaveLength(NAMED - 100);
    const all = names(await list({ page_size: 1000 }));
    expect([...names(first), ...names(await list({ page: 1, page_size: 50 })), ...names(third)]).toEqual(all);
  });

  it("accepts page_size 1000 and refuses 1001 with 400", async () => {
    expect((await list({ page_size: 1000 })).users).toHaveLength(NAMED);
    const res = await lister.call("get_users", { page_size: 1001 });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toMatch(/^Invalid Request: page_size/);
  });

  it("answers a page past the end with no users and the full total", async () => {
    expect(await list({ page: 5, page_size: 100 })).toEqual({ users: [], total: NAMED, page: 5 });
  });

  it("sorts by username asc and desc, desc by default", async () => {
    const asc = names(await list({ page_size: 1000, sort_by: "username", sort_direction: "asc" }));
    expect(asc).toEqual([...asc].sort());
    expect(asc[0]).toBe("both-bea");
    const desc = names(await list({ page_size: 1000, sort_by: "username", sort_direction: "desc" }));
    expect(desc).toEqual([...asc].reverse());
    expect(names(await list({ page_size: 1000, sort_by: "username" }))).toEqual(desc);
  });

  it("sorts by created and by last_session, asc and desc", async () => {
    const ids: Record<string, string> = {};
    for (const username of ["sort-c", "sort-a", "sort-b"]) {
      ids[username] = (await lister.call("create_user", { target_user: { username } })).body.user.user_id;
      await sleep(5);
    }
    const filtered = { page_size: 1000, filters: [{ id: "username", value: "sort-" }] };
    expect(names(await list({ ...filtered, sort_by: "created", sort_direction: "asc" }))).toEqual(["sort-c", "sort-a", "sort-b"]);
    expect(names(await list({ ...filtered, sort_by: "created", sort_direction: "desc" }))).toEqual(["sort-b", "sort-a", "sort-c"]);
    // A login link marks the user's last session.
    for (const username of ["sort-b", "sort-c", "sort-a"]) {
      expect((await lister.call("get_login", { target_user: { user_id: ids[username] } })).status).toBe(200);
      await sleep(5);
    }
    expect(names(await list({ ...filtered, sort_by: "last_session", sort_direction: "asc" }))).toEqual(["sort-b", "sort-c", "sort-a"]);
    expect(names(await list({ ...filtered, sort_by: "last_session", sort_direction: "desc" }))).toEqual(["sort-a", "sort-c", "sort-b"]);
  });

  it("filters username by a case-insensitive partial match, and total counts the matches", async () => {
    const body = await list({ filters: [{ id: "username", value: "LIS" }] });
    expect(names(body)).toEqual(["locked-lisa"]);
    expect(body.total).toBe(1);
    const bulk = await list({ page_size: 10, filters: [{ id: "username", value: "Bulk-1" }] });
    expect(bulk.total).toBe(5); // bulk-100 .. bulk-104
    expect(names(bulk).sort()).toEqual(["bulk-100", "bulk-101", "bulk-102", "bulk-103", "bulk-104"]);
  });

  it("filters locked and disabled exactly", async () => {
    expect(names(await list({ filters: [{ id: "locked", value: true }] })).sort()).toEqual(["both-bea", "locked-lisa"]);
    expect(names(await list({ filters: [{ id: "disabled", value: true }] })).sort()).toEqual(["both-bea", "disabled-dan"]);
    expect(
      names(
        await list({
          filters: [
            { id: "locked", value: true },
            { id: "disabled", value: false },
          ],
        }),
      ),
    ).toEqual(["locked-lisa"]);
    expect((await list({ page_size: 1000, filters: [{ id: "locked", value: false }] })).total).toBe(NAMED + 3 - 2);
  });

  it("filters created by a {from, to} range", async () => {
    const created = await lister.call("create_user", { target_user: { username: "range-late" } });
    const late = created.body.user.created as string;
    expect(names(await list({ filters: [{ id: "created", value: { from: late } }] }))).toEqual(["range-late"]);
    const early = await list({ page_size: 1000, filters: [{ id: "created", value: { to: late } }] });
    expect(names(early)).toContain("range-late");
    const before = await list({ page_size: 1000, filters: [{ id: "created", value: { to: "2000-01-01 00:00:00" } }] });
    expect(before).toEqual({ users: [], total: 0 });
    const window = await list({ page_size: 1000, filters: [{ id: "created", value: { from: "2000-01-01 00:00:00", to: late } }] });
    expect(window.total).toBe(early.total);
  });

  it("filters exclude_group: members of the group are left out", async () => {
    const all = await list({ page_size: 1000 });
    for (const group of [ENGINEERING, hyphenated(ENGINEERING)]) {
      const body = await list({ page_size: 1000, filters: [{ id: "exclude_group", value: group }] });
      expect(body.total).toBe(all.total - 2);
      expect(names(body)).not.toContain("both-bea");
      expect(names(body)).not.toContain("eng-erin");
    }
  });

  it("filters oidc_id and saml_id exactly", async () => {
    expect(names(await list({ filters: [{ id: "oidc_id", value: "oidc|olga" }] }))).toEqual(["oidc-olga"]);
    expect(names(await list({ filters: [{ id: "oidc_id", value: "oidc" }] }))).toEqual([]);
    expect(names(await list({ filters: [{ id: "saml_id", value: "saml-sam@idp" }] }))).toEqual(["saml-sam"]);
    expect(names(await list({ filters: [{ id: "saml_id", value: "SAML-SAM@IDP" }] }))).toEqual([]);
  });

  it("leaves anonymous users out unless anonymous is true; anonymous_only lists only them", async () => {
    const all = await list({ page_size: 1000 });
    expect(names(all).filter((n) => n.startsWith("anon-"))).toEqual([]);
    const withAnonymous = await list({ page_size: 1000, anonymous: true });
    expect(withAnonymous.total).toBe(all.total + 2);
    expect(names(withAnonymous)).toEqual(expect.arrayContaining(["anon-1", "anon-2"]));
    const only = await list({ anonymous_only: true, sort_by: "username", sort_direction: "asc" });
    expect(names(only)).toEqual(["anon-1", "anon-2"]);
    expect(only.total).toBe(2);
  });

  it("refuses an unknown filter id with 400", async () => {
    const res = await lister.call("get_users", { filters: [{ id: "email", value: "x@example.org" }] });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toMatch(/^Invalid Request: filters/);
  });

  it("refuses an unknown sort_by or sort_direction with 400", async () => {
    expect((await lister.call("get_users", { sort_by: "first_name" })).status).toBe(400);
    expect((await lister.call("get_users", { sort_by: "username", sort_direction: "up" })).status).toBe(400);
  });
});
