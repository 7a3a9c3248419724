/**
 * Resilience under injected faults: with 30% of requests failing (500, 503, 429 or a reset
 * connection, before the operation runs or after it committed), a run of 200 mixed creates,
 * updates and deletes still leaves the emulator exactly in the intended state: no duplicate, no
 * missing object, no leftover. Run for several fault seeds; each run prints what it measured.
 */
import seedrandom from "seedrandom";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { createKasmClient, type KasmClient } from "../../provider/api";
import { KEYS, SEED, captureLogger } from "./helpers";

const STEPS = 200;
const FAULT_SEEDS = [11, 42, 1234];

/** What the run intends the emulator to hold at the end, by natural key. */
interface Intended {
  users: Map<string, { user_id: string; first_name: string; groups: Set<string> }>;
  staging: Map<string, { staging_config_id: string; num_sessions: number }>;
  providers: Map<string, { egress_provider_id: string; enabled: boolean }>;
  /** `provider/gateway` -> id. */
  gateways: Map<string, string>;
  /** `provider/group` -> mapping id. */
  mappings: Map<string, string>;
  /** `provider/credential name`. */
  credentials: Set<string>;
  /** Casting config name -> id, or null when its create could not be confirmed. */
  casts: Map<string, string | null>;
}

let emulator: RunningEmulator | undefined;
let client: KasmClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
});

describe("under injected faults", () => {
  it.each(FAULT_SEEDS)("200 mixed writes end in exactly the intended state (fault seed %i)", async (faultSeed) => {
    let handled = 0;
    emulator = await startEmulator({ port: 0, seed: SEED, log: () => (handled += 1) });
    const logger = captureLogger();
    client = createKasmClient(
      {
        baseUrl: emulator.url,
        apiKey: KEYS.admin.key,
        apiKeySecret: KEYS.admin.secret,
        // 0.3^11: a request fails for good about twice in a million.
        maxRetries: 10,
        retryBaseDelayMs: 2,
        // Caps the emulator's `Retry-After: 1` so that the run stays short.
        retryMaxDelayMs: 10,
        logger,
      },
      {},
    );
    const control = (method: string, path: string, body?: unknown) =>
      fetch(`${emulator!.url}${path}`, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { "content-type": "application/json" },
      }).then((r) => r.json() as Promise<any>);

    const seeded = await control("GET", "/__emulator/state");
    const groups = Object.values<any>(seeded.groups)
      .filter((g) => !g.is_system)
      .map((g) => ({ id: g.group_id as string, name: g.name as string }));
    const zones = Object.values<any>(seeded.zones).map((z) => z.zone_id as string);
    const images = Object.values<any>(seeded.images).map((i) => i.image_id as string);
    const intended: Intended = {
      users: new Map(
        Object.values<any>(seeded.users).map((u) => [
          u.username,
          { user_id: u.user_id, first_name: u.first_name, groups: new Set(u.group_ids.map((g: string) => seeded.groups[g].name)) },
        ]),
      ),
      staging: new Map(),
      providers: new Map(),
      gateways: new Map(),
      mappings: new Map(),
      credentials: new Set(),
      casts: new Map(),
    };

    const started = Date.now();
    await control("POST", "/__emulator/faults", { rate: 0.3, kinds: ["500", "503", "429", "reset"], seed: faultSeed });
    const random = seedrandom(`plan-${faultSeed}`);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
    const counts: Record<string, number> = {};

    for (let step = 0; step < STEPS; step++) {
      const action = await runStep(client, intended, { step, random, pick, groups, zones, images });
      counts[action] = (counts[action] ?? 0) + 1;
    }
    const elapsedMs = Date.now() - started;
    const faults = await control("GET", "/__emulator/faults");
    await control("DELETE", "/__emulator/faults");

    // --- the final state is exactly the intended one ------------------------------------------
    const state = await control("GET", "/__emulator/state");
    const users = Object.values<any>(state.users);
    expect(users.map((u) => u.username).sort()).toEqual([...intended.users.keys()].sort());
    for (const u of users) {
      const want = intended.users.get(u.username)!;
      expect(u.user_id).toBe(want.user_id);
      expect(u.first_name ?? null).toBe(want.first_name ?? null);
      expect(u.group_ids.map((g: string) => state.groups[g].name).sort()).toEqual(["All Users", ...want.groups].filter((g, i, a) => a.indexOf(g) === i).sort());
    }
    const staging = Object.values<any>(state.stagingConfigs);
    expect(staging.map((c) => `${c.zone_id}/${c.image_id}=${c.num_sessions}`).sort()).toEqual(
      [...intended.staging].map(([key, c]) => `${key}=${c.num_sessions}`).sort(),
    );
    const providers = Object.values<any>(state.egressProviders);
    expect(providers.map((p) => `${p.name}=${p.enabled}`).sort()).toEqual([...intended.providers].map(([n, p]) => `${n}=${p.enabled}`).sort());
    const providerName = (id: string) => state.egressProviders[id].name;
    expect(
      Object.values<any>(state.egressGateways)
        .map((g) => `${providerName(g.egress_provider_id)}/${g.name}`)
        .sort(),
    ).toEqual([...intended.gateways.keys()].sort());
    const groupName = (id: string) => state.groups[id].name;
    expect(
      Object.values<any>(state.egressMappings)
        .map((m) => `${providerName(m.egress_provider_id)}/${groupName(m.group_id)}`)
        .sort(),
    ).toEqual([...intended.mappings.keys()].sort());
    expect(
      Object.values<any>(state.egressCredentials)
        .map((c) => `${providerName(c.egress_provider_id)}/${c.name}`)
        .sort(),
    ).toEqual([...intended.credentials].sort());
    expect(
      Object.values<any>(state.castConfigs)
        .map((c) => c.casting_config_name)
        .sort(),
    ).toEqual([...intended.casts.keys()].sort());

    // --- what the run measured -----------------------------------------------------------------
    const injected = Object.values<number>(faults.injected).reduce((a, b) => a + b, 0);
    const before = Object.entries<number>(faults.injected)
      .filter(([k]) => k.endsWith(":before"))
      .reduce((a, [, n]) => a + n, 0);
    const requests = handled + before; // handled requests are logged; a fault before the operation is not
    const retries = logger.lines.filter((l) => l.includes("retrying in")).length;
    const lookups = logger.lines.filter((l) => l.includes("looking for the object")).length;
    const adopted = logger.lines.filter((l) => l.includes("adopted the object")).length;
    const done = logger.lines.filter((l) => l.includes("counted as done")).length;
    const unconfirmed = [...intended.casts.values()].filter((id) => id === null).length;
    console.log(
      `fault seed ${faultSeed}: ${STEPS} steps ${JSON.stringify(counts)}; ${requests} requests, ${injected} faults injected ${JSON.stringify(faults.injected)}; ` +
        `${retries} transport retries, ${lookups} create lookups, ${adopted} adopted, ${done} counted as done, ${unconfirmed} unconfirmed cast configs; ${elapsedMs} ms`,
    );
    expect(injected).toBeGreaterThan(0.2 * requests);
    expect(Object.keys(faults.injected).some((k) => k.endsWith(":after"))).toBe(true);
    expect(Object.keys(faults.injected).some((k) => k.startsWith("reset"))).toBe(true);
  });
});

interface Plan {
  step: number;
  random: () => number;
  pick<T>(items: T[]): T;
  groups: { id: string; name: string }[];
  zones: string[];
  images: string[];
}

/** Run one randomly chosen write and record its intended effect; returns its name. */
async function runStep(client: KasmClient, intended: Intended, plan: Plan): Promise<string> {
  const { step, random, pick, groups } = plan;
  const usernames = [...intended.users.keys()].filter((u) => u !== "alice" && u !== "bob");
  const roll = random();

  if (roll < 0.16 || usernames.length === 0) {
    const username = `user${step}`;
    const user = await client.users.createUser({ username, first_name: `First ${step}`, password: `pw-${step}-secret` });
    intended.users.set(username, { user_id: user.user_id, first_name: `First ${step}`, groups: new Set() });
    return "create_user";
  }
  if (roll < 0.24) {
    const username = pick(usernames);
    const user = intended.users.get(username)!;
    await client.users.updateUser({ user_id: user.user_id, username, first_name: `Renamed ${step}` });
    user.first_name = `Renamed ${step}`;
    return "update_user";
  }
  if (roll < 0.3) {
    const username = pick(usernames);
    await client.users.deleteUser({ user_id: intended.users.get(username)!.user_id, force: true });
    intended.users.delete(username);
    return "delete_user";
  }
  if (roll < 0.42) {
    const username = pick(usernames);
    const user = intended.users.get(username)!;
    const group = pick(groups);
    if (user.groups.has(group.name)) {
      await client.groups.removeUserGroup({ user_id: user.user_id, group_id: group.id });
      user.groups.delete(group.name);
      return "remove_user_group";
    }
    await client.groups.addUserGroup({ user_id: user.user_id, group_id: group.id });
    user.groups.add(group.name);
    return "add_user_group";
  }
  if (roll < 0.56) {
    const zone_id = pick(plan.zones);
    const image_id = pick(plan.images);
    const key = `${zone_id}/${image_id}`;
    const existing = intended.staging.get(key);
    if (!existing) {
      const created = await client.staging.createStagingConfig({ zone_id, image_id, num_sessions: step % 5, expiration: 2 });
      intended.staging.set(key, { staging_config_id: created.staging_config_id, num_sessions: step % 5 });
      return "create_staging_config";
    }
    if (random() < 0.5) {
      await client.staging.updateStagingConfig({ staging_config_id: existing.staging_config_id, num_sessions: (step % 7) + 1 });
      existing.num_sessions = (step % 7) + 1;
      return "update_staging_config";
    }
    await client.staging.deleteStagingConfig({ staging_config_id: existing.staging_config_id });
    intended.staging.delete(key);
    return "delete_staging_config";
  }
  const providers = [...intended.providers.keys()];
  if (roll < 0.66 || providers.length === 0) {
    if (providers.length < 4 || random() < 0.4) {
      const name = `vpn-${step}`;
      const created = await client.egress.createEgressProvider({ name, egress_provider_type: "wireguard", enabled: true });
      intended.providers.set(name, { egress_provider_id: created.egress_provider_id, enabled: true });
      return "create_egress_provider";
    }
    const name = pick(providers);
    const provider = intended.providers.get(name)!;
    if (random() < 0.5) {
      await client.egress.updateEgressProvider({ egress_provider_id: provider.egress_provider_id, enabled: !provider.enabled });
      provider.enabled = !provider.enabled;
      return "update_egress_provider";
    }
    await client.egress.deleteEgressProvider({ egress_provider_id: provider.egress_provider_id });
    intended.providers.delete(name);
    // The emulator deletes a provider's gateways, mappings and credentials with it.
    for (const map of [intended.gateways, intended.mappings]) for (const key of [...map.keys()]) if (key.startsWith(`${name}/`)) map.delete(key);
    for (const key of [...intended.credentials]) if (key.startsWith(`${name}/`)) intended.credentials.delete(key);
    return "delete_egress_provider";
  }
  if (roll < 0.78) {
    const name = pick(providers);
    const { egress_provider_id } = intended.providers.get(name)!;
    const gateways = [...intended.gateways.keys()].filter((k) => k.startsWith(`${name}/`));
    if (gateways.length === 0 || random() < 0.6) {
      const gateway = `gw-${step}`;
      const created = await client.egress.createEgressGateway({ egress_provider_id, name: gateway, enabled: true, country: "FR", city: "Paris" });
      intended.gateways.set(`${name}/${gateway}`, created.egress_gateway_id);
      return "create_egress_gateway";
    }
    const key = pick(gateways);
    await client.egress.deleteEgressGateway({ egress_gateway_id: intended.gateways.get(key)! });
    intended.gateways.delete(key);
    return "delete_egress_gateway";
  }
  if (roll < 0.88) {
    const name = pick(providers);
    const { egress_provider_id } = intended.providers.get(name)!;
    const group = pick(groups);
    const key = `${name}/${group.name}`;
    const mapping = intended.mappings.get(key);
    if (mapping) {
      await client.egress.deleteEgressProviderMapping({ egress_provider_mapping_id: mapping });
      intended.mappings.delete(key);
      return "delete_egress_provider_mapping";
    }
    if (random() < 0.5) {
      const created = await client.egress.createEgressProviderMapping({ egress_provider_id, group_id: group.id, enabled: true, allow_all_gateways: true });
      intended.mappings.set(key, created.egress_provider_mapping_id);
      return "create_egress_provider_mapping";
    }
    const credential = `cred-${step}`;
    await client.egress.createEgressCredential({
      egress_provider_id,
      name: credential,
      group_id: group.id,
      enabled: true,
      allow_all_gateways: true,
      wireguard_private_key: `wg-${step}-private`,
    });
    intended.credentials.add(`${name}/${credential}`);
    return "create_egress_credential";
  }
  const casts = [...intended.casts.keys()];
  if (casts.length === 0 || random() < 0.6) {
    const name = `cast-${step}`;
    const result = await client.casting.createCastConfig({ casting_config_name: name, key: `key-${step}`, image_id: pick(plan.images) });
    intended.casts.set(name, result.confirmed ? result.cast_config.cast_config_id : null);
    return "create_cast_config";
  }
  const name = pick(casts);
  // A config whose create was not confirmed has no known id: it is deleted by name.
  await client.casting.deleteCastConfig({ cast_config_id: intended.casts.get(name) ?? undefined, casting_config_name: name });
  intended.casts.delete(name);
  return "delete_cast_config";
}
