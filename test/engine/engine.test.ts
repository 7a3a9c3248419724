/**
 * The test engine running real Pulumi programs (`import * as kasm from "pulumi-kasm"`) against
 * the emulator: preview, up, update, delete, refresh, destroy, secrets in the state file,
 * failures, and policy packs. Needs a current dist/ (`npm run build`): the provider host loads
 * `pulumi-kasm/provider` from it.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { TestEngine, UNKNOWN, type RunResult, type TestEngineOptions } from "../../testing/engine";

const PASSWORD = "pw-never-in-state-5e2a";
const USER = "pulumi-nodejs:dynamic/kasm:User";
const SLOW = 180_000; // each operation starts a program, a provider host and maybe a policy pack

let dir: string;
let emulator: TestEmulator;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "engine-test-"));
  emulator = await startTestEmulator({ users: [{ username: "existing", first_name: "Seeded" }] });
});
afterEach(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Write the program (the body of index.ts, after the imports) to the test's program folder. */
function program(body: string): string {
  const programDir = path.join(dir, "program");
  mkdirSync(programDir, { recursive: true });
  writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "engine-test", main: "index.ts" }));
  writeFileSync(
    path.join(programDir, "index.ts"),
    `import * as pulumi from "@pulumi/pulumi";\nimport * as kasm from "pulumi-kasm";\nconst config = new pulumi.Config();\n${body}\n`,
  );
  return programDir;
}

function engineFor(programDir: string, extra: Partial<TestEngineOptions> = {}): TestEngine {
  return new TestEngine({
    programDir,
    project: "engine-test",
    stack: "dev",
    stateFile: path.join(dir, "state.json"),
    passphrase: "correct horse",
    config: {
      "kasm:baseUrl": emulator.url,
      "kasm:apiKey": ADMIN.key,
      "kasm:apiKeySecret": ADMIN.secret,
      "kasm:maxRetries": "1",
      "engine-test:alicePassword": PASSWORD,
    },
    secretKeys: ["kasm:apiKeySecret", "engine-test:alicePassword"],
    ...extra,
  });
}

const TWO_USERS = `
const alice = new kasm.User("alice", { username: "alice", password: config.requireSecret("alicePassword"), firstName: "Alice" });
const bob = new kasm.User("bob", { username: "bob", firstName: "Bob", lastName: alice.userId.apply(() => "Builder") });
export const aliceId = alice.userId;
export const alicePassword = alice.password;
`;

/** The operation of each resource, by name. */
function ops(result: RunResult): Record<string, string> {
  return Object.fromEntries(result.resources.map((r) => [r.urn.split("::").pop(), r.op]));
}

async function usersInKasm(): Promise<Record<string, any>> {
  const res = await emulator.call("get_users");
  return Object.fromEntries(res.body.users.map((u: any) => [u.username, u]));
}

function expectOk(result: RunResult): void {
  if (!result.ok) throw new Error(`${result.operation} failed: ${JSON.stringify(result.errors)}\n${result.programOutput}`);
}

describe("TestEngine", () => {
  it("preview plans the creates, changes nothing, leaves computed outputs unknown, and collects log lines", { timeout: SLOW }, async () => {
    const engine = engineFor(program(`${TWO_USERS}\npulumi.log.warn("check the names", alice);`));
    const preview = await engine.preview();
    expectOk(preview);
    expect(preview.logs).toEqual([{ severity: "warning", message: "check the names", urn: expect.stringMatching(/::alice$/) }]);
    expect(ops(preview)).toEqual({ "engine-test-dev": "create", alice: "create", bob: "create" });
    expect(preview.outputs.aliceId).toBe(UNKNOWN);
    expect(Object.keys(await usersInKasm())).toEqual(["existing"]);
    expect(engine.readState()).toEqual([]);
  });

  it("up creates, a second up is all same, a changed program updates, a removed resource is deleted", { timeout: SLOW }, async () => {
    const engine = engineFor(program(TWO_USERS));
    const first = await engine.up();
    expectOk(first);
    expect(ops(first)).toEqual({ "engine-test-dev": "create", alice: "create", bob: "create" });
    const users = await usersInKasm();
    expect(users.alice).toMatchObject({ first_name: "Alice" });
    expect(users.bob).toMatchObject({ first_name: "Bob", last_name: "Builder" });
    expect(first.outputs.aliceId).toBe(users.alice.user_id);
    // bob depends on alice through a property, and the state says so.
    const bob = engine.readState().find((r) => r.urn.endsWith("::bob"))!;
    expect(bob.propertyDependencies.lastName).toEqual([expect.stringMatching(/::alice$/)]);

    const second = await engine.up();
    expectOk(second);
    expect(new Set(second.resources.map((r) => r.op))).toEqual(new Set(["same"]));

    program(TWO_USERS.replace(`firstName: "Bob"`, `firstName: "Robert"`));
    const changed = await engine.up();
    expectOk(changed);
    expect(ops(changed)).toMatchObject({ alice: "same", bob: "update" });
    expect(changed.resources.find((r) => r.op === "update")?.changed).toEqual(["firstName"]);
    expect((await usersInKasm()).bob).toMatchObject({ first_name: "Robert", user_id: users.bob.user_id });

    program(`const alice = new kasm.User("alice", { username: "alice", password: config.requireSecret("alicePassword"), firstName: "Alice" });`);
    const preview = await engine.preview();
    expect(ops(preview)).toMatchObject({ alice: "same", bob: "delete" });
    expect(Object.keys(await usersInKasm()).sort()).toEqual(["alice", "bob", "existing"]);
    const removed = await engine.up();
    expectOk(removed);
    expect(ops(removed)).toMatchObject({ alice: "same", bob: "delete" });
    expect(Object.keys(await usersInKasm()).sort()).toEqual(["alice", "existing"]);
    expect(engine.readState().map((r) => r.urn.split("::").pop())).toEqual(["engine-test-dev", "alice"]);
  });

  it("refresh reads drift and drops what was deleted out of band; the next up puts it back", { timeout: SLOW }, async () => {
    const engine = engineFor(program(TWO_USERS));
    expectOk(await engine.up());
    const users = await usersInKasm();
    await emulator.call("update_user", { target_user: { user_id: users.alice.user_id, first_name: "Changed" } });
    await emulator.call("delete_user", { target_user: { user_id: users.bob.user_id } });

    const refresh = await engine.refresh();
    expectOk(refresh);
    expect(ops(refresh)).toEqual({ alice: "read", bob: "delete" });
    expect(refresh.resources.find((r) => r.op === "read")?.changed).toEqual(["firstName"]);
    const alice = engine.readState().find((r) => r.urn.endsWith("::alice"))!;
    expect(alice.outputs.firstName).toBe("Changed");
    expect(engine.readState().some((r) => r.urn.endsWith("::bob"))).toBe(false);

    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({ alice: "update", bob: "create" });
    expect((await usersInKasm()).alice.first_name).toBe("Alice");
  });

  it("destroy deletes everything, dependents first, and leaves the emulator as seeded", { timeout: SLOW }, async () => {
    const seeded = await emulator.state();
    const engine = engineFor(program(TWO_USERS));
    expectOk(await engine.up());
    const destroy = await engine.destroy();
    expectOk(destroy);
    expect(destroy.resources.map((r) => r.urn.split("::").pop())).toEqual(["bob", "alice", "engine-test-dev"]);
    expect(destroy.resources.every((r) => r.op === "delete")).toBe(true);
    expect(await emulator.state()).toEqual(seeded);
    expect(engine.readState()).toEqual([]);
  });

  it("onResource hears of each resource as it completes, in the result's order, for every operation", { timeout: SLOW }, async () => {
    const heard: string[] = [];
    const engine = engineFor(program(TWO_USERS), { onResource: (operation, r) => heard.push(`${operation} ${r.op} ${r.urn.split("::").pop()}`) });
    const said = (result: RunResult) => result.resources.map((r) => `${result.operation} ${r.op} ${r.urn.split("::").pop()}`);
    const expected: string[] = [];
    for (const operation of ["preview", "up", "refresh", "destroy"] as const) {
      const result = await engine[operation]();
      expectOk(result);
      expected.push(...said(result));
    }
    expect(heard).toEqual(expected);
    expect(heard).toContain("destroy delete alice");
  });

  it("never writes a secret in plaintext to the state file, and gives it back to the program as a secret", { timeout: SLOW }, async () => {
    const engine = engineFor(program(TWO_USERS));
    const up = await engine.up();
    expectOk(up);
    expect(up.outputs.alicePassword).toBe(PASSWORD);
    const text = readFileSync(path.join(dir, "state.json"), "utf8");
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(ADMIN.secret);
    // Secret in the user's inputs and outputs and in the stack output (additionalSecretOutputs), encrypted each time.
    expect(text.match(/"ciphertext": "v1:/g)?.length).toBeGreaterThanOrEqual(3);
    const stack = engine.readState().find((r) => r.type === "pulumi:pulumi:Stack")!;
    expect(stack.outputs.alicePassword).toMatchObject({ value: PASSWORD });
    // A wrong passphrase cannot read it.
    expect(() => new TestEngine({ ...engine.options, passphrase: "wrong" }).readState()).toThrow(/incorrect passphrase/);
  });

  it("a failing resource ends the run with its error, keeping what was done", { timeout: SLOW }, async () => {
    const engine = engineFor(
      program(`
const alice = new kasm.User("alice", { username: "alice", firstName: "Alice" });
const clash = new kasm.User("clash", { username: "existing" }, { dependsOn: alice });
const after = new kasm.User("after", { username: "after" }, { dependsOn: clash });
`),
    );
    const up = await engine.up();
    expect(up.ok).toBe(false);
    // Kasm has a user 'existing': the check of clash finds it, so the run ends before its create.
    expect(up.errors).toEqual([{ urn: expect.stringMatching(/::clash$/), message: expect.stringMatching(/check failed: .*User 'existing' already exists/) }]);
    expect(ops(up)).toMatchObject({ alice: "create" });
    expect(ops(up).after).toBeUndefined();
    expect(Object.keys(await usersInKasm()).sort()).toEqual(["alice", "existing"]);
    expect(engine.readState().map((r) => r.urn.split("::").pop())).toEqual(["engine-test-dev", "alice"]);

    const badInput = engineFor(program(`new kasm.User("bad", { username: "two words" });`), { stateFile: path.join(dir, "other.json") });
    const preview = await badInput.preview();
    expect(preview.ok).toBe(false);
    expect(preview.errors[0].message).toMatch(/check failed: username/);

    // A reason that names its property already is not led by it twice.
    const badRow = engineFor(program(`new kasm.UserSet("team", { users: [{ username: "bob", realm: "nis" }] });`), { stateFile: path.join(dir, "rows.json") });
    const rowPreview = await badRow.preview();
    expect(rowPreview.errors[0].message).toMatch(/check failed: users\[0\]\.realm: 'nis' is not one of ldap, local, oidc, saml/);
  });

  it("keeps an object that failed to initialise, with its id, and updates it on the next up", { timeout: SLOW }, async () => {
    const calls = path.join(dir, "calls.log");
    // A local dynamic provider whose create leaves a half-made object the first time.
    const body = (fail: boolean) => `
const fs = require("fs");
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    fs.appendFileSync(${JSON.stringify(calls)}, "create\\n");
    if (${fail}) throw Object.assign(new Error("not ready"), { id: "half-1", properties: { size: inputs.size, ready: false }, reasons: ["not ready"] });
    return { id: "whole-1", outs: { size: inputs.size, ready: true } };
  },
  async update(id, olds, news) {
    fs.appendFileSync(${JSON.stringify(calls)}, "update " + id + "\\n");
    return { outs: { size: news.size, ready: true } };
  },
  async diff(id, olds, news) { return { changes: olds.size !== news.size }; },
};
new pulumi.dynamic.Resource(provider, "thing", { size: 1 });
`;
    const engine = engineFor(program(body(true)));
    const up = await engine.up();
    expect(up.ok).toBe(false);
    expect(up.errors[0]).toMatchObject({ urn: expect.stringMatching(/::thing$/), initFailure: { id: "half-1", reasons: ["not ready"] } });
    const thing = engine.readState().find((r) => r.urn.endsWith("::thing"))!;
    expect(thing).toMatchObject({ id: "half-1", outputs: { ready: false }, initErrors: ["not ready"] });

    program(body(false));
    const retry = await engine.up();
    expectOk(retry);
    expect(ops(retry).thing).toBe("update");
    expect(readFileSync(calls, "utf8")).toBe("create\nupdate half-1\n");
  });

  it("replaces create-before-delete by default, delete-before-create when asked", { timeout: SLOW }, async () => {
    const calls = path.join(dir, "calls.log");
    const body = (version: number, dbr: boolean) => `
const fs = require("fs");
const log = ${JSON.stringify(calls)};
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { fs.appendFileSync(log, "create v" + inputs.version + "\\n"); return { id: "id-v" + inputs.version, outs: inputs }; },
  async delete(id) { fs.appendFileSync(log, "delete " + id + "\\n"); },
  async diff(id, olds, news) { return { changes: olds.version !== news.version, replaces: olds.version !== news.version ? ["version"] : [] }; },
};
new pulumi.dynamic.Resource(provider, "thing", { version: ${version} }, { deleteBeforeReplace: ${dbr} });
`;
    const engine = engineFor(program(body(1, false)));
    expectOk(await engine.up());
    program(body(2, false));
    const cbr = await engine.up();
    expectOk(cbr);
    expect(ops(cbr).thing).toBe("replace");
    program(body(3, true));
    expectOk(await engine.up());
    expect(readFileSync(calls, "utf8")).toBe("create v1\ncreate v2\ndelete id-v1\ndelete id-v2\ncreate v3\n");
    expect(
      engine
        .readState()
        .filter((r) => r.custom)
        .map((r) => r.id),
    ).toEqual(["id-v3"]);
  });

  describe("policy packs", () => {
    function pack(): string {
      const packDir = path.join(dir, "pack");
      mkdirSync(packDir, { recursive: true });
      writeFileSync(path.join(packDir, "package.json"), JSON.stringify({ name: "engine-test-pack", version: "0.0.1" }));
      writeFileSync(path.join(packDir, "PulumiPolicy.yaml"), "runtime: nodejs\ndescription: A test pack\n");
      writeFileSync(
        path.join(packDir, "index.js"),
        `const { PolicyPack } = require("@pulumi/policy");
new PolicyPack("engine-test-pack", {
  policies: [
    {
      name: "users-have-first-names",
      description: "Every user has a first name.",
      enforcementLevel: "mandatory",
      validateResource: (args, report) => {
        if (args.type !== ${JSON.stringify(USER)}) return;
        if ("__provider" in args.props) report("the engine leaked __provider");
        if (!args.props.firstName) report("user " + args.props.username + " has no first name");
      },
    },
    {
      name: "few-users",
      description: "At most max users.",
      enforcementLevel: "advisory",
      configSchema: { properties: { max: { type: "number", default: 1 } } },
      validateStack: (args, report) => {
        const users = args.resources.filter((r) => r.type === ${JSON.stringify(USER)});
        if (users.length > args.getConfig().max) report(users.length + " users, more than " + args.getConfig().max);
      },
    },
  ],
});
`,
      );
      return packDir;
    }

    const NAMELESS = `
new kasm.User("alice", { username: "alice", firstName: "Alice" });
new kasm.User("nameless", { username: "nameless" });
`;

    it("preview reports violations; a mandatory one fails up before any change", { timeout: SLOW }, async () => {
      const engine = engineFor(program(NAMELESS), { policyPacks: [{ dir: pack() }] });
      const preview = await engine.preview();
      expect(preview.ok).toBe(false);
      expect(preview.policyViolations).toEqual(
        expect.arrayContaining([
          {
            policyPack: "engine-test-pack@v0.0.1",
            policyName: "users-have-first-names",
            enforcementLevel: "mandatory",
            message: expect.stringContaining("user nameless has no first name"),
            urn: expect.stringMatching(/::nameless$/),
          },
          expect.objectContaining({ policyName: "few-users", enforcementLevel: "advisory", message: expect.stringContaining("2 users, more than 1") }),
        ]),
      );
      expect(preview.policyViolations.filter((v) => v.enforcementLevel === "mandatory")).toHaveLength(1);

      const up = await engine.up();
      expect(up.ok).toBe(false);
      expect(up.resources).toEqual([]);
      expect(up.errors[0].message).toMatch(/mandatory policy violation engine-test-pack@v0.0.1\/users-have-first-names/);
      expect(Object.keys(await usersInKasm())).toEqual(["existing"]);
      expect(engine.readState()).toEqual([]);
    });

    it("takes the pack's configuration: enforcement levels and policy properties", { timeout: SLOW }, async () => {
      const config = { "users-have-first-names": "advisory" as const, "few-users": { max: 5 } };
      const engine = engineFor(program(NAMELESS), { policyPacks: [{ dir: pack(), config }] });
      const up = await engine.up();
      expectOk(up);
      expect(up.policyViolations.map((v) => `${v.policyName} ${v.enforcementLevel}`)).toEqual(["users-have-first-names advisory"]);
      expect(Object.keys(await usersInKasm()).sort()).toEqual(["alice", "existing", "nameless"]);
    });
  });
});
