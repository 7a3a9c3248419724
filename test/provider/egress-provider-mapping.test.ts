/**
 * EgressProviderMapping through Pulumi's real dynamic-provider host against the emulator: check
 * (exactly one target, a gateway selection unless all are allowed), create, diff (ids in either
 * form, the selection in any order), in-place update of the target and the selection, refresh
 * after drift and after deletion, adoption by provider and target, deletion, and a permission
 * denial for a group target.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const GROUP_ID = "5a3f0c9e2b7d4e1f8a6c3b2d1e0f9a8b";
const USER_ID = "7c1e2d3f4a5b4c6d8e9f0a1b2c3d4e5f";
const IMAGE_ID = "9e8d7c6b5a4f4e3d8c2b1a0f9e8d7c6b";
/** Egress Providers View and Modify and Groups View, but not Groups Modify. */
const NO_GROUPS_MODIFY = { key: "map-no-groups", secret: "map-no-groups-secret-a41c" };

let emulator: TestEmulator;
let host: ProviderHost;
let provider: string;
let otherProvider: string;
let g1: string;
let g2: string;
let g3: string;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [
      {
        name: "no-groups-modify",
        key: NO_GROUPS_MODIFY.key,
        secret: NO_GROUPS_MODIFY.secret,
        permissions: ["Egress Providers View", "Egress Providers Modify", "Groups View"],
      },
    ],
    groups: [{ group_id: GROUP_ID, name: "Engineering" }, { name: "Sales" }],
    users: [{ user_id: USER_ID, username: "maria" }, { username: "olaf" }],
    images: [{ image_id: IMAGE_ID, name: "kasmweb/chrome:1.16.0" }, { name: "kasmweb/firefox:1.16.0" }],
  });
  host = await hostFor(emulator);
  provider = await createProvider("Corp VPN");
  otherProvider = await createProvider("Partner VPN");
  g1 = await createGateway(provider, "Frankfurt");
  g2 = await createGateway(provider, "Amsterdam");
  g3 = await createGateway(provider, "Paris");
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

async function createGateway(providerId: string, name: string): Promise<string> {
  const res = await emulator.specCall("create_egress_gateway", { target_egress_gateway: { egress_provider_id: providerId, name } });
  expect(res.status).toBe(200);
  return res.body.egress_gateway.egress_gateway_id;
}

/** The mapping as Kasm has it, by id (undefined when there is none). */
async function mappingInKasm(id: string) {
  const res = await emulator.specCall("get_egress_provider_mapping", { target_egress_provider_mapping: {} });
  return res.body.egress_provider_mappings.find((m: { egress_provider_mapping_id: string }) => m.egress_provider_mapping_id === id);
}

function gatewayIds(mapping: { egress_gateways: { egress_gateway_id: string }[] }): string[] {
  return mapping.egress_gateways.map((g) => g.egress_gateway_id).sort();
}

/** `0123...` -> `01234567-89AB-...`: the same id, written the other way. */
async function groupId(name: string): Promise<string> {
  const groups = Object.values((await emulator.state()).groups as Record<string, { name: string; group_id: string }>);
  return groups.find((g) => g.name === name)!.group_id;
}

describe("EgressProviderMapping", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const mapping = new Driven(host, "EgressProviderMapping", "bad");
    const before = emulator.requests.length;

    const none = await mapping.check({ egressProviderId: provider, allowAllGateways: true });
    expect(none.failures).toHaveLength(1);
    expect(none.failures[0].property).toBe("(inputs)");
    expect(none.failures[0].reason).toMatch(/exactly one of userId, groupId or imageId/);

    const several = await mapping.check({ egressProviderId: provider, userId: USER_ID, groupId: GROUP_ID, allowAllGateways: true });
    expect(several.failures.map((f) => f.property)).toEqual(["userId", "groupId"]);
    expect(several.failures[0].reason).toMatch(/exactly one of userId, groupId and imageId, not userId and groupId/);

    // Kasm requires a selection unless every gateway is allowed (false is its default).
    for (const inputs of [
      { egressProviderId: provider, groupId: GROUP_ID },
      { egressProviderId: provider, groupId: GROUP_ID, allowAllGateways: false, selectedGateways: [] },
    ]) {
      const { failures } = await mapping.check(inputs);
      expect(failures).toEqual([{ property: "selectedGateways", reason: expect.stringMatching(/at least one gateway.*allowAllGateways/) }]);
    }

    const malformed = await mapping.check({ egressProviderId: "corp", imageId: IMAGE_ID, selectedGateways: [g1, "paris"], extra: 1 });
    expect(malformed.failures.map((f) => f.property).sort()).toEqual(["(inputs)", "egressProviderId", "selectedGateways.1"]);
    expect(emulator.requests.length).toBe(before);
  });

  it("check judges the target and the selection only on what is known during preview", async () => {
    const mapping = new Driven(host, "EgressProviderMapping", "preview");
    // The target and the selection are outputs of other resources, not known yet.
    expect((await mapping.check({ egressProviderId: UNKNOWN, userId: UNKNOWN, selectedGateways: [UNKNOWN] })).failures).toEqual([]);
    expect((await mapping.check({ egressProviderId: provider, groupId: GROUP_ID, allowAllGateways: UNKNOWN })).failures).toEqual([]);
    expect((await mapping.check({ egressProviderId: provider, groupId: GROUP_ID, selectedGateways: UNKNOWN })).failures).toEqual([]);
    // What is known still counts: two targets, one of them unknown, are two.
    const several = await mapping.check({ egressProviderId: provider, userId: UNKNOWN, imageId: IMAGE_ID, allowAllGateways: true });
    expect(several.failures.map((f) => f.property)).toEqual(["userId", "imageId"]);
  });

  it("creates, plans no change for the same inputs, updates target and selection in place, reverts drift and deletes", async () => {
    const mapping = new Driven(host, "EgressProviderMapping", "engineering");
    const inputs = { egressProviderId: provider, groupId: hyphenated(GROUP_ID), selectedGateways: [g1, g2], enabled: true };
    const state = await mapping.create(inputs);
    expect(mapping.id).toMatch(/^[0-9a-f]{32}$/);
    expect(state).toMatchObject({ ...inputs, egressProviderMappingId: mapping.id, created: expect.any(String) });
    const kasm = await mappingInKasm(mapping.id);
    expect(kasm).toMatchObject({ egress_provider_id: provider, group_id: GROUP_ID, user_id: null, image_id: null, allow_all_gateways: false });
    expect(gatewayIds(kasm)).toEqual([g1, g2].sort());

    // A second up: no change, whatever the id spelling and the order of the selection.
    expect(await mapping.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(
      await mapping.diff({ ...inputs, egressProviderId: hyphenated(provider), groupId: GROUP_ID, selectedGateways: [hyphenated(g2), g1] }),
    ).toMatchObject({ changes: "none" });
    expect((await mapping.read()).inputs).toMatchObject(inputs);
    expect(await mapping.diff(inputs)).toMatchObject({ changes: "none" });

    // The target and the selection change in place (the update operation takes them).
    const retargeted = { egressProviderId: provider, userId: USER_ID, selectedGateways: [g3, g2], enabled: true };
    expect(await mapping.diff(retargeted)).toMatchObject({ changes: "some", replaces: [] });
    await mapping.update(retargeted);
    const moved = await mappingInKasm(mapping.id);
    expect(moved).toMatchObject({ user_id: USER_ID, group_id: null, image_id: null });
    expect(gatewayIds(moved)).toEqual([g2, g3].sort());

    // Someone edits it in the Kasm UI: refresh shows the drift, and the next update reverts it.
    await emulator.specCall("update_egress_provider_mapping", {
      target_egress_provider_mapping: { egress_provider_mapping_id: mapping.id, enabled: false, selected_gateways: [g1] },
    });
    const refreshed = await mapping.read();
    expect(refreshed.inputs).toMatchObject({ enabled: false, selectedGateways: [g1], userId: USER_ID });
    expect(await mapping.diff(retargeted)).toMatchObject({ changes: "some", replaces: [] });
    await mapping.update(retargeted);
    const reverted = await mappingInKasm(mapping.id);
    expect(reverted.enabled).toBe(true);
    expect(gatewayIds(reverted)).toEqual([g2, g3].sort());
    expect(await mapping.diff(retargeted)).toMatchObject({ changes: "none" });

    // Allowing every gateway: Kasm then lists them all, which is not drift in the selection.
    const all = { ...retargeted, allowAllGateways: true };
    await mapping.update(all);
    expect(gatewayIds(await mappingInKasm(mapping.id))).toEqual([g1, g2, g3].sort());
    expect((await mapping.read()).inputs).toMatchObject({ allowAllGateways: true, selectedGateways: [g3, g2] });
    expect(await mapping.diff(all)).toMatchObject({ changes: "none" });
    // ...and going back to the selection sends it again.
    await mapping.update(retargeted);
    // allowAllGateways left out means false: declaring false changes nothing.
    expect(await mapping.diff({ ...retargeted, allowAllGateways: false })).toMatchObject({ changes: "none" });
    expect(gatewayIds(await mappingInKasm(mapping.id))).toEqual([g2, g3].sort());

    await mapping.delete();
    expect(await mappingInKasm(mapping.id)).toBeUndefined();
    await mapping.delete();
  });

  it("a gateway deleted in the Kasm UI shows as drift in the selection", async () => {
    const paris2 = await createGateway(provider, "Paris 2");
    const mapping = new Driven(host, "EgressProviderMapping", "image");
    const inputs = { egressProviderId: provider, imageId: IMAGE_ID, selectedGateways: [g1, paris2] };
    await mapping.create(inputs);
    await emulator.specCall("delete_egress_gateway", { target_egress_gateway: { egress_gateway_id: paris2 } });
    expect((await mapping.read()).inputs).toMatchObject({ selectedGateways: [g1] });
    expect(await mapping.diff(inputs)).toMatchObject({ changes: "some" });

    // Allowing every gateway in the UI, when the program does not, shows as a selection of all of them.
    const selection = { egressProviderId: provider, imageId: IMAGE_ID, selectedGateways: [g1] };
    await mapping.update(selection);
    await emulator.specCall("update_egress_provider_mapping", {
      target_egress_provider_mapping: { egress_provider_mapping_id: mapping.id, allow_all_gateways: true },
    });
    const refreshed = await mapping.read();
    expect(refreshed.inputs?.allowAllGateways).toBeUndefined();
    expect([...(refreshed.inputs?.selectedGateways as string[])].sort()).toEqual([g1, g2, g3].sort());
    expect(await mapping.diff(selection)).toMatchObject({ changes: "some", replaces: [] });
    await mapping.update(selection);
    expect(await mappingInKasm(mapping.id)).toMatchObject({ allow_all_gateways: false, egress_gateways: [{ egress_gateway_id: g1 }] });
    await mapping.delete();
  });

  it("refresh of a mapping deleted in the Kasm UI, or moved to another provider, keeps track of it", async () => {
    const olaf = (await emulator.specCall("get_user", { target_user: { username: "olaf" } })).body.user.user_id;
    const mapping = new Driven(host, "EgressProviderMapping", "olaf");
    await mapping.create({ egressProviderId: provider, userId: olaf, allowAllGateways: true });

    // Moved to another provider in the UI: still found, and the provider shows as drift.
    await emulator.specCall("update_egress_provider_mapping", {
      target_egress_provider_mapping: { egress_provider_mapping_id: mapping.id, egress_provider_id: otherProvider },
    });
    const moved = await mapping.read();
    expect(moved.id).toBe(mapping.id);
    expect(moved.inputs).toMatchObject({ egressProviderId: otherProvider });

    await emulator.specCall("delete_egress_provider_mapping", { target_egress_provider_mapping: { egress_provider_mapping_id: mapping.id } });
    expect((await mapping.read()).id).toBe("");
  });

  it("an existing mapping of the provider and target is an error that suggests adopt, and adopt takes it over", async () => {
    const sales = await groupId("Sales");
    const res = await emulator.specCall("create_egress_provider_mapping", {
      target_egress_provider_mapping: { egress_provider_id: provider, group_id: sales, allow_all_gateways: true },
    });
    const existingId = res.body.egress_provider_mapping.egress_provider_mapping_id;

    const clash = new Driven(host, "EgressProviderMapping", "sales");
    await expect(clash.create({ egressProviderId: provider, groupId: sales, selectedGateways: [g1] })).rejects.toThrow(
      /already exists in Kasm.*adopt: true/s,
    );

    const adopted = new Driven(host, "EgressProviderMapping", "sales-adopted");
    await adopted.create({ egressProviderId: hyphenated(provider), groupId: hyphenated(sales), selectedGateways: [g1], adopt: true });
    expect(adopted.id).toBe(existingId);
    const kasm = await mappingInKasm(existingId);
    expect(kasm.allow_all_gateways).toBe(false);
    expect(gatewayIds(kasm)).toEqual([g1]);
  });

  it("a mapping to a group without Groups Modify names that permission", async () => {
    const limited = await hostFor(emulator, NO_GROUPS_MODIFY);
    try {
      const mapping = new Driven(limited, "EgressProviderMapping", "denied");
      const error = await mapping.create({ egressProviderId: provider, groupId: GROUP_ID, allowAllGateways: true }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/The API key needs all of: [^.;]*\bGroups Modify(,|;)/);
      expect((error as Error).message).not.toContain(NO_GROUPS_MODIFY.secret);
      expect(limited.stderr.join("")).not.toContain(NO_GROUPS_MODIFY.secret);
      const mappings = await emulator.specCall("get_egress_provider_mapping", { target_egress_provider_mapping: { group_id: GROUP_ID } });
      expect(mappings.body.egress_provider_mappings).toEqual([]);
    } finally {
      await limited.stop();
    }
  });
});
