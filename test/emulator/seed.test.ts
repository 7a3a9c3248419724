/**
 * A lived-in seed: group memberships, user attributes, staging and cast configs, and egress
 * providers, gateways, mappings and credentials, each visible through the API once the emulator
 * starts (cast configs and group members through product mode's reads: the spec has none). A seed
 * the API would refuse (an unknown name, a second config for a zone and image, a bad time) is
 * refused at start with a SeedError naming the entry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SeedError, type SeedInput } from "../../emulator/seed";
import { startEmulator } from "../../emulator/server";
import { seedWithAdmin, startTestEmulator, type TestEmulator } from "../helpers/emulator";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const ENGINEERING = "e0000000000000000000000000000001";
const KIOSK = "e0000000000000000000000000000002";
const ALICE = "a1000000000000000000000000000001";
const BOB = "b0000000000000000000000000000002";
const STAGING = "57000000000000000000000000000001";
const CAST = "ca000000000000000000000000000001";
const PROVIDER = "e9000000000000000000000000000001";
const FRANKFURT = "e6000000000000000000000000000001";
const PARIS = "e6000000000000000000000000000002";
const MAPPING = "e3000000000000000000000000000001";
const CREDENTIAL = "ec000000000000000000000000000001";

/** A seed with one entry (at least) in every section. */
const LIVED_IN: SeedInput = {
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  images: [
    { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
    { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
  ],
  groups: [
    { group_id: ENGINEERING, name: "Engineering" },
    { group_id: KIOSK, name: "Kiosk" },
  ],
  users: [
    { user_id: ALICE, username: "alice", groups: ["Engineering", "Administrators"] },
    {
      user_id: BOB,
      username: "bob",
      groups: [KIOSK],
      attributes: { default_image_name: "kasmweb/terminal:1.16.0", show_tips: false, auto_login_ws: true, ssh_public_key: "ssh-ed25519 AAAAexample bob" },
    },
  ],
  stagingConfigs: [
    { staging_config_id: STAGING, image_name: "kasmweb/chrome:1.16.0", num_sessions: 3, expiration: 0.5, allow_ws_audio: true },
    { zone_name: "default", image_name: TERMINAL, num_sessions: 0, expiration: 2 },
  ],
  castConfigs: [
    {
      cast_config_id: CAST,
      casting_config_name: "Lobby",
      key: "lobby",
      image_name: "kasmweb/chrome:1.16.0",
      group_name: "Kiosk",
      allow_anonymous: true,
      allowed_referrers: ["example.org"],
      valid_until: "2031-12-31 23:59:59",
    },
    { key: "no-expiry" },
  ],
  egressProviders: [{ egress_provider_id: PROVIDER, name: "Office VPN", egress_provider_type: "wireguard" }],
  egressGateways: [
    { egress_gateway_id: FRANKFURT, egress_provider_name: "Office VPN", name: "Frankfurt", country: "DE", city: "Frankfurt" },
    { egress_gateway_id: PARIS, egress_provider_name: "Office VPN", name: "Paris", enabled: false },
  ],
  egressMappings: [
    { egress_provider_mapping_id: MAPPING, egress_provider_name: "Office VPN", target: { group_name: "Engineering" }, selected_gateways: ["Frankfurt"] },
    { egress_provider_name: "Office VPN", target: { image_name: "kasmweb/terminal:1.16.0" }, allow_all_gateways: true },
  ],
  egressCredentials: [
    {
      egress_credential_id: CREDENTIAL,
      egress_provider_name: "Office VPN",
      name: "bob-wireguard",
      target: { username: "bob" },
      allow_all_gateways: true,
      wireguard_private_key: "not-a-real-key",
      limit_active_connections: true,
      active_connection_limit: 2,
    },
  ],
};

describe("a lived-in seed, read back over the API", () => {
  let spec: TestEmulator;
  let product: TestEmulator;
  beforeAll(async () => {
    spec = await startTestEmulator(LIVED_IN, { apiNames: "spec" });
    product = await startTestEmulator(LIVED_IN, { apiNames: "product" });
  });
  afterAll(async () => {
    await spec?.close();
    await product?.close();
  });

  it("users carry their group memberships, by name or by id", async () => {
    const alice = await spec.call("get_user", { target_user: { user_id: ALICE } });
    expect(alice.status).toBe(200);
    expect(alice.body.user.groups.map((g: { name: string }) => g.name).sort()).toEqual(["Administrators", "All Users", "Engineering"]);
    const bob = await spec.call("get_user", { target_user: { username: "bob" } });
    expect(bob.body.user.groups.map((g: { group_id: string }) => g.group_id)).toContain(KIOSK);
    const members = await product.call("get_users_group", { target_group: { group_id: ENGINEERING } });
    expect(members.body).toEqual({ users: [{ name: "alice", user_id: ALICE }], total: 1 });
  });

  it("a user's attributes are the seed's, the rest the defaults of a new user", async () => {
    const res = await spec.call("get_attributes", { target_user: { user_id: BOB } });
    expect(res.status).toBe(200);
    expect(res.body.user_attributes).toMatchObject({
      user_id: BOB,
      default_image: TERMINAL,
      show_tips: false,
      toggle_control_panel: true,
      auto_login_ws: true,
      ssh_public_key: "ssh-ed25519 AAAAexample bob",
    });
    const alice = await spec.call("get_attributes", { target_user: { user_id: ALICE } });
    expect(alice.body.user_attributes).toMatchObject({ default_image: null, show_tips: true, auto_login_ws: null });
  });

  it("staging configs, with their zone (the only one when not named) and image", async () => {
    const res = await spec.call("get_staging_configs");
    expect(res.status).toBe(200);
    const configs = res.body.staging_configs as Record<string, unknown>[];
    expect(configs).toHaveLength(2);
    expect(configs.find((c) => c.staging_config_id === STAGING)).toMatchObject({
      zone_id: ZONE,
      zone_name: "default",
      image_id: CHROME,
      image_friendly_name: "Chrome",
      num_sessions: 3,
      num_current_sessions: 3,
      expiration: 0.5,
      allow_ws_audio: true,
      allow_ws_uploads: false,
    });
    expect(configs.find((c) => c.staging_config_id !== STAGING)).toMatchObject({ zone_id: ZONE, image_id: TERMINAL, num_sessions: 0, expiration: 2 });
  });

  it("cast configs, with their image and group, and no expiry when valid_until is left out", async () => {
    const res = await product.specCall("get_cast_configs");
    expect(res.status).toBe(200);
    const configs = res.body.cast_configs as Record<string, unknown>[];
    expect(configs.map((c) => c.key).sort()).toEqual(["lobby", "no-expiry"]);
    expect(configs.find((c) => c.key === "lobby")).toMatchObject({
      cast_config_id: CAST,
      casting_config_name: "Lobby",
      image_id: CHROME,
      image_friendly_name: "Chrome",
      group_id: KIOSK,
      group_name: "Kiosk",
      allow_anonymous: true,
      allowed_referrers: ["example.org"],
      valid_until: "2031-12-31 23:59:59",
    });
    expect(configs.find((c) => c.key === "no-expiry")).toMatchObject({ casting_config_name: "no-expiry", image_id: null, group_id: null, valid_until: null });
  });

  it("egress providers and gateways", async () => {
    const providers = await spec.call("get_egress_providers");
    expect(providers.body.egress_providers).toEqual([
      expect.objectContaining({ egress_provider_id: PROVIDER, name: "Office VPN", egress_provider_type: "wireguard", enabled: true }),
    ]);
    const gateways = await spec.call("get_egress_gateways", { target_egress_gateway: { egress_provider_id: PROVIDER } });
    expect(gateways.body.egress_gateways.map((g: { egress_gateway_id: string; enabled: boolean }) => [g.egress_gateway_id, g.enabled]).sort()).toEqual([
      [FRANKFURT, true],
      [PARIS, false],
    ]);
  });

  it("egress mappings, with their target and the gateways they select", async () => {
    const res = await spec.call("get_egress_provider_mapping", { target_egress_provider_mapping: { egress_provider_id: PROVIDER } });
    expect(res.status).toBe(200);
    const mappings = res.body.egress_provider_mappings as Record<string, any>[];
    expect(mappings).toHaveLength(2);
    const engineering = mappings.find((m) => m.egress_provider_mapping_id === MAPPING)!;
    expect(engineering).toMatchObject({ group_id: ENGINEERING, user_id: null, image_id: null, allow_all_gateways: false });
    expect(engineering.egress_gateways).toEqual([{ name: "Frankfurt", egress_gateway_id: FRANKFURT }]);
    const terminal = mappings.find((m) => m.egress_provider_mapping_id !== MAPPING)!;
    expect(terminal).toMatchObject({ image_id: TERMINAL, allow_all_gateways: true });
  });

  it("egress credentials, and the gateways a user may use with an image through them", async () => {
    const res = await spec.call("get_egress_credentials", { target_egress_credential: { user_id: BOB } });
    expect(res.body.egress_credentials).toEqual([
      expect.objectContaining({
        egress_credential_id: CREDENTIAL,
        name: "bob-wireguard",
        user_id: BOB,
        wireguard_private_key: "not-a-real-key",
        limit_active_connections: true,
        active_connection_limit: 2,
      }),
    ]);
    // Bob uses Terminal through its mapping (all enabled gateways), signing in with his credential.
    const usable = await spec.call("get_image_egress_gateways", { target_user: { user_id: BOB }, target_image: { image_id: TERMINAL } });
    expect(usable.body.egress_gateways).toEqual([expect.objectContaining({ egress_gateway_id: FRANKFURT, egress_credential_id: CREDENTIAL })]);
  });
});

describe("a seed the API would refuse", () => {
  /** The error an emulator started from `seed` (plus the admin key) is refused with. */
  async function refusal(seed: SeedInput): Promise<Error> {
    try {
      const emulator = await startEmulator({ port: 0, seed: seedWithAdmin(seed) });
      await emulator.close();
    } catch (error) {
      return error as Error;
    }
    throw new Error("the seed was accepted");
  }

  const base: SeedInput = {
    zones: [{ zone_name: "default" }],
    images: [{ name: "kasmweb/chrome:1.16.0" }],
    groups: [{ name: "Engineering" }],
    users: [{ username: "bob" }],
    egressProviders: [{ name: "Office VPN", egress_provider_type: "wireguard" }],
    egressGateways: [{ egress_provider_name: "Office VPN", name: "Frankfurt" }],
  };

  it.each<[string, SeedInput, string]>([
    [
      "an unknown image of a staging config",
      {
        stagingConfigs: [
          { image_name: "kasmweb/chrome:1.16.0", num_sessions: 1, expiration: 1 },
          { image_name: "x", num_sessions: 1, expiration: 1 },
        ],
      },
      'seed: stagingConfigs[1].image_name: unknown image "x"',
    ],
    [
      "a second staging config for the same zone and image (the API's uniqueness)",
      {
        stagingConfigs: [
          { image_name: "kasmweb/chrome:1.16.0", num_sessions: 1, expiration: 1 },
          { image_name: "kasmweb/chrome:1.16.0", num_sessions: 2, expiration: 1 },
        ],
      },
      "seed: stagingConfigs[1]: A staging config for zone (default) and image (kasmweb/chrome:1.16.0) already exists",
    ],
    [
      "a staging config without zone_name when there are two zones",
      { zones: [{ zone_name: "default" }, { zone_name: "eu" }], stagingConfigs: [{ image_name: "kasmweb/chrome:1.16.0", num_sessions: 1, expiration: 1 }] },
      "seed: stagingConfigs[0]: zone_name is required when the seed has more or fewer than one zone",
    ],
    [
      "an unknown zone of a staging config",
      { stagingConfigs: [{ zone_name: "mars", image_name: "kasmweb/chrome:1.16.0", num_sessions: 1, expiration: 1 }] },
      'seed: stagingConfigs[0].zone_name: unknown zone "mars"',
    ],
    ["an unknown group of a cast config", { castConfigs: [{ key: "lobby", group_name: "Kiosk" }] }, 'seed: castConfigs[0].group_name: unknown group "Kiosk"'],
    [
      "a cast config key used twice (the API's uniqueness)",
      { castConfigs: [{ key: "lobby" }, { key: "lobby", casting_config_name: "Other" }] },
      "seed: castConfigs[1]: A Cast config with existing key (lobby) OR configuration name (Other) exists",
    ],
    [
      "a cast config valid_until that is no time",
      { castConfigs: [{ key: "lobby", valid_until: "" }] },
      'seed: castConfigs[0]: valid_until ("") must be a UTC time',
    ],
    [
      "a cast config limiting IPs without limits (the API's rule)",
      { castConfigs: [{ key: "lobby", limit_ips: true }] },
      "seed: castConfigs[0]: ip_request_limit and ip_request_seconds must be positive when limit_ips is true",
    ],
    [
      "an unknown default image of a user",
      { users: [{ username: "carol", attributes: { default_image_name: "y" } }] },
      'seed: users[0].attributes.default_image_name: unknown image "y"',
    ],
    [
      "a gateway of an unknown provider",
      { egressGateways: [{ egress_provider_name: "Home VPN", name: "Oslo" }] },
      'seed: egressGateways[0].egress_provider_name: unknown egress provider "Home VPN"',
    ],
    [
      "a gateway name used twice within a provider (the API's uniqueness)",
      {
        egressGateways: [
          { egress_provider_name: "Office VPN", name: "Frankfurt" },
          { egress_provider_name: "Office VPN", name: "Frankfurt" },
        ],
      },
      "seed: egressGateways[1]: An egress gateway named (Frankfurt) already exists for this egress provider",
    ],
    [
      "a mapping selecting a gateway its provider does not have",
      { egressMappings: [{ egress_provider_name: "Office VPN", target: { group_name: "Engineering" }, selected_gateways: ["Paris"] }] },
      'seed: egressMappings[0].selected_gateways[0]: egress provider "Office VPN" has no gateway named "Paris"',
    ],
    [
      "a mapping with two targets",
      { egressMappings: [{ egress_provider_name: "Office VPN", target: { group_name: "Engineering", username: "bob" }, allow_all_gateways: true }] },
      "seed: egressMappings[0].target: give exactly one of username, group_name and image_name",
    ],
    [
      "a mapping without gateways and without allow_all_gateways (the API's rule)",
      { egressMappings: [{ egress_provider_name: "Office VPN", target: { group_name: "Engineering" } }] },
      "seed: egressMappings[0]: selected_gateways is required when allow_all_gateways is false",
    ],
    [
      "a credential for an unknown user",
      { egressCredentials: [{ egress_provider_name: "Office VPN", name: "c", target: { username: "zed" }, allow_all_gateways: true }] },
      'seed: egressCredentials[0].target.username: unknown user "zed"',
    ],
    [
      "a credential limited to no connections (the API's rule)",
      {
        egressCredentials: [
          { egress_provider_name: "Office VPN", name: "c", target: { username: "bob" }, allow_all_gateways: true, limit_active_connections: true },
        ],
      },
      "seed: egressCredentials[0]: active_connection_limit must be positive when limit_active_connections is true",
    ],
    [
      "a pinned id used twice",
      {
        egressProviders: [
          { egress_provider_id: PROVIDER, name: "A", egress_provider_type: "openvpn" },
          { egress_provider_id: PROVIDER.toUpperCase(), name: "B", egress_provider_type: "custom" },
        ],
      },
      `seed: egressProviders.egress_provider_id: duplicate "${PROVIDER}"`,
    ],
  ])("refuses %s, naming the entry", async (_case, section, message) => {
    const error = await refusal({ ...base, ...section });
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toContain(message);
  });

  it("refuses a mistyped field of a new section, naming it", async () => {
    const error = await refusal({
      ...base,
      stagingConfigs: [{ image_name: "kasmweb/chrome:1.16.0", num_sessions: 1, expiration: 1, num_session: 2 } as never],
    });
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toMatch(/stagingConfigs\W+0/);
    expect(error.message).toContain("num_session");
  });

  it("refuses a staging config whose expiration is not more than 0 hours (the API's bound)", async () => {
    const error = await refusal({ ...base, stagingConfigs: [{ image_name: "kasmweb/chrome:1.16.0", num_sessions: 1, expiration: 0 }] });
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toMatch(/stagingConfigs\W+0\W+expiration/);
  });

  it("the base of these cases loads, so each refusal comes from its own entry", async () => {
    const emulator = await startEmulator({ port: 0, seed: seedWithAdmin(base) });
    await emulator.close();
  });
});
