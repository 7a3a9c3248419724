/**
 * Contextual permissions: what a call needs beyond its base permissions because of its target
 * (a member of Administrators, a user with sessions, a system group, the target of an egress
 * mapping or credential, the columns of a CSV import). Each one is refused without the extra
 * permission, allowed with it, and the refused call changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeUnderDependencies, OPERATIONS, type PermissionName } from "../../permissions";
import type { SeedInput } from "../../emulator/seed";
import { startTestEmulator, type TestEmulator, type WireAnswer, wire } from "../helpers/emulator";

const UNAUTHORIZED = { error_message: "Unauthorized." };

const ZONE = "0a000000000000000000000000000001";
const SERVER = "5e000000000000000000000000000001";
const IMAGE = "1b000000000000000000000000000001";
const ALL_USERS = "90000000000000000000000000000001";
const ADMINISTRATORS = "90000000000000000000000000000002";
const ENGINEERING = "90000000000000000000000000000003";

/** Users: `admin-*` are members of Administrators (so hold Global Admin), the others are not. */
const U = {
  plain: "a1000000000000000000000000000001",
  busy: "a1000000000000000000000000000002",
  adminUpdate: "ad000000000000000000000000000001",
  adminAttributes: "ad000000000000000000000000000002",
  adminAssign: "ad000000000000000000000000000003",
  adminDelete: "ad000000000000000000000000000004",
  adminEgress: "ad000000000000000000000000000005",
  plainDelete: "a1000000000000000000000000000003",
  member: "a1000000000000000000000000000004",
};

type Creds = { key: string; secret: string };
type SeedKey = NonNullable<SeedInput["apiKeys"]>[number];
const seedKeys: SeedKey[] = [];
/** A key holding exactly the dependency closure of `permissions`. */
function key(name: string, permissions: PermissionName[]): Creds {
  const creds = { key: `key-${name}`, secret: `secret-${name}` };
  seedKeys.push({ name, key: creds.key, secret: creds.secret, permissions: [...closeUnderDependencies(permissions)] });
  return creds;
}
/** A key holding exactly `permissions`, dependencies or not. */
function rawKey(name: string, permissions: PermissionName[]): Creds {
  const creds = { key: `key-${name}`, secret: `secret-${name}` };
  seedKeys.push({ name, key: creds.key, secret: creds.secret, permissions });
  return creds;
}

const K = {
  usersModify: key("users-modify", ["Users Modify"]),
  usersModifyAdmin: key("users-modify-admin", ["Users Modify", "Users Modify Admin"]),
  assign: key("assign", ["Servers Modify", "Users Modify"]),
  assignAdmin: key("assign-admin", ["Servers Modify", "Users Modify", "Users Modify Admin"]),
  delete: key("delete", ["Users Delete", "Users Modify"]),
  deleteAdmin: key("delete-admin", ["Users Delete", "Users Modify", "Users Modify Admin"]),
  deleteSessions: key("delete-sessions", ["Users Delete", "Users Modify", "Sessions Delete"]),
  groupsModify: key("groups-modify", ["Groups Modify"]),
  groupsModifySystemWithoutView: rawKey("groups-modify-system-no-view", ["Groups View", "Groups Modify", "Groups Modify System"]),
  groupsModifySystem: key("groups-modify-system", ["Groups Modify", "Groups Modify System"]),
  mapping: key("mapping", ["Egress Providers Modify"]),
  mappingUsers: key("mapping-users", ["Egress Providers Modify", "Users Modify"]),
  mappingUsersAdmin: key("mapping-users-admin", ["Egress Providers Modify", "Users Modify", "Users Modify Admin"]),
  mappingGroups: key("mapping-groups", ["Egress Providers Modify", "Groups Modify"]),
  mappingGroupsSystem: key("mapping-groups-system", ["Egress Providers Modify", "Groups Modify", "Groups Modify System"]),
  mappingImages: key("mapping-images", ["Egress Providers Modify", "Images Modify"]),
  credential: key("credential", ["Egress Credentials Create", "Egress Providers Modify"]),
  credentialUsers: key("credential-users", ["Egress Credentials Create", "Egress Providers Modify", "Users Modify"]),
  credentialUsersAdmin: key("credential-users-admin", ["Egress Credentials Create", "Egress Providers Modify", "Users Modify", "Users Modify Admin"]),
  credentialGroups: key("credential-groups", ["Egress Credentials Create", "Egress Providers Modify", "Groups Modify"]),
  credentialGroupsSystem: key("credential-groups-system", ["Egress Credentials Create", "Egress Providers Modify", "Groups Modify", "Groups Modify System"]),
  credentialImages: key("credential-images", ["Egress Credentials Create", "Egress Providers Modify", "Images Modify"]),
  batchUsers: key("batch-users", ["Users Create"]),
  batchUsersGroups: key("batch-users-groups", ["Users Create", "Groups Modify"]),
  batchUsersGroupsSystem: key("batch-users-groups-system", ["Users Create", "Groups Modify", "Groups Modify System"]),
  batchServers: key("batch-servers", ["Servers Create"]),
  batchServersUsers: key("batch-servers-users", ["Servers Create", "Users Modify"]),
  batchServersUsersAdmin: key("batch-servers-users-admin", ["Servers Create", "Users Modify", "Users Modify Admin"]),
};

let emulator: TestEmulator;
let providerId: string;

beforeAll(async () => {
  const admin = (name: string) => ({ username: name, groups: ["Administrators"] });
  emulator = await startTestEmulator({
    apiKeys: seedKeys,
    groups: [
      { group_id: ALL_USERS, name: "All Users" },
      { group_id: ADMINISTRATORS, name: "Administrators" },
      { group_id: ENGINEERING, name: "Engineering" },
    ],
    zones: [{ zone_id: ZONE, zone_name: "default" }],
    images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
    servers: [{ server_id: SERVER, hostname: "ws1.example.org", zone_name: "default" }],
    users: [
      { user_id: U.plain, username: "plain" },
      { user_id: U.busy, username: "busy" },
      { user_id: U.plainDelete, username: "plain-delete" },
      { user_id: U.member, username: "member" },
      { user_id: U.adminUpdate, ...admin("admin-update") },
      { user_id: U.adminAttributes, ...admin("admin-attributes") },
      { user_id: U.adminAssign, ...admin("admin-assign") },
      { user_id: U.adminDelete, ...admin("admin-delete") },
      { user_id: U.adminEgress, ...admin("admin-egress") },
    ],
    sessions: [{ username: "busy", image_name: "kasmweb/chrome:1.16.0" }],
  });
  const provider = await emulator.call("create_egress_provider", {
    target_egress_provider: { name: "vpn", egress_provider_type: "wireguard", enabled: true },
  });
  expect(provider.status).toBe(200);
  providerId = provider.body.egress_provider.egress_provider_id;
});
afterAll(() => emulator.close());

/** Make the call, expect 403 `Unauthorized.`, and expect the store to be exactly as before. */
async function refusedWithoutChange(call: () => Promise<WireAnswer>): Promise<void> {
  const before = await emulator.state();
  expect(wire(await call())).toEqual({ status: 403, body: UNAUTHORIZED });
  expect(await emulator.state()).toEqual(before);
}

// --- raw multipart -------------------------------------------------------------------------------

const BOUNDARY = "----kasm-emulator-test-boundary";
function batch(operation: "batch_create_user" | "batch_create_server", csv: string, creds: Creds): Promise<WireAnswer> {
  const body =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file_content"; filename="import.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${csv}\r\n--${BOUNDARY}--\r\n`;
  return emulator.raw("POST", `${OPERATIONS[operation].path}?view=api`, {
    body,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "api-key": creds.key, "api-key-secret": creds.secret },
  });
}

describe("users that hold Global Admin need Users Modify Admin", () => {
  it("update_user of a member of Administrators is refused with only Users Modify, and changes nothing", async () => {
    await refusedWithoutChange(() => emulator.call("update_user", { target_user: { user_id: U.adminUpdate, first_name: "Changed" } }, K.usersModify));
  });

  it("update_user of an ordinary user needs only Users Modify", async () => {
    const res = await emulator.call("update_user", { target_user: { user_id: U.plain, first_name: "Plain" } }, K.usersModify);
    expect(res.status).toBe(200);
    expect(res.body.user.first_name).toBe("Plain");
  });

  it("update_user of a member of Administrators is allowed with Users Modify Admin", async () => {
    const res = await emulator.call("update_user", { target_user: { user_id: U.adminUpdate, first_name: "Changed" } }, K.usersModifyAdmin);
    expect(res.status).toBe(200);
    expect(res.body.user.first_name).toBe("Changed");
  });

  it("update_user_attributes of a member of Administrators needs Users Modify Admin", async () => {
    const body = { target_user_attributes: { user_id: U.adminAttributes, show_tips: false } };
    await refusedWithoutChange(() => emulator.call("update_user_attributes", body, K.usersModify));
    expect(wire(await emulator.call("update_user_attributes", body, K.usersModifyAdmin))).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).userAttributes[U.adminAttributes].show_tips).toBe(false);
    // An ordinary user's attributes need only Users Modify.
    const plain = await emulator.call("update_user_attributes", { target_user_attributes: { user_id: U.plain, show_tips: false } }, K.usersModify);
    expect(wire(plain)).toEqual({ status: 200, body: {} });
  });

  it("assign_user_server of a member of Administrators needs Users Modify Admin", async () => {
    const body = { target_user: { user_id: U.adminAssign }, target_server: { server_id: SERVER } };
    await refusedWithoutChange(() => emulator.call("assign_user_server", body, K.assign));
    const res = await emulator.call("assign_user_server", body, K.assignAdmin);
    expect(wire(res)).toEqual({ status: 200, body: { user_server_assignment: { user_id: U.adminAssign, server_id: SERVER } } });
    const plain = await emulator.call("assign_user_server", { ...body, target_user: { user_id: U.plain } }, K.assign);
    expect(plain.status).toBe(200);
  });

  it("unassign_user_server of a member of Administrators needs Users Modify Admin", async () => {
    const body = { target_user: { user_id: U.adminAssign }, target_server: { server_id: SERVER } };
    await refusedWithoutChange(() => emulator.call("unassign_user_server", body, K.assign));
    expect((await emulator.state()).users[U.adminAssign].server_ids).toEqual([SERVER]);
    expect(wire(await emulator.call("unassign_user_server", body, K.assignAdmin))).toEqual({ status: 204, body: undefined });
    expect((await emulator.state()).users[U.adminAssign].server_ids).toEqual([]);
  });

  it("delete_user of a member of Administrators needs Users Modify Admin", async () => {
    const body = { target_user: { user_id: U.adminDelete } };
    await refusedWithoutChange(() => emulator.call("delete_user", body, K.delete));
    expect(wire(await emulator.call("delete_user", body, K.deleteAdmin))).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).users[U.adminDelete]).toBeUndefined();
  });

  it("delete_user of an ordinary user without sessions needs neither Users Modify Admin nor Sessions Delete", async () => {
    expect(wire(await emulator.call("delete_user", { target_user: { user_id: U.plainDelete } }, K.delete))).toEqual({
      status: 200,
      body: {},
    });
  });
});

describe("delete_user of a user with sessions needs Sessions Delete", () => {
  it("is refused without Sessions Delete even with force, and the user and the session stay", async () => {
    await refusedWithoutChange(() => emulator.call("delete_user", { target_user: { user_id: U.busy }, force: true }, K.delete));
    const state = await emulator.state();
    expect(state.users[U.busy]).toBeDefined();
    expect(Object.values(state.sessions).filter((s: any) => s.user_id === U.busy)).toHaveLength(1);
  });

  it("is allowed with Sessions Delete, and force removes the sessions too", async () => {
    const res = await emulator.call("delete_user", { target_user: { user_id: U.busy }, force: true }, K.deleteSessions);
    expect(wire(res)).toEqual({ status: 200, body: {} });
    const state = await emulator.state();
    expect(state.users[U.busy]).toBeUndefined();
    expect(Object.values(state.sessions).filter((s: any) => s.user_id === U.busy)).toEqual([]);
  });
});

describe("system groups need Groups Modify System (and its dependency Groups View System)", () => {
  const membership = (userId: string, groupId: string) => ({ target_user: { user_id: userId }, target_group: { group_id: groupId } });

  it("an ordinary group needs only Groups Modify", async () => {
    expect(wire(await emulator.call("add_user_group", membership(U.member, ENGINEERING), K.groupsModify))).toEqual({
      status: 200,
      body: {},
    });
    expect(wire(await emulator.call("remove_user_group", membership(U.member, ENGINEERING), K.groupsModify))).toEqual({
      status: 200,
      body: {},
    });
  });

  it("add_user_group to Administrators is refused with Groups Modify, and with Groups Modify System lacking Groups View System", async () => {
    for (const creds of [K.groupsModify, K.groupsModifySystemWithoutView])
      await refusedWithoutChange(() => emulator.call("add_user_group", membership(U.member, ADMINISTRATORS), creds));
  });

  it("add_user_group to Administrators is allowed with Groups Modify System", async () => {
    const res = await emulator.call("add_user_group", membership(U.member, ADMINISTRATORS), K.groupsModifySystem);
    expect(wire(res)).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).users[U.member].group_ids).toContain(ADMINISTRATORS);
  });

  it("remove_user_group from Administrators needs Groups Modify System", async () => {
    for (const creds of [K.groupsModify, K.groupsModifySystemWithoutView])
      await refusedWithoutChange(() => emulator.call("remove_user_group", membership(U.member, ADMINISTRATORS), creds));
    const res = await emulator.call("remove_user_group", membership(U.member, ADMINISTRATORS), K.groupsModifySystem);
    expect(wire(res)).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).users[U.member].group_ids).not.toContain(ADMINISTRATORS);
  });

  it("remove_user_group from All Users needs Groups Modify System", async () => {
    for (const creds of [K.groupsModify, K.groupsModifySystemWithoutView])
      await refusedWithoutChange(() => emulator.call("remove_user_group", membership(U.member, ALL_USERS), creds));
    const res = await emulator.call("remove_user_group", membership(U.member, ALL_USERS), K.groupsModifySystem);
    expect(wire(res)).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).users[U.member].group_ids).not.toContain(ALL_USERS);
  });

  it("add_user_group to All Users needs Groups Modify System", async () => {
    for (const creds of [K.groupsModify, K.groupsModifySystemWithoutView])
      await refusedWithoutChange(() => emulator.call("add_user_group", membership(U.member, ALL_USERS), creds));
    const res = await emulator.call("add_user_group", membership(U.member, ALL_USERS), K.groupsModifySystem);
    expect(wire(res)).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).users[U.member].group_ids).toContain(ALL_USERS);
  });

  it("a system group given by its hyphenated id is still a system group", async () => {
    const hyphenated = `${ADMINISTRATORS.slice(0, 8)}-${ADMINISTRATORS.slice(8, 12)}-${ADMINISTRATORS.slice(12, 16)}-${ADMINISTRATORS.slice(16, 20)}-${ADMINISTRATORS.slice(20)}`;
    await refusedWithoutChange(() => emulator.call("add_user_group", membership(U.member, hyphenated), K.groupsModify));
  });
});

describe("egress provider mappings need the Modify permission of their target", () => {
  const mapping = (target: Record<string, string>) => ({
    target_egress_provider_mapping: { egress_provider_id: providerId, enabled: true, allow_all_gateways: true, ...target },
  });
  let userMappingId: string;

  it("mapping to a user needs Users Modify", async () => {
    await refusedWithoutChange(() => emulator.call("create_egress_provider_mapping", mapping({ user_id: U.plain }), K.mapping));
    const res = await emulator.call("create_egress_provider_mapping", mapping({ user_id: U.plain }), K.mappingUsers);
    expect(res.status).toBe(200);
    expect(res.body.egress_provider_mapping.user_id).toBe(U.plain);
    userMappingId = res.body.egress_provider_mapping.egress_provider_mapping_id;
  });

  it("mapping to a member of Administrators needs Users Modify Admin", async () => {
    await refusedWithoutChange(() => emulator.call("create_egress_provider_mapping", mapping({ user_id: U.adminEgress }), K.mappingUsers));
    const res = await emulator.call("create_egress_provider_mapping", mapping({ user_id: U.adminEgress }), K.mappingUsersAdmin);
    expect(res.status).toBe(200);
    expect(res.body.egress_provider_mapping.user_id).toBe(U.adminEgress);
  });

  it("mapping to a group needs Groups Modify", async () => {
    await refusedWithoutChange(() => emulator.call("create_egress_provider_mapping", mapping({ group_id: ENGINEERING }), K.mapping));
    const res = await emulator.call("create_egress_provider_mapping", mapping({ group_id: ENGINEERING }), K.mappingGroups);
    expect(res.status).toBe(200);
    expect(res.body.egress_provider_mapping.group_id).toBe(ENGINEERING);
  });

  it("mapping to a system group needs Groups Modify System", async () => {
    await refusedWithoutChange(() => emulator.call("create_egress_provider_mapping", mapping({ group_id: ALL_USERS }), K.mappingGroups));
    const res = await emulator.call("create_egress_provider_mapping", mapping({ group_id: ALL_USERS }), K.mappingGroupsSystem);
    expect(res.status).toBe(200);
    expect(res.body.egress_provider_mapping.group_id).toBe(ALL_USERS);
  });

  it("mapping to an image needs Images Modify", async () => {
    await refusedWithoutChange(() => emulator.call("create_egress_provider_mapping", mapping({ image_id: IMAGE }), K.mapping));
    const res = await emulator.call("create_egress_provider_mapping", mapping({ image_id: IMAGE }), K.mappingImages);
    expect(res.status).toBe(200);
    expect(res.body.egress_provider_mapping.image_id).toBe(IMAGE);
  });

  it("updating a user mapping without sending its target still needs Users Modify", async () => {
    const body = { target_egress_provider_mapping: { egress_provider_mapping_id: userMappingId, enabled: false } };
    await refusedWithoutChange(() => emulator.call("update_egress_provider_mapping", body, K.mapping));
    const res = await emulator.call("update_egress_provider_mapping", body, K.mappingUsers);
    expect(res.status).toBe(200);
    expect(res.body.egress_provider_mapping.enabled).toBe(false);
  });

  it("moving a mapping off a member of Administrators needs Users Modify Admin, even onto an ordinary user", async () => {
    const adminMapping = (await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { user_id: U.adminEgress } })).body
      .egress_provider_mappings[0].egress_provider_mapping_id;
    const move = { target_egress_provider_mapping: { egress_provider_mapping_id: adminMapping, user_id: U.member } };
    await refusedWithoutChange(() => emulator.call("update_egress_provider_mapping", move, K.mappingUsers));
    const res = await emulator.call("update_egress_provider_mapping", move, K.mappingUsersAdmin);
    expect(res.status).toBe(200);
    expect(res.body.egress_provider_mapping.user_id).toBe(U.member);
  });

  it("deleting a user mapping needs Users Modify", async () => {
    const body = { target_egress_provider_mapping: { egress_provider_mapping_id: userMappingId } };
    await refusedWithoutChange(() => emulator.call("delete_egress_provider_mapping", body, K.mapping));
    expect(wire(await emulator.call("delete_egress_provider_mapping", body, K.mappingUsers))).toEqual({ status: 200, body: {} });
    expect((await emulator.state()).egressMappings[userMappingId]).toBeUndefined();
  });
});

describe("egress credentials need the Modify permission of their target", () => {
  const credential = (name: string, target: Record<string, string>) => ({
    target_egress_credential: {
      egress_provider_id: providerId,
      name,
      allow_all_gateways: true,
      enabled: true,
      username: "vpn-user",
      password: "vpn-password",
      ...target,
    },
  });

  it.each([
    ["a user", "Users Modify", { user_id: U.plain }, "credential", "credentialUsers"],
    ["a member of Administrators", "Users Modify Admin", { user_id: U.adminEgress }, "credentialUsers", "credentialUsersAdmin"],
    ["a group", "Groups Modify", { group_id: ENGINEERING }, "credential", "credentialGroups"],
    ["a system group", "Groups Modify System", { group_id: ADMINISTRATORS }, "credentialGroups", "credentialGroupsSystem"],
    ["an image", "Images Modify", { image_id: IMAGE }, "credential", "credentialImages"],
  ] as const)("a credential for %s needs %s", async (what, _permission, target, without, withIt) => {
    const name = `cred-${what.replace(/\W+/g, "-")}`;
    await refusedWithoutChange(() => emulator.call("create_egress_credential", credential(name, target), K[without]));
    const res = await emulator.call("create_egress_credential", credential(name, target), K[withIt]);
    expect(res.status).toBe(200);
    expect(res.body.egress_credentials).toHaveLength(1);
    expect(res.body.egress_credentials[0]).toMatchObject({ name, ...target });
  });
});

describe("batch_create_user with group_N columns", () => {
  const usernames = async () => Object.values((await emulator.state()).users).map((u: any) => u.username);

  it("without group columns needs only Users Create", async () => {
    const res = await batch("batch_create_user", "username\r\nbatch-plain\r\n", K.batchUsers);
    expect(res.status).toBe(200);
    expect(res.body.resources.users[0].username).toBe("batch-plain");
  });

  it("putting users into a group needs Groups Modify, and the refused import creates no user", async () => {
    const csv = "username,group_1\r\nbatch-eng,Engineering\r\n";
    await refusedWithoutChange(() => batch("batch_create_user", csv, K.batchUsers));
    expect(await usernames()).not.toContain("batch-eng");
    const res = await batch("batch_create_user", csv, K.batchUsersGroups);
    expect(res.status).toBe(200);
    const created = Object.values((await emulator.state()).users).find((u: any) => u.username === "batch-eng") as any;
    expect(created.group_ids).toContain(ENGINEERING);
  });

  it("putting users into a system group needs Groups Modify System", async () => {
    const csv = "username,group_1,group_2\r\nbatch-admin,Engineering,Administrators\r\n";
    await refusedWithoutChange(() => batch("batch_create_user", csv, K.batchUsersGroups));
    expect(await usernames()).not.toContain("batch-admin");
    const res = await batch("batch_create_user", csv, K.batchUsersGroupsSystem);
    expect(res.status).toBe(200);
    const created = Object.values((await emulator.state()).users).find((u: any) => u.username === "batch-admin") as any;
    expect(created.group_ids).toEqual(expect.arrayContaining([ALL_USERS, ENGINEERING, ADMINISTRATORS]));
  });
});

describe("batch_create_user naming a system group by its id", () => {
  it("still needs Groups Modify System", async () => {
    const csv = `username,group_1\r\nbatch-admin-by-id,${ADMINISTRATORS}\r\n`;
    await refusedWithoutChange(() => batch("batch_create_user", csv, K.batchUsersGroups));
    const res = await batch("batch_create_user", csv, K.batchUsersGroupsSystem);
    expect(res.status).toBe(200);
  });
});

describe("batch_create_server with an assigned_username column", () => {
  const header = "name,ip_hostname,port,zone_name,connection_type,assigned_username";
  const serverNames = async () => Object.values((await emulator.state()).servers).map((s: any) => s.friendly_name);

  it("without assigned users needs only Servers Create", async () => {
    const res = await batch("batch_create_server", `${header}\r\nsrv-free,10.0.0.1,22,default,SSH,\r\n`, K.batchServers);
    expect(res.status).toBe(200);
    expect(res.body.resources.servers[0].friendly_name).toBe("srv-free");
  });

  it("assigning a user needs Users Modify, and the refused import creates no server", async () => {
    const csv = `${header}\r\nsrv-plain,10.0.0.2,22,default,SSH,plain\r\n`;
    await refusedWithoutChange(() => batch("batch_create_server", csv, K.batchServers));
    expect(await serverNames()).not.toContain("srv-plain");
    const res = await batch("batch_create_server", csv, K.batchServersUsers);
    expect(res.status).toBe(200);
    const serverId = res.body.resources.servers[0].server_id;
    expect((await emulator.state()).users[U.plain].server_ids).toContain(serverId);
  });

  it("assigning a member of Administrators needs Users Modify Admin", async () => {
    const csv = `${header}\r\nsrv-admin,10.0.0.3,22,default,SSH,admin-egress\r\n`;
    await refusedWithoutChange(() => batch("batch_create_server", csv, K.batchServersUsers));
    const res = await batch("batch_create_server", csv, K.batchServersUsersAdmin);
    expect(res.status).toBe(200);
    expect(res.body.resources.servers[0].assigned_users).toEqual([{ user_id: U.adminEgress, username: "admin-egress" }]);
  });
});
