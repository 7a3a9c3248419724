/**
 * The egress kinds against an object made outside Pulumi with the same natural key, when Kasm
 * answers the create with a server error. Neither the API documentation nor a source of the
 * product says how Kasm answers a duplicate egress provider, gateway, mapping or credential; were
 * it a 500, the client's recovery (which looks the key up after a server error, to learn whether
 * its create committed) would take the existing object for its own, and the program would manage,
 * and its destroy delete, an object it never made. So each kind looks its key up before creating,
 * with `adopt` or without: the emulator's fault injection fails every create here, and the
 * resource must refuse the existing object before sending one.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const GROUP_ID = "5a3f0c9e2b7d4e1f8a6c3b2d1e0f9a8b";
const WG_KEY = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";

let emulator: TestEmulator;
let host: ProviderHost;
let provider: string;
let gateway: string;

beforeAll(async () => {
  emulator = await startTestEmulator({ groups: [{ group_id: GROUP_ID, name: "Engineering" }] });
  host = await hostFor(emulator);
  provider = (await made("create_egress_provider", { target_egress_provider: { name: "Corp VPN", egress_provider_type: "wireguard" } })).egress_provider.egress_provider_id;
  gateway = (await made("create_egress_gateway", { target_egress_gateway: { egress_provider_id: provider, name: "Frankfurt" } })).egress_gateway.egress_gateway_id;
});
afterEach(async () => emulator.faults(null));
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** Made outside Pulumi, as in the Kasm admin UI: the answer's body. */
async function made(operation: "create_egress_provider" | "create_egress_gateway" | "create_egress_provider_mapping" | "create_egress_credential", body: Record<string, unknown>) {
  const res = await emulator.specCall(operation, body);
  expect(res.status).toBe(200);
  return res.body;
}

/** How many times `operation` reached the emulator since request `from`. */
const sent = (operation: string, from: number) => emulator.requests.slice(from).filter((line) => line.startsWith(`${operation} `)).length;

describe("an egress object made outside Pulumi, and a create Kasm answers with a server error", () => {
  const cases = [
    {
      kind: "EgressProvider",
      create: "create_egress_provider",
      inputs: () => ({ name: "Corp VPN", egressProviderType: "wireguard" }),
      existing: () => `egress provider ${provider}`,
    },
    {
      kind: "EgressGateway",
      create: "create_egress_gateway",
      inputs: () => ({ egressProviderId: provider, name: "Frankfurt" }),
      existing: () => `egress gateway ${gateway}`,
    },
    {
      kind: "EgressProviderMapping",
      create: "create_egress_provider_mapping",
      prepare: async () =>
        (await made("create_egress_provider_mapping", { target_egress_provider_mapping: { egress_provider_id: provider, group_id: GROUP_ID, allow_all_gateways: true } }))
          .egress_provider_mapping.egress_provider_mapping_id,
      inputs: () => ({ egressProviderId: provider, groupId: GROUP_ID, allowAllGateways: true }),
      existing: (id: string) => `egress provider mapping ${id}`,
    },
    {
      kind: "EgressCredential",
      create: "create_egress_credential",
      prepare: async () =>
        (await made("create_egress_credential", {
          target_egress_credential: { egress_provider_id: provider, name: "eng-wg", group_id: GROUP_ID, allow_all_gateways: true, wireguard_private_key: WG_KEY },
        })).egress_credentials[0].egress_credential_id,
      inputs: () => ({ egressProviderId: provider, name: "eng-wg", groupId: GROUP_ID, allowAllGateways: true, wireguardPrivateKey: WG_KEY }),
      existing: (id: string) => `egress credential ${id}`,
    },
  ] as const;

  for (const c of cases) {
    it(`${c.kind}: without adopt, the existing object is refused before any create is sent, and stays Kasm's`, async () => {
      const existingId = "prepare" in c ? await c.prepare() : "";
      const before = await emulator.state();
      await emulator.faults({ rate: 1, kinds: ["500"], operations: [c.create], phase: "before", seed: 1 });
      const from = emulator.requests.length;
      const resource = new Driven(host, c.kind, `${c.kind}-duplicate`);
      const error = (await resource.create(c.inputs()).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toContain(`already exists`);
      expect(error.message).toContain(`(${c.existing(existingId)})`);
      expect(error.message).toContain("`adopt: true`");
      expect(error.message).not.toContain(WG_KEY);
      expect(resource.id).toBe("");
      expect(sent(c.create, from)).toBe(0);
      expect(await emulator.state()).toEqual(before);
    });
  }

  it("with adopt, the provider is taken over as it is, and no create is sent", async () => {
    await emulator.faults({ rate: 1, kinds: ["500"], operations: ["create_egress_provider"], phase: "before", seed: 1 });
    const from = emulator.requests.length;
    const resource = new Driven(host, "EgressProvider", "adopted");
    await resource.create({ name: "Corp VPN", egressProviderType: "wireguard", adopt: true });
    expect(resource.id).toBe(provider);
    expect(sent("create_egress_provider", from)).toBe(0);
  });
});
