/**
 * Licenses: activate takes seats from an activation key's entitlement (all that is left when
 * seats is omitted), repeated calls add licenses, and the license models limit what the
 * deployment may do: Per Named User the number of users, Per Concurrent Session the sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, wire } from "../helpers/emulator";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
const HEX_ID = /^[0-9a-f]{32}$/;
const CHROME = "1b000000000000000000000000000001";
const ALICE = "a1000000000000000000000000000001";

const PARTNER_KEY = "-----BEGIN ACTIVATION KEY-----\nPARTNER-5\n-----END ACTIVATION KEY-----";
const NAMED_KEY = "NAMED-USER-3";
const CONCURRENT_KEY = "CONCURRENT-7";

const FEATURES = [
  "auto_scaling",
  "branding",
  "session_staging",
  "session_casting",
  "log_forwarding",
  "developer_api",
  "inject_ssh_keys",
  "saml",
  "ldap",
  "session_sharing",
  "login_banner",
  "url_categorization",
  "usage_limit",
];

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0" }],
    users: [{ user_id: ALICE, username: "alice" }],
    activationKeys: [
      { activation_key: PARTNER_KEY, seats: 5, license_type: "Per Concurrent Session", sku: "PARTNER-SKU", features: { saml: false } },
      { activation_key: NAMED_KEY, seats: 3, license_type: "Per Named User" },
      { activation_key: CONCURRENT_KEY, seats: 7, license_type: "Per Concurrent Session" },
    ],
  });
});
afterAll(() => emulator.close());

const licenses = async () => Object.values((await emulator.state()).licenses) as { limit: number; license_type: string }[];

describe("activate", () => {
  it.each([
    ["no activation_key", {}],
    ["an empty activation_key", { activation_key: "" }],
    ["a blank activation_key", { activation_key: "  \n " }],
  ])("answers 400 Invalid Request. Missing activation_key for %s", async (_what, body) => {
    expect(wire(await emulator.call("activate", body))).toEqual({
      status: 400,
      body: { error_message: "Invalid Request. Missing activation_key" },
    });
  });

  it("refuses an unknown key with 400 Error during activation", async () => {
    const before = await emulator.state();
    expect(wire(await emulator.call("activate", { activation_key: "NO-SUCH-KEY", seats: 1 }))).toEqual({
      status: 400,
      body: { error_message: "Error during activation: Invalid activation key" },
    });
    expect(await emulator.state()).toEqual(before);
  });

  it("takes the seats asked for from the entitlement and answers {license} with every license field", async () => {
    const res = await emulator.call("activate", { activation_key: PARTNER_KEY, seats: 2, issued_to: "Acme Corp" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      license: {
        license_id: expect.stringMatching(HEX_ID),
        expiration: expect.stringMatching(TIMESTAMP),
        issued_at: expect.stringMatching(TIMESTAMP),
        issued_to: "Acme Corp",
        limit: 2,
        is_verified: true,
        license_type: "Per Concurrent Session",
        sku: "PARTNER-SKU",
        features: Object.fromEntries(FEATURES.map((f) => [f, f !== "saml"])),
      },
    });
  });

  it("adds another license when called again with the same key", async () => {
    const res = await emulator.call("activate", { activation_key: PARTNER_KEY, seats: 2 });
    expect(res.status).toBe(200);
    expect(res.body.license).toMatchObject({ limit: 2, issued_to: null });
    expect((await licenses()).map((l) => l.limit)).toEqual([2, 2]);
  });

  it("refuses more seats than are left with 400 Error during activation, and adds nothing", async () => {
    const before = await emulator.state();
    const res = await emulator.call("activate", { activation_key: PARTNER_KEY, seats: 3 });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toMatch(/^Error during activation: /);
    expect(res.body).toEqual({
      error_message: "Error during activation: Requested seats (3) exceed the seats remaining on the entitlement (1)",
    });
    expect(await emulator.state()).toEqual(before);
  });

  it("refuses zero or negative seats with 400 Error during activation", async () => {
    for (const seats of [0, -1]) {
      const res = await emulator.call("activate", { activation_key: PARTNER_KEY, seats });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toMatch(/^Error during activation: /);
    }
  });

  it("takes all that is left when seats is omitted", async () => {
    const res = await emulator.call("activate", { activation_key: PARTNER_KEY });
    expect(res.status).toBe(200);
    expect(res.body.license.limit).toBe(1);
    expect((await licenses()).map((l) => l.limit)).toEqual([2, 2, 1]);
  });

  it("refuses a key whose entitlement is used up, with or without seats", async () => {
    for (const body of [{ activation_key: PARTNER_KEY }, { activation_key: PARTNER_KEY, seats: 1 }]) {
      const res = await emulator.call("activate", body);
      expect(res.status).toBe(400);
      expect(res.body.error_message).toMatch(/^Error during activation: /);
    }
    expect(await licenses()).toHaveLength(3);
  });

  it("takes the maximum of a fresh entitlement when seats is omitted", async () => {
    const res = await emulator.call("activate", { activation_key: CONCURRENT_KEY, issued_to: "Acme Corp" });
    expect(res.status).toBe(200);
    expect(res.body.license).toMatchObject({ limit: 7, license_type: "Per Concurrent Session", sku: "PER-CONCURRENT-SESSION" });
  });
});

describe("Per Concurrent Session licenses", () => {
  it("allow as many concurrent sessions as their seats, beyond the Community Edition's 5", async () => {
    // Licenses active now: 2 + 2 + 1 (partner) + 7 = 12 concurrent sessions.
    const capacity = (await licenses()).reduce((n, l) => n + l.limit, 0);
    expect(capacity).toBe(12);
    for (let i = 0; i < capacity; i++) {
      const res = await emulator.call("request_ws", { user_id: ALICE, image_id: CHROME });
      expect(res.status).toBe(200);
    }
    expect(wire(await emulator.call("request_ws", { user_id: ALICE, image_id: CHROME }))).toEqual({
      status: 403,
      body: { error_message: "License limit exceeded. Unable to create session" },
    });
  });
});

describe("Per Named User licenses", () => {
  let named: TestEmulator;
  beforeAll(async () => {
    named = await startTestEmulator({
      users: [{ username: "alice" }],
      activationKeys: [{ activation_key: NAMED_KEY, seats: 3, license_type: "Per Named User" }],
    });
  });
  afterAll(() => named.close());

  const usernames = async () => Object.values((await named.state()).users).map((u: any) => u.username);

  it("without a license, users are not limited", async () => {
    for (const username of ["free-1", "free-2", "free-3"]) {
      expect((await named.call("create_user", { target_user: { username } })).status).toBe(200);
    }
    for (const username of ["free-1", "free-2", "free-3"]) {
      const id = (await named.call("get_user", { target_user: { username } })).body.user.user_id;
      expect((await named.call("delete_user", { target_user: { user_id: id } })).status).toBe(200);
    }
  });

  it("a Per Named User license answers {license} with its type and sku", async () => {
    const res = await named.call("activate", { activation_key: NAMED_KEY, seats: 2 });
    expect(res.status).toBe(200);
    expect(res.body.license).toMatchObject({ limit: 2, license_type: "Per Named User", sku: "PER-NAMED-USER" });
  });

  it("creating users beyond its seats answers 403 License limit exceeded. Unable to create user", async () => {
    expect((await named.call("create_user", { target_user: { username: "bob" } })).status).toBe(200);
    const before = await named.state();
    expect(wire(await named.call("create_user", { target_user: { username: "carol" } }))).toEqual({
      status: 403,
      body: { error_message: "License limit exceeded. Unable to create user" },
    });
    expect(await named.state()).toEqual(before);
    expect(await usernames()).not.toContain("carol");
  });

  it("activating more seats of the entitlement makes room for more users", async () => {
    const res = await named.call("activate", { activation_key: NAMED_KEY });
    expect(res.status).toBe(200);
    expect(res.body.license.limit).toBe(1);
    expect((await named.call("create_user", { target_user: { username: "carol" } })).status).toBe(200);
    expect(wire(await named.call("create_user", { target_user: { username: "dave" } }))).toEqual({
      status: 403,
      body: { error_message: "License limit exceeded. Unable to create user" },
    });
  });

  it("deleting a user frees a seat", async () => {
    const carol = (await named.call("get_user", { target_user: { username: "carol" } })).body.user.user_id;
    expect((await named.call("delete_user", { target_user: { user_id: carol } })).status).toBe(200);
    expect((await named.call("create_user", { target_user: { username: "dave" } })).status).toBe(200);
  });
});
