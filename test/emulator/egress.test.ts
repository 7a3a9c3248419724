/**
 * Egress (VPN): providers, gateways, provider mappings and credentials, the gateways a user may use
 * with an image, and what goes away with a provider or a user. The five reads are GET with a JSON
 * body (the harness picks the method from the operation table).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenated } from "../helpers/emulator";

const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const ALICE = "4e000000000000000000000000000001";
const BOB = "4e000000000000000000000000000002";
const CAROL = "4e000000000000000000000000000003";
const DAVE = "4e000000000000000000000000000004";
const TRAVEL = "2c000000000000000000000000000001";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    zones: [{ zone_name: "default" }],
    images: [
      { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
      { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
    ],
    groups: [{ group_id: TRAVEL, name: "Travel" }],
    users: [
      { user_id: ALICE, username: "alice" },
      { user_id: BOB, username: "bob", groups: ["Travel"] },
      { user_id: CAROL, username: "carol" },
      { user_id: DAVE, username: "dave" },
    ],
  });
});
afterAll(() => emulator.close());

/** The ids of a list of records. */
const ids = (list: Record<string, unknown>[], key: string) => list.map((r) => r[key]).sort();

describe("egress", () => {
  let wg: string; // wireguard provider
  let ovpn: string; // openvpn provider
  let gwParis: string;
  let gwBerlin: string;
  let gwOslo: string; // openvpn gateway
  let bobCredential: string; // Bob's own openvpn credential
  let travelCredential: string; // the Travel group's wireguard credential on Berlin

  describe("providers", () => {
    it("creates a provider and answers {egress_provider}", async () => {
      const res = await emulator.call("create_egress_provider", {
        target_egress_provider: { name: "Mullvad", egress_provider_type: "wireguard", enabled: true },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_provider"]);
      wg = res.body.egress_provider.egress_provider_id;
      expect(wg).toMatch(/^[0-9a-f]{32}$/);
      expect(res.body.egress_provider).toEqual({
        egress_provider_id: wg,
        created: expect.stringMatching(TIMESTAMP),
        name: "Mullvad",
        egress_provider_type: "wireguard",
        enabled: true,
      });
    });

    it("creates a second, disabled openvpn provider", async () => {
      const res = await emulator.call("create_egress_provider", {
        target_egress_provider: { name: "Corporate", egress_provider_type: "openvpn", enabled: false },
      });
      expect(res.status).toBe(200);
      ovpn = res.body.egress_provider.egress_provider_id;
      expect(res.body.egress_provider).toMatchObject({ name: "Corporate", egress_provider_type: "openvpn", enabled: false });
    });

    it("refuses a provider name that is taken", async () => {
      const res = await emulator.call("create_egress_provider", {
        target_egress_provider: { name: "Mullvad", egress_provider_type: "openvpn", enabled: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain("Mullvad");
    });

    it("refuses a provider type outside wireguard, openvpn and custom, naming the field", async () => {
      const res = await emulator.call("create_egress_provider", {
        target_egress_provider: { name: "Tor", egress_provider_type: "tor", enabled: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain("egress_provider_type");
      const list = await emulator.call("get_egress_providers", { target_egress_provider: { name: "Tor" } });
      expect(list.body.egress_providers).toEqual([]);
    });

    it("accepts the custom type", async () => {
      const res = await emulator.call("create_egress_provider", {
        target_egress_provider: { name: "Homegrown", egress_provider_type: "custom", enabled: true },
      });
      expect(res.status).toBe(200);
      expect(res.body.egress_provider.egress_provider_type).toBe("custom");
    });

    it("lists every provider without a filter", async () => {
      const res = await emulator.call("get_egress_providers");
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_providers"]);
      expect(res.body.egress_providers.map((p: { name: string }) => p.name).sort()).toEqual(["Corporate", "Homegrown", "Mullvad"]);
    });

    it("filters providers by type, enabled, name and id", async () => {
      const byType = await emulator.call("get_egress_providers", { target_egress_provider: { egress_provider_type: "openvpn" } });
      expect(ids(byType.body.egress_providers, "egress_provider_id")).toEqual([ovpn]);
      const disabled = await emulator.call("get_egress_providers", { target_egress_provider: { enabled: false } });
      expect(ids(disabled.body.egress_providers, "egress_provider_id")).toEqual([ovpn]);
      const enabled = await emulator.call("get_egress_providers", { target_egress_provider: { enabled: true } });
      expect(enabled.body.egress_providers.map((p: { name: string }) => p.name).sort()).toEqual(["Homegrown", "Mullvad"]);
      const byName = await emulator.call("get_egress_providers", { target_egress_provider: { name: "Mullvad" } });
      expect(byName.body.egress_providers).toEqual([expect.objectContaining({ egress_provider_id: wg, name: "Mullvad" })]);
      const byId = await emulator.call("get_egress_providers", { target_egress_provider: { egress_provider_id: hyphenated(wg) } });
      expect(ids(byId.body.egress_providers, "egress_provider_id")).toEqual([wg]);
      const both = await emulator.call("get_egress_providers", {
        target_egress_provider: { egress_provider_type: "wireguard", enabled: false },
      });
      expect(both.body.egress_providers).toEqual([]);
    });

    it("updates a provider: only the fields sent change", async () => {
      const res = await emulator.call("update_egress_provider", {
        target_egress_provider: { egress_provider_id: ovpn, enabled: true },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_provider"]);
      expect(res.body.egress_provider).toMatchObject({ egress_provider_id: ovpn, name: "Corporate", egress_provider_type: "openvpn", enabled: true });
    });

    it("refuses an update that takes another provider's name", async () => {
      const res = await emulator.call("update_egress_provider", {
        target_egress_provider: { egress_provider_id: ovpn, name: "Mullvad" },
      });
      expect(res.status).toBe(400);
      const read = await emulator.call("get_egress_providers", { target_egress_provider: { egress_provider_id: ovpn } });
      expect(read.body.egress_providers[0].name).toBe("Corporate");
    });

    it("refuses an update of an unknown provider", async () => {
      const res = await emulator.call("update_egress_provider", {
        target_egress_provider: { egress_provider_id: UNKNOWN, enabled: false },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain(UNKNOWN);
    });

    it("deletes a provider and answers {}", async () => {
      const found = await emulator.call("get_egress_providers", { target_egress_provider: { name: "Homegrown" } });
      const id = found.body.egress_providers[0].egress_provider_id;
      const res = await emulator.call("delete_egress_provider", { target_egress_provider: { egress_provider_id: id } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const again = await emulator.call("delete_egress_provider", { target_egress_provider: { egress_provider_id: id } });
      expect(again.status).toBe(400);
    });
  });

  describe("gateways", () => {
    it("creates a gateway and answers {egress_gateway} with its config", async () => {
      const config = "[Interface]\nAddress = 10.64.0.2/32\n\n[Peer]\nPublicKey = abc=\nEndpoint = 185.0.0.1:51820\n";
      const res = await emulator.call("create_egress_gateway", {
        target_egress_gateway: { egress_provider_id: wg, name: "Paris", enabled: true, country: "FR", city: "Paris", config },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_gateway"]);
      gwParis = res.body.egress_gateway.egress_gateway_id;
      expect(res.body.egress_gateway).toEqual({
        egress_gateway_id: gwParis,
        name: "Paris",
        enabled: true,
        country: "FR",
        city: "Paris",
        config,
        egress_provider_id: wg,
        active_connections: 0,
      });
    });

    it("creates more gateways, on both providers", async () => {
      const berlin = await emulator.call("create_egress_gateway", {
        target_egress_gateway: { egress_provider_id: wg, name: "Berlin", enabled: true, country: "DE", city: "Berlin", config: "[Interface]" },
      });
      expect(berlin.status).toBe(200);
      gwBerlin = berlin.body.egress_gateway.egress_gateway_id;
      const oslo = await emulator.call("create_egress_gateway", {
        target_egress_gateway: { egress_provider_id: ovpn, name: "Oslo", enabled: true, country: "NO", city: "Oslo", config: "client" },
      });
      expect(oslo.status).toBe(200);
      gwOslo = oslo.body.egress_gateway.egress_gateway_id;
    });

    it("refuses a gateway name taken within the same provider", async () => {
      const res = await emulator.call("create_egress_gateway", {
        target_egress_gateway: { egress_provider_id: wg, name: "Paris", enabled: true, country: "FR", city: "Paris", config: "" },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain("Paris");
    });

    it("accepts the same gateway name under another provider", async () => {
      const res = await emulator.call("create_egress_gateway", {
        target_egress_gateway: { egress_provider_id: ovpn, name: "Paris", enabled: false, country: "FR", city: "Paris", config: "client" },
      });
      expect(res.status).toBe(200);
    });

    it("refuses a gateway of an unknown provider", async () => {
      const res = await emulator.call("create_egress_gateway", {
        target_egress_gateway: { egress_provider_id: UNKNOWN, name: "Nowhere", enabled: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain(UNKNOWN);
    });

    it("filters gateways by provider, enabled, name, country, city and id", async () => {
      const all = await emulator.call("get_egress_gateways");
      expect(all.status).toBe(200);
      expect(Object.keys(all.body)).toEqual(["egress_gateways"]);
      expect(all.body.egress_gateways).toHaveLength(4);
      const byProvider = await emulator.call("get_egress_gateways", { target_egress_gateway: { egress_provider_id: wg } });
      expect(ids(byProvider.body.egress_gateways, "egress_gateway_id")).toEqual([gwBerlin, gwParis].sort());
      const disabled = await emulator.call("get_egress_gateways", { target_egress_gateway: { enabled: false } });
      expect(disabled.body.egress_gateways).toEqual([expect.objectContaining({ name: "Paris", egress_provider_id: ovpn })]);
      const byName = await emulator.call("get_egress_gateways", { target_egress_gateway: { name: "Paris" } });
      expect(byName.body.egress_gateways).toHaveLength(2);
      const byCountry = await emulator.call("get_egress_gateways", { target_egress_gateway: { country: "DE" } });
      expect(ids(byCountry.body.egress_gateways, "egress_gateway_id")).toEqual([gwBerlin]);
      const byCity = await emulator.call("get_egress_gateways", { target_egress_gateway: { city: "Oslo" } });
      expect(ids(byCity.body.egress_gateways, "egress_gateway_id")).toEqual([gwOslo]);
      const byId = await emulator.call("get_egress_gateways", { target_egress_gateway: { egress_gateway_id: gwParis } });
      expect(byId.body.egress_gateways).toEqual([expect.objectContaining({ egress_gateway_id: gwParis, config: expect.stringContaining("[Peer]") })]);
    });

    it("updates a gateway: only the fields sent change", async () => {
      const res = await emulator.call("update_egress_gateway", { target_egress_gateway: { egress_gateway_id: gwBerlin, city: "Frankfurt" } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_gateway"]);
      expect(res.body.egress_gateway).toEqual({
        egress_gateway_id: gwBerlin,
        name: "Berlin",
        enabled: true,
        country: "DE",
        city: "Frankfurt",
        config: "[Interface]",
        egress_provider_id: wg,
        active_connections: 0,
      });
    });

    it("refuses an update that takes a sibling gateway's name", async () => {
      const res = await emulator.call("update_egress_gateway", { target_egress_gateway: { egress_gateway_id: gwBerlin, name: "Paris" } });
      expect(res.status).toBe(400);
      const read = await emulator.call("get_egress_gateways", { target_egress_gateway: { egress_gateway_id: gwBerlin } });
      expect(read.body.egress_gateways[0].name).toBe("Berlin");
    });

    it("deletes a gateway and answers {}", async () => {
      const found = await emulator.call("get_egress_gateways", { target_egress_gateway: { egress_provider_id: ovpn, name: "Paris" } });
      const id = found.body.egress_gateways[0].egress_gateway_id;
      const res = await emulator.call("delete_egress_gateway", { target_egress_gateway: { egress_gateway_id: id } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const again = await emulator.call("delete_egress_gateway", { target_egress_gateway: { egress_gateway_id: id } });
      expect(again.status).toBe(400);
    });
  });

  describe("provider mappings", () => {
    let aliceMapping: string;

    it("refuses a mapping with no target", async () => {
      const res = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_id: wg, enabled: true, allow_all_gateways: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toEqual(expect.any(String));
    });

    it("refuses a mapping with two targets", async () => {
      const res = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_id: wg, enabled: true, allow_all_gateways: true, user_id: ALICE, image_id: CHROME },
      });
      expect(res.status).toBe(400);
      expect(Object.keys((await emulator.state()).egressMappings)).toEqual([]);
    });

    it("refuses allow_all_gateways false without selected_gateways, naming the field", async () => {
      const absent = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_id: wg, enabled: true, allow_all_gateways: false, user_id: ALICE },
      });
      expect(absent.status).toBe(400);
      expect(absent.body.error_message).toContain("selected_gateways");
      const empty = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_id: wg, enabled: true, allow_all_gateways: false, selected_gateways: [], user_id: ALICE },
      });
      expect(empty.status).toBe(400);
      expect(empty.body.error_message).toContain("selected_gateways");
    });

    it("refuses gateways of another provider", async () => {
      const res = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: {
          egress_provider_id: wg,
          enabled: true,
          allow_all_gateways: false,
          selected_gateways: [gwParis, gwOslo],
          user_id: ALICE,
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain(gwOslo);
      expect(Object.keys((await emulator.state()).egressMappings)).toEqual([]);
    });

    it("refuses an unknown target user", async () => {
      const res = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_id: wg, enabled: true, allow_all_gateways: true, user_id: UNKNOWN },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain(UNKNOWN);
    });

    it("maps a provider to a user with selected gateways and answers exactly the spec's mapping fields", async () => {
      const res = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: {
          egress_provider_id: wg,
          enabled: true,
          allow_all_gateways: false,
          selected_gateways: [gwParis],
          user_id: ALICE,
        },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_provider_mapping"]);
      aliceMapping = res.body.egress_provider_mapping.egress_provider_mapping_id;
      expect(res.body.egress_provider_mapping).toEqual({
        egress_provider_mapping_id: aliceMapping,
        enabled: true,
        created: expect.stringMatching(TIMESTAMP),
        user_id: ALICE,
        group_id: null,
        image_id: null,
        egress_provider_id: wg,
        allow_all_gateways: false,
      });
    });

    it("reads the mapping with get_egress_provider_mapping, with egress_provider and egress_gateways", async () => {
      const res = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { user_id: ALICE } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_provider_mappings"]);
      expect(res.body.egress_provider_mappings).toEqual([
        {
          egress_provider_mapping_id: aliceMapping,
          enabled: true,
          created: expect.stringMatching(TIMESTAMP),
          user_id: ALICE,
          group_id: null,
          image_id: null,
          egress_provider_id: wg,
          allow_all_gateways: false,
          egress_provider: { egress_provider_id: wg, name: "Mullvad", egress_provider_type: "wireguard" },
          egress_gateways: [{ name: "Paris", egress_gateway_id: gwParis }],
        },
      ]);
    });

    it("maps the openvpn provider to a group and the wireguard provider to an image, allowing all gateways", async () => {
      const group = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_id: ovpn, enabled: true, allow_all_gateways: true, group_id: TRAVEL },
      });
      expect(group.status).toBe(200);
      expect(group.body.egress_provider_mapping).toMatchObject({ user_id: null, group_id: TRAVEL, image_id: null, allow_all_gateways: true });
      const image = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_id: wg, enabled: true, allow_all_gateways: true, image_id: hyphenated(TERMINAL) },
      });
      expect(image.status).toBe(200);
      expect(image.body.egress_provider_mapping).toMatchObject({ user_id: null, group_id: null, image_id: TERMINAL, allow_all_gateways: true });
    });

    it("filters mappings by provider, target and enabled", async () => {
      const all = await emulator.call("get_egress_provider_mapping");
      expect(all.body.egress_provider_mappings).toHaveLength(3);
      const byProvider = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { egress_provider_id: wg } });
      expect(byProvider.body.egress_provider_mappings).toHaveLength(2);
      const byGroup = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { group_id: TRAVEL } });
      expect(byGroup.body.egress_provider_mappings).toEqual([
        expect.objectContaining({
          group_id: TRAVEL,
          egress_provider: { egress_provider_id: ovpn, name: "Corporate", egress_provider_type: "openvpn" },
          egress_gateways: [{ name: "Oslo", egress_gateway_id: gwOslo }],
        }),
      ]);
      const byImage = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { image_id: TERMINAL } });
      expect(byImage.body.egress_provider_mappings).toEqual([
        expect.objectContaining({
          image_id: TERMINAL,
          egress_gateways: expect.arrayContaining([
            { name: "Paris", egress_gateway_id: gwParis },
            { name: "Berlin", egress_gateway_id: gwBerlin },
          ]),
        }),
      ]);
      const disabled = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { enabled: false } });
      expect(disabled.body.egress_provider_mappings).toEqual([]);
    });

    it("updates a mapping and answers the same shape as create", async () => {
      const res = await emulator.call("update_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: aliceMapping, selected_gateways: [gwParis, gwBerlin] },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_provider_mapping"]);
      expect(Object.keys(res.body.egress_provider_mapping).sort()).toEqual(
        ["egress_provider_mapping_id", "enabled", "created", "user_id", "group_id", "image_id", "egress_provider_id", "allow_all_gateways"].sort(),
      );
      expect(res.body.egress_provider_mapping).toMatchObject({
        egress_provider_mapping_id: aliceMapping,
        user_id: ALICE,
        allow_all_gateways: false,
        enabled: true,
      });
      const read = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { user_id: ALICE } });
      expect(read.body.egress_provider_mappings[0].egress_gateways).toEqual(
        expect.arrayContaining([
          { name: "Paris", egress_gateway_id: gwParis },
          { name: "Berlin", egress_gateway_id: gwBerlin },
        ]),
      );
      expect(read.body.egress_provider_mappings[0].egress_gateways).toHaveLength(2);
    });

    it("refuses an update that gives the mapping a second target", async () => {
      const res = await emulator.call("update_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: aliceMapping, user_id: ALICE, group_id: TRAVEL },
      });
      expect(res.status).toBe(400);
      expect((await emulator.state()).egressMappings[aliceMapping]).toMatchObject({ user_id: ALICE, group_id: null });
    });

    it("refuses an update of an unknown mapping", async () => {
      const res = await emulator.call("update_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: UNKNOWN, enabled: false },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain(UNKNOWN);
    });

    it("disables a mapping with an update and enables it again", async () => {
      const off = await emulator.call("update_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: aliceMapping, enabled: false },
      });
      expect(off.body.egress_provider_mapping.enabled).toBe(false);
      const on = await emulator.call("update_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: aliceMapping, enabled: true },
      });
      expect(on.body.egress_provider_mapping.enabled).toBe(true);
    });
  });

  describe("credentials", () => {
    it("refuses a credential with no target, or two", async () => {
      const none = await emulator.call("create_egress_credential", {
        target_egress_credential: { egress_provider_id: ovpn, name: "nobody", allow_all_gateways: true, username: "u", password: "p" },
      });
      expect(none.status).toBe(400);
      const two = await emulator.call("create_egress_credential", {
        target_egress_credential: {
          egress_provider_id: ovpn,
          name: "two",
          allow_all_gateways: true,
          username: "u",
          password: "p",
          user_id: BOB,
          group_id: TRAVEL,
        },
      });
      expect(two.status).toBe(400);
      expect(Object.keys((await emulator.state()).egressCredentials)).toEqual([]);
    });

    it("refuses limit_active_connections without a positive active_connection_limit", async () => {
      for (const limit of [undefined, 0, -3]) {
        const res = await emulator.call("create_egress_credential", {
          target_egress_credential: {
            egress_provider_id: ovpn,
            name: "limited",
            allow_all_gateways: true,
            user_id: BOB,
            limit_active_connections: true,
            ...(limit === undefined ? {} : { active_connection_limit: limit }),
          },
        });
        expect(res.status, `active_connection_limit ${limit}`).toBe(400);
        expect(res.body.error_message).toContain("active_connection_limit");
      }
      expect(Object.keys((await emulator.state()).egressCredentials)).toEqual([]);
    });

    it("creates a credential and answers {egress_credentials: [credential]} with the password masked", async () => {
      const res = await emulator.call("create_egress_credential", {
        target_egress_credential: {
          egress_provider_id: ovpn,
          name: "bob-vpn",
          username: "bob.vpn",
          password: "hunter2-secret",
          enabled: true,
          allow_all_gateways: true,
          user_id: BOB,
          limit_active_connections: true,
          active_connection_limit: 2,
        },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["egress_credentials"]);
      expect(res.body.egress_credentials).toHaveLength(1);
      const credential = res.body.egress_credentials[0];
      bobCredential = credential.egress_credential_id;
      expect(credential).toEqual({
        egress_credential_id: bobCredential,
        name: "bob-vpn",
        username: "bob.vpn",
        password: expect.stringMatching(/^\*+$/),
        enabled: true,
        user_id: BOB,
        group_id: null,
        image_id: null,
        egress_provider_id: ovpn,
        allow_all_gateways: true,
        wireguard_private_key: null,
        mesh_key: null,
        limit_active_connections: true,
        active_connection_limit: 2,
        active_connections: 0,
        custom_credential: null,
        egress_provider: { egress_provider_id: ovpn, name: "Corporate", egress_provider_type: "openvpn" },
        egress_gateways: [{ name: "Oslo", egress_gateway_id: gwOslo }],
      });
      expect(JSON.stringify(res.body)).not.toContain("hunter2");
    });

    it("creates credentials for a group and for an image on selected gateways", async () => {
      const group = await emulator.call("create_egress_credential", {
        target_egress_credential: {
          egress_provider_id: wg,
          name: "travel-wg",
          enabled: true,
          allow_all_gateways: false,
          selected_gateways: [gwBerlin],
          group_id: TRAVEL,
          wireguard_private_key: "cHJpdmF0ZQ==",
        },
      });
      expect(group.status).toBe(200);
      travelCredential = group.body.egress_credentials[0].egress_credential_id;
      expect(group.body.egress_credentials[0]).toMatchObject({
        group_id: TRAVEL,
        user_id: null,
        password: null,
        egress_gateways: [{ name: "Berlin", egress_gateway_id: gwBerlin }],
      });
      const image = await emulator.call("create_egress_credential", {
        target_egress_credential: {
          egress_provider_id: wg,
          name: "terminal-wg",
          enabled: false,
          allow_all_gateways: true,
          image_id: TERMINAL,
          password: "pw",
        },
      });
      expect(image.status).toBe(200);
      expect(image.body.egress_credentials[0]).toMatchObject({ image_id: TERMINAL, enabled: false, password: expect.stringMatching(/^\*+$/) });
    });

    it("filters credentials by provider, name, target and enabled, passwords still masked", async () => {
      const all = await emulator.call("get_egress_credentials");
      expect(all.status).toBe(200);
      expect(Object.keys(all.body)).toEqual(["egress_credentials"]);
      expect(all.body.egress_credentials).toHaveLength(3);
      expect(JSON.stringify(all.body)).not.toContain("hunter2");
      const byProvider = await emulator.call("get_egress_credentials", { target_egress_credential: { egress_provider_id: wg } });
      expect(byProvider.body.egress_credentials.map((c: { name: string }) => c.name).sort()).toEqual(["terminal-wg", "travel-wg"]);
      const byName = await emulator.call("get_egress_credentials", { target_egress_credential: { name: "bob-vpn" } });
      expect(ids(byName.body.egress_credentials, "egress_credential_id")).toEqual([bobCredential]);
      const byUser = await emulator.call("get_egress_credentials", { target_egress_credential: { user_id: hyphenated(BOB) } });
      expect(ids(byUser.body.egress_credentials, "egress_credential_id")).toEqual([bobCredential]);
      const byGroup = await emulator.call("get_egress_credentials", { target_egress_credential: { group_id: TRAVEL } });
      expect(byGroup.body.egress_credentials.map((c: { name: string }) => c.name)).toEqual(["travel-wg"]);
      const byImage = await emulator.call("get_egress_credentials", { target_egress_credential: { image_id: TERMINAL } });
      expect(byImage.body.egress_credentials.map((c: { name: string }) => c.name)).toEqual(["terminal-wg"]);
      const disabled = await emulator.call("get_egress_credentials", { target_egress_credential: { enabled: false } });
      expect(disabled.body.egress_credentials.map((c: { name: string }) => c.name)).toEqual(["terminal-wg"]);
    });
  });

  describe("get_image_egress_gateways", () => {
    const gateways = async (userId: string, imageId: string) => {
      const res = await emulator.call("get_image_egress_gateways", {
        target_user: { user_id: userId },
        target_image: { image_id: imageId },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["egress_gateways", "image_id"]);
      expect(res.body.image_id).toBe(imageId);
      return res.body.egress_gateways as Record<string, unknown>[];
    };

    it("gives a user the gateways of their own mapping, without a credential when none applies", async () => {
      expect(await gateways(ALICE, CHROME)).toEqual(
        expect.arrayContaining([
          {
            egress_gateway_id: gwParis,
            egress_gateway_name: "Paris",
            egress_credential_id: null,
            city: "Paris",
            country: "FR",
            egress_provider_name: "Mullvad",
          },
          {
            egress_gateway_id: gwBerlin,
            egress_gateway_name: "Berlin",
            egress_credential_id: null,
            city: "Frankfurt",
            country: "DE",
            egress_provider_name: "Mullvad",
          },
        ]),
      );
      expect(await gateways(ALICE, CHROME)).toHaveLength(2);
    });

    it("gives a group member the gateways of the group's mapping, with the credential that applies", async () => {
      expect(await gateways(BOB, CHROME)).toEqual([
        {
          egress_gateway_id: gwOslo,
          egress_gateway_name: "Oslo",
          egress_credential_id: bobCredential,
          city: "Oslo",
          country: "NO",
          egress_provider_name: "Corporate",
        },
      ]);
    });

    it("gives anyone the gateways of the image's mapping for that image only", async () => {
      const carolTerminal = await gateways(CAROL, TERMINAL);
      expect(ids(carolTerminal, "egress_gateway_id")).toEqual([gwBerlin, gwParis].sort());
      for (const g of carolTerminal) expect(g).toMatchObject({ egress_provider_name: "Mullvad", egress_credential_id: null });
      expect(await gateways(CAROL, CHROME)).toEqual([]);
    });

    it("adds the group credential of the user's group to an image mapping's gateway it covers", async () => {
      // Bob is in Travel, whose wireguard credential covers Berlin; the Terminal image maps wireguard.
      const bobTerminal = await gateways(BOB, TERMINAL);
      expect(bobTerminal).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ egress_gateway_id: gwBerlin, egress_credential_id: travelCredential }),
          expect.objectContaining({ egress_gateway_id: gwParis, egress_credential_id: null }),
          expect.objectContaining({ egress_gateway_id: gwOslo, egress_credential_id: bobCredential }),
        ]),
      );
      expect(bobTerminal).toHaveLength(3);
    });

    it("drops the gateways of a disabled mapping", async () => {
      const aliceMapping = Object.values(
        (await emulator.state()).egressMappings as Record<string, { user_id: string | null; egress_provider_mapping_id: string }>,
      ).find((m) => m.user_id === ALICE)!.egress_provider_mapping_id;
      await emulator.call("update_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: aliceMapping, enabled: false },
      });
      expect(await gateways(ALICE, CHROME)).toEqual([]);
      await emulator.call("update_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: aliceMapping, enabled: true },
      });
      expect(await gateways(ALICE, CHROME)).toHaveLength(2);
    });

    it("answers an unknown user or image with 400", async () => {
      const user = await emulator.call("get_image_egress_gateways", { target_user: { user_id: UNKNOWN }, target_image: { image_id: CHROME } });
      expect(user.status).toBe(400);
      const image = await emulator.call("get_image_egress_gateways", { target_user: { user_id: ALICE }, target_image: { image_id: UNKNOWN } });
      expect(image.status).toBe(400);
    });
  });

  describe("deletions", () => {
    it("deletes a mapping and answers {}", async () => {
      const image = (await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { image_id: TERMINAL } })).body
        .egress_provider_mappings[0];
      const res = await emulator.call("delete_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: image.egress_provider_mapping_id },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const after = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { image_id: TERMINAL } });
      expect(after.body.egress_provider_mappings).toEqual([]);
      const again = await emulator.call("delete_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: image.egress_provider_mapping_id },
      });
      expect(again.status).toBe(400);
    });

    it("takes a deleted user's mappings and credentials with them", async () => {
      const map = await emulator.call("create_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_id: ovpn, enabled: true, allow_all_gateways: true, user_id: DAVE },
      });
      expect(map.status).toBe(200);
      const cred = await emulator.call("create_egress_credential", {
        target_egress_credential: { egress_provider_id: ovpn, name: "dave-vpn", allow_all_gateways: true, user_id: DAVE },
      });
      expect(cred.status).toBe(200);
      const del = await emulator.call("delete_user", { target_user: { user_id: DAVE }, force: false });
      expect(del.status).toBe(200);
      const mappings = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { user_id: DAVE } });
      expect(mappings.body.egress_provider_mappings).toEqual([]);
      const credentials = await emulator.call("get_egress_credentials", { target_egress_credential: { user_id: DAVE } });
      expect(credentials.body.egress_credentials).toEqual([]);
      const state = await emulator.state();
      expect(Object.values(state.egressMappings).some((m: any) => m.user_id === DAVE)).toBe(false);
    });

    it("takes a deleted provider's gateways, mappings and credentials with it", async () => {
      const res = await emulator.call("delete_egress_provider", { target_egress_provider: { egress_provider_id: wg } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const gws = await emulator.call("get_egress_gateways", { target_egress_gateway: { egress_provider_id: wg } });
      expect(gws.body.egress_gateways).toEqual([]);
      const maps = await emulator.call("get_egress_provider_mapping", { target_egress_provider_mapping: { egress_provider_id: wg } });
      expect(maps.body.egress_provider_mappings).toEqual([]);
      const creds = await emulator.call("get_egress_credentials", { target_egress_credential: { egress_provider_id: wg } });
      expect(creds.body.egress_credentials).toEqual([]);
      const state = await emulator.state();
      for (const table of ["egressGateways", "egressMappings", "egressCredentials"])
        expect(
          Object.values(state[table]).filter((r: any) => r.egress_provider_id === wg),
          table,
        ).toEqual([]);
      // The other provider's objects stay.
      expect(Object.values(state.egressGateways).map((g: any) => g.egress_gateway_id)).toEqual([gwOslo]);
      expect(Object.values(state.egressMappings).map((m: any) => m.group_id)).toEqual([TRAVEL]);
      expect(Object.values(state.egressCredentials).map((c: any) => c.name)).toEqual(["bob-vpn"]);
      expect(await emulator.call("get_image_egress_gateways", { target_user: { user_id: ALICE }, target_image: { image_id: CHROME } })).toMatchObject({
        status: 200,
        body: { egress_gateways: [], image_id: CHROME },
      });
    });
  });
});
