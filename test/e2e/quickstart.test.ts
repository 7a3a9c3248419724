/**
 * examples/quickstart end to end: the program as it is in the repository, through the test
 * engine, against an emulator seeded with its seed.json and configured with the seed's key (as
 * `npm start` does). One stack's lifecycle, in order: preview, up, a second up, a changed program,
 * refresh after changes made in Kasm, the policy packs, destroy.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN, type TestEngine } from "../../testing/engine";
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
  tempDir,
  userNamed,
  type StackOptions,
} from "./helpers";

const ENGINEERING = "6f1c2a3b4d5e4f708192a3b4c5d6e7f8";
const SUPPORT = "7a2b3c4d5e6f40718293a4b5c6d7e8f9";
const WORKSTATION = "5e1f0c2d3b4a49588776655443322110";
const ALICE_PASSWORD = "wonderland-e2e-password-1";
const BOB_PASSWORD = "builder-e2e-password-2";

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let seeded: any;
let engine: TestEngine;
/** The program with the changes of the "changed program" step. */
let changedDir: string;

function stack(extra: Partial<StackOptions> = {}): TestEngine {
  return exampleEngine({
    example: "quickstart",
    emulator,
    dir: tmp.dir,
    config: { alicePassword: ALICE_PASSWORD, bobPassword: BOB_PASSWORD },
    secretConfig: ["alicePassword", "bobPassword"],
    ...extra,
  });
}

beforeAll(async () => {
  tmp = tempDir("quickstart");
  emulator = await startExampleEmulator("quickstart");
  seeded = await emulator.state();
  engine = stack();
});

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("examples/quickstart", () => {
  it("preview plans every create, with lookups resolved and computed ids unknown, and creates nothing in Kasm", { timeout: SLOW }, async () => {
    const preview = await engine.preview();
    expectOk(preview);
    expect(ops(preview)).toEqual({
      "kasm-quickstart-dev": "create",
      alice: "create",
      bob: "create",
      "alice-attributes": "create",
      "alice-groups": "create",
      "bob-support": "create",
      "alice-workstation": "create",
    });
    expect(preview.outputs).toMatchObject({ aliceId: UNKNOWN, bobId: UNKNOWN, terminalImage: "kasmweb/terminal:1.16.0" });
    expect(await emulator.state()).toEqual(seeded);
    expect(engine.readState()).toEqual([]);
  });

  it("up creates the users, attributes, groups and assignment in Kasm, never writing a password to the state", { timeout: SLOW }, async () => {
    const up = await engine.up();
    expectOk(up);
    expect(up.summary).toEqual({ create: 7 });
    const kasm = await emulator.state();
    const alice = userNamed(kasm, "alice");
    const bob = userNamed(kasm, "bob");
    expect(alice).toMatchObject({ first_name: "Alice", last_name: "Liddell", organization: "Platform", server_ids: [WORKSTATION] });
    expect(bob).toMatchObject({ first_name: "Bob", organization: "Support" });
    const allUsers = Object.values<any>(kasm.groups).find((g) => g.name === "All Users").group_id;
    expect([...alice.group_ids].sort()).toEqual([allUsers, ENGINEERING, SUPPORT].sort());
    expect([...bob.group_ids].sort()).toEqual([allUsers, SUPPORT].sort());
    const terminal = Object.values<any>(kasm.images).find((i) => i.friendly_name === "Terminal").image_id;
    expect(kasm.userAttributes[alice.user_id]).toMatchObject({
      show_tips: false,
      default_image: terminal,
      ssh_public_key: expect.stringMatching(/^ssh-ed25519 /),
    });
    expect(up.outputs).toMatchObject({ aliceId: alice.user_id, bobId: bob.user_id, terminalImage: "kasmweb/terminal:1.16.0" });

    const stateText = readFileSync(engine.options.stateFile, "utf8");
    for (const secret of [ALICE_PASSWORD, BOB_PASSWORD, "quickstart-secret"]) expect(stateText).not.toContain(secret);
    expect(engine.readState().find((r) => r.urn.endsWith("::alice"))!.inputs.password).toMatchObject({ value: ALICE_PASSWORD });
  });

  it("a second up changes nothing", { timeout: SLOW }, async () => {
    const before = await emulator.state();
    const second = await engine.up();
    expectAllSame(second);
    expect(second.summary).toEqual({ same: 7 });
    expect(await emulator.state()).toEqual(before);
  });

  it("a changed program updates the user, attributes and group set in place and replaces the membership", { timeout: SLOW }, async () => {
    changedDir = copyExample("quickstart", tmp.dir);
    editFile(path.join(changedDir, "index.ts"), [
      [`firstName: "Alice",`, `firstName: "Alicia",`],
      ["showTips: false,", "showTips: true,"],
      ["groupIds: [engineeringGroupId, supportGroupId]", "groupIds: [engineeringGroupId]"],
      ["{ userId: bob.userId, groupId: supportGroupId }", "{ userId: bob.userId, groupId: engineeringGroupId }"],
    ]);
    const before = await emulator.state();
    engine = stack({ programDir: changedDir });
    const preview = await engine.preview();
    expectOk(preview);
    expect(await emulator.state()).toEqual(before);

    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({
      alice: "update",
      bob: "same",
      "alice-attributes": "update",
      "alice-groups": "update",
      "bob-support": "replace",
      "alice-workstation": "same",
    });
    // The preview shows what the up does: alice's update keeps her userId (the resource's id), so
    // what takes it changes only where its own inputs do.
    expect(ops(preview)).toEqual(ops(up));
    expect(resource(up, "alice").changed).toEqual(["firstName"]);
    expect(resource(up, "bob-support").changed).toEqual(["groupId"]);

    const kasm = await emulator.state();
    const alice = userNamed(kasm, "alice");
    const bob = userNamed(kasm, "bob");
    expect(alice.user_id).toBe(userNamed(before, "alice").user_id);
    expect(alice.first_name).toBe("Alicia");
    expect(kasm.userAttributes[alice.user_id].show_tips).toBe(true);
    expect(alice.group_ids).toContain(ENGINEERING);
    expect(alice.group_ids).not.toContain(SUPPORT);
    expect(bob.group_ids).toContain(ENGINEERING);
    expect(bob.group_ids).not.toContain(SUPPORT);
    expectAllSame(await engine.up());
  });

  it("refresh reads what changed in Kasm and drops what was removed there; the next up puts it back", { timeout: SLOW }, async () => {
    const kasm = await emulator.state();
    const alice = userNamed(kasm, "alice");
    const bob = userNamed(kasm, "bob");
    // Out of band, as someone in the Kasm UI would.
    expect((await emulator.call("update_user", { target_user: { user_id: alice.user_id, last_name: "Pleasance" } })).status).toBe(200);
    expect((await emulator.call("remove_user_group", { target_user: { user_id: bob.user_id }, target_group: { group_id: ENGINEERING } })).status).toBe(200);
    expect((await emulator.call("unassign_user_server", { target_user: { user_id: alice.user_id }, target_server: { server_id: WORKSTATION } })).status).toBe(
      204,
    );

    const refresh = await engine.refresh();
    expectOk(refresh);
    expect(ops(refresh)).toEqual({
      alice: "read",
      bob: "read",
      "alice-attributes": "read",
      "alice-groups": "read",
      "bob-support": "delete",
      "alice-workstation": "delete",
    });
    expect(resource(refresh, "alice").changed).toEqual(["lastName"]);
    expect(resource(refresh, "bob").changed).toEqual([]);
    const state = engine.readState();
    expect(state.find((r) => r.urn.endsWith("::alice"))!.outputs.lastName).toBe("Pleasance");
    expect(state.some((r) => r.urn.endsWith("::bob-support") || r.urn.endsWith("::alice-workstation"))).toBe(false);

    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({ alice: "update", "bob-support": "create", "alice-workstation": "create", bob: "same", "alice-groups": "same" });
    const after = await emulator.state();
    expect(userNamed(after, "alice")).toMatchObject({ last_name: "Liddell", server_ids: [WORKSTATION] });
    expect(userNamed(after, "bob").group_ids).toContain(ENGINEERING);
  });

  describe("policy packs", () => {
    /** The ids of the seed's built-in groups, as the permissions pack must be told them. */
    function systemGroupIds(state: any) {
      const id = (name: string) => Object.values<any>(state.groups).find((g) => g.name === name).group_id;
      return { allUsers: id("All Users"), administrators: id("Administrators") };
    }

    it("pass for the seed's key (Global Admin): preview and up with both packs", { timeout: SLOW }, async () => {
      const key = { permissions: ["Global Admin"], systemGroupIds: systemGroupIds(seeded), globalAdminUserIds: ["ops"] };
      const checked = stack({ programDir: changedDir, policyPacks: [permissionsPack(key), { dir: HARDENING_PACK }] });
      const preview = await checked.preview();
      expectOk(preview);
      expect(mandatory(preview)).toEqual([]);
      expect(preview.policyViolations.map((v) => `${v.policyName} ${v.enforcementLevel}`)).toEqual(["least-privilege advisory"]);
      expect(preview.policyViolations[0].message).toContain("\nDrop 1 permission the stack does not need: 'Global Admin'.\n");
      const up = await checked.up();
      expectAllSame(up);
    });

    it("fail for a key lacking Groups Modify: the up stops before any change", { timeout: SLOW }, async () => {
      const key = {
        // What least-privilege reports the program needs, but Groups Modify.
        permissions: [
          "Users View",
          "Users Modify",
          "Users Create",
          "Users Delete",
          "Groups View",
          "Zones View",
          "Servers View",
          "Servers Modify",
          "Server Pools View",
        ],
        systemGroupIds: systemGroupIds(seeded),
        globalAdminUserIds: ["ops"],
      };
      const before = await emulator.state();
      // A pending change, which the refused up must not make.
      editFile(path.join(changedDir, "index.ts"), [[`firstName: "Alicia",`, `firstName: "Alice",`]]);
      const checked = stack({ programDir: changedDir, policyPacks: [permissionsPack(key)] });
      const preview = await checked.preview();
      expect(preview.ok).toBe(false);
      expect(mandatory(preview).sort()).toEqual(["resource-needs-permissions alice-groups", "resource-needs-permissions bob-support"]);
      const up = await checked.up();
      expect(up.ok).toBe(false);
      expect(up.resources).toEqual([]);
      expect(up.errors.map((e) => e.message).join("\n")).toContain("GroupMembership 'bob-support' cannot be created and deleted with this API key");
      expect(up.errors.map((e) => e.message).join("\n")).toContain("Grant the key: 'Groups Modify'");
      expect(await emulator.state()).toEqual(before);
    });
  });

  it("destroy deletes everything and leaves Kasm as it was seeded", { timeout: SLOW }, async () => {
    const destroy = await engine.destroy();
    expectOk(destroy);
    expect(destroy.summary).toEqual({ delete: 7 });
    expect(engine.readState()).toEqual([]);
    expect(await emulator.state()).toEqual(seeded);
  });
});
