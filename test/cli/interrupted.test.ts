/**
 * Converging after an interruption, through the `pulumi` CLI, as README.md's "When a program
 * fails" tells it:
 * - an answer lost after Kasm committed (a 503 after every attempt of a membership's add, a 429
 *   after a UserSet's import): the next `up`, or the same one, records what Kasm holds, with no
 *   error and no second write;
 * - an `up` killed while a create was in flight (the whole process group, as a cancelled CI job):
 *   the lock it leaves, which `pulumi cancel` removes; the pending create Pulumi keeps, which the
 *   next `up` lists; the provider's refusal of the object that create made, naming the way out for
 *   each form (the dynamic resource: `adopt: true`; the native one: `pulumi import`, with the id),
 *   and `pulumi refresh --clear-pending-creates`. With Pulumi 3.276, `--import-pending-creates
 *   <urn> <id>` drops the pending create without recording the resource: pinned here, since the
 *   README says so;
 * - a file backend's `<stack>.json.attrs` left empty (a kill while the CLI wrote it): `failed to
 *   load checkpoint: EOF`, until that file is deleted.
 */
import { mkdirSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { writeProgram } from "../helpers/options-programs";
import { PASSPHRASE, SLOW, tempDir } from "../e2e/helpers";
import { explicitProvider, pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, measuredStep, stackOn, type PulumiCli } from "./pulumi-cli";

const ENGINEERING = "e0e0e0e0e0e04e0e0e0e0e0e0e0e0003";
/** How long the emulator holds a create_user before running it: long enough to kill the run meanwhile. */
const HELD_MS = 6_000;

describe.skipIf(!hasPulumi)("converging after an interruption, through the pulumi CLI", () => {
  let tmp: ReturnType<typeof tempDir>;
  let emulator: TestEmulator;
  const figures: string[] = [];
  const step = <R extends object>(label: string, run: () => Promise<R>) => measuredStep(emulator, figures, label, run);

  beforeAll(async () => {
    tmp = tempDir("cli-interrupted");
    emulator = await startTestEmulator({ groups: [{ group_id: ENGINEERING, name: "Engineering" }], users: [{ username: "alice" }] }, { apiNames: "spec" });
  });
  afterAll(async () => {
    if (figures.length) console.log(`interruptions through the CLI:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    tmp?.remove();
  });

  /** A stack of `dev` of a TypeScript program, in a folder of its own. */
  async function typescriptStack(name: string, body: string): Promise<{ cli: PulumiCli; programDir: string; backend: string }> {
    const caseDir = path.join(tmp.dir, name);
    const programDir = writeProgram(caseDir, body, name);
    const cli = await stackOn(emulator.url, ADMIN, programDir, path.join(caseDir, "work"), PASSPHRASE);
    return { cli, programDir, backend: path.join(caseDir, "work", "backend") };
  }

  /** Start `up`, kill it (the whole process group) once the emulator holds its create_user, and wait until that create ran. */
  async function killedWhileCreating(cli: PulumiCli, username: string): Promise<string> {
    await emulator.faults({ rate: 1, kinds: ["latency"], operations: ["create_user"], latencyMs: HELD_MS });
    const run = cli.start(["up", "--yes", "--skip-preview", "--stack", "dev"]);
    try {
      for (let waited = 0; ; waited += 200) {
        const faults = (await emulator.raw("GET", "/__emulator/faults")).body;
        if ((faults.injected?.["latency:before"] ?? 0) > 0) break;
        if (waited > 120_000) throw new Error(`the up never sent create_user:\n${(await Promise.race([run.done, Promise.resolve({ stdout: "" })])).stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      run.kill();
      await emulator.faults(null);
    }
    expect((await run.done).code).not.toBe(0);
    // The emulator runs the create it held after the client is gone: Kasm has the user, the state does not.
    for (let waited = 0; waited < HELD_MS + 10_000; waited += 250) {
      const found = await emulator.specCall("get_user", { target_user: { username } });
      if (found.status === 200 && found.body.user) return String(found.body.user.user_id).replace(/-/g, "");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`Kasm never made user ${username}`);
  }

  it("a membership whose add committed but was answered 503 at every attempt: the next up records it, with no error and no write", {
    timeout: SLOW,
  }, async () => {
    const alice = await emulator.userId("alice");
    const { cli } = await typescriptStack("membership", `new kasm.GroupMembership("alice-engineering", { userId: "${alice}", groupId: "${ENGINEERING}" });`);
    await emulator.faults({ rate: 1, kinds: ["503"], operations: ["add_user_group"], phase: "after" });
    let failed;
    try {
      failed = await step("up (every add_user_group answered 503 after it committed)", () => cli.up());
    } finally {
      await emulator.faults(null);
    }
    expect(failed.code).not.toBe(0);
    expect(failed.stdout + failed.stderr).toMatch(/add_user_group \(user \w+, group \w+\): the server failed \(HTTP 503/);
    const groups = (await emulator.specCall("get_user", { target_user: { user_id: alice } })).body.user.groups.map((g: { group_id: string }) => g.group_id);
    expect(groups).toContain(ENGINEERING);

    const next = await step("up (the membership is there)", () => cli.steps("up"));
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.errors).toEqual({});
    expect(next.ops["alice-engineering"]).toBe("create");
    expect(next.requests.map((line) => line.split(" ")[0])).not.toContain("add_user_group");
    const recorded = (await cli.exported()).resources?.find((r) => r.urn.endsWith("::alice-engineering"));
    expect(recorded?.id).toBe(`${alice}:${ENGINEERING}`);
  });

  it("a UserSet whose import committed and was answered 429: one up records every user, none outside the state", { timeout: SLOW }, async () => {
    const { cli } = await typescriptStack(
      "rate-limited",
      `const users = Array.from({ length: 60 }, (_, i) => ({ username: \`limited-\${i}\` }));\nexport const userIds = new kasm.UserSet("team", { users }).userIds;`,
    );
    await emulator.faults({ rate: 1, kinds: ["429"], operations: ["batch_create_user"], phase: "after" });
    let up;
    try {
      up = await step("up (the import answered 429 after it committed)", () => cli.steps("up"));
    } finally {
      await emulator.faults(null);
    }
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.requests.filter((line) => /^batch_create_user \d{3} /.test(line))).toHaveLength(1);
    const inKasm = ((await emulator.specCall("get_users")).body.users as { username: string; user_id: string }[]).filter((u) =>
      u.username.startsWith("limited-"),
    );
    expect(inKasm).toHaveLength(60);
    const userIds = (await cli.outputs()).userIds as Record<string, string>;
    expect(Object.fromEntries(inKasm.map((u) => [u.username, u.user_id.replace(/-/g, "")]))).toEqual(userIds);
  });

  it("an up killed while creating a User (dynamic): the lock and the pending create; kasm-recover refuses an object that differs, then records the one the create made", {
    timeout: SLOW,
  }, async () => {
    const { cli } = await typescriptStack("killed-dynamic", `new kasm.User("ada", { username: "ada", firstName: "Ada" });`);
    const adaId = await killedWhileCreating(cli, "ada");
    const urn = "urn:pulumi:dev::killed-dynamic::pulumi-nodejs:dynamic/kasm:User::ada";

    // The killed run's lock stays: the next command is refused until it is removed.
    const locked = await cli.up();
    expect(locked.code).not.toBe(0);
    expect(locked.stdout + locked.stderr).toContain("the stack is currently locked by 1 lock(s)");
    expect(locked.stdout + locked.stderr).toMatch(/\.pulumi\/locks\/organization\/killed-dynamic\/dev\/[0-9a-f-]+\.json/);

    // Someone changed the user in Kasm meanwhile: it is no longer provably the create's, and is not taken.
    await emulator.specCall("update_user", { target_user: { user_id: adaId, username: "ada", first_name: "Augusta" } });
    const refused = await cli.tool("dist/recover/cli.js", ["--stack", "dev"]);
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stdout).toMatch(/Removed the lock .*killed-dynamic\/dev\/[0-9a-f-]+\.json: the process that took it no longer runs\./);
    expect(refused.stdout).toContain(
      `User ada: Kasm holds an object with its key (id ${adaId}) that differs from the program in firstName, so it is not taken`,
    );
    expect((await cli.exported()).pending_operations).toEqual([expect.objectContaining({ type: "creating", resource: expect.objectContaining({ urn }) })]);
    // The next up still refuses it, naming the way out.
    const still = await cli.up();
    expect(still.code).not.toBe(0);
    expect(still.stdout + still.stderr).toContain(`* ${urn}, interrupted while creating`);
    expect(still.stdout + still.stderr).toContain(`User 'ada' already exists in Kasm at ${emulator.url} (user ${adaId})`);
    expect(still.stdout + still.stderr).not.toContain(ADMIN.secret);

    // As the create made it: recorded, with no write; the next up sends no create.
    await emulator.specCall("update_user", { target_user: { user_id: adaId, username: "ada", first_name: "Ada" } });
    const dryRun = await cli.tool("dist/recover/cli.js", ["--stack", "dev", "--dry-run"]);
    expect(dryRun.code, dryRun.stdout + dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain("--dry-run: nothing was changed (1 of 1 pending creates would be resolved).");
    expect((await cli.exported()).pending_operations).toHaveLength(1);
    const recovered = await step("kasm-recover (the user as the create made it)", () => cli.tool("dist/recover/cli.js", ["--stack", "dev"]));
    expect(recovered.code, recovered.stdout + recovered.stderr).toBe(0);
    expect(recovered.stdout).toContain(`User ada: recorded as the object its interrupted create made (id ${adaId})`);
    expect(recovered.stdout).toContain("Next: pulumi up --yes --stack dev");
    expect(recovered.requests.map((line) => line.split(" ")[0]).filter((op) => op !== "get_user")).toEqual([]);
    const up = await step("up (after kasm-recover)", () => cli.steps("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.ops.ada).toBe("same");
    expect(up.requests).toEqual([]);
    const state = await cli.exported();
    expect(state.pending_operations ?? []).toEqual([]);
    expect(state.resources?.find((r) => r.urn === urn)?.id).toBe(adaId);
    // Nothing left to do: kasm-recover says so.
    const again = await cli.tool("dist/recover/cli.js", ["--stack", "dev"]);
    expect(again.stdout).toContain("No create is pending in stack dev.");
  });

  it("an up killed while creating a native User: pulumi import with the id the refusal names, refresh --clear-pending-creates; then an emptied <stack>.json.attrs", {
    timeout: SLOW,
  }, async () => {
    const caseDir = path.join(tmp.dir, "killed-native");
    const programDir = path.join(caseDir, "program");
    mkdirSync(programDir, { recursive: true });
    writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      `name: killed-native\nruntime: yaml\n${pluginFromCheckout()}resources:\n  grace:\n    type: kasm:index:User\n    properties:\n      username: grace\n      firstName: Grace\n`,
    );
    const cli = await stackOn(emulator.url, ADMIN, programDir, path.join(caseDir, "work"), PASSPHRASE);
    const graceId = await killedWhileCreating(cli, "grace");
    await cli.ok(["cancel", "--yes", "--stack", "dev"]);

    const refused = await step("up (native: the user the killed run made)", () => cli.up());
    const printed = refused.stdout + refused.stderr;
    expect(refused.code).not.toBe(0);
    const command = `pulumi import kasm:index:User grace ${graceId} --yes --protect=false --generate-code=false`;
    expect(printed).toContain(`\`${command}\` takes it into the state as it is`);

    // The command as the message gives it, then the pending create dropped.
    const words = command.split(" ").slice(1);
    await cli.ok([...words, "--stack", "dev"]);
    await cli.ok(["refresh", "--yes", "--stack", "dev", "--clear-pending-creates"]);
    const state = await cli.exported();
    expect(state.pending_operations ?? []).toEqual([]);
    expect(state.resources?.find((r) => r.urn.endsWith("kasm:index:User::grace"))?.id).toBe(graceId);
    const up = await step("up (native, after the import)", () => cli.steps("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.ops.grace).toBe("same");
    expect(up.stdout).not.toContain("pending operations");

    // A kill while the CLI wrote the checkpoint's attributes leaves them empty: every command fails until the file is deleted.
    const stacks = path.join(caseDir, "work", "backend", ".pulumi", "stacks", "killed-native");
    expect(readdirSync(stacks)).toContain("dev.json.attrs");
    truncateSync(path.join(stacks, "dev.json.attrs"), 0);
    const broken = await cli.preview();
    expect(broken.code).not.toBe(0);
    expect(broken.stdout + broken.stderr).toContain("failed to load checkpoint: EOF");
    expect((await cli.run(["stack", "ls"])).stderr).toContain("error: EOF");
    rmSync(path.join(stacks, "dev.json.attrs"));
    const mended = await cli.steps("preview");
    expect(mended.code, mended.stdout + mended.stderr).toBe(0);
    expect(mended.ops.grace).toBe("same");
  });

  it("kasm-recover after a killed up of a YAML program with an explicit provider: the emptied <stack>.json.attrs, the lock and the pending create, in one command", {
    timeout: SLOW,
  }, async () => {
    const caseDir = path.join(tmp.dir, "recover-native");
    const programDir = path.join(caseDir, "program");
    mkdirSync(programDir, { recursive: true });
    writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      `name: recover-native\nruntime: yaml\n${pluginFromCheckout()}resources:\n${explicitProvider("prod", emulator.url)}` +
        `  hopper:\n    type: kasm:index:User\n    properties:\n      username: hopper\n      firstName: Grace\n    options:\n      provider: \${prod}\n`,
    );
    const cli = await stackOn(emulator.url, ADMIN, programDir, path.join(caseDir, "work"), PASSPHRASE);
    const hopperId = await killedWhileCreating(cli, "hopper");
    // A kill while the CLI wrote the checkpoint's attributes leaves them empty (made so here).
    const attributes = path.join(caseDir, "work", "backend", ".pulumi", "stacks", "recover-native", "dev.json.attrs");
    truncateSync(attributes, 0);
    expect((await cli.preview()).stdout + (await cli.preview()).stderr).toContain("failed to load checkpoint: EOF");

    const recovered = await cli.tool("dist/recover/cli.js", ["--stack", "dev"]);
    expect(recovered.code, recovered.stdout + recovered.stderr).toBe(0);
    expect(recovered.stdout).toContain(`Deleted ${attributes}: a killed run left it empty`);
    expect(recovered.stdout).toMatch(/Removed the lock .*\.json: the process that took it no longer runs\./);
    expect(recovered.stdout).toContain(`User hopper: recorded as the object its interrupted create made (id ${hopperId})`);
    expect(recovered.stdout + recovered.stderr).not.toContain(ADMIN.secret);
    const up = await step("up (native, explicit provider, after kasm-recover)", () => cli.steps("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.ops.hopper).toBe("same");
    expect(up.requests).toEqual([]);
    const state = await cli.exported();
    expect(state.pending_operations ?? []).toEqual([]);
    expect(state.resources?.find((r) => r.urn.endsWith("kasm:index:User::hopper"))?.id).toBe(hopperId);
  });
});
