/**
 * EgressGateway through Pulumi's real dynamic-provider host against the emulator: check,
 * create, diff (ids in either form), in-place update (moving it to another provider included),
 * refresh after drift and after deletion, adoption by provider and name, deletion, the secret
 * config kept out of errors and logs, and a permission denial.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const PRIVATE_KEY = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
const CONFIG = `[Interface]\nPrivateKey = ${PRIVATE_KEY}\nAddress = 10.0.0.2/32\n\n[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\nEndpoint = fra.vpn.example:51820\n`;
/** Without the PrivateKey line: each user's egress credential supplies it. */
const CONFIG_NO_KEY = "[Interface]\nAddress = 10.0.0.3/32\n\n[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n";
/** Egress Providers View and Modify and Egress Gateways View, but not Egress Gateways Create. */
const NO_CREATE = { key: "gw-no-create", secret: "gw-no-create-secret-5e1b" };

let emulator: TestEmulator;
let host: ProviderHost;
let providerA: string;
let providerB: string;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [
      {
        name: "no-create",
        key: NO_CREATE.key,
        secret: NO_CREATE.secret,
        permissions: ["Egress Providers View", "Egress Providers Modify", "Egress Gateways View"],
      },
    ],
  });
  host = await hostFor(emulator);
  providerA = await createProvider("VPN A");
  providerB = await createProvider("VPN B");
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

async function createProvider(name: string): Promise<string> {
  const res = await emulator.specCall("create_egress_provider", { target_egress_provider: { name, egress_provider_type: "wireguard" } });
  expect(res.status).toBe(200);
  return res.body.egress_provider.egress_provider_id;
}

/** The gateway as Kasm has it, by id (undefined when there is none). */
async function gatewayInKasm(id: string) {
  const res = await emulator.specCall("get_egress_gateways", { target_egress_gateway: { egress_gateway_id: id } });
  return res.body.egress_gateways[0];
}

/** `0123...` -> `01234567-89ab-...`: the same id, written the other way. */
describe("EgressGateway", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const gateway = new Driven(host, "EgressGateway", "bad");
    const before = emulator.requests.length;
    const { failures } = await gateway.check({ egressProviderId: "vpn-a", name: "", city: 7, colour: "blue" });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "city", "egressProviderId", "name"]);
    expect(failures.find((f) => f.property === "egressProviderId")?.reason).toMatch(/Kasm id/);

    const missing = await gateway.check({ config: CONFIG });
    expect(missing.failures).toEqual([
      { property: "egressProviderId", reason: "egressProviderId is required" },
      { property: "name", reason: "name is required" },
    ]);
    expect(JSON.stringify(missing.failures)).not.toContain(PRIVATE_KEY);
    expect(emulator.requests.length).toBe(before);
  });

  it("check lets values unknown during preview through", async () => {
    const gateway = new Driven(host, "EgressGateway", "preview");
    expect((await gateway.check({ egressProviderId: UNKNOWN, name: "fra", config: UNKNOWN })).failures).toEqual([]);
  });

  it("creates, plans no change for the same inputs, updates in place, reverts drift and deletes", async () => {
    const gateway = new Driven(host, "EgressGateway", "fra");
    const inputs = { egressProviderId: hyphenated(providerA), name: "Frankfurt", country: "DE", city: "Frankfurt", config: CONFIG, enabled: true };
    const state = await gateway.create(inputs);
    expect(gateway.id).toMatch(/^[0-9a-f]{32}$/);
    expect(state).toMatchObject({ ...inputs, egressGatewayId: gateway.id, activeConnections: 0 });
    expect(await gatewayInKasm(gateway.id)).toMatchObject({
      egress_provider_id: providerA,
      name: "Frankfurt",
      country: "DE",
      city: "Frankfurt",
      config: CONFIG,
      enabled: true,
    });

    // A second up: no change, whichever way the provider id is written.
    expect(await gateway.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await gateway.diff({ ...inputs, egressProviderId: providerA })).toMatchObject({ changes: "none" });
    // The connection count moves on its own: it never causes a diff.
    gateway.state = { ...gateway.state, activeConnections: 5 };
    expect(await gateway.diff(inputs)).toMatchObject({ changes: "none" });

    // Everything updates in place, the provider included.
    const moved = { ...inputs, egressProviderId: providerB, city: "Offenbach", config: CONFIG_NO_KEY };
    expect(await gateway.diff(moved)).toMatchObject({ changes: "some", replaces: [] });
    await gateway.update(moved);
    expect(await gatewayInKasm(gateway.id)).toMatchObject({ egress_provider_id: providerB, city: "Offenbach", config: CONFIG_NO_KEY });

    // Someone edits it in the Kasm UI: refresh shows the drift, and the next update reverts it.
    await emulator.specCall("update_egress_gateway", {
      target_egress_gateway: { egress_gateway_id: gateway.id, enabled: false, config: CONFIG, city: "Mainz" },
    });
    const refreshed = await gateway.read();
    expect(refreshed.inputs).toMatchObject({ enabled: false, config: CONFIG, city: "Mainz", egressProviderId: providerB });
    expect(await gateway.diff(moved)).toMatchObject({ changes: "some", replaces: [] });
    await gateway.update(moved);
    expect(await gatewayInKasm(gateway.id)).toMatchObject({ enabled: true, config: CONFIG_NO_KEY, city: "Offenbach" });
    expect((await gateway.read()).inputs).toMatchObject(moved);
    expect(await gateway.diff(moved)).toMatchObject({ changes: "none" });

    await gateway.delete();
    expect(await gatewayInKasm(gateway.id)).toBeUndefined();
    await gateway.delete();
    expect(host.stderr.join("")).not.toContain(PRIVATE_KEY);
  });

  it("refresh of a gateway deleted in the Kasm UI, or with its provider, drops it instead of failing", async () => {
    const gateway = new Driven(host, "EgressGateway", "gone");
    await gateway.create({ egressProviderId: providerA, name: "Gone" });
    await emulator.specCall("delete_egress_gateway", { target_egress_gateway: { egress_gateway_id: gateway.id } });
    expect((await gateway.read()).id).toBe("");

    const providerC = await createProvider("VPN C");
    const orphan = new Driven(host, "EgressGateway", "orphan");
    await orphan.create({ egressProviderId: providerC, name: "Orphan" });
    await emulator.specCall("delete_egress_provider", { target_egress_provider: { egress_provider_id: providerC } });
    expect((await orphan.read()).id).toBe("");
    await orphan.delete();
  });

  it("an existing name in the provider is an error that suggests adopt, and adopt takes the gateway over", async () => {
    const res = await emulator.specCall("create_egress_gateway", {
      target_egress_gateway: { egress_provider_id: providerA, name: "Amsterdam", country: "NL" },
    });
    const existingId = res.body.egress_gateway.egress_gateway_id;

    const clash = new Driven(host, "EgressGateway", "ams");
    const error = await clash.create({ egressProviderId: providerA, name: "Amsterdam", config: CONFIG }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/already exists in Kasm.*adopt: true/s);
    expect((error as Error).message).not.toContain(PRIVATE_KEY);

    // The same name in another provider is another gateway.
    const other = new Driven(host, "EgressGateway", "ams-b");
    await other.create({ egressProviderId: providerB, name: "Amsterdam" });
    expect(other.id).not.toBe(existingId);

    const adopted = new Driven(host, "EgressGateway", "ams-adopted");
    await adopted.create({ egressProviderId: hyphenated(providerA), name: "Amsterdam", city: "Amsterdam", adopt: true });
    expect(adopted.id).toBe(existingId);
    expect(await gatewayInKasm(existingId)).toMatchObject({ city: "Amsterdam", country: "NL" });
  });

  it("a create without Egress Gateways Create names that permission, without secrets", async () => {
    const limited = await hostFor(emulator, NO_CREATE);
    try {
      const gateway = new Driven(limited, "EgressGateway", "denied");
      const error = await gateway.create({ egressProviderId: providerA, name: "Denied", config: CONFIG }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/Egress Gateways Create/);
      for (const secret of [NO_CREATE.secret, PRIVATE_KEY]) {
        expect((error as Error).message).not.toContain(secret);
        expect(limited.stderr.join("")).not.toContain(secret);
      }
      const all = await emulator.specCall("get_egress_gateways", { target_egress_gateway: { name: "Denied" } });
      expect(all.body.egress_gateways).toEqual([]);
    } finally {
      await limited.stop();
    }
  });
});
