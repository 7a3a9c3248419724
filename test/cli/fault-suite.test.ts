/**
 * The fault suite, through the `pulumi` CLI and its file backend, as a CD pipeline meets faults:
 *
 * - `kill -9` of `pulumi up` (the CLI and every process it started, as a cancelled job) at a
 *   point drawn from a seeded generator, during the creates, the updates and the deletes of a
 *   TypeScript program of users, memberships and staging configs; during the creates of a YAML
 *   program on the native provider; and while a 300-user `UserSet`'s import is in flight. Then the
 *   recovery README.md's "When a run is interrupted" names, two commands and no program edit:
 *   `kasm-recover --stack dev`, then `pulumi up --yes`.
 * - 50% of the API's answers failing (KASM_FAULT_RATE) (HTTP 500, 503, 429 and reset connections, before and after
 *   Kasm commits) during `up`, a change, `refresh` and `destroy`: each phase converges within 3 runs.
 *
 * After each, Kasm is checked against the program and the state: no duplicate, no object the
 * state does not track, nothing left after the destroy, no pending operation, no secret in plain
 * text in `pulumi stack export`. The kill points and the faults are drawn from KASM_FAULT_SEED
 * (printed with the figures), so a failure replays: `KASM_FAULT_SEED=<seed> npx vitest run
 * test/cli/fault-suite.test.ts`. The writes are held 300 ms each while a kill is due, so that
 * some are in flight when it comes: the emulator runs them after the client is gone.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import seedrandom from "seedrandom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { writeProgram } from "../helpers/options-programs";
import { PASSPHRASE, SLOW, tempDir } from "../e2e/helpers";
import { pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, stackOn, type PulumiCli } from "./pulumi-cli";

const SEED = process.env.KASM_FAULT_SEED ?? String(Date.now() % 100_000);
/** The share of API answers that fail in the fault phases (KASM_FAULT_RATE; `npm run bench:faults` soaks at 0.3 and 0.5). */
const RATE = Number(process.env.KASM_FAULT_RATE ?? "0.5");
const ENGINEERING = "e0e0e0e0e0e04e0e0e0e0e0e0e0e0053";
const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a53";
const IMAGES = ["1a2b3c4d5e6f47a8b9c0d1e2f3a4b501", "1a2b3c4d5e6f47a8b9c0d1e2f3a4b502", "1a2b3c4d5e6f47a8b9c0d1e2f3a4b503"];
/** The password every user of the TypeScript program declares: never to be seen in the state in plain text. */
const PASSWORD = "fault-suite-Secret-53";
/** The operations that write, in the spec's words (the emulator's vocabulary here). */
const WRITES = [
  "create_user",
  "update_user",
  "delete_user",
  "add_user_group",
  "remove_user_group",
  "create_staging_config",
  "update_staging_config",
  "delete_staging_config",
  "batch_create_user",
];
const RECOVER = "dist/recover/cli.js";

describe.skipIf(!hasPulumi)("the fault suite through the pulumi CLI", () => {
  let tmp: ReturnType<typeof tempDir>;
  let emulator: TestEmulator;
  const random = seedrandom.alea(SEED);
  const figures: string[] = [`seed ${SEED} (KASM_FAULT_SEED)`];

  beforeAll(async () => {
    tmp = tempDir("cli-fault-suite");
    emulator = await startTestEmulator(
      {
        groups: [{ group_id: ENGINEERING, name: "Engineering" }],
        zones: [{ zone_id: ZONE, zone_name: "default" }],
        images: IMAGES.map((image_id, i) => ({ image_id, name: `kasmweb/app-${i}:1.16.0`, friendly_name: `App ${i}` })),
      },
      { apiNames: "spec" },
    );
  });
  afterAll(async () => {
    console.log(`the fault suite through the CLI:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    tmp?.remove();
  });

  // --- helpers ----------------------------------------------------------------------------------

  /** A whole number from `low` to `high`, drawn from the suite's seed. */
  function draw(low: number, high: number): number {
    return low + Math.floor(random() * (high - low + 1));
  }

  /** The users Kasm holds whose username starts with `prefix`, username to id (no hyphens). */
  async function kasmUsers(prefix: string): Promise<Map<string, string>> {
    const users = (await emulator.specCall("get_users", { page: 0, page_size: 1000 })).body.users as { username: string; user_id: string }[];
    const ours = users.filter((u) => u.username.startsWith(prefix));
    // A duplicate username would be a duplicate object: Kasm refuses one, but the check costs nothing.
    expect(new Set(ours.map((u) => u.username)).size, "duplicate users in Kasm").toBe(ours.length);
    return new Map(ours.map((u) => [u.username, u.user_id.replace(/-/g, "")]));
  }

  /** Start `up`, kill the whole run once `afterWrites` writes have started (each held 300 ms), and wait for those in flight to finish. */
  async function killedUp(cli: PulumiCli, afterWrites: number): Promise<void> {
    await emulator.faults({ rate: 1, kinds: ["latency"], operations: WRITES, latencyMs: 300, seed: SEED });
    const run = cli.start(["up", "--yes", "--skip-preview", "--stack", "dev"]);
    let started = 0;
    try {
      for (let waited = 0; started < afterWrites; waited += 50) {
        started = (await emulator.raw("GET", "/__emulator/faults")).body.injected?.["latency:before"] ?? 0;
        if (waited > 180_000) throw new Error(`the up started only ${started} writes of ${afterWrites}`);
        const finished = await Promise.race([run.done, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]);
        if (finished !== undefined) break;
      }
    } finally {
      run.kill();
    }
    await run.done;
    // The writes in flight run after the client is gone, as Kasm's would.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await emulator.faults(null);
  }

  /** The documented recovery: kasm-recover, then `pulumi up`; both must succeed. */
  async function recovered(cli: PulumiCli, label: string): Promise<void> {
    const before = emulator.requests.length;
    const recover = await cli.tool(RECOVER, ["--stack", "dev"]);
    expect(recover.code, recover.stdout + recover.stderr).toBe(0);
    const up = await cli.up();
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const said = recover.stdout.trim().split("\n");
    const counted = (action: RegExp) => said.filter((line) => action.test(line)).length;
    figures.push(
      `${label}: recovered with kasm-recover and one up (${emulator.requests.length - before} requests); ` +
        `${counted(/: recorded as the object/)} pending create(s) recorded, ${counted(/: Kasm has no such object|creates it again/)} dropped, ${counted(/lock/)} stale lock removed`,
    );
    await expectConverged(cli);
  }

  /** No pending operation, no change left, and no secret in plain text in the state. */
  async function expectConverged(cli: PulumiCli): Promise<void> {
    const exported = await cli.run(["stack", "export", "--stack", "dev"]);
    expect(exported.stdout).not.toContain(PASSWORD);
    expect(exported.stdout).not.toContain(ADMIN.secret);
    expect(JSON.parse(exported.stdout).deployment.pending_operations ?? []).toEqual([]);
    const preview = await cli.steps("preview");
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(Object.entries(preview.ops).filter(([, op]) => op !== "same")).toEqual([]);
  }

  /** The state's ids of the resources of one kind, by resource name. */
  async function stateIds(cli: PulumiCli, kind: string): Promise<Map<string, string>> {
    const resources = (await cli.exported()).resources ?? [];
    return new Map(resources.filter((r) => r.type.endsWith(`:${kind}`)).map((r) => [r.urn.slice(r.urn.lastIndexOf("::") + 2), String(r.id)]));
  }

  /** The TypeScript program: `users` users (`fs-<i>`), each in Engineering, and a staging config per image. */
  function program(users: readonly number[], firstName: string, sessions: number): string {
    return [
      `import * as kasm from "pulumi-kasm";`,
      `for (const i of ${JSON.stringify(users)}) {`,
      `  const user = new kasm.User(\`fs-\${i}\`, { username: \`fs-\${i}\`, firstName: "${firstName}", password: "${PASSWORD}" });`,
      `  new kasm.GroupMembership(\`fs-\${i}-engineering\`, { userId: user.userId, groupId: "${ENGINEERING}" });`,
      `}`,
      ...IMAGES.map((image, i) => `new kasm.StagingConfig("app-${i}", { zoneId: "${ZONE}", imageId: "${image}", numSessions: ${sessions}, expiration: 1 });`),
      "",
    ].join("\n");
  }

  /** Kasm holds exactly the program's users (as the state records them), each in Engineering with `firstName`, and its staging configs. */
  async function expectKasmHolds(cli: PulumiCli, users: readonly number[], firstName: string, sessions: number): Promise<void> {
    const inKasm = await kasmUsers("fs-");
    expect([...inKasm.keys()].sort()).toEqual(users.map((i) => `fs-${i}`).sort());
    const recorded = await stateIds(cli, "User");
    expect(Object.fromEntries(recorded)).toEqual(Object.fromEntries(inKasm));
    for (const [username, id] of inKasm) {
      const user = (await emulator.specCall("get_user", { target_user: { user_id: id } })).body.user;
      expect(user.first_name, username).toBe(firstName);
      expect(
        user.groups.map((g: { group_id: string }) => g.group_id.replace(/-/g, "")),
        username,
      ).toContain(ENGINEERING);
    }
    const configs = ((await emulator.specCall("get_staging_configs")).body.staging_configs as { staging_config_id: string; num_sessions: number }[]) ?? [];
    expect(configs).toHaveLength(IMAGES.length);
    expect(configs.map((c) => c.num_sessions)).toEqual(IMAGES.map(() => sessions));
    expect([...(await stateIds(cli, "StagingConfig")).values()].sort()).toEqual(configs.map((c) => c.staging_config_id.replace(/-/g, "")).sort());
  }

  /** Retry settings for the fault phases: `maxRetries` retries, a few milliseconds apart. */
  async function retriesForFaults(cli: PulumiCli, maxRetries: number): Promise<void> {
    await cli.ok([
      "config",
      "set-all",
      "--stack",
      "dev",
      "--plaintext",
      `kasm:maxRetries=${maxRetries}`,
      "--plaintext",
      "kasm:retryBaseDelayMs=5",
      "--plaintext",
      "kasm:retryMaxDelayMs=20",
    ]);
  }

  /** Run `command` under the faults (50% unless KASM_FAULT_RATE says) until it succeeds, at most 3 times; how many runs it took. */
  async function convergesUnderFaults(label: string, command: () => Promise<{ code: number; stdout: string; stderr: string }>): Promise<number> {
    await emulator.faults({ rate: RATE, seed: `${SEED}-${label}` });
    try {
      for (let run = 1; run <= 3; run++) {
        const result = await command();
        if (result.code === 0) {
          figures.push(`${label} under ${RATE * 100}% faults: converged in ${run} run(s)`);
          return run;
        }
        expect(result.stdout + result.stderr).not.toContain(PASSWORD);
        // Why the run failed, for the figures: the first error each failed resource printed.
        const errors = [
          ...new Set(
            (result.stdout + result.stderr)
              .split("\n")
              .filter((line) => /^\s*error: /.test(line))
              .map((line) => line.trim().slice(0, 160)),
          ),
        ];
        figures.push(`${label}: run ${run} failed: ${errors.slice(0, 3).join(" | ") || "(no error line)"}`);
      }
    } finally {
      await emulator.faults(null);
    }
    throw new Error(`${label} did not converge within 3 runs under ${RATE * 100}% faults (seed ${SEED})`);
  }

  // --- the suite ---------------------------------------------------------------------------------

  it("a TypeScript program of users, memberships and staging configs: killed during creates, updates and deletes, then 50% faults in every phase", {
    timeout: SLOW * 4,
  }, async () => {
    const caseDir = path.join(tmp.dir, "typescript");
    const all = Array.from({ length: 12 }, (_, i) => i);
    const programDir = writeProgram(caseDir, "", "fault-suite");
    writeFileSync(path.join(programDir, "index.ts"), program(all, "One", 1));
    const cli = await stackOn(emulator.url, ADMIN, programDir, path.join(caseDir, "work"), PASSPHRASE);
    // Retries enough for 50% faults: a request fails after 9 attempts 1 time in 512. With 5 attempts (1 in 32) a
    // destroy of some 40 writes failed three runs in a row about once in twenty suites (seed 56181 did).
    await retriesForFaults(cli, 8);

    // Creates: 12 users, 12 memberships and 3 staging configs, 27 writes.
    const createKill = draw(1, 26);
    await killedUp(cli, createKill);
    await recovered(cli, `creates, killed after ${createKill} of 27 writes started`);
    await expectKasmHolds(cli, all, "One", 1);

    // Updates: every user's first name and every staging config's sessions, 15 writes.
    writeFileSync(path.join(programDir, "index.ts"), program(all, "Two", 2));
    const updateKill = draw(1, 14);
    await killedUp(cli, updateKill);
    await recovered(cli, `updates, killed after ${updateKill} of 15 writes started`);
    await expectKasmHolds(cli, all, "Two", 2);

    // Deletes: half the users, with their memberships, 12 writes.
    const kept = all.filter((i) => i % 2 === 0);
    writeFileSync(path.join(programDir, "index.ts"), program(kept, "Two", 2));
    const deleteKill = draw(1, 11);
    await killedUp(cli, deleteKill);
    await recovered(cli, `deletes, killed after ${deleteKill} of 12 writes started`);
    await expectKasmHolds(cli, kept, "Two", 2);

    // 50% faults: an up that adds users, a change, a refresh and the destroy.
    const grown = [...kept, 20, 21, 22, 23];
    writeFileSync(path.join(programDir, "index.ts"), program(grown, "Two", 2));
    await convergesUnderFaults("up (4 users added)", () => cli.up());
    await expectKasmHolds(cli, grown, "Two", 2);
    await expectConverged(cli);
    writeFileSync(path.join(programDir, "index.ts"), program(grown, "Three", 3));
    await convergesUnderFaults("change (every user and config)", () => cli.up());
    await expectKasmHolds(cli, grown, "Three", 3);
    await expectConverged(cli);
    await convergesUnderFaults("refresh", () => cli.refresh());
    await expectConverged(cli);
    await convergesUnderFaults("destroy", () => cli.destroy());
    expect((await kasmUsers("fs-")).size).toBe(0);
    expect(((await emulator.specCall("get_staging_configs")).body.staging_configs ?? []).length).toBe(0);
    expect((await cli.exported()).resources ?? []).toEqual([]);
  });

  it("a YAML program on the native provider, killed during its creates", { timeout: SLOW }, async () => {
    const caseDir = path.join(tmp.dir, "yaml");
    const programDir = path.join(caseDir, "program");
    mkdirSync(programDir, { recursive: true });
    const users = Array.from({ length: 8 }, (_, i) => i);
    const resources = users
      .map(
        (i) =>
          `  ny-${i}:\n    type: kasm:index:User\n    properties:\n      username: ny-${i}\n      firstName: Native\n` +
          `  ny-${i}-engineering:\n    type: kasm:index:GroupMembership\n    properties:\n      userId: \${ny-${i}.userId}\n      groupId: "${ENGINEERING}"\n`,
      )
      .join("");
    writeFileSync(path.join(programDir, "Pulumi.yaml"), `name: fault-suite-yaml\nruntime: yaml\n${pluginFromCheckout()}resources:\n${resources}`);
    const cli = await stackOn(emulator.url, ADMIN, programDir, path.join(caseDir, "work"), PASSPHRASE);
    const kill = draw(1, 15);
    await killedUp(cli, kill);
    await recovered(cli, `YAML (native), killed after ${kill} of 16 writes started`);
    const inKasm = await kasmUsers("ny-");
    expect([...inKasm.keys()].sort()).toEqual(users.map((i) => `ny-${i}`).sort());
    expect(Object.fromEntries(await stateIds(cli, "User"))).toEqual(Object.fromEntries(inKasm));
    await retriesForFaults(cli, 8);
    // The native provider's refresh and destroy are configured from the state's provider, which an up records.
    expect((await cli.up()).code).toBe(0);
    await convergesUnderFaults("YAML refresh", () => cli.refresh());
    await expectConverged(cli);
    await convergesUnderFaults("YAML destroy", () => cli.destroy());
    expect((await kasmUsers("ny-")).size).toBe(0);
    expect((await cli.exported()).resources ?? []).toEqual([]);
  });

  it("a 300-user UserSet killed while its import was in flight", { timeout: SLOW }, async () => {
    const caseDir = path.join(tmp.dir, "user-set");
    const programDir = writeProgram(
      caseDir,
      `const users = Array.from({ length: 300 }, (_, i) => ({ username: \`bulk-\${i}\`, firstName: "Bulk" }));\nexport const count = new kasm.UserSet("team", { users }).count;`,
      "fault-suite-user-set",
    );
    const cli = await stackOn(emulator.url, ADMIN, programDir, path.join(caseDir, "work"), PASSPHRASE);
    await killedUp(cli, 1);
    // Kasm's import takes the rows in batches: the batch in flight committed after the kill.
    const imported = (await kasmUsers("bulk-")).size;
    expect(imported, "the batch the kill interrupted committed").toBeGreaterThan(0);
    await recovered(cli, `UserSet of 300, killed while its import was in flight (${imported} users made)`);
    expect((await cli.outputs()).count).toBe(300);
    const recorded = (await cli.run(["stack", "export", "--stack", "dev"])).stdout;
    const userIds = JSON.parse(recorded).deployment.resources.find((r: { type: string }) => r.type.endsWith(":UserSet")).outputs.userIds;
    expect(userIds).toEqual(Object.fromEntries(await kasmUsers("bulk-")));

    // Under faults: 100 users added and every name changed (one import, 300 updates), then the destroy. With 300
    // writes a run, 8 retries (a request fails 1 time in 512) keep the chance of needing a fourth run below 1 in 10,000.
    await retriesForFaults(cli, 8);
    writeFileSync(
      path.join(programDir, "index.ts"),
      `import * as kasm from "pulumi-kasm";\nconst users = Array.from({ length: 400 }, (_, i) => ({ username: \`bulk-\${i}\`, firstName: "Changed" }));\nexport const count = new kasm.UserSet("team", { users }).count;\n`,
    );
    await convergesUnderFaults("UserSet change (100 added, 300 changed)", () => cli.up());
    await expectConverged(cli);
    const changed = await kasmUsers("bulk-");
    expect(changed.size).toBe(400);
    expect((await cli.outputs()).count).toBe(400);
    await convergesUnderFaults("UserSet destroy (400 users)", () => cli.destroy());
    expect((await kasmUsers("bulk-")).size).toBe(0);
    expect((await cli.exported()).resources ?? []).toEqual([]);
  });
});
