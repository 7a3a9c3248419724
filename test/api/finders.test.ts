/**
 * The natural-key finders: one per kind whose create recovers or adopts, against the emulator.
 * Ids match in any spelling; names match exactly (usernames as Kasm stores them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KasmClient } from "../../provider/api";
import { startHarness, type Harness } from "./helpers";

let h: Harness;
let client: KasmClient;

beforeAll(async () => {
  h = await startHarness();
  client = h.client;
});
afterAll(() => h.close());

/** The hyphenated, upper-case spelling of a canonical id. */
function otherSpelling(id: string): string {
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`.toUpperCase();
}

describe("findUserByUsername", () => {
  it("finds a user by username as Kasm stores it, and answers undefined for none", async () => {
    expect((await client.users.findUserByUsername("  Bob "))?.username).toBe("bob");
    expect(await client.users.findUserByUsername("nobody")).toBeUndefined();
  });
});

describe("findStagingConfig", () => {
  it("finds the config of a zone and an image, ids in any spelling", async () => {
    const [zone] = await client.zones.getZones();
    const [image] = await client.images.getImages();
    expect(await client.staging.findStagingConfig({ zone_id: zone.zone_id, image_id: image.image_id })).toBeUndefined();
    const created = await client.staging.createStagingConfig({ zone_id: zone.zone_id, image_id: image.image_id, num_sessions: 1, expiration: 1 });
    const found = await client.staging.findStagingConfig({ zone_id: otherSpelling(zone.zone_id), image_id: otherSpelling(image.image_id) });
    expect(found?.staging_config_id).toBe(created.staging_config_id);
  });
});

describe("egress finders", () => {
  it("find a provider by name, a gateway by provider and name, a mapping by provider and target, a credential by provider and name", async () => {
    expect(await client.egress.findEgressProvider({ name: "vpn-find" })).toBeUndefined();
    const provider = await client.egress.createEgressProvider({ name: "vpn-find", egress_provider_type: "wireguard", enabled: true });
    expect((await client.egress.findEgressProvider({ name: "vpn-find" }))?.egress_provider_id).toBe(provider.egress_provider_id);
    expect(await client.egress.findEgressProvider({ name: "VPN-find" })).toBeUndefined();

    const providerId = otherSpelling(provider.egress_provider_id);
    const gateway = await client.egress.createEgressGateway({ egress_provider_id: provider.egress_provider_id, name: "rome", enabled: true });
    expect((await client.egress.findEgressGateway({ egress_provider_id: providerId, name: "rome" }))?.egress_gateway_id).toBe(gateway.egress_gateway_id);
    expect(await client.egress.findEgressGateway({ egress_provider_id: providerId, name: "milan" })).toBeUndefined();

    const bob = await client.users.getUser({ username: "bob" });
    const alice = await client.users.getUser({ username: "alice" });
    const mapping = await client.egress.createEgressProviderMapping({
      egress_provider_id: provider.egress_provider_id,
      user_id: bob.user_id,
      enabled: true,
      allow_all_gateways: true,
    });
    const foundMapping = await client.egress.findEgressProviderMapping({ egress_provider_id: providerId, user_id: otherSpelling(bob.user_id) });
    expect(foundMapping?.egress_provider_mapping_id).toBe(mapping.egress_provider_mapping_id);
    expect(await client.egress.findEgressProviderMapping({ egress_provider_id: providerId, user_id: alice.user_id })).toBeUndefined();

    const credential = await client.egress.createEgressCredential({
      egress_provider_id: provider.egress_provider_id,
      name: "bob-key",
      user_id: bob.user_id,
      enabled: true,
      allow_all_gateways: true,
      wireguard_private_key: "cFJpdmF0ZUtleUZvclRlc3RzT25seQ==",
    });
    // Without a target in the key, any target matches; with one, only that target.
    expect((await client.egress.findEgressCredential({ egress_provider_id: providerId, name: "bob-key" }))?.egress_credential_id).toBe(
      credential.egress_credential_id,
    );
    expect((await client.egress.findEgressCredential({ egress_provider_id: providerId, name: "bob-key", user_id: bob.user_id }))?.name).toBe("bob-key");
    expect(await client.egress.findEgressCredential({ egress_provider_id: providerId, name: "bob-key", user_id: alice.user_id })).toBeUndefined();
  });
});
