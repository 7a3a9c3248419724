/**
 * The requests of N creates of one kind, for every kind that looks its natural key up before a
 * create (`findFirst`, `alwaysTakesOver`, or a create of its own that looks first), through Pulumi's
 * real dynamic-provider host against the emulator, counted from the emulator's request log, with
 * the one read of the installation before changes on, as an `up` makes them: each resource's
 * `check`, then its `create`, one after another (the order that gives a shared listing the most
 * writes to outlive). N creates cost N writes, one listing shared by the checks (per egress
 * provider, for the kinds that hang off one) and the installation's one read: at most N + ceil(N/100) + 1
 * (N + 2 for these 10), where a lookup per create cost 2N + 1.
 *
 * A key that exists already is still refused in the check, and one made after the listing was read
 * is refused by Kasm at the create, as when the lookup and the create were a moment apart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KindName } from "../../provider";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { Props } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

const N = 10;
const ZONE = "6e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const OTHER_ZONE = "6f0a2b3c4d5e6f708192a3b4c5d6e7f8";
const QUIET_ZONE = "6d0a2b3c4d5e6f708192a3b4c5d6e7f8";
/** One image per staging config (the key is zone and image), and one for the casting configs. */
const IMAGES = Array.from({ length: N }, (_, i) => `7e0a2b3c4d5e6f708192a3b4c5d6e7${String(i).padStart(2, "0")}`);
/** One group per mapping (the key is provider and target). */
const GROUPS = Array.from({ length: N }, (_, i) => `8e0a2b3c4d5e6f708192a3b4c5d6e7${String(i).padStart(2, "0")}`);
const ALL_USERS = "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a";
const PRODUCT = TEST_API_NAMES === "product";

let emulator: TestEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator({
    groups: [{ group_id: ALL_USERS, name: "All Users" }, ...GROUPS.map((group_id, i) => ({ group_id, name: `Team ${i}` }))],
    images: IMAGES.map((image_id, i) => ({ image_id, name: `kasmweb/app-${i}:1.16.0`, friendly_name: `App ${i}` })),
    zones: [
      { zone_id: ZONE, zone_name: "default" },
      { zone_id: OTHER_ZONE, zone_name: "other" },
      { zone_id: QUIET_ZONE, zone_name: "quiet" },
    ],
  });
});
afterAll(async () => {
  await emulator?.close();
});

/** Count the operations by name: `{ get_groups: 1 }`. */
function tally(operations: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const op of operations) counts[op] = (counts[op] ?? 0) + 1;
  return counts;
}

/** Check and create each of `inputs` as `kind`, in one fresh host with the installation check on, as an `up` does; the operations the emulator served. */
async function createEach(kind: KindName, inputs: readonly Props[]): Promise<string[]> {
  const host = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true" });
  const from = emulator.requests.length;
  try {
    for (const [i, each] of inputs.entries()) {
      const resource = new Driven(host, kind, `${kind.toLowerCase()}-${i}`);
      // No old inputs at all, as the engine checks a resource it is about to create.
      const checked = await host.check(resource.urn, {}, await resource.withProvider(each));
      expect(checked.failures).toEqual([]);
      await host.create(resource.urn, checked.inputs);
    }
  } finally {
    await host.stop();
  }
  return emulator.requests
    .slice(from)
    .filter((line) => !line.includes(" fault "))
    .map((line) => line.split(" ")[0]);
}

/** A provider made outside the measured run, for the kinds that hang off one. */
async function egressProvider(name: string): Promise<string> {
  const res = await emulator.specCall("create_egress_provider", { target_egress_provider: { name, egress_provider_type: "wireguard" } });
  expect(res.status).toBe(200);
  return res.body.egress_provider.egress_provider_id;
}

const range = Array.from({ length: N }, (_, i) => i);

describe(`${N} creates of a kind that looks its key up first`, () => {
  it.runIf(PRODUCT)("Group", async () => {
    const operations = await createEach(
      "Group",
      range.map((i) => ({ name: `Made ${i}` })),
    );
    console.log(`Group x${N}: ${operations.length} requests ${JSON.stringify(tally(operations))}`);
    expect(operations.filter((op) => op === "create_group")).toHaveLength(N);
    expect(operations.length).toBeLessThanOrEqual(N + Math.ceil(N / 100) + 1);
  });

  it("StagingConfig", async () => {
    const operations = await createEach(
      "StagingConfig",
      IMAGES.map((imageId) => ({ zoneId: ZONE, imageId, numSessions: 1, expiration: 1 })),
    );
    console.log(`StagingConfig x${N}: ${operations.length} requests ${JSON.stringify(tally(operations))}`);
    expect(operations.filter((op) => op === "create_staging_config")).toHaveLength(N);
    expect(operations.length).toBeLessThanOrEqual(N + Math.ceil(N / 100) + 1);
  });

  it("EgressProvider", async () => {
    const operations = await createEach(
      "EgressProvider",
      range.map((i) => ({ name: `VPN ${i}`, egressProviderType: "wireguard" })),
    );
    console.log(`EgressProvider x${N}: ${operations.length} requests ${JSON.stringify(tally(operations))}`);
    expect(operations.filter((op) => op === "create_egress_provider")).toHaveLength(N);
    expect(operations.length).toBeLessThanOrEqual(N + Math.ceil(N / 100) + 1);
  });

  it("EgressGateway", async () => {
    const provider = await egressProvider("Gateways VPN");
    const operations = await createEach(
      "EgressGateway",
      range.map((i) => ({ egressProviderId: provider, name: `Gateway ${i}` })),
    );
    console.log(`EgressGateway x${N}: ${operations.length} requests ${JSON.stringify(tally(operations))}`);
    expect(operations.filter((op) => op === "create_egress_gateway")).toHaveLength(N);
    expect(operations.length).toBeLessThanOrEqual(N + Math.ceil(N / 100) + 1);
  });

  it("EgressProviderMapping", async () => {
    const provider = await egressProvider("Mappings VPN");
    const operations = await createEach(
      "EgressProviderMapping",
      GROUPS.map((groupId) => ({ egressProviderId: provider, groupId, allowAllGateways: true })),
    );
    console.log(`EgressProviderMapping x${N}: ${operations.length} requests ${JSON.stringify(tally(operations))}`);
    expect(operations.filter((op) => op === "create_egress_provider_mapping")).toHaveLength(N);
    expect(operations.length).toBeLessThanOrEqual(N + Math.ceil(N / 100) + 1);
  });

  it("EgressCredential", async () => {
    const provider = await egressProvider("Credentials VPN");
    const operations = await createEach(
      "EgressCredential",
      range.map((i) => ({ egressProviderId: provider, name: `credential-${i}`, groupId: GROUPS[i], allowAllGateways: true, username: "u", password: "p" })),
    );
    console.log(`EgressCredential x${N}: ${operations.length} requests ${JSON.stringify(tally(operations))}`);
    expect(operations.filter((op) => op === "create_egress_credential")).toHaveLength(N);
    expect(operations.length).toBeLessThanOrEqual(N + Math.ceil(N / 100) + 1);
  });

  it.runIf(PRODUCT)("CastConfig", async () => {
    const operations = await createEach(
      "CastConfig",
      range.map((i) => ({ castingConfigName: `Cast ${i}`, imageId: IMAGES[0], key: `cast-${i}` })),
    );
    console.log(`CastConfig x${N}: ${operations.length} requests ${JSON.stringify(tally(operations))}`);
    expect(operations.filter((op) => op === "create_cast_config")).toHaveLength(N);
    expect(operations.length).toBeLessThanOrEqual(N + Math.ceil(N / 100) + 1);
  });
});

describe("the listing the checks share", () => {
  it("still refuses a key Kasm has in the check, and answers the other checks from the same listing", async () => {
    const made = await emulator.specCall("create_staging_config", {
      target_staging_config: { zone_id: OTHER_ZONE, image_id: IMAGES[3], max_instances: 1, num_sessions: 1, expiration: 1 },
    });
    expect(made.status).toBe(200);
    const host = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true" });
    const from = emulator.requests.length;
    try {
      const failures = [];
      for (const imageId of IMAGES.slice(2, 5)) {
        const resource = new Driven(host, "StagingConfig", `other-${imageId}`);
        failures.push(
          (await host.check(resource.urn, {}, await resource.withProvider({ zoneId: OTHER_ZONE, imageId, numSessions: 1, expiration: 1 }))).failures,
        );
      }
      expect(failures[0]).toEqual([]);
      expect(failures[1]).toEqual([{ property: "adopt", reason: expect.stringContaining(`staging config ${made.body.staging_config.staging_config_id}`) }]);
      expect(failures[2]).toEqual([]);
      expect(emulator.requests.slice(from).filter((line) => line.startsWith("get_staging_configs "))).toHaveLength(1);
    } finally {
      await host.stop();
    }
  });

  it("answers the creates whose check's finding no longer stands too: N such creates, one listing", async () => {
    // The checks in one host, the creates in another: no create finds a finding of its check (as
    // when a finding is older than it may be), and each asks the listing the creates share.
    const checking = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true" });
    const creating = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true" });
    try {
      const checked = [];
      for (const i of range.slice(5)) {
        const resource = new Driven(checking, "StagingConfig", `late-${i}`);
        const result = await checking.check(
          resource.urn,
          {},
          await resource.withProvider({ zoneId: QUIET_ZONE, imageId: IMAGES[i], numSessions: 1, expiration: 1 }),
        );
        expect(result.failures).toEqual([]);
        checked.push({ urn: resource.urn, inputs: result.inputs });
      }
      const from = emulator.requests.length;
      for (const { urn, inputs } of checked) await creating.create(urn, inputs);
      expect(tally(emulator.requests.slice(from).map((line) => line.split(" ")[0]))).toEqual({ get_staging_configs: 1, create_staging_config: 5 });
    } finally {
      await checking.stop();
      await creating.stop();
    }
  });

  it("holds this process's own creates: a second declaration of one staging config is refused in its check, before any create", async () => {
    const host = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true" });
    try {
      const inputs = { zoneId: QUIET_ZONE, imageId: IMAGES[0], numSessions: 1, expiration: 1 };
      const first = new Driven(host, "StagingConfig", "declared-once");
      const checked = await host.check(first.urn, {}, await first.withProvider(inputs));
      const { id } = await host.create(first.urn, checked.inputs);
      const second = new Driven(host, "StagingConfig", "declared-twice");
      const from = emulator.requests.length;
      const again = await host.check(second.urn, {}, await second.withProvider({ ...inputs, numSessions: 2 }));
      expect(again.failures).toEqual([{ property: "adopt", reason: expect.stringContaining(`staging config ${id}`) }]);
      expect(emulator.requests.slice(from)).toEqual([]);
    } finally {
      await host.stop();
    }
  });

  it("is ended by this process's delete of that kind: a key it freed is not refused", async () => {
    const host = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true" });
    try {
      await egressProvider("Freed VPN");
      const first = new Driven(host, "EgressProvider", "first");
      await first.create({ name: "Freed VPN", egressProviderType: "wireguard", adopt: true });
      // This check reads the listing, which holds the provider about to be deleted: a check of its name is refused.
      const other = new Driven(host, "EgressProvider", "other");
      expect((await host.check(other.urn, {}, await other.withProvider({ name: "Other VPN", egressProviderType: "wireguard" }))).failures).toEqual([]);
      const taken = await host.check(other.urn, {}, await other.withProvider({ name: "Freed VPN", egressProviderType: "wireguard" }));
      expect(taken.failures.map((failure) => failure.property)).toEqual(["adopt"]);
      await first.delete();
      const again = new Driven(host, "EgressProvider", "again");
      const checked = await host.check(again.urn, {}, await again.withProvider({ name: "Freed VPN", egressProviderType: "wireguard" }));
      expect(checked.failures).toEqual([]);
      await host.create(again.urn, checked.inputs);
    } finally {
      await host.stop();
    }
  });

  it("does not see an object made after it was read: Kasm refuses the create, and nothing is taken over", async () => {
    const host = await hostFor(emulator, undefined, { "kasm:checkBeforeChanges": "true" });
    try {
      const early = new Driven(host, "EgressProvider", "early");
      expect((await host.check(early.urn, {}, await early.withProvider({ name: "Early VPN", egressProviderType: "wireguard" }))).failures).toEqual([]);
      const stranger = await egressProvider("Stranger VPN");
      const late = new Driven(host, "EgressProvider", "late");
      const checked = await host.check(late.urn, {}, await late.withProvider({ name: "Stranger VPN", egressProviderType: "wireguard" }));
      expect(checked.failures).toEqual([]);
      const error = await host.create(late.urn, checked.inputs).catch((e: Error) => e);
      expect(String(error)).toMatch(/already exists/);
      expect(String(error)).not.toContain(stranger);
    } finally {
      await host.stop();
    }
  });
});
