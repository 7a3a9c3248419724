/**
 * The test engine honours the resource options that decide what a delete or an update may do, as
 * the Pulumi engine does: `protect` (destroy deletes the unprotected resources and refuses each
 * protected one, with Pulumi's message; a program that drops a protected resource or replaces it
 * fails), `retainOnDelete` (the resource leaves the state, the object stays in Kasm) and
 * `ignoreChanges` (the old value is kept), `aliases` (a renamed resource is the same object) and
 * `urn` (an object read from a resource the run registered, never from the state). test/cli/resource-options.test.ts runs the same
 * programs through the `pulumi` CLI.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { TestEngine, type RunResult } from "../../testing/engine";
import { OPTIONS_PROGRAMS, writeProgram } from "../helpers/options-programs";

const SLOW = 180_000;

let dir: string;
let emulator: TestEmulator;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "engine-options-"));
  emulator = await startTestEmulator({ users: [{ username: "existing", first_name: "Seeded" }] });
});
afterEach(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

function engineFor(programDir: string): TestEngine {
  return new TestEngine({
    programDir,
    project: "options-test",
    stack: "dev",
    stateFile: path.join(dir, "state.json"),
    passphrase: "correct horse",
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1" },
    secretKeys: ["kasm:apiKeySecret"],
  });
}

const ops = (result: RunResult) => Object.fromEntries(result.resources.map((r) => [r.urn.split("::").pop(), r.op]));
const names = (engine: TestEngine) => engine.readState().map((r) => r.urn.split("::").pop());
async function usersInKasm(): Promise<Record<string, any>> {
  const res = await emulator.specCall("get_users");
  return Object.fromEntries(res.body.users.map((u: any) => [u.username, u]));
}
function expectOk(result: RunResult): void {
  if (!result.ok) throw new Error(`${result.operation} failed: ${JSON.stringify(result.errors)}\n${result.programOutput}`);
}

describe("resource options in the test engine", () => {
  it("protect: destroy deletes the unprotected resource, refuses the protected one with Pulumi's message, and Kasm keeps it", { timeout: SLOW }, async () => {
    const programDir = writeProgram(dir, OPTIONS_PROGRAMS.aliceProtected);
    const engine = engineFor(programDir);
    expectOk(await engine.up());

    const destroy = await engine.destroy();
    expect(destroy.ok).toBe(false);
    expect(destroy.errors).toEqual([
      { urn: expect.stringMatching(/::alice$/), message: expect.stringContaining("cannot be deleted\nbecause it is protected. To unprotect the resource") },
    ]);
    expect(ops(destroy)).toEqual({ bob: "delete" });
    expect(Object.keys(await usersInKasm()).sort()).toEqual(["alice", "existing"]);
    // The stack is alice's parent: it stays with her.
    expect(names(engine)).toEqual(["options-test-dev", "alice"]);

    // Unprotected by the program, the next destroy takes her.
    writeProgram(dir, OPTIONS_PROGRAMS.nothingProtected);
    const unprotect = await engine.up();
    expectOk(unprotect);
    expect(ops(unprotect)).toMatchObject({ alice: "same", bob: "create" });
    expectOk(await engine.destroy());
    expect(Object.keys(await usersInKasm())).toEqual(["existing"]);
  });

  it("protect: a stack whose resources are all protected deletes nothing in Kasm", { timeout: SLOW }, async () => {
    const engine = engineFor(writeProgram(dir, OPTIONS_PROGRAMS.allProtected));
    expectOk(await engine.up());
    const destroy = await engine.destroy();
    expect(destroy.ok).toBe(false);
    expect(destroy.errors.map((e) => e.urn.split("::").pop()).sort()).toEqual(["alice", "bob"]);
    expect(destroy.resources).toEqual([]);
    expect(Object.keys(await usersInKasm()).sort()).toEqual(["alice", "bob", "existing"]);
    expect(names(engine).sort()).toEqual(["alice", "bob", "options-test-dev"]);
  });

  it("protect: a program that no longer declares a protected resource fails at preview and at up, and Kasm keeps it", { timeout: SLOW }, async () => {
    const engine = engineFor(writeProgram(dir, OPTIONS_PROGRAMS.aliceProtected));
    expectOk(await engine.up());
    writeProgram(dir, OPTIONS_PROGRAMS.bobOnly);
    const preview = await engine.preview();
    expect(preview.ok).toBe(false);
    expect(preview.errors).toEqual([{ urn: expect.stringMatching(/::alice$/), message: expect.stringContaining("because it is protected") }]);
    const up = await engine.up();
    expect(up.ok).toBe(false);
    expect(up.errors).toEqual([{ urn: expect.stringMatching(/::alice$/), message: expect.stringContaining("because it is protected") }]);
    expect(Object.keys(await usersInKasm()).sort()).toEqual(["alice", "bob", "existing"]);
    expect(names(engine)).toContain("alice");
  });

  it("retainOnDelete: a resource the program drops leaves the state and stays in Kasm", { timeout: SLOW }, async () => {
    const engine = engineFor(writeProgram(dir, OPTIONS_PROGRAMS.bobRetained));
    expectOk(await engine.up());
    writeProgram(dir, OPTIONS_PROGRAMS.aliceOnly);
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({ alice: "same", bob: "delete" });
    expect(Object.keys(await usersInKasm()).sort()).toEqual(["alice", "bob", "existing"]);
    expect(names(engine)).not.toContain("bob");
  });

  it("ignoreChanges: a changed input that the program ignores keeps its old value, in the state and in Kasm", { timeout: SLOW }, async () => {
    const engine = engineFor(writeProgram(dir, OPTIONS_PROGRAMS.bobIgnoresFirstName("Bob")));
    expectOk(await engine.up());
    writeProgram(dir, OPTIONS_PROGRAMS.bobIgnoresFirstName("Robert"));
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({ bob: "same" });
    expect((await usersInKasm()).bob.first_name).toBe("Bob");
    expect(engine.readState().find((r) => r.urn.endsWith("::bob"))!.inputs.firstName).toBe("Bob");
  });

  it("aliases: a resource renamed with its old name as an alias is the same object, neither deleted nor created", { timeout: SLOW }, async () => {
    const engine = engineFor(writeProgram(dir, OPTIONS_PROGRAMS.aliceOnly));
    expectOk(await engine.up());
    const id = (await usersInKasm()).alice.user_id;
    writeProgram(dir, OPTIONS_PROGRAMS.aliceRenamed);
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toEqual({ "options-test-dev": "same", "alice-renamed": "same" });
    expect((await usersInKasm()).alice.user_id).toBe(id);
    expect(names(engine)).toEqual(["options-test-dev", "alice-renamed"]);
    expect(engine.readState()[1].id).toBe(id);
  });

  it("urn: an object made from the URN of a resource the run registered reads its state, and registers nothing", { timeout: SLOW }, async () => {
    const engine = engineFor(writeProgram(dir, OPTIONS_PROGRAMS.aliceByUrn));
    const up = await engine.up();
    expectOk(up);
    expect(up.outputs).toEqual({ usernameByUrn: "alice", sameUserId: true });
    expect(names(engine)).toEqual(["options-test-dev", "alice"]);
  });

  it("urn: the URN of a resource only the state holds is unknown, as in Pulumi's engine: the run fails and Kasm keeps the user", {
    timeout: SLOW,
  }, async () => {
    const engine = engineFor(writeProgram(dir, OPTIONS_PROGRAMS.aliceOnly));
    expectOk(await engine.up());
    writeProgram(dir, OPTIONS_PROGRAMS.formerAliceByUrn);
    const up = await engine.up();
    expect(up.ok).toBe(false);
    expect(up.errors.map((e) => e.message).join("\n")).toContain("unknown resource urn:pulumi:dev::options-test::pulumi-nodejs:dynamic/kasm:User::alice");
    expect((await usersInKasm()).alice.first_name).toBe("Alice");
    expect(names(engine)).toEqual(["options-test-dev", "alice"]);
  });
});
