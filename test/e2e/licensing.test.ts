/**
 * examples/licensing end to end: one partner entitlement of 100 seats (the seed's activation key)
 * split between stacks of the same program, through the test engine against an emulator seeded
 * with the example's seed.json and the seed's key (Licenses Create, Licenses View, System View).
 * branch-a takes 60 seats for "Branch A", branch-b 40 for "Branch B"; a third stack asking for one
 * more seat is refused by Kasm, and the activation key (a secret) shows in no error, log, output
 * or state file. Every input of a LicenseActivation replaces it, and Kasm can neither read nor
 * remove a license: refresh keeps what is known, destroy forgets with a warning.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN, type RunResult, type TestEngine } from "../../testing/engine";
import type { TestEmulator } from "../helpers/emulator";
import {
  HARDENING_PACK,
  SLOW,
  comparable,
  exampleEngine,
  expectAllSame,
  expectOk,
  mandatory,
  ops,
  permissionsPack,
  resource,
  seedOf,
  startExampleEmulator,
  tempDir,
  warnings,
  type StackOptions,
} from "./helpers";

const ACTIVATION_KEY: string = seedOf("licensing").activationKeys![0].activation_key;
/** The body of the armored key: what would show if the key leaked in any form (escaped, trimmed). */
const KEY_BODY = "PARTNER-ENTITLEMENT-100";
const SEED_KEY = seedOf("licensing").apiKeys[0];

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let seeded: any;
/** Every result of the file, checked for the key at the end. */
const results: RunResult[] = [];

function branch(stack: string, seats: number, issuedTo: string, extra: Partial<StackOptions> = {}): TestEngine {
  return exampleEngine({
    example: "licensing",
    emulator,
    dir: tmp.dir,
    stack,
    config: { activationKey: ACTIVATION_KEY, seats: String(seats), issuedTo },
    secretConfig: ["activationKey"],
    ...extra,
  });
}

/** Run an operation and keep its result for the final secret check. */
async function run(op: Promise<RunResult>): Promise<RunResult> {
  const result = await op;
  results.push(result);
  return result;
}

async function licenses(): Promise<any[]> {
  return Object.values<any>((await emulator.state()).licenses);
}

async function seatsUsed(): Promise<number> {
  return Object.values<any>((await emulator.state()).activationKeys)[0].seats_used;
}

const branchA = () => branch("branch-a", 60, "Branch A");
const branchB = () => branch("branch-b", 40, "Branch B");

beforeAll(async () => {
  tmp = tempDir("licensing");
  emulator = await startExampleEmulator("licensing");
  seeded = await emulator.state();
  expect(ACTIVATION_KEY).toContain(KEY_BODY);
});

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("examples/licensing: two stacks share the entitlement", () => {
  it("preview of branch-a plans the activation and activates nothing", { timeout: SLOW }, async () => {
    const preview = await run(branchA().preview());
    expectOk(preview);
    expect(ops(preview)).toEqual({ "kasm-licensing-branch-a": "create", seats: "create" });
    expect(preview.outputs).toEqual({ licenseId: UNKNOWN, seatLimit: UNKNOWN, licenseType: UNKNOWN });
    expect(await emulator.state()).toEqual(seeded);
  });

  it("up of branch-a activates 60 seats issued to Branch A", { timeout: SLOW }, async () => {
    const up = await run(branchA().up());
    expectOk(up);
    expect(up.summary).toEqual({ create: 2 });
    const [license] = await licenses();
    expect(license).toMatchObject({ limit: 60, issued_to: "Branch A", license_type: "Per Concurrent Session" });
    expect(up.outputs).toEqual({ licenseId: license.license_id, seatLimit: 60, licenseType: "Per Concurrent Session" });
    expect(resource(up, "seats").id).toBe(license.license_id);
    expect(await seatsUsed()).toBe(60);
  });

  it("a second up of branch-a changes nothing and takes no seat", { timeout: SLOW }, async () => {
    expectAllSame(await run(branchA().up()));
    expect(await seatsUsed()).toBe(60);
  });

  it("up of branch-b takes the other 40 seats", { timeout: SLOW }, async () => {
    const up = await run(branchB().up());
    expectOk(up);
    expect(up.outputs).toMatchObject({ seatLimit: 40 });
    expect((await licenses()).map((l) => [l.issued_to, l.limit]).sort()).toEqual([
      ["Branch A", 60],
      ["Branch B", 40],
    ]);
    expect(await seatsUsed()).toBe(100);
  });

  it("a third stack asking for 1 more seat is refused with Kasm's activation error", { timeout: SLOW }, async () => {
    const before = await emulator.state();
    const branchC = branch("branch-c", 1, "Branch C");
    const up = await run(branchC.up());
    expect(up.ok).toBe(false);
    expect(up.errors).toEqual([
      {
        urn: expect.stringMatching(/::seats$/),
        message: expect.stringMatching(/Error during activation: No seats remain on this activation key's entitlement/),
      },
    ]);
    expect(branchC.readState().some((r) => r.urn.endsWith("::seats"))).toBe(false);
    expect(await emulator.state()).toEqual(before);
  });

  it("a changed branch-a (another issuedTo) is a replacement, which needs 60 seats again and is refused: the old license stays in the state", {
    timeout: SLOW,
  }, async () => {
    const renamed = branch("branch-a", 60, "Branch A (HQ)");
    const licenseId = renamed.readState().find((r) => r.urn.endsWith("::seats"))!.id;
    const preview = await run(renamed.preview());
    expectOk(preview);
    expect(ops(preview)).toMatchObject({ seats: "replace" });
    expect(resource(preview, "seats").changed).toEqual(["issuedTo"]);

    const up = await run(renamed.up());
    expect(up.ok).toBe(false);
    expect(up.errors[0].message).toMatch(/Error during activation: No seats remain/);
    expect(renamed.readState().find((r) => r.urn.endsWith("::seats"))).toMatchObject({
      id: licenseId,
      outputs: expect.objectContaining({ issuedTo: "Branch A" }),
    });
    expect(await licenses()).toHaveLength(2);
  });

  it("refresh keeps what is known (Kasm cannot read a license)", { timeout: SLOW }, async () => {
    const engine = branchA();
    const before = engine.readState();
    const refresh = await run(engine.refresh());
    expectOk(refresh);
    expect(ops(refresh)).toEqual({ seats: "read" });
    expect(resource(refresh, "seats").changed).toEqual([]);
    expect(engine.readState()).toEqual(before);
  });

  describe("policy packs", () => {
    it("pass with the seed's key (Licenses Create, Licenses View, System View)", { timeout: SLOW }, async () => {
      const preview = await run(
        branch("branch-a", 60, "Branch A", { policyPacks: [permissionsPack({ permissions: SEED_KEY.permissions }), { dir: HARDENING_PACK }] }).preview(),
      );
      expectOk(preview);
      expect(preview.policyViolations).toEqual([]);
    });

    it("fail for a key without Licenses Create", { timeout: SLOW }, async () => {
      const preview = await run(
        branch("branch-d", 5, "Branch D", { policyPacks: [permissionsPack({ permissions: ["Licenses View", "System View"] })] }).preview(),
      );
      expect(preview.ok).toBe(false);
      expect(mandatory(preview)).toEqual(["resource-needs-permissions seats"]);
      expect(preview.policyViolations.find((v) => v.enforcementLevel === "mandatory")!.message).toContain("'Licenses Create'");
    });
  });

  it("destroy of both stacks forgets the licenses with a warning; Kasm is as seeded but for the licenses it cannot remove", { timeout: SLOW }, async () => {
    for (const engine of [branchA(), branchB()]) {
      const destroy = await run(engine.destroy());
      expectOk(destroy);
      expect(ops(destroy)).toMatchObject({ seats: "delete" });
      expect(warnings(destroy)).toEqual([
        expect.stringMatching(/^LicenseActivation \w+: Kasm has no operation to remove a license, so license \w+ stays applied \((60|40) seat\(s\)\)/),
      ]);
      expect(engine.readState()).toEqual([]);
    }
    const after = await emulator.state();
    expect(comparable(after, { licenses: true })).toEqual(comparable(seeded, { licenses: true }));
    expect(Object.keys(after.licenses)).toHaveLength(2);
    expect(Object.values<any>(after.activationKeys)[0].seats_used).toBe(100);
  });

  it("the activation key is in no error, log line, output or state file", () => {
    expect(results.length).toBeGreaterThan(10);
    for (const r of results) {
      // (`resources[].outputs` is the engine's in-memory view, secrets unwrapped, as `--show-secrets` would: not shown.)
      const shown = JSON.stringify({ errors: r.errors, logs: r.logs, outputs: r.outputs, violations: r.policyViolations });
      for (const text of [shown, r.programOutput]) {
        expect(text).not.toContain(KEY_BODY);
        expect(text).not.toContain(SEED_KEY.secret);
      }
    }
    const stateFiles = readdirSync(tmp.dir).filter((f) => f.endsWith(".json"));
    expect(stateFiles.sort()).toEqual(["branch-a.json", "branch-b.json", "branch-c.json"]);
    for (const file of stateFiles) expect(readFileSync(path.join(tmp.dir, file), "utf8")).not.toContain(KEY_BODY);
    expect(existsSync(path.join(tmp.dir, "branch-d.json"))).toBe(false);
  });
});

describe("examples/licensing: a replacement takes seats again", () => {
  let fresh: TestEmulator;
  afterAll(async () => fresh?.close());

  it("changing seats replaces the activation: a new license takes the new seats, the old one is forgotten with a warning", { timeout: SLOW }, async () => {
    fresh = await startExampleEmulator("licensing");
    const dir = tempDir("licensing-replace");
    try {
      const at = (seats: number) =>
        exampleEngine({
          example: "licensing",
          emulator: fresh,
          dir: dir.dir,
          stack: "branch-x",
          config: { activationKey: ACTIVATION_KEY, seats: String(seats), issuedTo: "Branch X" },
          secretConfig: ["activationKey"],
        });
      const first = await at(30).up();
      expectOk(first);
      const oldId = resource(first, "seats").id;
      const replaced = await at(20).up();
      expectOk(replaced);
      expect(ops(replaced)).toEqual({ "kasm-licensing-branch-x": "same", seats: "replace" });
      expect(resource(replaced, "seats").changed).toEqual(["seats"]);
      expect(resource(replaced, "seats").id).not.toBe(oldId);
      expect(replaced.outputs).toMatchObject({ seatLimit: 20, licenseId: resource(replaced, "seats").id });
      expect(warnings(replaced)).toEqual([
        expect.stringContaining(`LicenseActivation seats: Kasm has no operation to remove a license, so license ${oldId} stays applied`),
      ]);
      const state = await fresh.state();
      expect(
        Object.values<any>(state.licenses)
          .map((l) => l.limit)
          .sort(),
      ).toEqual([20, 30]);
      expect(Object.values<any>(state.activationKeys)[0].seats_used).toBe(50);
      for (const r of [first, replaced]) expect(r.programOutput + JSON.stringify(r.errors) + JSON.stringify(r.logs)).not.toContain(KEY_BODY);
      expect(readFileSync(path.join(dir.dir, "branch-x.json"), "utf8")).not.toContain(KEY_BODY);
    } finally {
      dir.remove();
    }
  });
});
