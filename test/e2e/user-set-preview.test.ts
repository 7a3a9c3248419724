/**
 * What a preview of a `UserSet` change shows, through the test engine (Pulumi's real language
 * runtime and dynamic-provider host): a resource that takes a kept user's id from the set
 * (`staff.userIds["ada"]`) shows no change, where it used to show a replace the up then did not
 * do; one that takes the id of a user the change adds shows as created (the id is unknown until
 * the import); and the preview says, row by row, what the change adds, removes and changes. A
 * refresh after drift names the users that drifted.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import type { RunResult } from "../../testing/engine-run";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { operationsDuring } from "../helpers/users-program";
import { PASSPHRASE, SLOW, expectOk, ops, tempDir, userNamed } from "./helpers";

const HEADER = "username,first_name,last_name,group_1";
const FIRST = [HEADER, "ada,Ada,Lovelace,Engineering", "alan,Alan,Turing,Engineering", "grace,Grace,Hopper,Support"];
/** alan's last name changed, grace removed, new.hire added. */
const EDITED = [HEADER, "ada,Ada,Lovelace,Engineering", "alan,Alan,Turing-Smith,Engineering", "new.hire,New,Hire,Support"];

const PROGRAM = (assignNewHire: boolean) => `import { readFileSync } from "node:fs";
import * as kasm from "pulumi-kasm";

const staff = new kasm.UserSet("staff", { csv: readFileSync("users.csv", "utf8") });
const servers = new kasm.ServerImport("servers", {
  servers: [{ name: "build-box", ipHostname: "build-box.example.org", port: 22, zoneName: "default", connectionType: "SSH" }],
});
new kasm.UserServerAssignment("ada-build-box", { userId: staff.userIds["ada"], serverId: servers.serverIds["build-box"] });
${assignNewHire ? `new kasm.UserServerAssignment("new-hire-build-box", { userId: staff.userIds["new.hire"], serverId: servers.serverIds["build-box"] });` : ""}
export const adaId = staff.userIds["ada"];
`;

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let programDir: string;
let engine: TestEngine;

function write(csv: readonly string[], assignNewHire: boolean): void {
  writeFileSync(path.join(programDir, "users.csv"), csv.join("\n") + "\n");
  writeFileSync(path.join(programDir, "index.ts"), PROGRAM(assignNewHire));
}

/** The provider's info lines of a run. */
function notes(result: RunResult): string[] {
  return result.logs.filter((l) => l.severity === "info").map((l) => l.message);
}

beforeAll(async () => {
  tmp = tempDir("user-set-preview");
  emulator = await startTestEmulator({
    groups: [
      { group_id: "6f1c2a3b4d5e4f708192a3b4c5d6e7f8", name: "Engineering" },
      { group_id: "7a2b3c4d5e6f40718293a4b5c6d7e8f9", name: "Support" },
    ],
    zones: [{ zone_name: "default" }],
  });
  programDir = path.join(tmp.dir, "program");
  mkdirSync(programDir);
  writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "user-set-preview", main: "index.ts" }));
  engine = new TestEngine({
    programDir,
    project: "user-set-preview",
    stack: "dev",
    stateFile: path.join(tmp.dir, "dev.json"),
    passphrase: PASSPHRASE,
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1" },
    secretKeys: ["kasm:apiKeySecret"],
  });
  write(FIRST, false);
  expectOk(await engine.up());
}, SLOW);

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("a preview of an edited CSV", () => {
  it("shows no replace of an assignment whose user the set keeps, creates the one of an added user, says what changes row by row, and only reads Kasm", {
    timeout: SLOW,
  }, async () => {
    write(EDITED, true);
    const before = await emulator.state();
    const { result: preview, operations } = await operationsDuring(emulator, () => engine.preview());
    expectOk(preview);
    expect(ops(preview)).toMatchObject({ staff: "update", servers: "same", "ada-build-box": "same", "new-hire-build-box": "create" });
    expect(preview.resources.filter((r) => r.op === "replace")).toEqual([]);
    // The kept user's id is known in the preview; the added user's is not (it is Kasm's to give).
    expect(preview.outputs.adaId).toBe(userNamed(before, "ada").user_id);
    // How many rows the change adds, removes and changes, naming them.
    expect(notes(preview)).toContain("UserSet staff: this change adds 1 user ('new.hire'), removes 1 ('grace') and changes 1 ('alan').");
    expect(
      operations.every((op) => op.startsWith("get_")),
      operations.join(", "),
    ).toBe(true);
    expect(await emulator.state()).toEqual(before);
  });

  it("the up that follows does what the preview showed", { timeout: SLOW }, async () => {
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({ staff: "update", servers: "same", "ada-build-box": "same", "new-hire-build-box": "create" });
    const state = await emulator.state();
    expect(userNamed(state, "grace")).toBeUndefined();
    expect(userNamed(state, "alan").last_name).toBe("Turing-Smith");
    expect(userNamed(state, "new.hire").server_ids).toHaveLength(1);
  });

  it("a preview with no change reads nothing and says nothing", { timeout: SLOW }, async () => {
    const { result: preview, operations } = await operationsDuring(emulator, () => engine.preview());
    expectOk(preview);
    expect(new Set(Object.values(ops(preview)))).toEqual(new Set(["same"]));
    expect(notes(preview)).toEqual([]);
    expect(operations).toEqual([]);
  });
});

describe("a refresh after drift", () => {
  it("names the users changed and deleted in Kasm", { timeout: SLOW }, async () => {
    const state = await emulator.state();
    const alan = userNamed(state, "alan");
    const hire = userNamed(state, "new.hire");
    expect((await emulator.call("update_user", { target_user: { user_id: alan.user_id, username: "alan", last_name: "Turing" } })).status).toBe(200);
    // new.hire has a server assigned: delete the assignment's owner by force, as an admin in the UI would.
    expect((await emulator.call("delete_user", { target_user: { user_id: hire.user_id }, force: true })).status).toBe(200);
    const refresh = await engine.refresh();
    expectOk(refresh);
    expect(notes(refresh)).toContain(
      "UserSet staff: refresh found 1 user changed in Kasm ('alan'; the next up puts back the declared values), " +
        "and 1 user deleted in Kasm ('new.hire'; out of the set now, the next up imports them again).",
    );
  });
});

describe("a preview that only renames a user", () => {
  // A stack of its own (other usernames and another server on the same emulator): a set, and an
  // assignment that takes a user's id from it, so that the planned ids stay under test.
  const RENAME_HEADER = "username,first_name,last_name";
  const RENAME_PROGRAM = `import { readFileSync } from "node:fs";
import * as kasm from "pulumi-kasm";

const team = new kasm.UserSet("team", { csv: readFileSync("users.csv", "utf8") });
const servers = new kasm.ServerImport("servers", {
  servers: [{ name: "docs-box", ipHostname: "docs-box.example.org", port: 22, zoneName: "default", connectionType: "SSH" }],
});
new kasm.UserServerAssignment("lin-docs-box", { userId: team.userIds["lin"], serverId: servers.serverIds["docs-box"] });
`;
  let dir: string;
  let renames: TestEngine;
  const writeRows = (rows: readonly string[]) => writeFileSync(path.join(dir, "users.csv"), [RENAME_HEADER, ...rows].join("\n") + "\n");
  /** The preview of `rows`: the set's operation and changed keys, and the assignment's operation. */
  async function previewOf(rows: readonly string[]) {
    writeRows(rows);
    const preview = await renames.preview();
    expectOk(preview);
    const team = preview.resources.find((r) => r.urn.endsWith("::team"))!;
    return { team: `${team.op} ${team.changed.join(",")}`, assignment: ops(preview)["lin-docs-box"] };
  }

  beforeAll(async () => {
    dir = path.join(tmp.dir, "renames");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "user-set-renames", main: "index.ts" }));
    writeFileSync(path.join(dir, "index.ts"), RENAME_PROGRAM);
    renames = new TestEngine({
      programDir: dir,
      project: "user-set-renames",
      stack: "dev",
      stateFile: path.join(tmp.dir, "renames.json"),
      passphrase: PASSPHRASE,
      config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1" },
      secretKeys: ["kasm:apiKeySecret"],
    });
  }, SLOW);

  it("lists only csv after an up with no change, and after a refresh; the assignment stays the same", { timeout: SLOW }, async () => {
    writeRows(["lin,Lin,Chen", "mae,Mae,Jemison"]);
    expectOk(await renames.up());
    writeRows(["lin,Lin,Chen", "mae,Mae,Jemison-Carter"]);
    expectOk(await renames.up());
    // An up with no change keeps the ids the state knows: the user ids do not change with a name.
    expectOk(await renames.up());
    expect(await previewOf(["lin,Lin,Chen-Wu", "mae,Mae,Jemison-Carter"])).toEqual({ team: "update csv", assignment: "same" });
    // So does a refresh.
    expectOk(await renames.refresh());
    expect(await previewOf(["lin,Lin,Chen", "mae,Mae,Jemison"])).toEqual({ team: "update csv", assignment: "same" });
  });
});
