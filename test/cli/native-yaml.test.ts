/**
 * The native provider plugin (`bin/pulumi-resource-kasm`) through the real `pulumi` CLI, with a
 * YAML program: an explicit provider resource (`pulumi:providers:kasm`) pointing at an emulator,
 * and a `kasm:index:User`, a `kasm:index:StagingConfig` and a `kasm:index:UserSet` on it. `up`
 * creates them; a preview without change sends no request; an edited field previews as a field-level update; a refresh
 * reads drift back; `pulumi import` takes over a user; `destroy` removes them; the exported state
 * holds neither the API key secret nor the password in plain text; a warning (a take-over's) reaches
 * the CLI under its resource. Once per wire vocabulary: the emulator speaking the spec's
 * names, then the product's (with `apiNames: product` on the provider).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { explicitProvider, pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, measuredStep, PulumiCli, type CliResult } from "./pulumi-cli";

const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const IMAGE = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
const PASSWORD = "native-yaml-password-7f3c";

/** The program: the provider's settings written in (the API key secret plain, so that only the provider keeps it secret). */
function program(url: string, apiNames: "spec" | "product", firstName: string): string {
  return `name: native-kasm
runtime: yaml
${pluginFromCheckout()}config:
  adaPassword:
    type: string
    secret: true
resources:
${explicitProvider("prov", url, apiNames)}  ada:
    type: kasm:index:User
    properties:
      username: ada
      password: \${adaPassword}
      firstName: ${firstName}
    options:
      provider: \${prov}
  grace:
    type: kasm:index:User
    properties:
      username: grace
      firstName: Grace
      adopt: true
    options:
      provider: \${prov}
  chrome:
    type: kasm:index:StagingConfig
    properties:
      zoneId: "${ZONE}"
      imageId: "${IMAGE}"
      numSessions: 3
      expiration: 2
    options:
      provider: \${prov}
  team:
    type: kasm:index:UserSet
    properties:
      users:
        - username: lin
          firstName: Lin
        - username: mo
          firstName: Mo
    options:
      provider: \${prov}
outputs:
  userId: \${ada.userId}
  stagingConfigId: \${chrome.stagingConfigId}
`;
}

/** A CLI command's result, failing with its output unless it succeeded. */
function succeeded<R extends CliResult>(result: R): R {
  if (result.code !== 0) throw new Error(`pulumi exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

describe.skipIf(!hasPulumi).each(["spec", "product"] as const)("the native provider through the pulumi CLI, a YAML program (%s names)", (apiNames) => {
  let dir: string;
  let emulator: TestEmulator;
  /** What each step cost: the emulator's requests and the CLI's seconds, printed at the end. */
  const figures: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-native-yaml-"));
    emulator = await startTestEmulator(
      {
        zones: [{ zone_id: ZONE, zone_name: "default" }],
        images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
        // grace is taken over by the program (adopt), hopper imported by `pulumi import`.
        users: [
          { username: "grace", first_name: "G" },
          { username: "hopper", first_name: "Grace", last_name: "Hopper" },
        ],
      },
      { apiNames },
    );
  });
  afterAll(async () => {
    console.log(`native provider, YAML, ${apiNames} names:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Run one CLI step, recording the requests it sent and how long it took. */
  const step = <R extends CliResult>(label: string, run: () => Promise<R>) => measuredStep(emulator, figures, label, run);

  const usersInKasm = async (username = "ada") =>
    ((await emulator.specCall("get_users")).body.users as { username: string; first_name?: string; user_id: string }[]).filter((u) => u.username === username);
  const stagingInKasm = async () => (await emulator.specCall("get_staging_configs")).body.staging_configs as { num_sessions: number }[];

  it("up creates (a take-over warning under its resource), a preview without change sends nothing, an edit previews field by field, refresh reads drift, import takes a user over, destroy removes all, and no secret is in the state", {
    timeout: SLOW,
  }, async () => {
    const programDir = path.join(dir, "program");
    mkdirSync(programDir, { recursive: true });
    const write = (firstName: string) => writeFileSync(path.join(programDir, "Pulumi.yaml"), program(emulator.url, apiNames, firstName));
    write("Ada");
    const cli = new PulumiCli({
      programDir,
      stack: "dev",
      workDir: path.join(dir, "work"),
      passphrase: PASSPHRASE,
      config: { adaPassword: PASSWORD },
      secretKeys: ["adaPassword"],
    });
    await cli.init();

    const up = await step("up (create)", () => cli.steps("up"));
    expect(up.errors).toEqual({});
    expect(up.code, up.stderr).toBe(0);
    expect(up.ops).toMatchObject({ ada: "create", grace: "create", chrome: "create", team: "create" });
    expect((await usersInKasm("lin"))[0]?.first_name).toBe("Lin");
    expect((await usersInKasm("mo"))[0]?.first_name).toBe("Mo");
    // The take-over's warning, sent by the plugin through Engine.Log, under its resource.
    const warnings = up.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line).diagnosticEvent)
      .filter((event) => event?.severity === "warning");
    expect(warnings).toContainEqual(
      expect.objectContaining({ urn: expect.stringMatching(/::grace$/), message: expect.stringContaining("the take-over (adopt) will change firstName") }),
    );
    expect((await usersInKasm("grace"))[0].first_name).toBe("Grace");
    const [ada] = await usersInKasm();
    expect(ada?.first_name).toBe("Ada");
    expect(await stagingInKasm()).toMatchObject([{ num_sessions: 3 }]);
    expect(await cli.outputs()).toMatchObject({ userId: ada.user_id });

    const exported = succeeded(await cli.run(["stack", "export", "--stack", "dev"])).stdout;
    expect(exported).not.toContain(ADMIN.secret);
    expect(exported).not.toContain(PASSWORD);
    const resources = JSON.parse(exported).deployment.resources as {
      urn: string;
      type: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }[];
    const user = resources.find((r) => r.urn.endsWith("::ada"));
    const provider = resources.find((r) => r.type === "pulumi:providers:kasm");
    expect(user?.outputs?.userId).toBe(ada.user_id);
    // Kept, as ciphertext: a later update can still send them.
    expect(JSON.stringify(user?.outputs?.password)).toContain("ciphertext");
    expect(JSON.stringify(provider?.inputs?.apiKeySecret)).toContain("ciphertext");

    const same = await step("preview (no change)", () => cli.steps("preview"));
    expect(same.code, same.stderr).toBe(0);
    expect(same.ops).toMatchObject({ ada: "same", grace: "same", chrome: "same", team: "same" });
    expect(same.requests).toEqual([]);

    write("Augusta");
    const edit = await step("preview (one field edited)", () => cli.run(["preview", "--json", "--show-sames", "--stack", "dev"]));
    expect(edit.code, edit.stderr).toBe(0);
    const plan = JSON.parse(edit.stdout.slice(edit.stdout.indexOf("{"))) as {
      steps: { urn: string; op: string; detailedDiff?: Record<string, { kind: string }> }[];
    };
    const adaStep = plan.steps.find((s) => s.urn.endsWith("::ada"));
    expect(adaStep?.op).toBe("update");
    expect(adaStep?.detailedDiff).toEqual({ firstName: expect.objectContaining({ kind: "update" }) });
    expect(plan.steps.find((s) => s.urn.endsWith("::chrome"))?.op).toBe("same");
    expect(edit.requests.every((line) => !/^(update|create|delete)_/.test(line))).toBe(true);
    expect((await usersInKasm())[0].first_name).toBe("Ada");

    const applied = await step("up (one field edited)", () => cli.steps("up"));
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.ops).toMatchObject({ ada: "update", chrome: "same" });
    expect((await usersInKasm())[0].first_name).toBe("Augusta");

    // Drift: changed in Kasm behind the program's back; refresh reads it into the state.
    await emulator.specCall("update_user", { target_user: { user_id: ada.user_id, username: "ada", first_name: "Countess" } });
    const refresh = await step("refresh (one field drifted)", () => cli.refresh());
    expect(refresh.code, refresh.stderr).toBe(0);
    const refreshed = JSON.parse(succeeded(await cli.run(["stack", "export", "--stack", "dev"])).stdout).deployment.resources as {
      urn: string;
      outputs?: Record<string, unknown>;
    }[];
    expect(refreshed.find((r) => r.urn.endsWith("::ada"))?.outputs?.firstName).toBe("Countess");

    // An import's Read carries no state: the inputs come from what Kasm holds.
    const [hopper] = await usersInKasm("hopper");
    const providerUrn = "urn:pulumi:dev::native-kasm::pulumi:providers:kasm::prov";
    const imported = await step("import (one user)", () =>
      cli.run([
        "import",
        "kasm:index:User",
        "hopper",
        hopper.user_id,
        "--provider",
        `prov=${providerUrn}`,
        "--yes",
        "--protect=false",
        "--generate-code=false",
        "--stack",
        "dev",
      ]),
    );
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    const afterImport = JSON.parse(succeeded(await cli.run(["stack", "export", "--stack", "dev"])).stdout).deployment.resources as {
      urn: string;
      id?: string;
      inputs?: Record<string, unknown>;
    }[];
    expect(afterImport.find((r) => r.urn.endsWith("::hopper"))).toMatchObject({
      id: hopper.user_id,
      inputs: { username: "hopper", firstName: "Grace", lastName: "Hopper" },
    });

    const destroy = await step("destroy", () => cli.steps("destroy"));
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(await usersInKasm()).toEqual([]);
    expect(await usersInKasm("grace")).toEqual([]);
    expect(await usersInKasm("hopper")).toEqual([]);
    expect([...(await usersInKasm("lin")), ...(await usersInKasm("mo"))]).toEqual([]);
    expect(await stagingInKasm()).toEqual([]);
  });
});
