/**
 * The native provider through the real `pulumi` CLI with a TypeScript program: examples/native-typescript
 * (per installation, an explicit `kasm.Provider`, a `kasm.User`, a `kasm.UserSet` and a
 * `kasm.StagingConfig`) on the Node.js SDK `@pulumi-kasm/native` that scripts/sdk/generate.sh
 * (`npm run sdk:generate`) generates, builds and packs, unpacked into the program's node_modules
 * from its tarball. Two installations in one program: two emulators seeded with the
 * two-installations example's seeds, staging speaking the API documentation's names and
 * production the released product's (`productionApiNames: product`).
 *
 * Pinned: the package's name, version and plugin metadata, and the example's dependency on the
 * tarball the script writes; the example type-checks against the generated SDK as strictly as
 * `npm run typecheck` checks the other examples (which cannot see a generated SDK); `up` creates
 * in both installations; a preview without change sends no request to either; refresh reads drift
 * back from one; an edited field shows field by field in `preview --diff`, an input left out not
 * at all, and no write is sent;
 * `destroy` removes everything from both; the state holds neither API key secret nor the password
 * in plain text, and the providers ask for the plugin at package.json's version.
 *
 * The SDK is generated, built and packed once for the file. Skipped without the CLI (as the
 * other CLI tests are).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SeedInput } from "../../emulator/seed";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { EXAMPLES, PASSPHRASE, REPO, SLOW } from "../e2e/helpers";
import { diffBlocks, hasPulumi, PulumiCli, type CliResult } from "./pulumi-cli";
import { generateSdks, nodejsSdkTarball, programNodeModules, run } from "./sdks";

const seedOf = (file: string) =>
  JSON.parse(readFileSync(path.join(EXAMPLES, "two-installations", file), "utf8")) as Required<Pick<SeedInput, "apiKeys" | "zones" | "images">>;
const SEEDS = { staging: seedOf("seed.json"), production: seedOf("seed-production.json") };
const INSTALLATIONS = ["staging", "production"] as const;
type Installation = (typeof INSTALLATIONS)[number];
const PASSWORD = "native-typescript-password-2c9a";
/** The users the program declares in each installation. */
const PROGRAM_USERS = ["ada", "grace", "linus"];
const VERSION = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** A CLI command's result, failing with its output unless it succeeded. */
function succeeded<R extends CliResult>(result: R): R {
  if (result.code !== 0) throw new Error(`pulumi exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

describe.skipIf(!hasPulumi)("the native provider through the pulumi CLI, a TypeScript program on the generated Node.js SDK, two installations", () => {
  let dir: string;
  let tarball: string;
  let programDir: string;
  const emulators = {} as Record<Installation, TestEmulator>;
  let cli: PulumiCli;
  /** What each step cost: the requests each emulator answered and the seconds, printed at the end. */
  const figures: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-native-typescript-"));
    const env = { ...process.env, PULUMI_HOME: path.join(dir, "sdk-home"), PULUMI_SKIP_UPDATE_CHECK: "true" };
    const generated = await generateSdks(path.join(dir, "sdk"), ["nodejs"], env);
    figures.push(`generate, build and pack the Node.js SDK: ${generated.seconds.toFixed(1)} s`);
    tarball = nodejsSdkTarball(path.join(dir, "sdk"));

    emulators.staging = await startTestEmulator(SEEDS.staging, { apiNames: "spec" });
    emulators.production = await startTestEmulator(SEEDS.production, { apiNames: "product" });
    programDir = path.join(dir, "program");
    cpSync(path.join(EXAMPLES, "native-typescript"), programDir, { recursive: true });
    await programNodeModules(programDir, [tarball]);
    const settings = (name: Installation) => ({
      [`${name}Url`]: emulators[name].url,
      [`${name}ApiKey`]: SEEDS[name].apiKeys[0].key,
      [`${name}ApiKeySecret`]: SEEDS[name].apiKeys[0].secret,
      [`${name}ZoneId`]: SEEDS[name].zones[0].zone_id!,
      [`${name}ImageId`]: SEEDS[name].images[0].image_id!,
    });
    cli = new PulumiCli({
      programDir,
      stack: "dev",
      workDir: path.join(dir, "work"),
      passphrase: PASSPHRASE,
      config: { ...settings("staging"), ...settings("production"), productionApiNames: "product", adaPassword: PASSWORD },
      secretKeys: ["stagingApiKeySecret", "productionApiKeySecret", "adaPassword"],
    });
    await cli.init();
  }, SLOW);
  afterAll(async () => {
    if (figures.length > 0) console.log(`native provider, TypeScript program, two installations:\n  ${figures.join("\n  ")}`);
    await emulators.staging?.close();
    await emulators.production?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Run one CLI step, recording the requests each installation answered and how long it took. */
  async function step<R extends CliResult>(label: string, command: () => Promise<R>): Promise<R & { readonly requests: Record<Installation, string[]> }> {
    const before = { staging: emulators.staging.requests.length, production: emulators.production.requests.length };
    const started = performance.now();
    const result = await command();
    const requests = { staging: emulators.staging.requests.slice(before.staging), production: emulators.production.requests.slice(before.production) };
    figures.push(
      `${label}: ${requests.staging.length} request(s) to staging, ${requests.production.length} to production, ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return { ...result, requests };
  }

  const usersIn = async (name: Installation) =>
    ((await emulators[name].specCall("get_users")).body.users as { username: string; first_name?: string; user_id: string }[]).filter((u) =>
      PROGRAM_USERS.includes(u.username),
    );
  const stagingIn = async (name: Installation) =>
    (await emulators[name].specCall("get_staging_configs")).body.staging_configs as { image_id: string; num_sessions: number }[];
  const exported = async () => succeeded(await cli.run(["stack", "export", "--stack", "dev"])).stdout;
  const resourcesOf = (text: string) =>
    JSON.parse(text).deployment.resources as { urn: string; type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];

  it("the SDK is the package @pulumi-kasm/native at package.json's version, needing the plugin of that version, and the example depends on the tarball the script writes", () => {
    // The package.json of the package as the program has it, unpacked from the tarball.
    const installed = JSON.parse(readFileSync(path.join(programDir, "node_modules", "@pulumi-kasm", "native", "package.json"), "utf8"));
    expect(installed).toMatchObject({ name: "@pulumi-kasm/native", version: VERSION, pulumi: { resource: true, name: "kasm", version: VERSION } });
    const example = JSON.parse(readFileSync(path.join(EXAMPLES, "native-typescript", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(path.basename(example.dependencies["@pulumi-kasm/native"])).toBe(path.basename(tarball));
    // A lookup's result fields carry the record's descriptions as TSDoc (the secret ones too).
    const getServer = readFileSync(path.join(programDir, "node_modules", "@pulumi-kasm", "native", "getServer.d.ts"), "utf8");
    expect(getServer).toContain("The server's id (32 hex digits).");
    expect(getServer).toContain("The password Kasm uses to connect to the server");
  });

  it("the example type-checks against the generated SDK with the repository's compiler options", { timeout: SLOW }, async () => {
    // The repository's own options (strict, no unused names), as `npm run typecheck` applies them to the other examples.
    writeFileSync(
      path.join(programDir, "tsconfig.typecheck.json"),
      JSON.stringify({ extends: path.join(REPO, "tsconfig.json"), compilerOptions: { noEmit: true, rootDir: "." }, include: ["index.ts"], exclude: [] }),
    );
    const checked = await run(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.typecheck.json"], {
      cwd: programDir,
    });
    figures.push(`type-check the example: ${checked.seconds.toFixed(1)} s`);
    expect(checked.output).toBe("");
    expect(checked.code).toBe(0);
  });

  it("up creates in both installations, a preview without change sends nothing, refresh reads drift, an edit shows field by field, destroy removes all, and no secret is in the state", {
    timeout: SLOW,
  }, async () => {
    const up = await step("up (create)", () => cli.steps("up"));
    expect(up.errors).toEqual({});
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const created = Object.fromEntries(
      INSTALLATIONS.flatMap((name) => [
        [name, "create"],
        [`ada-${name}`, "create"],
        [`team-${name}`, "create"],
        [`chrome-${name}`, "create"],
      ]),
    );
    expect(up.ops).toMatchObject(created);
    const adaIds: Record<string, string> = {};
    for (const name of INSTALLATIONS) {
      // Each installation holds its own objects: the staging config of its own seed's image.
      const users = await usersIn(name);
      expect(users.map((u) => [u.username, u.first_name]).sort()).toEqual([
        ["ada", "Ada"],
        ["grace", "Grace"],
        ["linus", "Linus"],
      ]);
      expect((await stagingIn(name)).map((c) => [c.image_id.replace(/-/g, ""), c.num_sessions])).toEqual([[SEEDS[name].images[0].image_id, 2]]);
      adaIds[name] = users.find((u) => u.username === "ada")!.user_id;
    }
    const outputs = await cli.outputs();
    expect(outputs.userIds).toEqual(adaIds);
    expect(Object.keys(outputs.teamIds as Record<string, object>).sort()).toEqual(["production", "staging"]);
    expect(Object.keys((outputs.teamIds as Record<string, object>).production).sort()).toEqual(["grace", "linus"]);

    const state = await exported();
    for (const name of INSTALLATIONS) expect(state).not.toContain(SEEDS[name].apiKeys[0].secret);
    expect(state).not.toContain(PASSWORD);
    const resources = resourcesOf(state);
    // The two explicit providers, and no default one: every resource names its installation.
    const providers = resources.filter((r) => r.type === "pulumi:providers:kasm");
    expect(providers.map((r) => r.urn.split("::").pop()).sort()).toEqual(["production", "staging"]);
    for (const provider of providers) {
      // The SDK asks for the plugin at its own version: the one GetPluginInfo answers.
      expect(provider.inputs?.version).toBe(VERSION);
      expect(JSON.stringify(provider.inputs?.apiKeySecret)).toContain("ciphertext");
    }
    expect(JSON.stringify(resources.find((r) => r.urn.endsWith("::ada-production"))?.outputs?.password)).toContain("ciphertext");

    const same = await step("preview (no change)", () => cli.steps("preview"));
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.ops).toMatchObject(Object.fromEntries(Object.keys(created).map((name) => [name, "same"])));
    expect(same.requests).toEqual({ staging: [], production: [] });

    // Drift in staging only, behind the program's back: refresh reads it into the state.
    await emulators.staging.specCall("update_user", { target_user: { user_id: adaIds.staging, username: "ada", first_name: "Countess" } });
    const refresh = await step("refresh (one field drifted in staging)", () => cli.steps("refresh"));
    expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
    expect(refresh.errors).toEqual({});
    for (const name of INSTALLATIONS) expect(refresh.requests[name].filter((line) => /^(update|create|delete)_/.test(line))).toEqual([]);
    const refreshed = resourcesOf(await exported());
    expect(refreshed.find((r) => r.urn.endsWith("::ada-staging"))?.outputs?.firstName).toBe("Countess");
    expect(refreshed.find((r) => r.urn.endsWith("::ada-production"))?.outputs?.firstName).toBe("Ada");

    // An edit of one field, and an input the program stops declaring: `preview --diff` shows the
    // edited field of each user, from what each installation has, and nothing of the input left
    // out, which Kasm keeps (the dynamic form's display would show it removed).
    succeeded(await cli.run(["config", "set", "--stack", "dev", "adaFirstName", "Augusta"]));
    const source = readFileSync(path.join(programDir, "index.ts"), "utf8");
    expect(source.split(`, lastName: "Lovelace"`).length).toBe(2);
    writeFileSync(path.join(programDir, "index.ts"), source.replace(`, lastName: "Lovelace"`, ""));
    const edit = await step("preview --diff (one field edited, one left out)", () => cli.preview(["--diff"]));
    expect(edit.code, edit.stdout + edit.stderr).toBe(0);
    const changes = diffBlocks(edit.stdout);
    expect(changes).toEqual({
      "ada-staging": { op: "update", lines: [`~ firstName: "Countess" => "Augusta"`] },
      "ada-production": { op: "update", lines: [`~ firstName: "Ada" => "Augusta"`] },
    });
    for (const name of INSTALLATIONS) expect(edit.requests[name].filter((line) => /^(update|create|delete)_/.test(line))).toEqual([]);

    const destroy = await step("destroy", () => cli.steps("destroy"));
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    for (const name of INSTALLATIONS) {
      expect(await usersIn(name)).toEqual([]);
      expect(await stagingIn(name)).toEqual([]);
    }
  });
});
