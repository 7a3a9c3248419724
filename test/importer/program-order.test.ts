/**
 * The order of what `kasm-import` declares, which is the order of the generated program: an
 * egress provider's gateways, mappings and credentials follow the providers'
 * names (as the providers' own declarations do), not their ids, which Kasm makes up. Without the
 * provider list (only gateways asked for), by the provider's id: the same order for the same
 * installation still. Within one provider, mappings go users first, then groups, each by the name
 * the program gives it (a username, a group's name) when the users were read, else by id. A
 * group's workspaces go by their friendly names. Servers, which are read one by one by id, are
 * declared (drained, assigned) in the order of the names the program gives them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKasmClient, type KasmClient } from "../../provider/api";
import { readInstallation } from "../../importer/read";
import type { ImportKind } from "../../importer/kinds";
import type { Inventory } from "../../importer/read";
import { SERVER_ASSIGNMENTS, SERVER_DRAINS } from "../../importer/write/servers";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";

const hex = (prefix: string, n: number) => `${prefix}${String(n).padStart(32 - prefix.length, "0")}`;
/** "Zeta VPN" has the smaller id, so that an order by id and an order by name differ. */
const ZETA = hex("01", 1);
const ALPHA = hex("ff", 1);

const SEED = {
  users: [{ username: "ada", first_name: "Ada", last_name: "Lovelace" }],
  egressProviders: [
    { egress_provider_id: ZETA, name: "Zeta VPN", egress_provider_type: "wireguard" as const },
    { egress_provider_id: ALPHA, name: "Alpha VPN", egress_provider_type: "openvpn" as const },
  ],
  egressGateways: [
    { egress_provider_name: "Zeta VPN", name: "Amsterdam" },
    { egress_provider_name: "Alpha VPN", name: "Berlin" },
  ],
  egressMappings: [
    { egress_provider_name: "Zeta VPN", target: { username: "ada" }, allow_all_gateways: true },
    { egress_provider_name: "Alpha VPN", target: { username: "ada" }, allow_all_gateways: true },
  ],
  egressCredentials: [
    { egress_provider_name: "Zeta VPN", target: { username: "ada" }, name: "ada-zeta", allow_all_gateways: true },
    { egress_provider_name: "Alpha VPN", target: { username: "ada" }, name: "ada-alpha", allow_all_gateways: true },
  ],
};

/**
 * A client of an emulator seeded with `seed`, for the tests around the call (the file's, or a
 * describe's): the emulator starts before them and closes after.
 */
function clientOf(seed: Parameters<typeof startTestEmulator>[0], options?: Parameters<typeof startTestEmulator>[1]): () => KasmClient {
  let emulator: TestEmulator | undefined;
  let client: KasmClient | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator(seed, options);
    client = createKasmClient({ baseUrl: emulator.url, apiKey: ADMIN.key, apiKeySecret: ADMIN.secret, apiNames: emulator.apiNames, maxRetries: 0 }, {});
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });
  return () => client!;
}

const client = clientOf(SEED);

const providerIds = (records: readonly { egress_provider_id: string }[] | undefined) =>
  records?.map((r) => r.egress_provider_id.replace(/-/g, "").toLowerCase());

describe("the egress objects' order", () => {
  it("follows the providers' names when the providers are read", async () => {
    const kinds = new Set<ImportKind>(["egress-providers", "egress-gateways", "egress-mappings", "egress-credentials"]);
    const inventory = await readInstallation(client(), { kinds });
    expect(inventory.egressProviders?.map((p) => p.name)).toEqual(["Alpha VPN", "Zeta VPN"]);
    expect(providerIds(inventory.egressGateways)).toEqual([ALPHA, ZETA]);
    expect(providerIds(inventory.egressMappings)).toEqual([ALPHA, ZETA]);
    expect(providerIds(inventory.egressCredentials)).toEqual([ALPHA, ZETA]);
  });

  it("follows the providers' ids when only the gateways are read", async () => {
    const inventory = await readInstallation(client(), { kinds: new Set<ImportKind>(["egress-gateways"]) });
    expect(inventory.egressProviders).toBeUndefined();
    expect(providerIds(inventory.egressGateways)).toEqual([ZETA, ALPHA]);
  });
});

/** Users and groups whose ids sort the other way round from their names. */
const ZED = hex("01", 2);
const AMY = hex("fe", 2);
const ZULU = hex("01", 3);
const BRAVO = hex("fe", 3);

describe("the mappings' order within one provider", () => {
  const targetsClient = clientOf({
    groups: [
      { group_id: ZULU, name: "Zulu" },
      { group_id: BRAVO, name: "Bravo" },
    ],
    users: [
      { user_id: ZED, username: "zed", groups: ["Zulu"] },
      { user_id: AMY, username: "amy", groups: ["Bravo"] },
    ],
    egressProviders: [{ name: "Office VPN", egress_provider_type: "wireguard" as const }],
    egressMappings: [
      { egress_provider_name: "Office VPN", target: { group_name: "Zulu" }, allow_all_gateways: true },
      { egress_provider_name: "Office VPN", target: { username: "zed" }, allow_all_gateways: true },
      { egress_provider_name: "Office VPN", target: { group_name: "Bravo" }, allow_all_gateways: true },
      { egress_provider_name: "Office VPN", target: { username: "amy" }, allow_all_gateways: true },
    ],
  });

  const targetIds = (mappings: readonly { user_id?: string | null; group_id?: string | null }[] | undefined) =>
    mappings?.map((m) =>
      String(m.user_id ?? m.group_id)
        .replace(/-/g, "")
        .toLowerCase(),
    );

  it("goes users, then groups, each by name, when the users are read", async () => {
    const inventory = await readInstallation(targetsClient(), { kinds: new Set<ImportKind>(["users", "egress-mappings"]) });
    expect(targetIds(inventory.egressMappings)).toEqual([AMY, ZED, BRAVO, ZULU]);
  });

  it("goes users, then groups, each by id, when only the mappings are read", async () => {
    const inventory = await readInstallation(targetsClient(), { kinds: new Set<ImportKind>(["egress-mappings"]) });
    expect(inventory.users).toBeUndefined();
    expect(targetIds(inventory.egressMappings)).toEqual([ZED, AMY, ZULU, BRAVO]);
  });
});

describe("a group's workspaces' order", () => {
  /** "Zebra Desktop" has the smaller id. */
  const ZEBRA = hex("01", 4);
  const ALPINE = hex("fe", 4);
  const productClient = clientOf(
    {
      groups: [{ name: "Engineering" }],
      images: [
        { image_id: ZEBRA, name: "kasmweb/zebra:1.16.0", friendly_name: "Zebra Desktop", groups: ["Engineering"] },
        { image_id: ALPINE, name: "kasmweb/alpine:1.16.0", friendly_name: "Alpine Desktop", groups: ["Engineering"] },
      ],
    },
    { apiNames: "product" },
  );

  it("follows the workspaces' friendly names, not their ids", async () => {
    const inventory = await readInstallation(productClient(), { kinds: new Set<ImportKind>(["workspaces", "workspace-groups"]) });
    const engineering = inventory.groups?.find((g) => g.name === "Engineering");
    const ids = inventory.groupImages?.get(engineering!.group_id)?.map((image) => image.image_id.replace(/-/g, "").toLowerCase());
    expect(ids).toEqual([ALPINE, ZEBRA]);
  });
});

describe("the servers' order", () => {
  /** "zz-host" has the smaller id; "Build box" has a friendly name, which names it before its host name. */
  const ZZ = { server_id: hex("51", 1), hostname: "zz-host", friendly_name: null, is_draining: true };
  const BUILD = { server_id: hex("5f", 2), hostname: "aa-host", friendly_name: "Build box", is_draining: true };
  const CI = { server_id: hex("5e", 3), hostname: "ci-host", friendly_name: null, is_draining: true };
  const inventory = {
    apiNames: "spec",
    userGroupsVisible: true,
    assignedServersVisible: true,
    users: [{ user_id: hex("a1", 1), username: "ada", assigned_servers: [ZZ, CI, BUILD] }],
    servers: [ZZ, BUILD, CI],
    skipped: [],
  } as unknown as Inventory;
  const ids = (servers: readonly { server_id: string }[] | undefined) => servers?.map((server) => server.server_id);

  it("drains and assignments follow the names the program gives the servers, not their ids", () => {
    expect(ids(SERVER_DRAINS.records(inventory))).toEqual([BUILD.server_id, CI.server_id, ZZ.server_id]);
    expect(ids(SERVER_ASSIGNMENTS.records(inventory)?.map((assignment) => assignment.server))).toEqual([BUILD.server_id, CI.server_id, ZZ.server_id]);
  });
});
