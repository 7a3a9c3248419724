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
import { pluginFromCheckout } from "./native-yaml-programs";
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

  it("an up killed while creating a User (dynamic): the lock, pulumi cancel, the pending create, the refusal naming adopt, and adopt taking it over", {
    timeout: SLOW,
  }, async () => {
    const { cli, programDir } = await typescriptStack("killed-dynamic", `new kasm.User("ada", { username: "ada", firstName: "Ada" });`);
    const adaId = await killedWhileCreating(cli, "ada");
    const urn = "urn:pulumi:dev::killed-dynamic::pulumi-nodejs:dynamic/kasm:User::ada";

    // The killed run's lock stays: the next command is refused until pulumi cancel removes it.
    const locked = await cli.up();
    expect(locked.code).not.toBe(0);
    expect(locked.stdout + locked.stderr).toContain("the stack is currently locked by 1 lock(s)");
    expect(locked.stdout + locked.stderr).toMatch(/\.pulumi\/locks\/organization\/killed-dynamic\/dev\/[0-9a-f-]+\.json/);
    await cli.ok(["cancel", "--yes", "--stack", "dev"]);

    // The create is pending in the state; the next up lists it, and its create is refused with the way out.
    expect((await cli.exported()).pending_operations).toEqual([expect.objectContaining({ type: "creating", resource: expect.objectContaining({ urn }) })]);
    const refused = await step("up (the user the killed run made)", () => cli.up());
    const printed = refused.stdout + refused.stderr;
    expect(refused.code).not.toBe(0);
    expect(printed).toContain(`* ${urn}, interrupted while creating`);
    expect(printed).toContain(`User 'ada' already exists in Kasm at ${emulator.url} (user ${adaId})`);
    expect(printed).toContain("`adopt: true` takes it over too, and `pulumi refresh --yes --clear-pending-creates` drops the pending create that `up` left.");
    expect(printed).not.toContain(ADMIN.secret);

    // A refresh without a flag asks about pending creates only in a terminal: run so, it leaves them.
    expect((await cli.run(["refresh", "--yes", "--stack", "dev"])).code).toBe(0);
    expect((await cli.exported()).pending_operations).toHaveLength(1);
    // Pulumi 3.276: --import-pending-creates takes the flag before each word (else the id is an argument refresh refuses) ...
    const oneFlag = await cli.run(["refresh", "--yes", "--stack", "dev", "--import-pending-creates", urn, adaId]);
    expect(oneFlag.code).not.toBe(0);
    expect(oneFlag.stdout + oneFlag.stderr).toContain("accepts 0 arg(s), received 1");
    // ... and drops the pending create but records nothing.
    const imported = await cli.run(["refresh", "--yes", "--stack", "dev", "--import-pending-creates", urn, "--import-pending-creates", adaId]);
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    const afterImport = await cli.exported();
    expect(afterImport.pending_operations ?? []).toEqual([]);
    expect((afterImport.resources ?? []).map((r) => r.urn)).not.toContain(urn);

    // The way out: adopt takes the user over, with no create sent.
    writeFileSync(
      path.join(programDir, "index.ts"),
      `import * as kasm from "pulumi-kasm";\nnew kasm.User("ada", { username: "ada", firstName: "Ada", adopt: true });\n`,
    );
    const adopted = await step("up (adopt: true)", () => cli.steps("up"));
    expect(adopted.code, adopted.stdout + adopted.stderr).toBe(0);
    expect(adopted.requests.map((line) => line.split(" ")[0])).not.toContain("create_user");
    expect((await cli.exported()).resources?.find((r) => r.urn === urn)?.id).toBe(adaId);
    const again = await cli.steps("preview");
    expect(again.ops.ada).toBe("same");
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
});
