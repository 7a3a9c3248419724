/**
 * Provider benchmark: what the provider costs on top of Pulumi's host and the API, and how many
 * API calls each operation of each kind sends. Prints; asserts nothing.
 *
 * 1. Time of N creates (check + create, as the engine sends them), reads and deletes of users,
 *    BENCH_CONCURRENCY at a time, through Pulumi's real dynamic-provider host running our
 *    provider, beside two floors: the same host running a provider that does nothing (the host's
 *    own cost), and our raw API client sending the same calls (the API's cost). The emulator runs
 *    in its own process. The fastest of BENCH_REPEAT rounds of each; the provider should stay
 *    within 1.25 times the sum of the two floors.
 * 2. API calls per operation of every kind (create, read, an update of one field, an update of a
 *    provider flag only, delete) through the host, from the emulator's request log, beside the
 *    fewest the API allows.
 * 3. A stack of BENCH_REFRESH_USERS `User`s, each with a `GroupMembership`, through the test
 *    engine: the calls of a preview, an `up` with no change, and a refresh.
 *
 *   npm run bench:provider
 *   BENCH_USERS=500 BENCH_REPEAT=5 BENCH_REFRESH_USERS=200 npm run bench:provider
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { KasmClient } from "../provider/api";
import type { KindName } from "../provider";
import { ADMIN, startTestEmulator, type TestEmulator } from "../test/helpers/emulator";
import { ProviderHost, type Props } from "../test/helpers/host";
import { FAST_RETRIES, hostFor, serializedProvider, urnOf } from "../test/helpers/provider";
import { operationsDuring, startUsersEmulator, usersEngine, writeUsersProgram } from "../test/helpers/users-program";
import { startEmulatorProcess } from "./emulator-process";

const USERS = Number(process.env.BENCH_USERS ?? 300);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const REFRESH_USERS = Number(process.env.BENCH_REFRESH_USERS ?? 1000);

// --- helpers -------------------------------------------------------------------------------------

/** Run `work` for each item, `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

/** A dynamic provider that sends nothing anywhere: what the host costs by itself. */
function doNothingProvider(): pulumi.dynamic.ResourceProvider {
  return {
    check: async (_olds, news) => ({ inputs: news }),
    diff: async () => ({ changes: false }),
    create: async (inputs) => ({ id: String(inputs.username), outs: inputs }),
    read: async (id, props) => ({ id, props }),
    update: async (_id, _olds, news) => ({ outs: news }),
    delete: async () => undefined,
  };
}

// --- 1. time of creates, reads and deletes --------------------------------------------------------

interface Phases {
  create: number;
  read: number;
  delete: number;
}

/** One round through a host running `provider` (serialized): check + create, read, delete of USERS users. */
async function hostRound(host: ProviderHost, provider: string, round: number): Promise<Phases> {
  const names = Array.from({ length: USERS }, (_, i) => `bench-${round}-${i}`);
  const state = new Map<string, { id: string; props: Props }>();
  const urn = (name: string) => urnOf("User", name);
  const create = await timed(() =>
    eachLimited(names, CONCURRENCY, async (name) => {
      const inputs = { username: name, firstName: "Bench", __provider: provider };
      const checked = await host.check(urn(name), { __provider: provider }, inputs);
      const created = await host.create(urn(name), checked.inputs);
      state.set(name, { id: created.id, props: created.properties });
    }),
  );
  const read = await timed(() =>
    eachLimited(names, CONCURRENCY, async (name) => {
      const { id, props } = state.get(name)!;
      await host.read(urn(name), id, props);
    }),
  );
  const del = await timed(() =>
    eachLimited(names, CONCURRENCY, async (name) => {
      const { id, props } = state.get(name)!;
      await host.delete(urn(name), id, props);
    }),
  );
  return { create, read, delete: del };
}

/** The same calls as the provider's, straight from the client. */
async function clientRound(client: KasmClient, round: number): Promise<Phases> {
  const names = Array.from({ length: USERS }, (_, i) => `bench-client-${round}-${i}`);
  const ids = new Map<string, string>();
  const create = await timed(() =>
    eachLimited(names, CONCURRENCY, async (name) => {
      ids.set(name, (await client.users.createUser({ username: name, first_name: "Bench" })).user_id);
    }),
  );
  // The provider's reads: the first two by get_user, the rest from get_users pages.
  const read = await timed(() => eachLimited(names, CONCURRENCY, async (name) => void (await client.userReads.read(ids.get(name)!))));
  const del = await timed(() => eachLimited(names, CONCURRENCY, async (name) => client.users.deleteUser({ user_id: ids.get(name)!, force: false })));
  return { create, read, delete: del };
}

async function timing(): Promise<void> {
  // The emulator in its own process, as `npx kasm-emulator` runs, with the admin key.
  const emulator = await startEmulatorProcess({
    apiKeys: [{ name: "bench", key: ADMIN.key, secret: ADMIN.secret, permissions: ["Global Admin"] }],
  });
  const config = { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, ...FAST_RETRIES };
  const ours = await ProviderHost.start();
  const noop = await ProviderHost.start();
  const client = new KasmClient({ baseUrl: emulator.url, apiKey: ADMIN.key, apiKeySecret: ADMIN.secret });
  try {
    await ours.configure(config, ["kasm:apiKeySecret"]);
    await noop.configure(config, ["kasm:apiKeySecret"]);
    const oursText = await serializedProvider("User");
    const noopProvider = doNothingProvider();
    const noopText = (await pulumi.runtime.serializeFunction(() => noopProvider)).text;
    const best: Record<"provider" | "host" | "client", Phases> = {
      provider: { create: Infinity, read: Infinity, delete: Infinity },
      host: { create: Infinity, read: Infinity, delete: Infinity },
      client: { create: Infinity, read: Infinity, delete: Infinity },
    };
    const keep = (which: keyof typeof best, phases: Phases) => {
      for (const phase of ["create", "read", "delete"] as const) best[which][phase] = Math.min(best[which][phase], phases[phase]);
    };
    // Rounds alternate the three, so that a slower moment of the machine does not favour one.
    for (let round = 0; round < REPEAT; round++) {
      keep("host", await hostRound(noop, noopText, round));
      keep("client", await clientRound(client, round));
      keep("provider", await hostRound(ours, oursText, round));
    }
    console.log(`\n1. ${USERS} users, ${CONCURRENCY} at a time, fastest of ${REPEAT} rounds (emulator in its own process)\n`);
    console.log("| Phase | Provider through the host | Do-nothing provider, same host | Raw client, same calls | Sum of the floors | Provider / sum |");
    console.log("|---|---|---|---|---|---|");
    let total = { provider: 0, host: 0, client: 0 };
    for (const phase of ["create", "read", "delete"] as const) {
      const p = best.provider[phase];
      const h = best.host[phase];
      const c = best.client[phase];
      total = { provider: total.provider + p, host: total.host + h, client: total.client + c };
      console.log(`| ${phase} | ${ms(p)} | ${ms(h)} | ${ms(c)} | ${ms(h + c)} | ${(p / (h + c)).toFixed(2)} |`);
    }
    const floors = total.host + total.client;
    console.log(`| all | ${ms(total.provider)} | ${ms(total.host)} | ${ms(total.client)} | ${ms(floors)} | ${(total.provider / floors).toFixed(2)} |`);
    console.log(`\nProvider within 1.25 times the sum of the floors: ${total.provider <= 1.25 * floors ? "yes" : "NO"}`);
  } finally {
    await client.close();
    await ours.stop();
    await noop.stop();
    emulator.stop();
  }
}

// --- 2. calls per operation of every kind ---------------------------------------------------------

const IDS = {
  allUsers: "a0000000000000000000000000000001",
  engineering: "a0000000000000000000000000000002",
  sales: "a0000000000000000000000000000003",
  zone: "a0000000000000000000000000000004",
  image: "a0000000000000000000000000000005",
  server: "a0000000000000000000000000000006",
  server2: "a0000000000000000000000000000007",
  seededUser: "a0000000000000000000000000000008",
};
const ACTIVATION_KEY = "-----BEGIN ACTIVATION KEY-----\nYmVuY2gtYWN0aXZhdGlvbi1rZXk=\n-----END ACTIVATION KEY-----";

/** One kind's lifecycle: what to create, the update of one field, the flag-only update, and the fewest calls each needs. */
interface Scenario {
  readonly kind: KindName;
  /** Inputs of the create; `ids` holds the ids created before (by kind). */
  create(ids: Record<string, string>): Props;
  /** The same inputs with one field changed (undefined: nothing updates in place). */
  update?(inputs: Props): Props;
  /** The same inputs with only a provider flag changed (undefined: the kind has none). */
  flag?(inputs: Props): Props;
  /** The fewest calls the API allows for create, read, update, flag update and delete, and why. */
  readonly minimum: { create: number; read: string; update?: number; flag?: number; delete: number; why: string };
}

const SCENARIOS: Scenario[] = [
  {
    kind: "User",
    create: () => ({ username: "calls-user", firstName: "Calls" }),
    update: (i) => ({ ...i, firstName: "Changed" }),
    flag: (i) => ({ ...i, forceDelete: true }),
    minimum: {
      create: 2,
      read: "1, or a share of a get_users page",
      update: 1,
      flag: 0,
      delete: 1,
      why: "get_user (the username is looked up first, to refuse a user made outside Pulumi that a server error's recovery would take for its own), create_user; update_user, delete_user",
    },
  },
  {
    kind: "UserAttributes",
    create: (ids) => ({ userId: ids.User, showTips: false }),
    update: (i) => ({ ...i, showTips: true }),
    minimum: {
      create: 2,
      read: "1",
      update: 1,
      delete: 0,
      why: "update_user_attributes, then get_attributes for userAttributesId (the update answers {}); no delete in the API",
    },
  },
  {
    kind: "GroupMembership",
    create: (ids) => ({ userId: ids.User, groupId: IDS.engineering }),
    flag: (i) => ({ ...i, adopt: true }),
    minimum: {
      create: 2,
      read: "1, or a share of a get_users page",
      flag: 0,
      delete: 1,
      why: "get_user (a repeated add that Kasm answers 'already a member' cannot tell whose the membership is, so an existing one is refused first), add_user_group; remove_user_group",
    },
  },
  {
    kind: "UserGroups",
    // A user of its own: the GroupMembership above must not count as a group UserGroups removes.
    create: () => ({ userId: IDS.seededUser, groupIds: [IDS.sales] }),
    update: (i) => ({ ...i, groupIds: [IDS.engineering] }),
    minimum: {
      create: 2,
      read: "1, or a share of a get_users page",
      update: 3,
      delete: 1,
      why: "get_user for the current set, then one call per group added or removed; delete removes each declared group",
    },
  },
  {
    kind: "UserServerAssignment",
    create: (ids) => ({ userId: ids.User, serverId: IDS.server }),
    flag: (i) => ({ ...i, adopt: true }),
    minimum: {
      create: 2,
      read: "1, or a share of a get_users page",
      flag: 0,
      delete: 1,
      why: "get_user (Kasm accepts assigning twice, so an existing one is only seen by reading), assign_user_server; unassign_user_server",
    },
  },
  {
    kind: "StagingConfig",
    create: () => ({ zoneId: IDS.zone, imageId: IDS.image, numSessions: 1, expiration: 1 }),
    update: (i) => ({ ...i, numSessions: 2 }),
    flag: (i) => ({ ...i, adopt: true }),
    minimum: {
      create: 2,
      read: "1",
      update: 1,
      flag: 0,
      delete: 1,
      why: "get_staging_configs first (a released Kasm fails a duplicate with a server error), create, get, update and delete_staging_config",
    },
  },
  {
    kind: "EgressProvider",
    create: () => ({ name: "calls-vpn", egressProviderType: "wireguard" }),
    update: (i) => ({ ...i, enabled: false }),
    flag: (i) => ({ ...i, adopt: true }),
    minimum: {
      create: 2,
      read: "1",
      update: 1,
      flag: 0,
      delete: 1,
      why: "the key is looked up first, to refuse an object made outside Pulumi that a server error's recovery would take for its own; no single get: read lists the providers",
    },
  },
  {
    kind: "EgressGateway",
    create: (ids) => ({ egressProviderId: ids.EgressProvider, name: "calls-gw" }),
    update: (i) => ({ ...i, city: "Lyon" }),
    flag: (i) => ({ ...i, adopt: true }),
    minimum: {
      create: 2,
      read: "1",
      update: 1,
      flag: 0,
      delete: 1,
      why: "the key is looked up first, to refuse an object made outside Pulumi that a server error's recovery would take for its own; no single get: read lists the provider's gateways",
    },
  },
  {
    kind: "EgressProviderMapping",
    create: (ids) => ({ egressProviderId: ids.EgressProvider, groupId: IDS.engineering, allowAllGateways: true }),
    update: (i) => ({ ...i, enabled: false }),
    flag: (i) => ({ ...i, adopt: true }),
    minimum: {
      create: 2,
      read: "1",
      update: 1,
      flag: 0,
      delete: 1,
      why: "the key is looked up first, to refuse an object made outside Pulumi that a server error's recovery would take for its own; create, get, update and delete_egress_provider_mapping",
    },
  },
  {
    kind: "EgressCredential",
    create: (ids) => ({ egressProviderId: ids.EgressProvider, name: "calls-cred", groupId: IDS.engineering, allowAllGateways: true, password: "calls-secret" }),
    minimum: {
      create: 2,
      read: "1",
      delete: 0,
      why: "the key is looked up first, to refuse an object made outside Pulumi that a server error's recovery would take for its own; create_egress_credential; read lists the provider's credentials; no update or delete in the API",
    },
  },
  {
    kind: "CastConfig",
    create: () => ({ castingConfigName: "calls-cast", imageId: IDS.image, key: "calls-cast-key" }),
    update: (i) => ({ ...i, limitSessions: true }),
    minimum: { create: 1, read: "0", update: 1, delete: 1, why: "no read in the API (with kasm:apiNames product, create looks the key up first: 2)" },
  },
  {
    kind: "ServerDrain",
    create: () => ({ serverId: IDS.server2, draining: true }),
    update: (i) => ({ ...i, draining: false }),
    minimum: { create: 2, read: "1", update: 1, delete: 1, why: "get_servers, then set_drain_server unless the record shows the declared state; get_servers" },
  },
  {
    kind: "LicenseActivation",
    create: () => ({ activationKey: ACTIVATION_KEY, seats: 2 }),
    minimum: { create: 1, read: "0", delete: 0, why: "activate; no read or removal in the API" },
  },
  {
    kind: "UserSet",
    create: () => ({ users: [{ username: "calls-set-1" }, { username: "calls-set-2" }] }),
    update: (i) => ({ ...i, users: [{ username: "calls-set-1", firstName: "Changed" }, { username: "calls-set-2" }] }),
    flag: (i) => ({ ...i, forceDelete: true }),
    minimum: {
      create: 2,
      read: "1 per 1,000 users",
      update: 1,
      flag: 0,
      delete: 3,
      why: "a get_users page to refuse existing users, one import; update_user per changed user; a get_users page (a retried destroy deletes only the users still in Kasm), then delete_user per user",
    },
  },
  {
    kind: "ServerImport",
    create: () => ({ servers: [{ name: "calls-box", ipHostname: "10.0.9.1", port: 22, zoneName: "default", connectionType: "SSH" }] }),
    minimum: { create: 1, read: "1", delete: 0, why: "one batch import; get_servers lists them (one page); the API cannot delete servers" },
  },
];

async function callsPerKind(): Promise<void> {
  const emulator: TestEmulator = await startTestEmulator({
    groups: [
      { group_id: IDS.allUsers, name: "All Users" },
      { group_id: IDS.engineering, name: "Engineering" },
      { group_id: IDS.sales, name: "Sales" },
    ],
    users: [{ user_id: IDS.seededUser, username: "calls-seeded" }],
    zones: [{ zone_id: IDS.zone, zone_name: "default" }],
    images: [{ image_id: IDS.image, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
    servers: [
      { server_id: IDS.server, hostname: "box-1", friendly_name: "box-1", zone_name: "default" },
      { server_id: IDS.server2, hostname: "box-2", friendly_name: "box-2", zone_name: "default" },
    ],
    activationKeys: [{ activation_key: ACTIVATION_KEY, seats: 10 }],
  });
  const host = await hostFor(emulator);
  const ids: Record<string, string> = {};
  const states: { scenario: Scenario; id: string; props: Props }[] = [];
  const rows: string[] = [];
  const count = async (run: () => Promise<unknown>): Promise<string> => {
    try {
      const { operations } = await operationsDuring(emulator, run);
      return String(operations.length);
    } catch (error) {
      return `failed (${String((error as Error).message)
        .split("\n")[0]
        .slice(0, 80)})`;
    }
  };
  try {
    for (const scenario of SCENARIOS) {
      const provider = await serializedProvider(scenario.kind);
      const urn = urnOf(scenario.kind, `calls-${scenario.kind}`);
      let inputs: Props = { ...scenario.create(ids), __provider: provider };
      let id = "";
      let props: Props = {};
      const measured: Record<string, string> = {};
      measured.check = await count(() => host.check(urn, { __provider: provider }, inputs));
      measured.create = await count(async () => {
        const created = await host.create(urn, inputs);
        id = created.id;
        props = created.properties;
      });
      ids[scenario.kind] = id;
      // A refresh of one resource: in a refresh of many, user reads share get_users pages.
      measured.read = await count(() => host.read(urn, id, props));
      if (scenario.update) {
        const next = { ...scenario.update(inputs), __provider: provider };
        measured.update = await count(async () => {
          props = (await host.update(urn, id, props, next)).properties;
        });
        inputs = next;
      }
      if (scenario.flag) {
        const next = { ...scenario.flag(inputs), __provider: provider };
        measured.flag = await count(async () => {
          props = (await host.update(urn, id, props, next)).properties;
        });
      }
      states.push({ scenario, id, props });
      const m = scenario.minimum;
      const pair = (got: string | undefined, least: number | string | undefined) => (got === undefined ? "–" : `${got} (${least})`);
      rows.push(
        `| ${scenario.kind} | ${measured.check} | ${pair(measured.create, m.create)} | ${pair(measured.read, m.read)} | ` +
          `${pair(measured.update, m.update)} | ${pair(measured.flag, m.flag)} | DELETE:${scenario.kind} | ${m.why} |`,
      );
    }
    // Deletes, dependents first.
    for (const { scenario, id, props } of [...states].reverse()) {
      const deleted = await count(() => host.delete(urnOf(scenario.kind, `calls-${scenario.kind}`), id, props));
      const index = rows.findIndex((row) => row.includes(`DELETE:${scenario.kind} `));
      rows[index] = rows[index].replace(`DELETE:${scenario.kind}`, `${deleted} (${scenario.minimum.delete})`);
    }
  } finally {
    await host.stop();
    await emulator.close();
  }
  console.log("\n2. API calls per operation of one resource through the host, measured (fewest the API allows)\n");
  console.log("| Kind | check | create | read | update of one field | update of a provider flag only | delete | Why |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

// --- 3. a stack of many users and memberships ----------------------------------------------------

async function manyUsers(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "kasm-bench-users-"));
  const emulator = await startUsersEmulator();
  try {
    const engine = usersEngine(writeUsersProgram(join(dir, "program"), REFRESH_USERS), dir, emulator);
    const lines: string[] = [];
    const step = async (label: string, run: () => Promise<{ ok: boolean; durationMs: number; errors: readonly unknown[] }>) => {
      const { result, operations } = await operationsDuring(emulator, run);
      if (!result.ok) throw new Error(`${label} failed: ${JSON.stringify(result.errors)}`);
      const counts: Record<string, number> = {};
      for (const op of operations) counts[op] = (counts[op] ?? 0) + 1;
      lines.push(`| ${label} | ${operations.length} | ${JSON.stringify(counts)} | ${(result.durationMs / 1000).toFixed(1)} s |`);
    };
    await step("up", () => engine.up());
    await step("preview", () => engine.preview());
    await step("up with no change", () => engine.up());
    await step("refresh", () => engine.refresh());
    await step("destroy", () => engine.destroy());
    console.log(`\n3. ${REFRESH_USERS} Users and ${REFRESH_USERS} GroupMemberships through the test engine\n`);
    console.log("| Operation | API calls | By operation | Duration |");
    console.log("|---|---|---|---|");
    for (const line of lines) console.log(line);
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`pulumi-kasm provider benchmark (Node ${process.version})`);
  await timing();
  await callsPerKind();
  if (REFRESH_USERS > 0) await manyUsers();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
