/**
 * Take-over the Pulumi way, through the real `pulumi` CLI and the native provider plugin, with a
 * YAML program and two installations, each on its own explicit provider: `prod`, an emulator
 * speaking the released product's names (`apiNames: product`), and `lab`, one speaking the spec's.
 *
 * - `pulumi import` of a user, and `pulumi import --file` of the list `kasm-import
 *   --pulumi-import-file` writes (a staging config made outside the program), write their
 *   declarations (`--out`); added to the program, they preview without change and without a request.
 * - The `import` resource option with a declared value that differs from Kasm's previews the
 *   import and, after it, the field-level update; `up` applies both. On the second provider the
 *   same option with matching values previews the import alone.
 * - An edit of a field that names the object (the image of a group's workspace) previews as a
 *   replace naming the field.
 * - A lookup (`fn::invoke` of `kasm:index:getUser`) on the second provider reads that installation.
 * - `destroy` removes everything from both installations.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, REPO, SLOW } from "../e2e/helpers";
import { explicitProvider, pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, measuredStep, PulumiCli, type CliResult } from "./pulumi-cli";

const run = promisify(execFile);
const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const CHROME = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
const FIREFOX = "2b3c4d5e6f7a48b9c0d1e2f3a4b5c6d7";
const GROUP = "3c4d5e6f7a8b49c0d1e2f3a4b5c6d7e8";
const PROD_URN = "urn:pulumi:dev::native-take-over::pulumi:providers:kasm::prod";

/** The program's head: the two explicit providers, then whatever resources the test adds. */
function providers(prod: TestEmulator, lab: TestEmulator): string {
  return `name: native-take-over
runtime: yaml
${pluginFromCheckout()}variables:
  # A lookup (Invoke) on the lab's provider: a user the program does not manage.
  turingOnLab:
    fn::invoke:
      function: kasm:index:getUser
      arguments:
        username: turing
      options:
        provider: \${lab}
outputs:
  turingId: \${turingOnLab.userId}
resources:
${explicitProvider("prod", prod.url, "product")}${explicitProvider("lab", lab.url, "spec")}`;
}

/** The resources of what `pulumi import --out` wrote (its `resources:` block, without the heading). */
function generatedResources(file: string): string {
  const text = readFileSync(file, "utf8");
  expect(text.startsWith("resources:\n"), text).toBe(true);
  return text.slice("resources:\n".length);
}

/** A CLI command's result, failing with its output unless it succeeded. */
function succeeded<R extends CliResult>(result: R): R {
  if (result.code !== 0) throw new Error(`pulumi exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** One step of `preview --json`: its operation, and the field-level diff when the engine has one. */
interface PlannedStep {
  readonly urn: string;
  readonly op: string;
  readonly detailedDiff?: Record<string, { readonly kind: string }>;
}

/** The steps `preview --json` planned for the resource named `name`, in order. */
function stepsOf(preview: CliResult, name: string): PlannedStep[] {
  const plan = JSON.parse(preview.stdout.slice(preview.stdout.indexOf("{"))) as { steps: PlannedStep[] };
  return plan.steps.filter((s) => s.urn.endsWith(`::${name}`));
}

describe.skipIf(!hasPulumi)("taking objects over with the native provider through the pulumi CLI (YAML, two installations)", () => {
  let dir: string;
  let prod: TestEmulator;
  let lab: TestEmulator;
  const figures: string[] = [];
  /** The staging config's resource name, as kasm-import's list gives it. */
  let stagingName = "";

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-native-take-over-"));
    prod = await startTestEmulator(
      {
        zones: [{ zone_id: ZONE, zone_name: "default" }],
        groups: [{ group_id: GROUP, name: "Engineering" }],
        images: [
          { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
          { image_id: FIREFOX, name: "kasmweb/firefox:1.16.0", friendly_name: "Firefox" },
        ],
        users: [
          { username: "hopper", first_name: "Grace", last_name: "Hopper" },
          { username: "lovelace", first_name: "A" },
        ],
      },
      { apiNames: "product" },
    );
    lab = await startTestEmulator({ users: [{ username: "turing", first_name: "Alan" }] }, { apiNames: "spec" });
  });
  afterAll(async () => {
    console.log(`native provider, take-over, two installations:\n  ${figures.join("\n  ")}`);
    await prod?.close();
    await lab?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One CLI step, with the requests it sent to either installation and how long it took. */
  const step = async <R extends CliResult>(label: string, run: () => Promise<R>) => {
    const labBefore = lab.requests.length;
    const result = await measuredStep(prod, figures, label, run);
    return { ...result, labRequests: lab.requests.slice(labBefore) };
  };
  const users = async (emulator: TestEmulator, username: string) =>
    ((await emulator.specCall("get_users")).body.users as { username: string; first_name?: string; user_id: string }[]).filter((u) => u.username === username);
  const groupImages = async () =>
    ((await prod.specCall("get_images_group", { target_group: { group_id: GROUP } })).body.images as { image_id: string }[]).map((i) =>
      i.image_id.replace(/-/g, ""),
    );
  const stagingConfigs = async () =>
    (await prod.specCall("get_staging_configs")).body.staging_configs as { staging_config_id: string; image_id: string; num_sessions: number }[];

  it("imports with generated code that previews without change, previews an import option's update field by field and a replace by its field, across two installations", {
    timeout: SLOW,
  }, async () => {
    const programDir = path.join(dir, "program");
    mkdirSync(programDir, { recursive: true });
    const programFile = path.join(programDir, "Pulumi.yaml");
    writeFileSync(programFile, providers(prod, lab));
    const cli = new PulumiCli({ programDir, stack: "dev", workDir: path.join(dir, "work"), passphrase: PASSPHRASE, config: {}, secretKeys: [] });
    await cli.init();
    succeeded(await step("up (the two providers)", () => cli.up()));
    // The lookup ran on the lab's installation, not on prod's.
    expect(await cli.outputs()).toEqual({ turingId: (await users(lab, "turing"))[0].user_id });

    // Made outside the program: a staging config (the user is in the seed).
    await prod.specCall("create_staging_config", { target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 2, expiration: 1 } });
    const [staging] = await stagingConfigs();
    const [hopper] = await users(prod, "hopper");

    // `pulumi import` reads the object through the plugin and writes its declaration.
    const userFile = path.join(dir, "hopper.yaml");
    const importedUser = await step("import (one user)", () =>
      cli.run([
        "import",
        "kasm:index:User",
        "hopper",
        hopper.user_id,
        "--provider",
        `prod=${PROD_URN}`,
        "--yes",
        "--protect=false",
        "--out",
        userFile,
        "--stack",
        "dev",
      ]),
    );
    expect(importedUser.code, importedUser.stdout + importedUser.stderr).toBe(0);
    writeFileSync(programFile, readFileSync(programFile, "utf8") + generatedResources(userFile));

    // kasm-import lists the staging configs for `pulumi import --file`, on the explicit provider.
    const listFile = path.join(dir, "resources.json");
    const listed = await run(
      process.execPath,
      [path.join(REPO, "dist", "importer", "cli.js"), "--only", "staging-configs", "--pulumi-import-file", listFile, "--pulumi-import-provider", PROD_URN],
      {
        env: { ...process.env, KASM_BASE_URL: prod.url, KASM_API_KEY: ADMIN.key, KASM_API_KEY_SECRET: ADMIN.secret, KASM_API_NAMES: "product" },
      },
    );
    expect(listed.stdout).toContain("Wrote 1 resources");
    const [stagingEntry] = (JSON.parse(readFileSync(listFile, "utf8")) as { resources: { name: string; id: string }[] }).resources;
    stagingName = stagingEntry.name;
    expect(stagingEntry.id).toBe(staging.staging_config_id);
    const stagingFile = path.join(dir, "staging.yaml");
    const importedList = await step("import --file (kasm-import's list)", () =>
      cli.run(["import", "--file", listFile, "--yes", "--protect=false", "--out", stagingFile, "--stack", "dev"]),
    );
    expect(importedList.code, importedList.stdout + importedList.stderr).toBe(0);
    expect([...importedUser.requests, ...importedList.requests].every((line) => !/^(update|create|delete)_/.test(line))).toBe(true);
    writeFileSync(programFile, readFileSync(programFile, "utf8") + generatedResources(stagingFile));
    const program = readFileSync(programFile, "utf8");
    expect(program).toContain("username: hopper");
    expect(program).toContain("lastName: Hopper");
    expect(program).toContain(`imageId: ${CHROME}`);
    expect(program).toContain("numSessions: 2");

    const same = await step("preview (the generated code)", () => cli.steps("preview"));
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.ops).toMatchObject({ hopper: "same", [stagingName]: "same" });
    expect(same.requests).toEqual([]);

    // The import option: lovelace's first name differs from Kasm's; turing's on the lab matches.
    const [lovelace] = await users(prod, "lovelace");
    const [turing] = await users(lab, "turing");
    writeFileSync(
      programFile,
      `${program}  lovelace:
    type: kasm:index:User
    properties:
      username: lovelace
      firstName: Ada
    options:
      provider: \${prod}
      import: "${lovelace.user_id}"
  turing:
    type: kasm:index:User
    properties:
      username: turing
      firstName: Alan
    options:
      provider: \${lab}
      import: "${turing.user_id}"
  chromeForEngineering:
    type: kasm:index:GroupWorkspace
    properties:
      groupId: "${GROUP}"
      imageId: "${CHROME}"
    options:
      provider: \${prod}
`,
    );
    const planned = await step("preview (import options)", () => cli.run(["preview", "--json", "--show-sames", "--stack", "dev"]));
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    const lovelaceSteps = stepsOf(planned, "lovelace");
    expect(lovelaceSteps.map((s) => s.op)).toEqual(["import", "update"]);
    // Only the declared field that differs: what the program leaves out (lastName, locked, ...) stays as Kasm has it.
    expect(lovelaceSteps[1].detailedDiff).toEqual({ firstName: expect.objectContaining({ kind: "update" }) });
    expect(stepsOf(planned, "turing").map((s) => s.op)).toEqual(["import"]);
    expect([...planned.requests, ...planned.labRequests].every((line) => !/^(update|create|delete)_/.test(line))).toBe(true);
    expect((await users(prod, "lovelace"))[0].first_name).toBe("A");

    const applied = await step("up (import options)", () => cli.steps("up"));
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.errors).toEqual({});
    expect((await users(prod, "lovelace"))[0].first_name).toBe("Ada");
    expect((await users(lab, "turing"))[0].first_name).toBe("Alan");
    const state = JSON.parse(succeeded(await cli.run(["stack", "export", "--stack", "dev"])).stdout).deployment.resources as {
      urn: string;
      id?: string;
      provider?: string;
    }[];
    expect(state.find((r) => r.urn.endsWith("::turing"))).toMatchObject({ id: turing.user_id, provider: expect.stringContaining("::lab::") });
    expect(state.find((r) => r.urn.endsWith("::lovelace"))).toMatchObject({ id: lovelace.user_id, provider: expect.stringContaining("::prod::") });

    // A group's workspace is named by the group and the image: another image replaces it, and the preview says which field.
    writeFileSync(programFile, readFileSync(programFile, "utf8").replace(`imageId: "${CHROME}"`, `imageId: "${FIREFOX}"`));
    const replacing = await step("preview (a replace key edited)", () => cli.run(["preview", "--json", "--show-sames", "--stack", "dev"]));
    expect(replacing.code, replacing.stdout + replacing.stderr).toBe(0);
    const accessSteps = stepsOf(replacing, "chromeForEngineering");
    expect(accessSteps.map((s) => s.op)).toContain("replace");
    expect(accessSteps.find((s) => s.op === "replace")?.detailedDiff).toEqual({ imageId: expect.objectContaining({ kind: "update-replace" }) });
    expect(stepsOf(replacing, stagingName).map((s) => s.op)).toEqual(["same"]);
    expect(replacing.requests.every((line) => !/^(update|create|delete)_/.test(line))).toBe(true);

    const replaced = await step("up (a replace key edited)", () => cli.steps("up"));
    expect(replaced.code, replaced.stdout + replaced.stderr).toBe(0);
    expect(replaced.ops).toMatchObject({ chromeForEngineering: "replace" });
    expect(await groupImages()).toEqual([FIREFOX]);

    const destroy = await step("destroy", () => cli.steps("destroy"));
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(await stagingConfigs()).toEqual([]);
    expect(await groupImages()).toEqual([]);
    expect([...(await users(prod, "hopper")), ...(await users(prod, "lovelace")), ...(await users(lab, "turing"))]).toEqual([]);
  });
});
