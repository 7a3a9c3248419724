/**
 * EgressProviderMapping through Pulumi's real dynamic-provider host against the emulator: check
 * (exactly one target, a gateway selection unless all are allowed), create, diff (ids in either
 * form, the selection in any order), in-place update of the target and the selection, refresh
 * after drift and after deletion, the mapping of a provider and target that exists taken over
 * (with adopt or without; a create whose answers were lost found, not made twice; check's warning
 * or, with takeOverChanges refuse, its refusal), deletion, and a permission denial for a group target.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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
    expect(await mapping.diff({ ...inputs, egressProviderId: hyphenated(provider), groupId: GROUP_ID, selectedGateways: [hyphenated(g2), g1] })).toMatchObject({
      changes: "none",
    });
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
    expect([...(refreshed.inputs!.selectedGateways as string[])].sort()).toEqual([g1, g2, g3].sort());
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

  it("the mapping of the provider and target that exists is the declared one: taken over with adopt or without, and written only where it differs", async () => {
    const sales = await groupId("Sales");
    const res = await emulator.specCall("create_egress_provider_mapping", {
      target_egress_provider_mapping: { egress_provider_id: provider, group_id: sales, allow_all_gateways: true },
    });
    const existingId = res.body.egress_provider_mapping.egress_provider_mapping_id;
    const writes = (from: number) =>
      emulator.requests
        .slice(from)
        .map((line) => line.split(" ")[0])
        .filter((op) => !op.startsWith("get_"));

    // Without adopt: the existing mapping is brought to the declared selection, never created again.
    let from = emulator.requests.length;
    const declared = new Driven(host, "EgressProviderMapping", "sales");
    await declared.create({ egressProviderId: provider, groupId: sales, selectedGateways: [g1] });
    expect(declared.id).toBe(existingId);
    expect(writes(from)).toEqual(["update_egress_provider_mapping"]);
    const kasm = await mappingInKasm(existingId);
    expect(kasm.allow_all_gateways).toBe(false);
    expect(gatewayIds(kasm)).toEqual([g1]);

    // As declared already, with adopt or without: recorded with no write.
    for (const [name, adopt] of [
      ["sales-again", undefined],
      ["sales-adopted", true],
    ] as const) {
      from = emulator.requests.length;
      const again = new Driven(host, "EgressProviderMapping", name);
      await again.create({
        egressProviderId: hyphenated(provider),
        groupId: hyphenated(sales),
        selectedGateways: [g1],
        ...(adopt === undefined ? {} : { adopt }),
      });
      expect(again.id).toBe(existingId);
      expect(writes(from)).toEqual([]);
    }
  });

  it("a create that committed but whose every answer was lost is found by provider and target: one mapping, no second create", async () => {
    const olaf = Object.values((await emulator.state()).users as Record<string, { username: string; user_id: string }>).find(
      (u) => u.username === "olaf",
    )!.user_id;
    const mapping = new Driven(host, "EgressProviderMapping", "olaf");
    await emulator.faults({ rate: 1, kinds: ["503"], operations: ["create_egress_provider_mapping"], phase: "after" });
    const from = emulator.requests.length;
    try {
      await mapping.create({ egressProviderId: provider, userId: olaf, allowAllGateways: true });
    } finally {
      await emulator.faults(null);
    }
    // One create reached Kasm (its answer replaced by the fault), then the lookup found it.
    expect(emulator.requests.slice(from).filter((line) => /^create_egress_provider_mapping \d+ /.test(line))).toHaveLength(1);
    const all = await emulator.specCall("get_egress_provider_mapping", { target_egress_provider_mapping: {} });
    const olafs = all.body.egress_provider_mappings.filter((m: { user_id?: string }) => String(m.user_id ?? "").replace(/-/g, "") === olaf.replace(/-/g, ""));
    expect(olafs.map((m: { egress_provider_mapping_id: string }) => m.egress_provider_mapping_id)).toEqual([mapping.id]);
    await mapping.delete();
  });

  it("check of a create whose provider and target have a mapping passes, warning what the take-over changes; with takeOverChanges refuse it fails naming them", async () => {
    const engineering = await emulator.specCall("create_egress_provider_mapping", {
      target_egress_provider_mapping: { egress_provider_id: otherProvider, group_id: GROUP_ID, allow_all_gateways: true, enabled: true },
    });
    expect(engineering.status).toBe(200);
    const inputs = { egressProviderId: otherProvider, groupId: GROUP_ID, allowAllGateways: true, enabled: false };
    const reading = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true" });
    const refusing = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true", "kasm:takeOverChanges": "refuse" });
    // As the engine checks a create: no old inputs at all.
    const checkCreate = async (on: typeof reading, name: string, news: Record<string, unknown>) => {
      const driven = new Driven(on, "EgressProviderMapping", name);
      return on.check(driven.urn, {}, await driven.withProvider(news));
    };
    try {
      const checked = await checkCreate(reading, "engineering", inputs);
      expect(checked.failures).toEqual([]);
      // Without an engine to log to, the host prints the warning on its stderr.
      await vi.waitFor(() => expect(reading.stderr.join("")).toContain("the take-over of the existing object will change enabled from true to false in Kasm"));
      // As declared: nothing to say.
      expect((await checkCreate(reading, "engineering-same", { ...inputs, enabled: true })).failures).toEqual([]);
      const refused = await checkCreate(refusing, "engineering", inputs);
      expect(refused.failures.map((f) => f.property)).toEqual(["adopt"]);
      expect(refused.failures[0].reason).toContain('takeOverChanges is "refuse"');
      expect(refused.failures[0].reason).toContain("enabled from true to false");
    } finally {
      await reading.stop();
      await refusing.stop();
      await emulator.specCall("delete_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: engineering.body.egress_provider_mapping.egress_provider_mapping_id },
      });
    }
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
