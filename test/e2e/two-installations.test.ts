/**
 * examples/two-installations: one program, two emulators. The default connection (`kasm:`) is
 * staging, `kasm.Connection("production")` (`kasm-production:`) is production. `up` puts the team
 * and a staging config in both; an `up` without change sends no request to either; refresh
 * changes nothing; a resource moved from one connection to the other is created in the second and
 * deleted from the first, and a lookup given the connection reads that installation only;
 * destroy empties both. Neither API secret is in the state file, the
 * serialized providers included. Through the provider host: a bad connection name fails `check`,
 * and a connection without settings names its own keys.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { ALL_PERMISSIONS } from "../../permissions";
import type { PolicyPackSpec } from "../../testing/engine";
import { EXAMPLES, PASSPHRASE, SLOW, copyExample, editFile, expectOk, mandatory, ops, permissionsPack, tempDir } from "./helpers";

const EXAMPLE = path.join(EXAMPLES, "two-installations");
const seedFile = (name: string) => JSON.parse(readFileSync(path.join(EXAMPLE, name), "utf8"));
const STAGING_SEED = seedFile("seed.json");
const PRODUCTION_SEED = seedFile("seed-production.json");
const PROJECT = "kasm-two-installations";
const TEAM = ["ada", "grace", "linus"];

let staging: TestEmulator;
let production: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let programDir: string;
let engine: TestEngine;

beforeAll(async () => {
  [staging, production] = await Promise.all([startTestEmulator(STAGING_SEED, { apiNames: "spec" }), startTestEmulator(PRODUCTION_SEED, { apiNames: "spec" })]);
  tmp = tempDir("two-installations");
  programDir = copyExample("two-installations", tmp.dir);
  engine = stackEngine();
}, 60_000);

/** The stack's engine: both installations' settings, and the packs given. */
function stackEngine(policyPacks?: PolicyPackSpec[]): TestEngine {
  const [stagingKey] = STAGING_SEED.apiKeys;
  const [productionKey] = PRODUCTION_SEED.apiKeys;
  return new TestEngine({
    programDir,
    policyPacks,
    project: PROJECT,
    stack: "dev",
    stateFile: path.join(tmp.dir, "dev.json"),
    passphrase: PASSPHRASE,
    config: {
      "kasm:baseUrl": staging.url,
      "kasm:apiKey": stagingKey.key,
      "kasm:apiKeySecret": stagingKey.secret,
      "kasm-production:baseUrl": production.url,
      "kasm-production:apiKey": productionKey.key,
      "kasm-production:apiKeySecret": productionKey.secret,
      [`${PROJECT}:stagingZoneId`]: STAGING_SEED.zones[0].zone_id,
      [`${PROJECT}:stagingImageId`]: STAGING_SEED.images[0].image_id,
      [`${PROJECT}:productionZoneId`]: PRODUCTION_SEED.zones[0].zone_id,
      [`${PROJECT}:productionImageId`]: PRODUCTION_SEED.images[0].image_id,
    },
    secretKeys: ["kasm:apiKeySecret", "kasm-production:apiKeySecret"],
  });
}

afterAll(async () => {
  await Promise.all([staging?.close(), production?.close()]);
  tmp?.remove();
});

/** The usernames an installation holds, besides its seeded ones. */
async function usernames(emulator: TestEmulator): Promise<string[]> {
  const users = (await emulator.call("get_users", { page_size: 1000 })).body.users as { username: string }[];
  return users
    .map((u) => u.username)
    .filter((u) => u !== "admin@kasm.local")
    .sort();
}

async function stagingConfigs(emulator: TestEmulator): Promise<{ zone_id: string; num_sessions: number }[]> {
  return (await emulator.call("get_staging_configs")).body.staging_configs;
}

describe("one program, two installations", () => {
  it("up puts the team and a staging config in each installation, by its own connection", { timeout: SLOW }, async () => {
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({ "team-staging": "create", "team-production": "create", "chrome-staging": "create", "chrome-production": "create" });
    expect(await usernames(staging)).toEqual(expect.arrayContaining(TEAM));
    expect(await usernames(production)).toEqual(expect.arrayContaining(TEAM));
    expect((await stagingConfigs(staging)).map((c) => c.zone_id.replace(/-/g, ""))).toEqual([STAGING_SEED.zones[0].zone_id]);
    expect((await stagingConfigs(production)).map((c) => c.zone_id.replace(/-/g, ""))).toEqual([PRODUCTION_SEED.zones[0].zone_id]);
    // Only the name is in the state: the outputs say which installation holds each object.
    const state = engine.readState();
    expect(state.find((r) => r.urn.endsWith("::team-production"))!.outputs.connection).toBe("production");
    expect(state.find((r) => r.urn.endsWith("::team-staging"))!.outputs.connection).toBeUndefined();
  });

  it("an up without change sends no request to either installation; refresh changes nothing", { timeout: SLOW }, async () => {
    staging.requests.length = 0;
    production.requests.length = 0;
    const again = await engine.up();
    expectOk(again);
    expect(again.resources.filter((r) => r.op !== "same")).toEqual([]);
    expect([staging.requests, production.requests]).toEqual([[], []]);
    const refresh = await engine.refresh();
    expectOk(refresh);
    expect(refresh.resources.filter((r) => r.changed.length > 0)).toEqual([]);
    // Each installation was read for its own objects.
    expect(staging.requests.length).toBeGreaterThan(0);
    expect(production.requests.length).toBeGreaterThan(0);
  });

  it("the permissions pack judges each resource against its own installation's key", { timeout: SLOW }, async () => {
    const everything = ALL_PERMISSIONS.filter((p) => p !== "Global Admin");
    const preview = await stackEngine([
      permissionsPack({ permissions: everything, connections: { production: { permissions: everything.filter((p) => p !== "Users Create") } } }),
    ]).preview();
    expect(preview.ok).toBe(false);
    expect(mandatory(preview)).toEqual(["resource-needs-permissions team-production"]);
    expect(preview.policyViolations.find((v) => v.urn.endsWith("::team-production"))!.message).toMatch(
      /UserSet 'team-production' cannot be created .*with the API key of connection 'production': .*'Users Create'/,
    );
    // A connection the pack's config does not describe is named, with what to add.
    const undescribed = await stackEngine([permissionsPack({ permissions: everything })]).preview();
    expect(mandatory(undescribed).sort()).toEqual(["resource-needs-permissions chrome-production", "resource-needs-permissions team-production"]);
    expect(undescribed.policyViolations.find((v) => v.urn.endsWith("::chrome-production"))!.message).toContain(
      `lives in the installation of connection 'production', and the policy config describes no key for it: add "connections": {"production": {"permissions": [...]}}`,
    );
    // A key described under a name no resource uses is pointed at.
    const misnamed = await stackEngine([permissionsPack({ permissions: everything, connections: { prod: { permissions: everything } } })]).preview();
    expect(misnamed.policyViolations.find((v) => v.urn.endsWith("::chrome-production"))!.message).toMatch(
      /add "connections": \{"production": .* The config describes connections\.prod, which no resource uses: is one of them meant for it\?$/,
    );
  });

  it("a resource moved to the other connection is created there and deleted from the first", { timeout: SLOW }, async () => {
    const file = path.join(programDir, "index.ts");
    editFile(file, [["export const userIds", 'new kasm.User("contractor", { username: "contractor" });\nexport const userIds']]);
    expectOk(await engine.up());
    expect(await usernames(staging)).toContain("contractor");

    editFile(file, [
      ['new kasm.User("contractor", { username: "contractor" });', 'new kasm.User("contractor", { username: "contractor", connection: production });'],
      // A lookup given the connection reads that installation, and only it.
      [
        "export const userIds",
        'export const productionZone = kasm.getZoneOutput({ name: "eu-central" }, { connection: production }).zoneId;\nexport const userIds',
      ],
    ]);
    staging.requests.length = 0;
    const moved = await engine.up();
    expectOk(moved);
    expect(String(moved.outputs.productionZone).replace(/-/g, "")).toBe(PRODUCTION_SEED.zones[0].zone_id);
    expect(staging.requests.filter((line) => line.startsWith("get_zones"))).toEqual([]);
    expect(ops(moved).contractor).toBe("replace");
    expect(await usernames(staging)).not.toContain("contractor");
    expect(await usernames(production)).toContain("contractor");
    expect(engine.readState().find((r) => r.urn.endsWith("::contractor"))!.outputs.connection).toBe("production");
  });

  it("neither API secret is in the state file, the serialized providers included", () => {
    const text = readFileSync(path.join(tmp.dir, "dev.json"), "utf8");
    expect(text).toContain("__provider");
    for (const key of [STAGING_SEED.apiKeys[0], PRODUCTION_SEED.apiKeys[0]]) expect(text).not.toContain(key.secret);
  });

  it("destroy empties both installations", { timeout: SLOW }, async () => {
    expectOk(await engine.destroy());
    for (const emulator of [staging, production]) {
      expect((await usernames(emulator)).filter((u) => [...TEAM, "contractor"].includes(u))).toEqual([]);
      expect(await stagingConfigs(emulator)).toEqual([]);
    }
  });
});

describe("connections through the provider host", () => {
  let host: ProviderHost;
  beforeAll(async () => {
    host = await hostFor(staging, STAGING_SEED.apiKeys[0]);
  }, 60_000);
  afterAll(async () => host?.stop());

  it("check refuses a connection name that cannot name settings, and says what one looks like", async () => {
    const { failures } = await new Driven(host, "User", "bad").check({ username: "x", connection: "Prod Kasm" });
    expect(failures).toEqual([
      {
        property: "connection",
        reason: expect.stringMatching(/^connection must be the name of a kasm\.Connection: .*kasm-prod:baseUrl .*KASM_PROD_BASE_URL .*not "Prod Kasm"$/),
      },
    ]);
  });

  it("a connection without settings fails at check naming its own keys, never the default connection's, and sends nothing", async () => {
    const sent = staging.requests.length + production.requests.length;
    const { failures } = await new Driven(host, "User", "orphan").check({ username: "orphan", connection: "archive" });
    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe("connection");
    expect(failures[0].reason).toContain('The Kasm connection "archive" is not configured: missing: baseUrl (configuration `kasm-archive:baseUrl`');
    expect(failures[0].reason).toContain("KASM_ARCHIVE_BASE_URL");
    expect(failures[0].reason).not.toContain("`kasm:baseUrl`");
    expect(staging.requests.length + production.requests.length).toBe(sent);
    expect(await usernames(staging)).not.toContain("orphan");
  });
});

describe("a preview that gates a change on the named installation", () => {
  /** The stack's engine with production's settings replaced by `production`; a fresh state. */
  function misconfigured(stack: string, productionSettings: Record<string, string>): TestEngine {
    const [stagingKey] = STAGING_SEED.apiKeys;
    return new TestEngine({
      programDir,
      project: PROJECT,
      stack,
      stateFile: path.join(tmp.dir, `${stack}.json`),
      passphrase: PASSPHRASE,
      config: {
        "kasm:baseUrl": staging.url,
        "kasm:apiKey": stagingKey.key,
        "kasm:apiKeySecret": stagingKey.secret,
        ...productionSettings,
        [`${PROJECT}:stagingZoneId`]: STAGING_SEED.zones[0].zone_id,
        [`${PROJECT}:stagingImageId`]: STAGING_SEED.images[0].image_id,
        [`${PROJECT}:productionZoneId`]: PRODUCTION_SEED.zones[0].zone_id,
        [`${PROJECT}:productionImageId`]: PRODUCTION_SEED.images[0].image_id,
      },
      secretKeys: ["kasm:apiKeySecret", "kasm-production:apiKeySecret"],
    });
  }

  /** Writes either installation received while `run` ran (reads are allowed: the one check read). */
  async function writesDuring(run: () => Promise<void>): Promise<string[]> {
    const from = [staging.requests.length, production.requests.length];
    await run();
    return [...staging.requests.slice(from[0]), ...production.requests.slice(from[1])]
      .map((line) => line.split(" ")[0])
      .filter((operation) => /^(create|update|delete|add|remove|set|assign|unassign|import)_/.test(operation));
  }

  const [productionKey] = PRODUCTION_SEED.apiKeys;
  const cases: [string, () => Record<string, string>, RegExp][] = [
    [
      "a wrong secret",
      () => ({ "kasm-production:baseUrl": production.url, "kasm-production:apiKey": productionKey.key, "kasm-production:apiKeySecret": "not-the-secret" }),
      /`kasm-production:apiKey` and `kasm-production:apiKeySecret`, or KASM_PRODUCTION_API_KEY and KASM_PRODUCTION_API_KEY_SECRET/,
    ],
    [
      "an unreachable address",
      () => ({
        "kasm-production:baseUrl": "http://127.0.0.1:9",
        "kasm-production:apiKey": productionKey.key,
        "kasm-production:apiKeySecret": productionKey.secret,
        "kasm-production:maxRetries": "0",
      }),
      /The address is http:\/\/127\.0\.0\.1:9, set by `kasm-production:baseUrl` \(or KASM_PRODUCTION_BASE_URL\)/,
    ],
    [
      "the wrong vocabulary",
      () => ({
        "kasm-production:baseUrl": production.url,
        "kasm-production:apiKey": productionKey.key,
        "kasm-production:apiKeySecret": productionKey.secret,
        "kasm-production:apiNames": "product",
      }),
      /Set kasm-production:apiNames to "spec" \(`pulumi config set kasm-production:apiNames spec`, or KASM_PRODUCTION_API_NAMES=spec/,
    ],
  ];
  for (const [what, settings, named] of cases) {
    it(`${what} on the named connection fails the preview naming its keys; neither installation is written`, { timeout: SLOW }, async () => {
      const stack = `gate-${what.replace(/\W+/g, "-")}`;
      let messages = "";
      const writes = await writesDuring(async () => {
        const preview = await misconfigured(stack, settings()).preview();
        expect(preview.ok).toBe(false);
        messages = preview.errors.map((error) => error.message).join("\n");
      });
      expect(messages).toMatch(named);
      expect(messages).toContain('one read of the installation of connection "production" failed');
      expect(messages).not.toMatch(/`kasm:api|\bKASM_API_(KEY|NAMES)\b/);
      expect(messages).not.toContain("not-the-secret");
      expect(writes).toEqual([]);
    });
  }
});
