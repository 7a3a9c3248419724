/**
 * The native provider through the real `pulumi` CLI with a Python program: examples/native-python
 * (an explicit `kasm.Provider`, a `kasm.User`, a `kasm.StagingConfig` and a `kasm.UserSet`) on the
 * Python SDK that scripts/sdk/generate.sh (`npm run sdk:generate`) writes, installed from its
 * generated sources with pip into a virtual environment beside the program, with Pulumi's Python
 * SDK at the CLI's release from PyPI. `up` creates; a preview without change sends no request;
 * refresh reads drift back; an edited field previews as a field-level update; `destroy` removes
 * all; the exported state holds neither the API key secret nor the password in plain text; the
 * generated SDK, the schema and the plugin keep package.json's version. Once per wire vocabulary
 * (the emulator speaking the spec's names, then the product's, with `kasmApiNames: product`), on
 * one generated SDK and one virtual environment.
 *
 * Skipped without the CLI or python3 (as the other CLI tests are); a pip that cannot install
 * fails the test with pip's words.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { EXAMPLES, PASSPHRASE, REPO, SLOW } from "../e2e/helpers";
import { hasPulumi, measuredStep, PulumiCli, type CliResult } from "./pulumi-cli";
import { generateSdks, hasPython, pulumiCliVersion, pythonEnvironment } from "./sdks";

const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const IMAGE = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
const PASSWORD = "native-python-password-5d1e";
/** The users the program declares (the emulator may hold others). */
const PROGRAM_USERS = ["ada", "lin", "mo"];
const VERSION = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** A CLI command's result, failing with its output unless it succeeded. */
function succeeded<R extends CliResult>(result: R): R {
  if (result.code !== 0) throw new Error(`pulumi exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The generated SDK and the virtual environment with it installed, made once for the file. */
let shared: { readonly dir: string; readonly python: string; readonly figures: string[] } | undefined;

beforeAll(async () => {
  if (!hasPulumi || !hasPython) return;
  const dir = mkdtempSync(path.join(tmpdir(), "cli-native-python-"));
  const figures: string[] = [];
  const env = { ...process.env, PULUMI_HOME: path.join(dir, "sdk-home"), PULUMI_SKIP_UPDATE_CHECK: "true" };
  const generated = await generateSdks(path.join(dir, "sdk"), ["python"], env);
  figures.push(`generate the Python SDK: ${generated.seconds.toFixed(1)} s`);
  // The example's `virtualenv: venv` lies beside the program: each program copy links to this one.
  const python = await pythonEnvironment(path.join(dir, "venv"), path.join(dir, "sdk", "python"), await pulumiCliVersion());
  const { venv, download, install } = python.seconds;
  figures.push(`virtual environment: ${venv.toFixed(1)} s; wheels downloaded: ${download.toFixed(1)} s; pip install: ${install.toFixed(1)} s`);
  shared = { dir, python: python.python, figures };
}, SLOW);
afterAll(() => {
  if (shared === undefined) return;
  console.log(`native provider, Python SDK:\n  ${shared.figures.join("\n  ")}`);
  rmSync(shared.dir, { recursive: true, force: true });
});

describe.skipIf(!hasPulumi || !hasPython).each(["spec", "product"] as const)(
  "the native provider through the pulumi CLI, a Python program on the generated SDK (%s names)",
  (apiNames) => {
    let dir: string;
    let emulator: TestEmulator;
    let cli: PulumiCli;
    /** What each step cost: the emulator's requests and the seconds, printed at the end. */
    const figures: string[] = [];

    beforeAll(async () => {
      const { python } = shared!;
      dir = mkdtempSync(path.join(tmpdir(), `cli-native-python-${apiNames}-`));
      emulator = await startTestEmulator(
        {
          zones: [{ zone_id: ZONE, zone_name: "default" }],
          images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
        },
        { apiNames },
      );
      const programDir = path.join(dir, "program");
      cpSync(path.join(EXAMPLES, "native-python"), programDir, { recursive: true });
      symlinkSync(path.join(shared!.dir, "venv"), path.join(programDir, "venv"), "dir");

      cli = new PulumiCli({
        programDir,
        stack: "dev",
        workDir: path.join(dir, "work"),
        passphrase: PASSPHRASE,
        config: {
          kasmBaseUrl: emulator.url,
          kasmApiKey: ADMIN.key,
          kasmApiKeySecret: ADMIN.secret,
          kasmApiNames: apiNames,
          adaPassword: PASSWORD,
          zoneId: ZONE,
          imageId: IMAGE,
        },
        secretKeys: ["kasmApiKeySecret", "adaPassword"],
        // The Python host scripts/pulumi-cli/build.sh builds (Pulumi 3.68's) reads `virtualenv`
        // from a flag that today's CLI no longer passes; it runs the interpreter this names. A
        // current host uses the example's `virtualenv: venv`, the same interpreter.
        env: { PULUMI_PYTHON_CMD: python },
      });
      await cli.init();
    }, SLOW);
    afterAll(async () => {
      console.log(`native provider, Python program, ${apiNames} names:\n  ${figures.join("\n  ")}`);
      await emulator?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** Run one CLI step, recording the requests it sent and how long it took. */
    const step = <R extends CliResult>(label: string, run: () => Promise<R>) => measuredStep(emulator, figures, label, run);

    const usersInKasm = async () =>
      ((await emulator.specCall("get_users")).body.users as { username: string; first_name?: string; user_id: string }[]).filter((u) =>
        PROGRAM_USERS.includes(u.username),
      );
    const stagingInKasm = async () => (await emulator.specCall("get_staging_configs")).body.staging_configs as { num_sessions: number }[];
    const exported = async () => succeeded(await cli.run(["stack", "export", "--stack", "dev"])).stdout;
    const resourcesOf = (text: string) =>
      JSON.parse(text).deployment.resources as { urn: string; type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];

    it("the generated SDK, the schema and the plugin's metadata carry package.json's version", () => {
      const sdk = path.join(shared!.dir, "sdk");
      const schema = JSON.parse(readFileSync(path.join(sdk, "schema.json"), "utf8")) as { version: string };
      const plugin = JSON.parse(readFileSync(path.join(sdk, "python", "pulumi_kasm", "pulumi-plugin.json"), "utf8"));
      const pyproject = readFileSync(path.join(sdk, "python", "pyproject.toml"), "utf8");
      expect(schema.version).toBe(VERSION);
      expect(plugin).toEqual({ resource: true, name: "kasm", version: VERSION });
      expect(pyproject).toContain(`version = "${VERSION}"`);
      // A lookup's result fields carry the record's descriptions as docstrings (the secret ones too).
      const getServer = readFileSync(path.join(sdk, "python", "pulumi_kasm", "get_server.py"), "utf8");
      expect(getServer).toContain("The server's id (32 hex digits).");
      expect(getServer).toContain("The password Kasm uses to connect to the server");
    });

    it("up creates, a preview without change sends nothing, refresh reads drift, an edit previews field by field, destroy removes all, and no secret is in the state", {
      timeout: SLOW,
    }, async () => {
      const up = await step("up (create)", () => cli.steps("up"));
      expect(up.errors).toEqual({});
      expect(up.code, up.stdout + up.stderr).toBe(0);
      expect(up.ops).toMatchObject({ ada: "create", chrome: "create", team: "create" });
      const users = await usersInKasm();
      expect(users.map((u) => [u.username, u.first_name]).sort()).toEqual([
        ["ada", "Ada"],
        ["lin", "Lin"],
        ["mo", "Mo"],
      ]);
      expect(await stagingInKasm()).toMatchObject([{ num_sessions: 3 }]);
      const ada = users.find((u) => u.username === "ada")!;
      expect(await cli.outputs()).toMatchObject({ adaUserId: ada.user_id, teamCount: 2 });

      const state = await exported();
      expect(state).not.toContain(ADMIN.secret);
      expect(state).not.toContain(PASSWORD);
      const resources = resourcesOf(state);
      const provider = resources.find((r) => r.type === "pulumi:providers:kasm");
      // The SDK asks for the plugin at its own version: the one GetPluginInfo answers.
      expect(provider?.inputs?.version).toBe(VERSION);
      expect(JSON.stringify(provider?.inputs?.apiKeySecret)).toContain("ciphertext");
      expect(JSON.stringify(resources.find((r) => r.urn.endsWith("::ada"))?.outputs?.password)).toContain("ciphertext");

      const same = await step("preview (no change)", () => cli.steps("preview"));
      expect(same.code, same.stderr).toBe(0);
      expect(same.ops).toMatchObject({ ada: "same", chrome: "same", team: "same", prod: "same" });
      expect(same.requests).toEqual([]);

      // Drift: changed in Kasm behind the program's back; refresh reads it into the state.
      await emulator.specCall("update_user", { target_user: { user_id: ada.user_id, username: "ada", first_name: "Countess" } });
      const refresh = await step("refresh (one field drifted)", () => cli.refresh());
      expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
      expect(resourcesOf(await exported()).find((r) => r.urn.endsWith("::ada"))?.outputs?.firstName).toBe("Countess");

      succeeded(await cli.run(["config", "set", "--stack", "dev", "adaFirstName", "Augusta"]));
      const edit = await step("preview (one field edited)", () => cli.run(["preview", "--json", "--show-sames", "--stack", "dev"]));
      expect(edit.code, edit.stderr).toBe(0);
      const plan = JSON.parse(edit.stdout.slice(edit.stdout.indexOf("{"))) as {
        steps: { urn: string; op: string; detailedDiff?: Record<string, { kind: string }> }[];
      };
      const adaStep = plan.steps.find((s) => s.urn.endsWith("::ada"));
      expect(adaStep?.op).toBe("update");
      expect(adaStep?.detailedDiff).toEqual({ firstName: expect.objectContaining({ kind: "update" }) });
      expect(plan.steps.find((s) => s.urn.endsWith("::chrome"))?.op).toBe("same");
      expect(plan.steps.find((s) => s.urn.endsWith("::team"))?.op).toBe("same");
      expect(edit.requests.every((line) => !/^(update|create|delete)_/.test(line))).toBe(true);

      const destroy = await step("destroy", () => cli.steps("destroy"));
      expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
      expect(await usersInKasm()).toEqual([]);
      expect(await stagingInKasm()).toEqual([]);
    });
  },
);
