/**
 * examples/casting-kiosk end to end: an anonymous casting link and its staging pool, through the
 * test engine against an emulator seeded with the example's seed.json and the seed's key. One
 * stack's lifecycle, in order: preview, up, a second up, a changed program, refresh after changes
 * made in Kasm, the policy packs (the kiosk passes the hardening pack; a kiosk open to anonymous
 * visitors without a per-IP limit fails it), destroy.
 *
 * Neither StagingConfig nor CastConfig replaces on any input (both update in place), so the
 * changed program of this example has updates only; the other examples cover replacements.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestEngine } from "../../testing/engine";
import type { TestEmulator } from "../helpers/emulator";
import {
  HARDENING_PACK,
  SLOW,
  copyExample,
  editFile,
  exampleEngine,
  expectAllSame,
  expectOk,
  mandatory,
  ops,
  permissionsPack,
  resource,
  startExampleEmulator,
  strictHardeningPack,
  tempDir,
  type StackOptions,
} from "./helpers";

const VISITORS = "0c0ffee0c0ffee0c0ffee0c0ffee0001";

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let seeded: any;
let engine: TestEngine;

function stack(extra: Partial<StackOptions> = {}): TestEngine {
  return exampleEngine({ example: "casting-kiosk", emulator, dir: tmp.dir, ...extra });
}

/** The one staging config and the one cast config in Kasm. */
async function kiosk(): Promise<{ pool: any; link: any }> {
  const state = await emulator.state();
  const pools = Object.values<any>(state.stagingConfigs);
  const links = Object.values<any>(state.castConfigs);
  expect([pools.length, links.length]).toEqual([1, 1]);
  return { pool: pools[0], link: links[0] };
}

beforeAll(async () => {
  tmp = tempDir("casting-kiosk");
  emulator = await startExampleEmulator("casting-kiosk");
  seeded = await emulator.state();
  engine = stack();
});

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("examples/casting-kiosk", () => {
  it("preview plans the staging pool and the casting link and creates nothing in Kasm", { timeout: SLOW }, async () => {
    const preview = await engine.preview();
    expectOk(preview);
    expect(ops(preview)).toEqual({ "kasm-casting-kiosk-dev": "create", "kiosk-pool": "create", "kiosk-link": "create" });
    expect(preview.outputs).toEqual({ castKey: "lobby-kiosk", stagedSessions: 3 });
    expect(await emulator.state()).toEqual(seeded);
    expect(engine.readState()).toEqual([]);
  });

  it("up creates the staging pool and the rate-limited anonymous casting link", { timeout: SLOW }, async () => {
    const up = await engine.up();
    expectOk(up);
    expect(up.summary).toEqual({ create: 3 });
    const { pool, link } = await kiosk();
    const chrome = Object.values<any>(seeded.images).find((i) => i.friendly_name === "Chrome").image_id;
    const zone = Object.values<any>(seeded.zones).find((z) => z.zone_name === "default").zone_id;
    expect(pool).toMatchObject({
      zone_id: zone,
      image_id: chrome,
      num_sessions: 3,
      expiration: 2,
      allow_ws_audio: true,
      allow_ws_clipboard_up: false,
      allow_ws_uploads: false,
    });
    expect(link).toMatchObject({
      casting_config_name: "Lobby kiosk",
      key: "lobby-kiosk",
      image_id: chrome,
      allow_anonymous: true,
      group_id: VISITORS,
      limit_ips: true,
      ip_request_limit: 3,
      ip_request_seconds: 3600,
      allowed_referrers: ["kiosk.example.org"],
      valid_until: "2030-12-31 23:59:59",
      require_recaptcha: true,
      disable_control_panel: true,
    });
    expect(up.outputs).toEqual({ castKey: "lobby-kiosk", stagedSessions: 3 });
    expect(resource(up, "kiosk-link").id).toBe(link.cast_config_id);
  });

  it("a second up changes nothing", { timeout: SLOW }, async () => {
    const before = await emulator.state();
    expectAllSame(await engine.up());
    expect(await emulator.state()).toEqual(before);
  });

  it("a changed program updates the pool and the link in place", { timeout: SLOW }, async () => {
    const before = await kiosk();
    const changed = copyExample("casting-kiosk", tmp.dir);
    editFile(path.join(changed, "index.ts"), [
      ["numSessions: 3,", "numSessions: 2,"],
      ["ipRequestLimit: 3,", "ipRequestLimit: 5,"],
      [`castingConfigName: "Lobby kiosk",`, `castingConfigName: "Lobby kiosk (east)",`],
    ]);
    engine = stack({ programDir: changed });
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toEqual({ "kasm-casting-kiosk-dev": "same", "kiosk-pool": "update", "kiosk-link": "update" });
    expect(resource(up, "kiosk-pool").changed).toEqual(["numSessions"]);
    expect([...resource(up, "kiosk-link").changed].sort()).toEqual(["castingConfigName", "ipRequestLimit"]);
    const { pool, link } = await kiosk();
    expect(pool).toMatchObject({ staging_config_id: before.pool.staging_config_id, num_sessions: 2 });
    expect(link).toMatchObject({ cast_config_id: before.link.cast_config_id, casting_config_name: "Lobby kiosk (east)", ip_request_limit: 5, limit_ips: true });
    expect(up.outputs).toEqual({ castKey: "lobby-kiosk", stagedSessions: 2 });
    expectAllSame(await engine.up());
  });

  it("refresh reads the pool changed in Kasm, but cannot see a changed link (the API has no read of casting configs)", { timeout: SLOW }, async () => {
    const { pool, link } = await kiosk();
    const staged = await emulator.call("update_staging_config", { target_staging_config: { staging_config_id: pool.staging_config_id, num_sessions: 4 } });
    expect(staged.status).toBe(200);
    const cast = await emulator.call("update_cast_config", { target_cast_config: { cast_config_id: link.cast_config_id, ip_request_limit: 50 } });
    expect(cast.status).toBe(200);

    const refresh = await engine.refresh();
    expectOk(refresh);
    expect(ops(refresh)).toEqual({ "kiosk-pool": "read", "kiosk-link": "read" });
    // The emulator stages sessions at once, so the sessions staged now change with the number asked.
    expect([...resource(refresh, "kiosk-pool").changed].sort()).toEqual(["numCurrentSessions", "numSessions"]);
    expect(engine.readState().find((r) => r.urn.endsWith("::kiosk-pool"))!.outputs.numSessions).toBe(4);
    // Documented: CastConfig's read keeps the last known state.
    expect(resource(refresh, "kiosk-link").changed).toEqual([]);

    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toEqual({ "kasm-casting-kiosk-dev": "same", "kiosk-pool": "update", "kiosk-link": "same" });
    const after = await kiosk();
    expect(after.pool.num_sessions).toBe(2);
    expect(after.link.ip_request_limit).toBe(50);
  });

  describe("policy packs", () => {
    it("the kiosk passes the hardening pack with every policy mandatory, and the permissions pack with the seed's key", { timeout: SLOW }, async () => {
      const checked = stack({ policyPacks: [strictHardeningPack(), permissionsPack({ permissions: ["Global Admin"] })] });
      const preview = await checked.preview();
      expectOk(preview);
      expect(mandatory(preview)).toEqual([]);
      expect(preview.policyViolations.filter((v) => v.policyPack.startsWith("kasm-hardening"))).toEqual([]);
    });

    it("a kiosk open to anonymous visitors without a per-IP limit fails the hardening pack: the up stops before any change", { timeout: SLOW }, async () => {
      const open = copyExample("casting-kiosk", tmp.dir, "open");
      editFile(path.join(open, "index.ts"), [
        ["  limitIps: true,\n  ipRequestLimit: 3,\n  ipRequestSeconds: 3600,\n", ""],
        [`castingConfigName: "Lobby kiosk",`, `castingConfigName: "Open kiosk",`],
      ]);
      const before = await emulator.state();
      // The pack's policies are advisory by default: as advice, the violation is reported and the preview passes.
      const advised = await stack({ programDir: open, policyPacks: [{ dir: HARDENING_PACK }] }).preview();
      expectOk(advised);
      expect(advised.policyViolations.map((v) => `${v.policyName} ${v.enforcementLevel} ${v.urn.split("::").pop()}`)).toEqual([
        "cast-anonymous-ip-limit advisory kiosk-link",
      ]);

      const strict = stack({ programDir: open, policyPacks: [strictHardeningPack()] });
      const preview = await strict.preview();
      expect(preview.ok).toBe(false);
      expect(mandatory(preview)).toEqual(["cast-anonymous-ip-limit kiosk-link"]);
      expect(preview.policyViolations[0].message).toContain("allowAnonymous is true but limitIps is not");
      const up = await strict.up();
      expect(up.ok).toBe(false);
      expect(up.resources).toEqual([]);
      expect(up.errors.map((e) => e.message).join("\n")).toMatch(/mandatory policy violation kasm-hardening@v0\.1\.0\/cast-anonymous-ip-limit/);
      expect(await emulator.state()).toEqual(before);
    });
  });

  it("destroy deletes the link and the pool and leaves Kasm as it was seeded", { timeout: SLOW }, async () => {
    const destroy = await engine.destroy();
    expectOk(destroy);
    expect(destroy.summary).toEqual({ delete: 3 });
    expect(engine.readState()).toEqual([]);
    expect(await emulator.state()).toEqual(seeded);
  });
});
