/**
 * The lookup table (`permissions/lookups.ts`) against the lookups it describes: every
 * lookup of `sdk/lookups/` has a row, and each, called as a program calls it against the
 * emulator, works with a key holding exactly what its row says and is refused with one of those
 * permissions less. The user lookups lose the fields whose View permission the key lacks.
 *
 * Each key gets a fresh copy of the lookups module (the program's client is made once per
 * process, from the `KASM_*` environment variables outside a Pulumi program).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { KasmPermissionError } from "../../provider/api";
import { ALL_PERMISSIONS, OPERATIONS, closeUnderDependencies, type PermissionName } from "../../permissions";
import { LOOKUP_CALLS, LOOKUP_NAMES, lookupNeeds, lookupPermissions, type LookupName } from "../../permissions/lookups";
import { TEST_API_NAMES } from "../helpers/vocabulary";
import { IDS } from "./helpers";

type Lookups = typeof import("../../sdk/lookups");

let emulator: TestEmulator;
const saved = { ...process.env };
let keys = 0;
const seededKeys: { name: string; key: string; secret: string; permissions: PermissionName[] }[] = [];

/** Every key the tests use, seeded up front: `keyFor` finds the one with these permissions. */
function keySpec(permissions: Iterable<PermissionName>) {
  const list = [...new Set(permissions)].sort();
  let found = seededKeys.find((k) => JSON.stringify(k.permissions) === JSON.stringify(list));
  if (!found) {
    keys += 1;
    found = { name: `lookup-${keys}`, key: `lookup-key-${keys}`, secret: `lookup-secret-${keys}`, permissions: list };
    seededKeys.push(found);
  }
  return found;
}

/** The arguments each lookup is called with here. */
const ARGS: Record<LookupName, unknown> = {
  getUser: { username: "plain1" },
  getUsers: {},
  getImage: { name: "kasmweb/chrome" },
  getImages: undefined,
  getZone: { name: "zone1" },
  getZones: undefined,
  getServer: { serverId: IDS.server1 },
  getStagingConfigs: undefined,
  getEgressProviders: {},
  getEgressGateways: {},
  getGroup: { name: "devs" },
  getGroups: undefined,
  getLicenses: undefined,
  getRegistries: undefined,
  // The registry a fresh Kasm lists (the emulator's seed leaves it there).
  getRegistryWorkspaces: { url: "https://registry.kasmweb.com" },
};

/** The lookups this run's vocabulary has: a released Kasm's (groups, licenses) only in a product run. */
const AVAILABLE = LOOKUP_NAMES.filter((lookup) => TEST_API_NAMES === "product" || OPERATIONS[LOOKUP_CALLS[lookup].operation].availability === "spec");

/** The keys of every case, in the order the cases run. */
function cases(): { lookup: LookupName; permissions: PermissionName[]; refused: boolean; why: string }[] {
  const all: ReturnType<typeof cases> = [];
  for (const lookup of AVAILABLE) {
    const exact = [...lookupPermissions([lookup])];
    all.push({ lookup, permissions: exact, refused: false, why: "exactly its row" });
    const needs = lookupNeeds(lookup);
    for (const p of needs.all) all.push({ lookup, permissions: exact.filter((q) => q !== p), refused: true, why: `without ${p}` });
    if (needs.oneOf.length) {
      all.push({ lookup, permissions: exact.filter((q) => !needs.oneOf.includes(q)), refused: true, why: `without ${needs.oneOf.join(" or ")}` });
      for (const p of needs.oneOf)
        all.push({ lookup, permissions: [...closeUnderDependencies([p])], refused: false, why: `with ${p} (and its dependencies) alone` });
    }
  }
  return all;
}

beforeAll(async () => {
  // Every fresh copy of the lookups module adds its own beforeExit listener (it closes its client).
  process.setMaxListeners(100);
  for (const c of cases()) keySpec(c.permissions);
  keySpec(["Users View"]);
  emulator = await startTestEmulator({
    apiKeys: seededKeys,
    groups: [
      { group_id: IDS.allUsers, name: "All Users" },
      { group_id: IDS.devs, name: "devs" },
    ],
    users: [{ user_id: IDS.plain1, username: "plain1", groups: ["devs"] }],
    zones: [{ zone_id: IDS.zone, zone_name: "zone1" }],
    images: [{ image_id: IDS.image1, name: "kasmweb/chrome" }],
    servers: [{ server_id: IDS.server1, hostname: "ws1.example.test", zone_name: "zone1" }],
  });
});

afterAll(async () => {
  process.env = saved;
  await emulator?.close();
});

/** The lookups module of a program whose key has these permissions. */
async function lookupsWith(permissions: Iterable<PermissionName>): Promise<Lookups> {
  const key = keySpec(permissions);
  process.env = {
    ...saved,
    KASM_BASE_URL: emulator.url,
    KASM_API_KEY: key.key,
    KASM_API_KEY_SECRET: key.secret,
    KASM_MAX_RETRIES: "0",
    KASM_API_NAMES: TEST_API_NAMES,
  };
  vi.resetModules();
  return (await import("../../sdk/lookups")) as Lookups;
}

async function call(lookups: Lookups, lookup: LookupName): Promise<unknown> {
  return (lookups[lookup] as (args: unknown) => Promise<unknown>)(ARGS[lookup]);
}

function isPermissionRefusal(error: unknown): boolean {
  return error instanceof KasmPermissionError || (error as Error)?.name === "KasmPermissionError";
}

describe("the lookup table", () => {
  it("has a row for every lookup of the SDK, and names only real permissions", async () => {
    const sdk = await import("../../sdk/lookups");
    const exported = Object.keys(sdk).filter((name) => /^get[A-Z]/.test(name) && !name.endsWith("Output"));
    expect(exported.sort()).toEqual([...LOOKUP_NAMES].sort());
    for (const lookup of LOOKUP_NAMES) for (const p of lookupPermissions([lookup])) expect(ALL_PERMISSIONS).toContain(p);
  });

  it("each lookup works with exactly its row, and is refused with one permission of its call less", { timeout: 60_000 }, async () => {
    for (const c of cases()) {
      const lookups = await lookupsWith(c.permissions);
      const outcome = await call(lookups, c.lookup).then(
        () => "ok",
        // A lookup fails with a KasmLookupError whose cause is the client's error.
        (error: unknown) => (isPermissionRefusal((error as Error).cause ?? error) ? "refused" : `failed: ${(error as Error).message}`),
      );
      expect(outcome, `${c.lookup} ${c.why}`).toBe(c.refused ? "refused" : "ok");
    }
  });

  it.skipIf(TEST_API_NAMES === "product")("a released Kasm's lookups fail before sending anything with kasm:apiNames spec, naming the setting", async () => {
    const lookups = await lookupsWith(["Global Admin"]);
    const before = emulator.requests.length;
    for (const lookup of LOOKUP_NAMES.filter((l) => !AVAILABLE.includes(l))) {
      const message = await call(lookups, lookup).then(
        () => "ok",
        (error: Error) => error.message,
      );
      expect(message, lookup).toMatch(/is an operation of the released Kasm product.*kasm:apiNames is "spec".*kasm:apiNames product/s);
    }
    expect(emulator.requests.length).toBe(before);
  });

  it("getUser shows the fields of its row only with their View permissions", async () => {
    const full = (await call(await lookupsWith(lookupPermissions(["getUser"])), "getUser")) as Record<string, unknown>;
    expect(full.groups).toBeDefined();
    const bare = (await call(await lookupsWith(["Users View"]), "getUser")) as Record<string, unknown>;
    expect(bare.userId).toBeDefined();
    expect(bare.groups).toBeUndefined();
  });
});
