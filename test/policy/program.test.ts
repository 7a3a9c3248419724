/**
 * Both packs on a real Pulumi program: `pulumi preview --policy-pack policy/permissions
 * --policy-pack policy/hardening`, played by the test engine (the `pulumi-kasm/testing` engine, testing/), which runs the program
 * with Pulumi's runtime and the packs with Pulumi's policy runner from their folders. What a
 * preview really sends the packs (ids of the stack's own objects unknown, property dependencies,
 * `__provider` stripped, secrets) is what they are judged on here. Needs a current dist/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, hyphenatedUpperCase, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { TestEngine } from "../../testing/engine";
import { IDS } from "./helpers";

const ROOT = path.resolve(__dirname, "../..");
const PASSWORD = "pw-of-alice-never-in-a-message-31";

let dir: string;
let emulator: TestEmulator;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "policy-program-"));
  emulator = await startTestEmulator({
    groups: [
      { group_id: IDS.allUsers, name: "All Users" },
      { group_id: IDS.administrators, name: "Administrators" },
    ],
    images: [{ image_id: IDS.image1, name: "kasmweb/chrome" }],
    zones: [{ zone_id: IDS.zone, zone_name: "zone1" }],
  });
});

afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

const PROGRAM = `
const alice = new kasm.User("alice", { username: "alice", firstName: "Alice", password: config.requireSecret("alicePassword") });
new kasm.GroupMembership("alice-admin", { userId: alice.userId, groupId: "${IDS.administrators}" });
new kasm.UserAttributes("alice-attrs", { userId: alice.userId, showTips: false });
new kasm.CastConfig("kiosk", {
  castingConfigName: "Kiosk", imageId: "${IDS.image1}", key: "kiosk-link-key",
  allowAnonymous: true, limitIps: false, requireRecaptcha: true, allowedReferrers: ["app.example.com"], validUntil: "2999-01-01 00:00:00",
});
`;

/** The key: everything the program needs but Users Modify Admin. */
const KEY = {
  permissions: [
    "Users View",
    "Users Create",
    "Users Modify",
    "Users Delete",
    "Groups View",
    "Groups Modify",
    "Groups View System",
    "Groups Modify System",
    "Casting View",
    "Casting Create",
    "Casting Modify",
    "Casting Delete",
  ],
  systemGroupIds: { allUsers: IDS.allUsers, administrators: IDS.administrators },
  globalAdminUserIds: [],
};

/** A test engine for `program` (the body of index.ts, with `pulumi`, `kasm` and `config` in scope), with both packs. */
function engineFor(name: string, program: string, permissionsConfig: Record<string, unknown>): TestEngine {
  const programDir = path.join(dir, name);
  mkdirSync(programDir, { recursive: true });
  writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "policy-program", main: "index.ts" }));
  writeFileSync(
    path.join(programDir, "index.ts"),
    `import * as pulumi from "@pulumi/pulumi";\nimport * as kasm from "pulumi-kasm";\nconst config = new pulumi.Config();\n${program}\n`,
  );
  return new TestEngine({
    programDir,
    project: "policy-program",
    stack: "dev",
    stateFile: path.join(dir, `${name}-state.json`),
    passphrase: "correct horse",
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "policy-program:alicePassword": PASSWORD },
    secretKeys: ["kasm:apiKeySecret", "policy-program:alicePassword"],
    policyPacks: [
      {
        dir: path.join(ROOT, "policy/permissions"),
        config: Object.fromEntries(
          ["key-permission-dependencies", "resource-needs-permissions", "read-only-key", "least-privilege"].map((n) => [n, permissionsConfig]),
        ),
      },
      { dir: path.join(ROOT, "policy/hardening") },
    ],
  });
}

/**
 * Two resources declaring one Kasm object. The staging configs get the zone and image from
 * lookups, as real programs do (known during the preview: lookups run in it); the attributes
 * both take the userId of a User the stack creates (not known during the first preview).
 */
const CONFLICTS = `
const alice = new kasm.User("alice", { username: "alice", password: config.requireSecret("alicePassword") });
new kasm.UserAttributes("alice-attrs", { userId: alice.userId, showTips: false });
new kasm.UserAttributes("alice-more", { userId: alice.userId, autoLoginWs: true });
const zone = kasm.getZoneOutput({ name: "zone1" });
const chrome = kasm.getImageOutput({ name: "kasmweb/chrome" });
new kasm.StagingConfig("chrome", { zoneId: zone.zoneId, imageId: chrome.imageId, numSessions: 1, expiration: 1 });
new kasm.StagingConfig("chrome-again", { zoneId: zone.zoneId, imageId: "${hyphenatedUpperCase(IDS.image1)}", numSessions: 2, expiration: 1 });
`;

describe("a real program previewed with both packs", () => {
  it("stops on the missing Users Modify Admin that the stack's own Administrators membership makes necessary, and reports the hardening advice", {
    timeout: 180_000,
  }, async () => {
    const engine = engineFor("program", PROGRAM, KEY);
    const preview = await engine.preview();
    const seen = preview.policyViolations.map((v) => `${v.policyPack} ${v.policyName} ${v.enforcementLevel} ${v.urn.split("::").pop()}`);
    expect(seen.sort()).toEqual(
      [
        "kasm-hardening@v0.1.0 cast-anonymous-ip-limit advisory kiosk",
        "kasm-permissions@v0.1.0 least-privilege advisory ",
        "kasm-permissions@v0.1.0 resource-needs-permissions mandatory alice",
        "kasm-permissions@v0.1.0 resource-needs-permissions mandatory alice-attrs",
      ].sort(),
    );
    expect(preview.ok).toBe(false);
    const alice = preview.policyViolations.find((v) => v.urn.endsWith("::alice"))!;
    expect(alice.message).toContain(
      "User 'alice' cannot be updated with this API key: update calls update_user (when a field sent to Kasm changed), which needs 'Users Modify Admin'",
    );
    for (const v of preview.policyViolations) expect(v.message).not.toContain(PASSWORD);
    for (const v of preview.policyViolations) expect(v.message).not.toContain("kiosk-link-key");
  });

  it("stops on two resources declaring one Kasm object before anything is applied, and keeps the permissions the lookups need", {
    timeout: 180_000,
  }, async () => {
    const key = {
      permissions: [
        "Users View",
        "Users Create",
        "Users Modify",
        "Users Delete",
        "Staging View",
        "Staging Create",
        "Staging Modify",
        "Staging Delete",
        "Images View",
        "Zones View",
        "Webfilters View",
      ],
      systemGroupIds: { allUsers: IDS.allUsers, administrators: IDS.administrators },
      globalAdminUserIds: [],
    };
    const engine = engineFor("conflicts", CONFLICTS, key);
    const preview = await engine.preview();
    const seen = preview.policyViolations.map((v) => `${v.policyName} ${v.enforcementLevel} ${v.urn ? v.urn.split("::")[2].split(":").pop() : ""}`);
    expect(seen.sort()).toEqual(
      ["conflicting-declarations mandatory StagingConfig", "conflicting-declarations mandatory UserAttributes", "least-privilege advisory "].sort(),
    );
    expect(preview.ok).toBe(false);
    // Each is reported on the resource registered later (a staging config waiting for its lookups registers after the other), naming both.
    const message = (kind: string) =>
      preview.policyViolations.find((v) => v.urn.includes(`kasm:${kind}::`) && v.policyName === "conflicting-declarations")!.message;
    expect(message("UserAttributes")).toContain(
      "UserAttributes 'alice-attrs' and UserAttributes 'alice-more' both manage the attributes of the same user (userId)",
    );
    expect(message("StagingConfig")).toMatch(
      /StagingConfig '(chrome|chrome-again)' and StagingConfig '(chrome-again|chrome)' both manage the staging config of the same zone and image \(zoneId and imageId\)/,
    );
    // The zone and image come from lookups, which no policy sees: least-privilege keeps what they need.
    const least = preview.policyViolations.find((v) => v.policyName === "least-privilege")!.message;
    expect(least).toContain("\nDrop 1 permission the stack does not need: 'Webfilters View'.\n");
    expect(least).toMatch(/\n- Kept, as lookups the program may call need them: 'Images View' \([^)]*\), 'Zones View' \([^)]*\)\./);
    for (const v of preview.policyViolations) expect(v.message).not.toContain(PASSWORD);

    const up = await engine.up();
    expect(up.ok).toBe(false);
    expect(up.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^mandatory policy violation kasm-hardening@v0\.1\.0\/conflicting-declarations: /),
      expect.stringMatching(/^mandatory policy violation kasm-hardening@v0\.1\.0\/conflicting-declarations: /),
    ]);
    const state = await emulator.state();
    expect(Object.values(state.users as Record<string, { username: string }>).map((u) => u.username)).not.toContain("alice");
    expect(state.stagingConfigs).toEqual({});
  });
});

describe("a typo in the permissions pack's config", () => {
  /**
   * What the run says of the config: the permissions pack's violations, each mandatory and on the stack (the pack fails the run,
   * never passes it), each checked to carry no stack trace (no `at <frame>` line, no file of the
   * pack); the run has no error besides.
   */
  function plainErrors(result: Awaited<ReturnType<TestEngine["preview"]>>): string[] {
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([]);
    const messages = result.policyViolations
      .filter((v) => v.policyPack.startsWith("kasm-permissions"))
      .map((v) => {
        expect([v.enforcementLevel, v.urn]).toEqual(["mandatory", ""]);
        return v.message;
      });
    for (const message of messages) {
      expect(message).not.toMatch(/^\s+at /m);
      expect(message).not.toMatch(/\.(ts|js):\d+/);
    }
    return messages;
  }

  it("a misspelt permission stops the preview once, naming it and the real name, with no stack trace", { timeout: 180_000 }, async () => {
    const preview = await engineFor("typo-permission", PROGRAM, { ...KEY, permissions: [...KEY.permissions, "Users Modify Admn"] }).preview();
    expect(preview.ok).toBe(false);
    const errors = plainErrors(preview);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      "policy config of 'key-permission-dependencies': unknown permission name 'Users Modify Admn' (did you mean 'Users Modify Admin'?)",
    );
    expect(errors[0]).toContain("Write each name exactly as the Kasm Developer API does");
  });

  it("misspelt properties stop the preview once, each with the property it meant, the properties there are and the way out", { timeout: 180_000 }, async () => {
    const { permissions, ...rest } = KEY;
    const preview = await engineFor("typo-settings", PROGRAM, { ...rest, permisions: permissions, readonly: true }).preview();
    expect(preview.ok).toBe(false);
    const errors = plainErrors(preview);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      "policy config of 'key-permission-dependencies': 'permisions' (did you mean 'permissions'?), 'readonly' (did you mean 'readOnly'?) are not known properties; " +
        "the known properties are permissions, readOnly, systemGroupIds, globalAdminUserIds, usersWithSessions, connections, reportWhenMinimal, lookups: " +
        "correct the name in the file given to --policy-pack-config.",
    );
  });

  it("a misspelt property inside systemGroupIds or a connection is named with its place", { timeout: 180_000 }, async () => {
    const groups = await engineFor("typo-groups", PROGRAM, { ...KEY, systemGroupIds: { allUsers: IDS.allUsers, adminstrators: IDS.administrators } }).preview();
    expect(plainErrors(groups)).toEqual([
      expect.stringContaining(
        "policy config of 'key-permission-dependencies', systemGroupIds: 'adminstrators' (did you mean 'administrators'?) is not a known property; the known properties are allUsers, administrators",
      ),
    ]);
    const connection = await engineFor("typo-connection", PROGRAM, { ...KEY, connections: { prod: { permissions: [], readonly: true } } }).preview();
    expect(plainErrors(connection)).toEqual([
      expect.stringContaining(
        "policy config of 'key-permission-dependencies', connections.prod: 'readonly' (did you mean 'readOnly'?) is not a known property; the known properties are permissions, readOnly,",
      ),
    ]);
  });
});
