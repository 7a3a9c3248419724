/**
 * EgressProvider through Pulumi's real dynamic-provider host against the emulator: check,
 * create, diff, in-place update of every field, refresh after drift and after deletion,
 * adoption by name, deletion, and a permission denial.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const VIEWER = { key: "egress-viewer", secret: "egress-viewer-secret-19d2" };

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [{ name: "viewer", key: VIEWER.key, secret: VIEWER.secret, permissions: ["Egress Providers View"] }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The provider as Kasm has it, by id (undefined when there is none). */
async function providerInKasm(id: string) {
  const res = await emulator.specCall("get_egress_providers", { target_egress_provider: { egress_provider_id: id } });
  return res.body.egress_providers[0];
}

async function createRaw(name: string, type = "wireguard"): Promise<string> {
  const res = await emulator.specCall("create_egress_provider", { target_egress_provider: { name, egress_provider_type: type } });
  expect(res.status).toBe(200);
  return res.body.egress_provider.egress_provider_id;
}

describe("EgressProvider", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const provider = new Driven(host, "EgressProvider", "bad");
    const before = emulator.requests.length;
    const { failures } = await provider.check({ name: " ", egressProviderType: "ipsec", enabled: "yes", colour: "blue" });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "egressProviderType", "enabled", "name"]);
    expect(failures.find((f) => f.property === "egressProviderType")?.reason).toMatch(/wireguard, openvpn, custom/);
    expect(failures.find((f) => f.property === "name")?.reason).toMatch(/must not be empty/);

    const missing = await provider.check({});
    expect(missing.failures).toEqual([
      { property: "name", reason: "name is required" },
      { property: "egressProviderType", reason: "egressProviderType is required" },
    ]);
    expect(emulator.requests.length).toBe(before);
  });

  it("check lets values unknown during preview through", async () => {
    const provider = new Driven(host, "EgressProvider", "preview");
    expect((await provider.check({ name: UNKNOWN, egressProviderType: UNKNOWN })).failures).toEqual([]);
  });

  it("creates, plans no change for the same inputs, updates every field in place, reverts drift and deletes", async () => {
    const provider = new Driven(host, "EgressProvider", "corp");
    const inputs = { name: "Corp VPN", egressProviderType: "wireguard", enabled: true };
    const state = await provider.create(inputs);
    expect(provider.id).toMatch(/^[0-9a-f]{32}$/);
    expect(state).toMatchObject({ ...inputs, egressProviderId: provider.id });
    expect(state.created).toEqual(expect.any(String));
    expect(await providerInKasm(provider.id)).toMatchObject({ name: "Corp VPN", egress_provider_type: "wireguard", enabled: true });

    expect(await provider.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });

    // Name and type change in place: the update operation takes both.
    const changed = { name: "Corp OpenVPN", egressProviderType: "openvpn", enabled: true };
    expect(await provider.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    await provider.update(changed);
    expect(await providerInKasm(provider.id)).toMatchObject({ name: "Corp OpenVPN", egress_provider_type: "openvpn" });

    // Someone disables it in the Kasm UI: refresh shows it, and the next update reverts it.
    await emulator.specCall("update_egress_provider", { target_egress_provider: { egress_provider_id: provider.id, enabled: false } });
    const refreshed = await provider.read();
    expect(refreshed.id).toBe(provider.id);
    expect(refreshed.inputs).toMatchObject({ ...changed, enabled: false });
    expect(await provider.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    await provider.update(changed);
    expect(await providerInKasm(provider.id)).toMatchObject({ enabled: true });
    expect((await provider.read()).inputs).toMatchObject(changed);
    expect(await provider.diff(changed)).toMatchObject({ changes: "none" });

    // An input the program stops declaring is forgotten, not changed in Kasm.
    const forgotten = { name: "Corp OpenVPN", egressProviderType: "openvpn" };
    expect(await provider.diff(forgotten)).toMatchObject({ changes: "some", replaces: [] });
    await provider.update(forgotten);
    expect(provider.state.enabled).toBeUndefined();
    expect(await providerInKasm(provider.id)).toMatchObject({ enabled: true });

    await provider.delete();
    expect(await providerInKasm(provider.id)).toBeUndefined();
    // Deleting again (for example after a delete whose answer was lost) succeeds.
    await provider.delete();
  });

  it("refresh of a provider deleted in the Kasm UI drops it instead of failing", async () => {
    const provider = new Driven(host, "EgressProvider", "gone");
    await provider.create({ name: "Gone VPN", egressProviderType: "custom" });
    await emulator.specCall("delete_egress_provider", { target_egress_provider: { egress_provider_id: provider.id } });
    expect((await provider.read()).id).toBe("");
  });

  it("an existing name is an error that suggests adopt, and adopt takes the provider over", async () => {
    const existingId = await createRaw("Existing VPN", "openvpn");
    const clash = new Driven(host, "EgressProvider", "existing");
    await expect(clash.create({ name: "Existing VPN", egressProviderType: "wireguard" })).rejects.toThrow(/already exists in Kasm.*adopt: true/s);

    const adopted = new Driven(host, "EgressProvider", "existing-adopted");
    await adopted.create({ name: "Existing VPN", egressProviderType: "wireguard", enabled: false, adopt: true });
    expect(adopted.id).toBe(existingId);
    expect(await providerInKasm(existingId)).toMatchObject({ egress_provider_type: "wireguard", enabled: false });
    expect(await adopted.diff({ name: "Existing VPN", egressProviderType: "wireguard", enabled: false, adopt: true })).toMatchObject({
      changes: "none",
    });
  });

  it("a refused create names the permission to grant, without the secret", async () => {
    const limited = await hostFor(emulator, VIEWER);
    try {
      const provider = new Driven(limited, "EgressProvider", "denied");
      const error = await provider.create({ name: "Denied VPN", egressProviderType: "wireguard" }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/Egress Providers Create/);
      expect((error as Error).message).not.toContain(VIEWER.secret);
      expect(limited.stderr.join("")).not.toContain(VIEWER.secret);
    } finally {
      await limited.stop();
    }
  });
});
