/**
 * Taking over what exists sends no write when it is already as declared, through Pulumi's real
 * dynamic-provider host against the emulator. For every kind that adopts (or, like
 * UserAttributes and ServerDrain, writes over an object that always exists): the object is made
 * in Kasm over the API, the provider's create runs with `adopt: true` and inputs equal to what
 * Kasm holds, and the emulator's request log shows only reads (`OPERATIONS[op].access`); with one
 * field different, exactly one write is sent. Group and CastConfig exist only in a released Kasm's
 * vocabulary: they run in the suite's `product` project.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS, type OperationName } from "../../permissions";
import { wireOperationName } from "../../emulator/vocabulary";
import type { KindName } from "../../provider";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const ENGINEERING = "2c000000000000000000000000000001";
const SALES = "2c000000000000000000000000000002";
const WS1 = "3d000000000000000000000000000001";
const WS2 = "3d000000000000000000000000000002";
const SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9wZW5zc2gtdGVzdC1rZXktbm90LXJlYWw adopt@test";

const SEED = {
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  images: [
    { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
    { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
  ],
  groups: [
    { group_id: ENGINEERING, name: "Engineering" },
    { group_id: SALES, name: "Sales" },
  ],
  users: [
    { username: "alice", first_name: "Alice", groups: ["Engineering"] },
    { username: "bob", first_name: "Bob" },
    { username: "carol", first_name: "Carol", last_name: "Smith", groups: ["Engineering", "Sales"] },
    { username: "dave", first_name: "Dave", organization: "Ops", groups: ["Sales"] },
  ],
  servers: [
    { server_id: WS1, hostname: "ws1.example.com", assigned_users: ["bob"] },
    { server_id: WS2, hostname: "ws2.example.com" },
  ],
};

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator(SEED);
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The operations served while `run` ran (spec names), and those of them that write. */
async function requestsDuring(on: TestEmulator, run: () => Promise<unknown>): Promise<{ all: string[]; writes: string[] }> {
  const bySpec = new Map((Object.keys(OPERATIONS) as OperationName[]).map((op) => [wireOperationName(op, on.apiNames), op]));
  const from = on.requests.length;
  await run();
  const all = on.requests.slice(from).map((line) => bySpec.get(line.split(" ")[0]) ?? line.split(" ")[0]);
  // An operation the catalogue does not know counts as a write: the assertion is that none is sent.
  const writes = all.filter((op) => OPERATIONS[op as OperationName]?.access !== "read");
  return { all, writes };
}

/** Adopt with `inputs` through a fresh resource: the operations sent. */
async function adopting(kind: KindName, name: string, inputs: Record<string, unknown>, on = emulator, via = host) {
  const resource = new Driven(via, kind, name);
  const sent = await requestsDuring(on, () => resource.create(inputs));
  return { ...sent, resource };
}

/** What an object taken over without a write means: a refresh, then the same program, plans no change. */
async function expectRefreshShowsNoChange(resource: Driven, inputs: Record<string, unknown>): Promise<void> {
  await resource.read();
  expect((await resource.diff(inputs)).changes).toBe("none");
}

/** Make an object over the API (spec names, whatever the emulator speaks), and pick what the test needs from the answer. */

async function created<T = string>(operation: OperationName, body: Record<string, unknown>, pick: (answer: any) => T): Promise<T> {
  const res = await emulator.specCall(operation, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return pick(res.body);
}

describe("adopting what is already as declared sends no write", () => {
  it("StagingConfig", async () => {
    const id = await created(
      "create_staging_config",
      { target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 2, expiration: 1.5, allow_ws_audio: true, allow_ws_uploads: false } },
      (b) => b.staging_config.staging_config_id,
    );
    const inputs = { zoneId: hyphenated(ZONE), imageId: CHROME, numSessions: 2, expiration: 1.5, allowWsAudio: true, allowWsUploads: false, adopt: true };
    const same = await adopting("StagingConfig", "staging", inputs);
    expect(same.resource.id).toBe(id);
    expect(same.writes).toEqual([]);
    expect(same.all.length).toBeGreaterThan(0);
    await expectRefreshShowsNoChange(same.resource, inputs);

    const other = await adopting("StagingConfig", "staging-2", { ...inputs, numSessions: 3 });
    expect(other.writes).toEqual(["update_staging_config"]);
  });

  it("EgressProvider, EgressGateway and EgressProviderMapping", async () => {
    const provider = await created(
      "create_egress_provider",
      { target_egress_provider: { name: "Corp VPN", egress_provider_type: "wireguard", enabled: true } },
      (b) => b.egress_provider.egress_provider_id,
    );
    const providerInputs = { name: "Corp VPN", egressProviderType: "wireguard", enabled: true, adopt: true };
    const p = await adopting("EgressProvider", "provider", providerInputs);
    expect(p.resource.id).toBe(provider);
    expect(p.writes).toEqual([]);
    await expectRefreshShowsNoChange(p.resource, providerInputs);
    expect((await adopting("EgressProvider", "provider-2", { ...providerInputs, enabled: false })).writes).toEqual(["update_egress_provider"]);

    const gateway = await created(
      "create_egress_gateway",
      { target_egress_gateway: { egress_provider_id: provider, name: "Paris", country: "FR", city: "Paris", enabled: true } },
      (b) => b.egress_gateway.egress_gateway_id,
    );
    const other = await created(
      "create_egress_gateway",
      { target_egress_gateway: { egress_provider_id: provider, name: "Berlin" } },
      (b) => b.egress_gateway.egress_gateway_id,
    );
    const gatewayInputs = { egressProviderId: hyphenated(provider), name: "Paris", country: "FR", city: "Paris", enabled: true, adopt: true };
    const g = await adopting("EgressGateway", "gateway", gatewayInputs);
    expect(g.resource.id).toBe(gateway);
    expect(g.writes).toEqual([]);
    await expectRefreshShowsNoChange(g.resource, gatewayInputs);
    expect((await adopting("EgressGateway", "gateway-2", { ...gatewayInputs, city: "Lyon" })).writes).toEqual(["update_egress_gateway"]);

    // A selection of gateways (allowAllGateways left out: false, as Kasm holds it), in another order and id form.
    const selection = await created(
      "create_egress_provider_mapping",
      {
        target_egress_provider_mapping: {
          egress_provider_id: provider,
          group_id: ENGINEERING,
          allow_all_gateways: false,
          selected_gateways: [gateway, other],
          enabled: true,
        },
      },
      (b) => b.egress_provider_mapping.egress_provider_mapping_id,
    );
    const selectionInputs = {
      egressProviderId: provider,
      groupId: hyphenated(ENGINEERING),
      selectedGateways: [hyphenated(other), gateway],
      enabled: true,
      adopt: true,
    };
    const m = await adopting("EgressProviderMapping", "mapping", selectionInputs);
    expect(m.resource.id).toBe(selection);
    expect(m.writes).toEqual([]);
    await expectRefreshShowsNoChange(m.resource, selectionInputs);
    expect((await adopting("EgressProviderMapping", "mapping-2", { ...selectionInputs, selectedGateways: [gateway] })).writes).toEqual([
      "update_egress_provider_mapping",
    ]);

    // Every gateway allowed, as declared: Kasm lists them all, and the declared selection is not compared.
    await created(
      "create_egress_provider_mapping",
      { target_egress_provider_mapping: { egress_provider_id: provider, group_id: SALES, allow_all_gateways: true } },
      (b) => b.egress_provider_mapping.egress_provider_mapping_id,
    );
    const allInputs = { egressProviderId: provider, groupId: SALES, allowAllGateways: true, adopt: true };
    expect((await adopting("EgressProviderMapping", "mapping-all", allInputs)).writes).toEqual([]);
    // Left out, allowAllGateways means false: a mapping that allows all differs.
    expect(
      (await adopting("EgressProviderMapping", "mapping-all-2", { egressProviderId: provider, groupId: SALES, selectedGateways: [gateway], adopt: true }))
        .writes,
    ).toEqual(["update_egress_provider_mapping"]);
  });

  it("EgressCredential: as declared, taken over with no write; different, refused with no write", async () => {
    const provider = await created(
      "create_egress_provider",
      { target_egress_provider: { name: "Credential VPN", egress_provider_type: "wireguard" } },
      (b) => b.egress_provider.egress_provider_id,
    );
    const gateway = await created(
      "create_egress_gateway",
      { target_egress_gateway: { egress_provider_id: provider, name: "Oslo" } },
      (b) => b.egress_gateway.egress_gateway_id,
    );
    await created(
      "create_egress_credential",
      {
        target_egress_credential: {
          egress_provider_id: provider,
          name: "shared",
          group_id: SALES,
          allow_all_gateways: false,
          selected_gateways: [gateway],
          username: "vpn",
          enabled: true,
        },
      },
      (b) => b,
    );
    const inputs = { egressProviderId: provider, name: "shared", groupId: SALES, selectedGateways: [gateway], username: "vpn", enabled: true, adopt: true };
    expect((await adopting("EgressCredential", "credential", inputs)).writes).toEqual([]);
    const differs = new Driven(host, "EgressCredential", "credential-2");
    const sent = await requestsDuring(emulator, () =>
      expect(differs.create({ ...inputs, username: "other" })).rejects.toThrow(/differs from the program in username/),
    );
    expect(sent.writes).toEqual([]);
  });

  it("User: no write when as declared; one update_user when a field differs, or when a password is declared (Kasm never shows it)", async () => {
    await created(
      "create_user",
      { target_user: { username: "erin", first_name: "Erin", last_name: "Doe", organization: "Sales", locked: false } },
      (b) => b.user.user_id,
    );
    const inputs = { username: "Erin", firstName: "Erin", lastName: "Doe", organization: "Sales", locked: false, adopt: true };
    const same = await adopting("User", "erin", inputs);
    expect(same.writes).toEqual([]);
    await expectRefreshShowsNoChange(same.resource, inputs);
    expect((await adopting("User", "erin-2", { ...inputs, lastName: "Roe" })).writes).toEqual(["update_user"]);
    expect((await adopting("User", "erin-3", { ...inputs, lastName: "Roe", password: "A-long-passw0rd!" })).writes).toEqual(["update_user"]);
  });

  it("UserAttributes: no update_user_attributes when every declared attribute is as Kasm has it; only the one that differs otherwise", async () => {
    const alice = await emulator.userId("alice");
    await created(
      "update_user_attributes",
      { target_user_attributes: { user_id: alice, show_tips: false, default_image: CHROME, ssh_public_key: SSH_KEY, toggle_control_panel: true } },
      (b) => b,
    );
    const inputs = { userId: hyphenated(alice), showTips: false, defaultImage: hyphenated(CHROME), sshPublicKey: `${SSH_KEY}\n`, toggleControlPanel: true };
    const same = await adopting("UserAttributes", "alice", inputs);
    expect(same.all).toEqual(["get_attributes"]);
    await expectRefreshShowsNoChange(same.resource, inputs);

    const other = await adopting("UserAttributes", "alice-2", { ...inputs, showTips: true });
    expect(other.writes).toEqual(["update_user_attributes"]);
    const held = (await emulator.specCall("get_attributes", { target_user: { user_id: alice } })).body.user_attributes;
    expect(held).toMatchObject({ show_tips: true, default_image: CHROME, toggle_control_panel: true });
  });

  it("GroupMembership: an existing membership is adopted with no write (not even a refused add); a missing one is added once", async () => {
    const alice = await emulator.userId("alice");
    const same = await adopting("GroupMembership", "alice-eng", { userId: alice, groupId: hyphenated(ENGINEERING), adopt: true });
    expect(same.resource.id).toBe(`${alice}:${ENGINEERING}`);
    expect(same.writes).toEqual([]);
    expect((await adopting("GroupMembership", "alice-sales", { userId: alice, groupId: SALES, adopt: true })).writes).toEqual(["add_user_group"]);
  });

  it("UserServerAssignment: an existing assignment is adopted with no write; a missing one is assigned once", async () => {
    const bob = await emulator.userId("bob");
    const same = await adopting("UserServerAssignment", "bob-ws1", { userId: bob, serverId: hyphenated(WS1), adopt: true });
    expect(same.resource.id).toBe(`${bob}:${WS1}`);
    expect(same.writes).toEqual([]);
    expect((await adopting("UserServerAssignment", "bob-ws2", { userId: bob, serverId: WS2, adopt: true })).writes).toEqual(["assign_user_server"]);
  });

  it("UserGroups: a user already in exactly the declared groups gets no write; one group more is one add", async () => {
    const carol = await emulator.userId("carol");
    expect((await adopting("UserGroups", "carol", { userId: carol, groupIds: [SALES, hyphenated(ENGINEERING)] })).writes).toEqual([]);
    const dave = await emulator.userId("dave");
    expect((await adopting("UserGroups", "dave", { userId: dave, groupIds: [SALES, ENGINEERING] })).writes).toEqual(["add_user_group"]);
  });

  it("UserSet with adopt: users already as declared get no write; one field different is one update_user", async () => {
    const users = [
      { username: "Carol", firstName: "Carol", lastName: "Smith", groups: ["Engineering", "Sales"] },
      { username: "dave", firstName: "Dave", organization: "Ops", groups: ["Sales"] },
    ];
    expect((await adopting("UserSet", "set", { users, adopt: true })).writes).toEqual([]);
    const changed = [users[0], { ...users[1], organization: "Platform" }];
    expect((await adopting("UserSet", "set-2", { users: changed, adopt: true })).writes).toEqual(["update_user"]);
  });
});

describe.runIf(TEST_API_NAMES === "product")("adopting what is already as declared sends no write, in a released Kasm's vocabulary", () => {
  it("Group: only the declared fields count (an undeclared priority is Kasm's own)", async () => {
    const id = await created("create_group", { target_group: { name: "Contractors", priority: 30, description: "External staff" } }, (b) => b.group.group_id);
    const inputs = { name: " Contractors ", description: "External staff", adopt: true };
    const same = await adopting("Group", "contractors", inputs);
    expect(same.resource.id).toBe(id);
    expect(same.writes).toEqual([]);
    await expectRefreshShowsNoChange(same.resource, inputs);
    expect((await adopting("Group", "contractors-2", { name: "Contractors", priority: 31, adopt: true })).writes).toEqual(["update_group"]);
  });

  it("CastConfig: the remaining-sessions counter is not compared (Kasm counts it down); another field is", async () => {
    const id = await created(
      "create_cast_config",
      {
        target_cast_config: {
          casting_config_name: "Lobby",
          image_id: TERMINAL,
          key: "lobby",
          allowed_referrers: ["a.example.com", "b.example.com"],
          limit_sessions: true,
          session_remaining: 3,
          allow_ws_audio: false,
          group_id: ENGINEERING,
        },
      },
      (b) => b.cast_config.cast_config_id,
    );
    const inputs = {
      castingConfigName: "Lobby",
      imageId: hyphenated(TERMINAL),
      key: "lobby",
      allowedReferrers: ["b.example.com", "a.example.com"],
      limitSessions: true,
      sessionRemaining: 10,
      allowWsAudio: false,
      groupId: ENGINEERING,
      adopt: true,
    };
    const same = await adopting("CastConfig", "lobby", inputs);
    expect(same.resource.id).toBe(id);
    expect(same.writes).toEqual([]);
    await expectRefreshShowsNoChange(same.resource, inputs);
    expect((await adopting("CastConfig", "lobby-2", { ...inputs, allowWsAudio: true })).writes).toEqual(["update_cast_config"]);
  });
});

describe("ServerDrain over a server already as declared", () => {
  let observed: TestEmulator;
  let observedHost: ProviderHost;
  beforeAll(async () => {
    observed = await startTestEmulator(SEED, { observedFields: true });
    observedHost = await hostFor(observed);
  });
  afterAll(async () => {
    await observedHost?.stop();
    await observed?.close();
  });

  it("sends no set_drain_server when the record shows is_draining as declared, and one when it differs", async () => {
    expect((await observed.specCall("set_drain_server", { target_server: { server_id: WS1, is_draining: true } })).status).toBe(200);
    const same = await adopting("ServerDrain", "ws1", { serverId: hyphenated(WS1), draining: true }, observed, observedHost);
    expect(same.all).toEqual(["get_servers"]);
    const other = await adopting("ServerDrain", "ws2", { serverId: WS2 }, observed, observedHost);
    expect(other.writes).toEqual(["set_drain_server"]);
    expect((await observed.state()).servers[WS2].is_draining).toBe(true);
  });

  it("a record without is_draining (the spec's fields) cannot show it: the flag is set, as before", async () => {
    const sent = await adopting("ServerDrain", "plain-ws2", { serverId: WS2, draining: false });
    expect(sent.all).toEqual(["get_servers", "set_drain_server"]);
  });
});
