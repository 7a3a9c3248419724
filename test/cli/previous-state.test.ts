/**
 * A stack written by the previous version of pulumi-kasm keeps working with this one, through the
 * `pulumi` CLI. Its state holds each resource's serialized provider as that version wrote it (a
 * closure that loads `pulumi-kasm/provider` by name and calls its `configure` and
 * `providers[kind]`), and Pulumi's dynamic-provider host runs the state's copy, not the
 * program's, to refresh a resource and to delete one the program dropped. The stack in
 * fixtures/previous-state/ (`deployment.json`, its settings and the emulator's data) was written by
 * the version its README names, with `make.ts` there.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { SLOW } from "../e2e/helpers";
import { FIXTURE_KEY, FIXTURE_PASSPHRASE } from "./fixtures/previous-state/fixture";
import { hasPulumi, PulumiCli } from "./pulumi-cli";

const FIXTURE = path.join(__dirname, "fixtures", "previous-state");

describe.skipIf(!hasPulumi)("a stack written by the previous version, through the pulumi CLI", () => {
  let dir: string;
  let emulator: TestEmulator;
  let cli: PulumiCli;
  let programDir: string;

  /** The users Kasm holds, by username, with their first names. */
  const usersInKasm = async () =>
    Object.fromEntries(
      ((await emulator.call("get_users", {}, FIXTURE_KEY)).body.users as { username: string; first_name: string }[]).map((u) => [u.username, u.first_name]),
    );
  const stagingConfigsInKasm = async () => ((await emulator.call("get_staging_configs", {}, FIXTURE_KEY)).body.staging_configs as unknown[]).length;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-previous-state-"));
    programDir = path.join(dir, "program");
    cpSync(path.join(FIXTURE, "program"), programDir, { recursive: true });
    // The emulator resumes from the data the previous version's run left (the seed is then ignored).
    cpSync(path.join(FIXTURE, "emulator.json"), path.join(dir, "emulator.json"));
    emulator = await startTestEmulator({}, { dataFile: path.join(dir, "emulator.json"), apiNames: "spec" });
    cli = new PulumiCli({ programDir, stack: "dev", workDir: path.join(dir, "work"), passphrase: FIXTURE_PASSPHRASE, config: {}, secretKeys: [] });
    await cli.init();
    // The stack's own settings (their secrets encrypted under its salt), then its state, as written.
    cpSync(path.join(FIXTURE, "Pulumi.dev.yaml"), path.join(programDir, "Pulumi.dev.yaml"));
    // The state's default provider holds the settings of the last up, and `pulumi refresh`
    // configures from them without running the program: the installation's address is the one
    // thing that differs here (the emulator's port), so it is the one thing changed in the copy.
    const recorded = /kasm:baseUrl: (\S+)/.exec(readFileSync(path.join(FIXTURE, "Pulumi.dev.yaml"), "utf8"))?.[1];
    expect(recorded).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const deployment = path.join(dir, "deployment.json");
    writeFileSync(deployment, readFileSync(path.join(FIXTURE, "deployment.json"), "utf8").replaceAll(`"${recorded}"`, `"${emulator.url}"`));
    await cli.ok(["stack", "import", "--stack", "dev", "--file", deployment]);
    await cli.ok(["config", "set", "--stack", "dev", "kasm:baseUrl", emulator.url]);
  }, SLOW);
  afterAll(async () => {
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("holds the previous version's serialized providers, which name the package and the kind only", () => {
    const state = JSON.parse(readFileSync(path.join(FIXTURE, "deployment.json"), "utf8"));
    const providers = state.deployment.resources
      .filter((r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic/kasm:"))
      .map((r: { inputs: { __provider: string } }) => r.inputs.__provider);
    expect(providers).toHaveLength(4);
    for (const provider of providers) expect(provider).toContain('require("pulumi-kasm/provider").providers[kind]');
  });

  it("refresh reads every resource through the state's providers, and a preview then shows no change", { timeout: SLOW }, async () => {
    const before = emulator.requests.length;
    const refresh = await cli.steps("refresh");
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(refresh.errors).toEqual({});
    expect(refresh.ops).toEqual({ ada: "same", "ada-attributes": "same", chrome: "same", team: "same", "previous-state-dev": "same" });
    // Each was read from Kasm: the user, its attributes, the staging config and the set's users.
    const reads = emulator.requests.slice(before).map((line) => line.split(" ")[0]);
    expect(reads).toEqual(expect.arrayContaining(["get_attributes", "get_staging_config"]));
    expect(reads.some((operation) => operation === "get_user" || operation === "get_users")).toBe(true);
    const preview = await cli.run(["preview", "--expect-no-changes", "--stack", "dev"]);
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  });

  it("an edit updates in place, and the resources the program drops are deleted by the state's providers", { timeout: SLOW }, async () => {
    const index = path.join(programDir, "index.ts");
    const program = readFileSync(index, "utf8");
    const edited = program
      .replace('firstName: "Ada"', 'firstName: "Augusta"')
      .replace('{ username: "alan", firstName: "Alan" }', '{ username: "alan", firstName: "Alan M." }')
      .replace(/^new kasm\.UserAttributes.*\n/m, "")
      .replace(/^new kasm\.StagingConfig.*\n/m, "");
    expect(edited).not.toBe(program);
    writeFileSync(index, edited);
    const up = await cli.steps("up");
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const { "previous-state-dev": stack, ...resources } = up.ops;
    expect(stack).toBe("same");
    expect(resources).toEqual({ ada: "update", team: "update", "ada-attributes": "delete", chrome: "delete" });
    expect(await usersInKasm()).toMatchObject({ ada: "Augusta", alan: "Alan M.", grace: "Grace" });
    expect(await stagingConfigsInKasm()).toBe(0);
  });

  it("destroy deletes the rest", { timeout: SLOW }, async () => {
    const destroy = await cli.steps("destroy");
    expect(destroy.code, destroy.stderr).toBe(0);
    const users = await usersInKasm();
    for (const username of ["ada", "alan", "grace"]) expect(users[username], username).toBeUndefined();
  });
});
