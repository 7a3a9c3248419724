/**
 * Every kind whose create the client recovers by its natural key, against an object made outside
 * Pulumi with the same key, when Kasm answers the create with a server error (a fault injected
 * before Kasm handles the request, so the create did not commit). After a server error the client
 * looks the key up, or sends the write again, to learn whether its first attempt committed: an
 * object that existed before would be taken for the program's own, and the program would manage,
 * and its destroy delete, an object it never made. So each kind looks its key up before writing,
 * with `adopt` or without, and refuses an existing object before sending anything: User, Group,
 * CastConfig (only with `kasm:apiNames product`: the API documentation has no read of casting
 * configs, and there the client's recovery fails loudly instead, see
 * test/provider/cast-config.test.ts) and the egress kinds (also because no source says how Kasm
 * answers a duplicate egress provider, gateway or credential). A link (GroupMembership,
 * EgressProviderMapping) has nothing but its ends: the one there is the declared one, recorded
 * without a write, with `adopt` or without.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OperationName } from "../../permissions";
import type { KindName } from "../../provider";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

const ENGINEERING = "1e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const CHROME = "1b000000000000000000000000000001";
const WG_KEY = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
const PASSWORD = "not-in-any-message-41";

let emulator: TestEmulator;
let host: ProviderHost;
let provider: string;
let gateway: string;

beforeAll(async () => {
  emulator = await startTestEmulator({
    groups: [{ group_id: ENGINEERING, name: "Engineering" }],
    images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
    users: [{ username: "carol", first_name: "Carol", groups: ["Engineering"] }, { username: "dave" }],
  });
  host = await hostFor(emulator);
  provider = (await made("create_egress_provider", { target_egress_provider: { name: "Corp VPN", egress_provider_type: "wireguard" } })).egress_provider
    .egress_provider_id;
  gateway = (await made("create_egress_gateway", { target_egress_gateway: { egress_provider_id: provider, name: "Frankfurt" } })).egress_gateway
    .egress_gateway_id;
});
afterEach(async () => emulator.faults(null));
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** Made outside Pulumi, as in the Kasm admin UI: the answer's body. */
async function made(operation: OperationName, body: Record<string, unknown>) {
  const res = await emulator.specCall(operation, body);
  expect(res.status).toBe(200);
  return res.body;
}

/** How many times `operation` reached the emulator since request `from`. */
const sent = (operation: string, from: number) => emulator.requests.slice(from).filter((line) => line.startsWith(`${operation} `)).length;

/** Every call of `operation` fails with a 500 before Kasm handles it. */
const failEvery = (operation: OperationName) => emulator.faults({ rate: 1, kinds: ["500"], operations: [operation], phase: "before", seed: 1 });

interface Case {
  readonly kind: KindName;
  /** The write the resource would send. */
  readonly write: OperationName;
  /** Only in this vocabulary (the kind, or its lookup, needs a released Kasm's operations). */
  readonly only?: "product";
  /** Makes the existing object, or finds it; answers its id. */
  readonly existing: () => Promise<string>;
  /** The resource's inputs, given the existing object's id. */
  readonly inputs: (existingId: string) => Record<string, unknown>;
  /** What the error says: the resource, and the object it found (by its id). */
  readonly says: (id: string) => readonly string[];
}

const CASES: readonly Case[] = [
  {
    kind: "User",
    write: "create_user",
    existing: () => emulator.userId("carol"),
    inputs: () => ({ username: "carol", firstName: "Caroline", password: PASSWORD }),
    says: (id) => ["User 'carol' already exists in Kasm", `(user ${id})`],
  },
  {
    kind: "Group",
    write: "create_group",
    only: "product",
    existing: async () => ENGINEERING,
    inputs: () => ({ name: "Engineering", description: "Made by the program" }),
    says: (id) => ["Group 'Engineering' already exists in Kasm", `(group ${id})`],
  },
  {
    kind: "CastConfig",
    write: "create_cast_config",
    only: "product",
    existing: async () =>
      (await made("create_cast_config", { target_cast_config: { casting_config_name: "Lobby", key: "lobby", image_id: CHROME } })).cast_config.cast_config_id,
    inputs: () => ({ castingConfigName: "Lobby", key: "lobby", imageId: CHROME }),
    says: (id) => ["CastConfig with key 'lobby' or name 'Lobby' already exists in Kasm", `(casting config ${id})`],
  },
  {
    kind: "EgressProvider",
    write: "create_egress_provider",
    existing: async () => provider,
    inputs: () => ({ name: "Corp VPN", egressProviderType: "wireguard" }),
    says: (id) => ["already exists", `(egress provider ${id})`],
  },
  {
    kind: "EgressGateway",
    write: "create_egress_gateway",
    existing: async () => gateway,
    inputs: () => ({ egressProviderId: provider, name: "Frankfurt" }),
    says: (id) => ["already exists", `(egress gateway ${id})`],
  },
  {
    kind: "EgressCredential",
    write: "create_egress_credential",
    existing: async () =>
      (
        await made("create_egress_credential", {
          target_egress_credential: {
            egress_provider_id: provider,
            name: "eng-wg",
            group_id: ENGINEERING,
            allow_all_gateways: true,
            wireguard_private_key: WG_KEY,
          },
        })
      ).egress_credentials[0].egress_credential_id,
    inputs: () => ({ egressProviderId: provider, name: "eng-wg", groupId: ENGINEERING, allowAllGateways: true, wireguardPrivateKey: WG_KEY }),
    says: (id) => ["already exists", `(egress credential ${id})`],
  },
];

/**
 * The links: a membership, an egress provider mapping. Their natural key is all that names them,
 * so the one there is the declared one, whoever made it: recorded with `adopt` or without, and
 * no write is sent (the mapping is as declared).
 */
interface Link {
  readonly kind: KindName;
  readonly write: OperationName;
  /** Makes the existing link, or finds it; answers the resource's id it gives. */
  readonly existing: () => Promise<string>;
  readonly inputs: () => Promise<Record<string, unknown>>;
}

let engineeringMapping: string | undefined;

const LINKS: readonly Link[] = [
  {
    kind: "GroupMembership",
    write: "add_user_group",
    existing: async () => `${await emulator.userId("carol")}:${ENGINEERING}`,
    inputs: async () => ({ userId: await emulator.userId("carol"), groupId: ENGINEERING }),
  },
  {
    kind: "EgressProviderMapping",
    write: "create_egress_provider_mapping",
    // Made once, then found by both cases.
    existing: async () =>
      (engineeringMapping ??= (
        await made("create_egress_provider_mapping", {
          target_egress_provider_mapping: { egress_provider_id: provider, group_id: ENGINEERING, allow_all_gateways: true },
        })
      ).egress_provider_mapping.egress_provider_mapping_id),
    inputs: async () => ({ egressProviderId: provider, groupId: ENGINEERING, allowAllGateways: true }),
  },
];

describe("an object made outside Pulumi, and a write Kasm answers with a server error", () => {
  for (const link of LINKS) {
    for (const adopt of [undefined, true]) {
      it(`${link.kind}: the existing link is recorded ${adopt ? "with" : "without"} adopt, no ${link.write} is sent, and Kasm is unchanged`, async () => {
        const existingId = await link.existing();
        const before = await emulator.state();
        await failEvery(link.write);
        const from = emulator.requests.length;
        const resource = new Driven(host, link.kind, `${link.kind}-${adopt ? "adopted" : "declared"}`);
        await resource.create({ ...(await link.inputs()), ...(adopt ? { adopt } : {}) });
        expect(resource.id).toBe(existingId);
        expect(sent(link.write, from)).toBe(0);
        expect(await emulator.state()).toEqual(before);
      });
    }
  }

  for (const c of CASES) {
    it.skipIf(c.only !== undefined && c.only !== TEST_API_NAMES)(
      `${c.kind}: without adopt, the existing object is refused before any ${c.write} is sent, and stays Kasm's`,
      async () => {
        const existingId = await c.existing();
        const before = await emulator.state();
        await failEvery(c.write);
        const from = emulator.requests.length;
        const resource = new Driven(host, c.kind, `${c.kind}-duplicate`);
        const error = (await resource.create(c.inputs(existingId)).catch((e: unknown) => e)) as Error;
        expect(error).toBeInstanceOf(Error);
        for (const words of c.says(existingId)) expect(error.message).toContain(words);
        expect(error.message).toContain("`adopt: true`");
        expect(error.message).not.toContain(WG_KEY);
        expect(error.message).not.toContain(PASSWORD);
        expect(resource.id).toBe("");
        expect(sent(c.write, from)).toBe(0);
        expect(await emulator.state()).toEqual(before);
      },
    );
  }

  it("with adopt, the user is taken over, and no create is sent", async () => {
    await failEvery("create_user");
    const from = emulator.requests.length;
    const resource = new Driven(host, "User", "dave-adopted");
    await resource.create({ username: "dave", adopt: true });
    expect(resource.id).toBe(await emulator.userId("dave"));
    expect(sent("create_user", from)).toBe(0);
  });

  it("with adopt, the egress provider is taken over as it is, and no create is sent", async () => {
    await failEvery("create_egress_provider");
    const from = emulator.requests.length;
    const resource = new Driven(host, "EgressProvider", "adopted");
    await resource.create({ name: "Corp VPN", egressProviderType: "wireguard", adopt: true });
    expect(resource.id).toBe(provider);
    expect(sent("create_egress_provider", from)).toBe(0);
  });
});
