/**
 * Authentication and authorisation: 401 for bad credentials (JSON body, and the headers of the
 * multipart batch operations), 403 for a missing permission, the dependency rules, Read Only keys,
 * Global Admin, and a table over every operation of the catalogue: the dependency-closed
 * requirement is enough, and one permission less is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeUnderDependencies, isSpecOperation, OPERATIONS, requiredPermissions, type OperationName, type PermissionName } from "../../permissions";
import type { SeedInput } from "../../emulator/seed";
import { UNKNOWN } from "../../permissions/planned-calls";
import { startTestEmulator, type TestEmulator, type WireAnswer, wire } from "../helpers/emulator";

const INVALID_CREDENTIALS = { error_message: "Invalid user name or password." };
const UNAUTHORIZED = { error_message: "Unauthorized." };

const ZONE = "0a000000000000000000000000000001";
const SERVER = "5e000000000000000000000000000001";
const ALICE = "a1000000000000000000000000000001";

/**
 * The spec's operations: the ones a default (spec-mode) emulator serves. The product's own
 * operations answer 404 there; product.test.ts holds them to the same table in product mode.
 */
const ALL_OPERATIONS = (Object.keys(OPERATIONS) as OperationName[]).filter(isSpecOperation);

type Creds = { key: string; secret: string };
type SeedKey = NonNullable<SeedInput["apiKeys"]>[number];

/** API keys of the seed, registered by the tests below before the emulator starts. */
const seedKeys: SeedKey[] = [];
function key(name: string, permissions: Iterable<PermissionName>, extra: { readOnly?: boolean; expiresAt?: string | null } = {}): Creds {
  const creds = { key: `key-${name}`, secret: `secret-${name}` };
  seedKeys.push({ name, key: creds.key, secret: creds.secret, permissions: [...permissions], ...extra });
  return creds;
}

/** Status and body only: what the wire contract is about. */

// --- keys ----------------------------------------------------------------------------------------

const USERS_VIEW = key("users-view", ["Users View"]);
const EXPIRED = key("expired", ["Users View"], { expiresAt: "2001-02-03 04:05:06" });
const EXPIRES_LATER = key("expires-later", ["Users View"], { expiresAt: "2999-12-31 23:59:59" });
const NOTHING = key("nothing", []);
const USERS_MODIFY_ONLY = key("users-modify-only", ["Users Modify"]);
const USERS_MODIFY_AND_VIEW = key("users-modify-and-view", ["Users Modify", "Users View"]);
const SERVERS_VIEW_ONLY = key("servers-view-only", ["Servers View"]);
const SERVERS_VIEW_POOLS = key("servers-view-pools", ["Servers View", "Server Pools View"]);
const SERVERS_VIEW_CLOSED = key("servers-view-closed", ["Servers View", "Server Pools View", "Zones View"]);
const AGENTS_VIEW = key("agents-view", ["Agents View"]);
const AS_A_USER = key("as-a-user", ["Users Auth Session", "User"]);
const SESSIONS_VIEW = key("sessions-view", ["Sessions View"]);
const LICENSES_CREATE_ONLY = key("licenses-create-only", ["Licenses Create", "Licenses View"]);
const READ_ONLY_ADMIN = key("read-only-admin", ["Global Admin"], { readOnly: true });
const GLOBAL_ADMIN = key("global-admin", ["Global Admin"]);
const BATCH_USERS = key("batch-users", ["Users Create", "Users View"]);

/**
 * For every operation, the permission sets that satisfy its base requirement: the dependency
 * closure of what it requires (one set per alternative when it needs one of several).
 */
function sufficientSets(operation: OperationName): Set<PermissionName>[] {
  const requirement = requiredPermissions(operation);
  if (requirement.oneOf.length === 0) return [closeUnderDependencies(requirement.all)];
  return requirement.oneOf.map((alternative) => closeUnderDependencies([...requirement.all, alternative]));
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-");

interface TableRow {
  operation: OperationName;
  granted: PermissionName[];
  creds: Creds;
}
/** Keys holding exactly a sufficient set: never refused. */
const sufficientRows: TableRow[] = [];
/** Keys holding a sufficient set less one permission: refused. */
const lackingRows: (TableRow & { removed: PermissionName })[] = [];
for (const operation of ALL_OPERATIONS) {
  for (const [i, set] of sufficientSets(operation).entries()) {
    const granted = [...set];
    sufficientRows.push({ operation, granted, creds: key(`exact-${operation}-${i}`, granted) });
    for (const removed of granted) {
      const rest = granted.filter((p) => p !== removed);
      lackingRows.push({ operation, granted: rest, removed, creds: key(`lacks-${operation}-${i}-${slug(removed)}`, rest) });
    }
  }
}

// --- raw multipart -------------------------------------------------------------------------------

const BOUNDARY = "----kasm-emulator-test-boundary";

/** A multipart/form-data body with the CSV as the `file_content` file part, plus any text fields. */
function multipartBody(csv: string, fields: Record<string, string> = {}): string {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file_content"; filename="import.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`);
  return `${parts.join("")}--${BOUNDARY}--\r\n`;
}

/** Call a multipart batch operation; credentials go in the `api-key` / `api-key-secret` headers when given. */
function batch(
  operation: "batch_create_user" | "batch_create_server",
  csv: string,
  creds: Creds | null,
  fields: Record<string, string> = {},
): Promise<WireAnswer> {
  const headers: Record<string, string> = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
  if (creds) {
    headers["api-key"] = creds.key;
    headers["api-key-secret"] = creds.secret;
  }
  return emulator.raw("POST", `${OPERATIONS[operation].path}?view=api`, { body: multipartBody(csv, fields), headers });
}

/** Call any operation with a minimal body: `{}` for JSON, a header-only CSV for multipart. */
function minimalCall(operation: OperationName, creds: Creds): Promise<WireAnswer> {
  if (OPERATIONS[operation].envelope === "multipart") return batch(operation as "batch_create_user", "username\r\n", creds);
  return emulator.call(operation, {}, creds);
}

// --- emulator ------------------------------------------------------------------------------------

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: seedKeys,
    zones: [{ zone_id: ZONE, zone_name: "default" }],
    servers: [{ server_id: SERVER, hostname: "ws1.example.org", zone_name: "default" }],
    users: [{ user_id: ALICE, username: "alice" }],
    activationKeys: [{ activation_key: "ACTIVATION-KEY-1", seats: 10 }],
  });
});
afterAll(() => emulator.close());

const getAlice = (creds: Creds | null, extra: Record<string, unknown> = {}) => emulator.call("get_user", { target_user: { user_id: ALICE }, ...extra }, creds);

describe("authentication (401)", () => {
  it("accepts a valid key and secret from the JSON body", async () => {
    const res = await getAlice(USERS_VIEW);
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe("alice");
  });

  it("answers 401 when the body carries no credentials at all", async () => {
    expect(wire(await getAlice(null))).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it("answers 401 when api_key is missing", async () => {
    const res = await emulator.call("get_user", { api_key_secret: USERS_VIEW.secret, target_user: { user_id: ALICE } }, null);
    expect(wire(res)).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it("answers 401 when api_key_secret is missing", async () => {
    const res = await emulator.call("get_user", { api_key: USERS_VIEW.key, target_user: { user_id: ALICE } }, null);
    expect(wire(res)).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it("answers 401 for empty strings and for credentials that are not strings", async () => {
    for (const creds of [
      { api_key: "", api_key_secret: "" },
      { api_key: USERS_VIEW.key, api_key_secret: "" },
      { api_key: 12, api_key_secret: 34 },
      { api_key: [USERS_VIEW.key], api_key_secret: [USERS_VIEW.secret] },
    ]) {
      const res = await emulator.call("get_user", { ...creds, target_user: { user_id: ALICE } }, null);
      expect(wire(res)).toEqual({ status: 401, body: INVALID_CREDENTIALS });
    }
  });

  it("answers 401 for an unknown key", async () => {
    const res = await getAlice({ key: "no-such-key", secret: USERS_VIEW.secret });
    expect(wire(res)).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it("answers 401 for a wrong secret, including another key's secret", async () => {
    expect(wire(await getAlice({ key: USERS_VIEW.key, secret: "wrong" }))).toEqual({ status: 401, body: INVALID_CREDENTIALS });
    expect(wire(await getAlice({ key: USERS_VIEW.key, secret: GLOBAL_ADMIN.secret }))).toEqual({
      status: 401,
      body: INVALID_CREDENTIALS,
    });
  });

  it("answers 401 for a key whose expiry date has passed", async () => {
    expect(wire(await getAlice(EXPIRED))).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it("accepts a key whose expiry date is in the future", async () => {
    const res = await getAlice(EXPIRES_LATER);
    expect(res.status).toBe(200);
    expect(res.body.user.user_id).toBe(ALICE);
  });

  it("reads credentials from the body, not from headers, for JSON operations", async () => {
    const res = await emulator.raw("POST", OPERATIONS.get_user.path, {
      body: JSON.stringify({ target_user: { user_id: ALICE } }),
      headers: { "content-type": "application/json", "api-key": USERS_VIEW.key, "api-key-secret": USERS_VIEW.secret },
    });
    expect(wire(res)).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it("checks credentials before permissions: a bad secret with a permitted key is 401, not 403", async () => {
    const res = await emulator.call("delete_user", { target_user: { user_id: ALICE } }, { key: USERS_VIEW.key, secret: "wrong" });
    expect(wire(res)).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });
});

describe("multipart batch operations take credentials from headers", () => {
  it("creates users when api-key and api-key-secret headers are valid", async () => {
    const res = await batch("batch_create_user", "username\r\nheader-user\r\n", BATCH_USERS);
    expect(res.status).toBe(200);
    expect(res.body.error_message).toBeNull();
    expect(res.body.resources.users.map((u: { username: string }) => u.username)).toEqual(["header-user"]);
  });

  it("answers 401 without the headers, and creates nothing", async () => {
    const before = await emulator.state();
    expect(wire(await batch("batch_create_user", "username\r\nno-header-user\r\n", null))).toEqual({
      status: 401,
      body: INVALID_CREDENTIALS,
    });
    expect(wire(await batch("batch_create_server", "name\r\n", null))).toEqual({ status: 401, body: INVALID_CREDENTIALS });
    expect(await emulator.state()).toEqual(before);
  });

  it("answers 401 when the credentials come as form fields instead of headers", async () => {
    const res = await batch("batch_create_user", "username\r\nform-user\r\n", null, {
      api_key: BATCH_USERS.key,
      api_key_secret: BATCH_USERS.secret,
    });
    expect(wire(res)).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it("answers 401 for a wrong header secret and for an expired key", async () => {
    expect(wire(await batch("batch_create_user", "username\r\nx\r\n", { key: BATCH_USERS.key, secret: "wrong" }))).toEqual({
      status: 401,
      body: INVALID_CREDENTIALS,
    });
    expect(wire(await batch("batch_create_user", "username\r\nx\r\n", EXPIRED))).toEqual({ status: 401, body: INVALID_CREDENTIALS });
  });

  it("answers 403 when the header key lacks the permission", async () => {
    expect(wire(await batch("batch_create_user", "username\r\nx\r\n", USERS_VIEW))).toEqual({ status: 403, body: UNAUTHORIZED });
    expect(wire(await batch("batch_create_server", "name\r\n", USERS_VIEW))).toEqual({ status: 403, body: UNAUTHORIZED });
  });
});

describe("authorisation (403)", () => {
  it("answers 403 Unauthorized. when the key lacks the operation's permission", async () => {
    const res = await emulator.call("create_user", { target_user: { username: "mallory" } }, USERS_VIEW);
    expect(wire(res)).toEqual({ status: 403, body: UNAUTHORIZED });
    expect(Object.values((await emulator.state()).users).map((u: any) => u.username)).not.toContain("mallory");
  });

  it("answers 403 for a key that holds no permission at all, even for a read", async () => {
    expect(wire(await getAlice(NOTHING))).toEqual({ status: 403, body: UNAUTHORIZED });
  });

  it("refuses update_user to a key with Users Modify but not its dependency Users View", async () => {
    const res = await emulator.call("update_user", { target_user: { user_id: ALICE, first_name: "Eve" } }, USERS_MODIFY_ONLY);
    expect(wire(res)).toEqual({ status: 403, body: UNAUTHORIZED });
    expect((await emulator.state()).users[ALICE].first_name).toBeNull();
  });

  it("allows update_user to a key with Users Modify and Users View", async () => {
    const res = await emulator.call("update_user", { target_user: { user_id: ALICE, first_name: "Alice" } }, USERS_MODIFY_AND_VIEW);
    expect(res.status).toBe(200);
    expect(res.body.user.first_name).toBe("Alice");
  });

  it("refuses get_servers to Servers View without both Server Pools View and Zones View", async () => {
    for (const creds of [SERVERS_VIEW_ONLY, SERVERS_VIEW_POOLS]) {
      const res = await emulator.call("get_servers", { target_server: { server_id: SERVER } }, creds);
      expect(wire(res)).toEqual({ status: 403, body: UNAUTHORIZED });
    }
  });

  it("allows get_servers to Servers View with Server Pools View and Zones View", async () => {
    const res = await emulator.call("get_servers", { target_server: { server_id: SERVER } }, SERVERS_VIEW_CLOSED);
    expect(res.status).toBe(200);
    expect(res.body.server.server_id).toBe(SERVER);
  });

  it("allows get_servers to Agents View alone: it needs one of Servers View and Agents View", async () => {
    const res = await emulator.call("get_servers", { target_server: { server_id: SERVER } }, AGENTS_VIEW);
    expect(res.status).toBe(200);
    expect(res.body.server.hostname).toBe("ws1.example.org");
  });

  it("lets get_ws_bottleneck_stats in with Users Auth Session and User, not with Sessions View (1.15's public API checks User)", async () => {
    const body = { ws_id: UNKNOWN, user_id: ALICE };
    expect(wire(await emulator.call("get_ws_bottleneck_stats", body, AS_A_USER))).toEqual({
      status: 400,
      body: { error_message: `Unknown session (${UNKNOWN})` },
    });
    expect((await emulator.call("get_ws_bottleneck_stats", body, SESSIONS_VIEW)).status).toBe(403);
  });

  it("refuses activate to Licenses Create whose Licenses View lacks System View", async () => {
    const res = await emulator.call("activate", { activation_key: "ACTIVATION-KEY-1", seats: 1 }, LICENSES_CREATE_ONLY);
    expect(wire(res)).toEqual({ status: 403, body: UNAUTHORIZED });
    expect((await emulator.state()).licenses).toEqual({});
  });
});

describe("Read Only keys", () => {
  const reads = ALL_OPERATIONS.filter((op) => OPERATIONS[op].access === "read");
  const writes = ALL_OPERATIONS.filter((op) => OPERATIONS[op].access === "write");

  it("may call get_user and get_users even though they only read", async () => {
    expect((await getAlice(READ_ONLY_ADMIN)).status).toBe(200);
    expect((await emulator.call("get_users", {}, READ_ONLY_ADMIN)).status).toBe(200);
  });

  it.each(reads)("may call the read operation %s (not 401 or 403)", async (operation) => {
    const res = await minimalCall(operation, READ_ONLY_ADMIN);
    expect(res.status).not.toBe(401);
    expect(res.status).not.toBe(403);
    expect(res.status).toBeLessThan(500);
  });

  it.each(writes)("gets 403 on the write operation %s even with Global Admin", async (operation) => {
    expect(wire(await minimalCall(operation, READ_ONLY_ADMIN))).toEqual({ status: 403, body: UNAUTHORIZED });
  });

  it("changes nothing when refused a write with a valid body", async () => {
    const before = await emulator.state();
    const res = await emulator.call("update_user", { target_user: { user_id: ALICE, last_name: "Changed" } }, READ_ONLY_ADMIN);
    expect(wire(res)).toEqual({ status: 403, body: UNAUTHORIZED });
    expect(await emulator.state()).toEqual(before);
  });
});

describe("Global Admin", () => {
  it.each(ALL_OPERATIONS)("holds every permission %s needs (not 401 or 403)", async (operation) => {
    const res = await minimalCall(operation, GLOBAL_ADMIN);
    expect(res.status).not.toBe(401);
    expect(res.status).not.toBe(403);
    expect(res.status).toBeLessThan(500);
  });
});

describe("every operation of the permissions", () => {
  it("has at least one sufficient permission set and one lacking key per permission of it", () => {
    expect(sufficientRows.length).toBeGreaterThanOrEqual(ALL_OPERATIONS.length);
    expect(lackingRows.length).toBe(sufficientRows.reduce((n, r) => n + r.granted.length, 0));
  });

  it.each(sufficientRows.map((r) => [r.operation, r.granted.join(", "), r.creds] as const))(
    "%s is not refused to a key holding exactly [%s]",
    async (operation, _granted, creds) => {
      const res = await minimalCall(operation, creds);
      expect(res.status).not.toBe(401);
      expect(res.status).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    },
  );

  it.each(lackingRows.map((r) => [r.operation, r.removed, r.granted.join(", ") || "nothing", r.creds] as const))(
    "%s is refused with 403 without %s (key holds [%s])",
    async (operation, _removed, _granted, creds) => {
      expect(wire(await minimalCall(operation, creds))).toEqual({ status: 403, body: UNAUTHORIZED });
    },
  );

  it("refuses get_servers to a key with neither Servers View nor Agents View", async () => {
    const res = await emulator.call("get_servers", { target_server: { server_id: SERVER } }, NOTHING);
    expect(wire(res)).toEqual({ status: 403, body: UNAUTHORIZED });
  });
});
