/**
 * A stack of dynamic resources (a TypeScript program of `pulumi-kasm`'s classes) moved to the
 * native provider, through the real `pulumi` CLI, with nothing recreated in Kasm: the README's
 * "Moving between the two forms". The native program declares each resource with an alias of its
 * dynamic type token (`pulumi-nodejs:dynamic/kasm:<Kind>`), so Pulumi matches it to the resource in
 * the state; the resource's provider changes from Pulumi's dynamic-provider host to the plugin,
 * whose DiffConfig never asks for a replacement, so the plugin diffs the resource as its own. The
 * first `up` after the move sends Kasm no write, a refresh reads each object back, and a preview
 * after it shows no change and sends nothing. Then back to the dynamic form, aliased to the native
 * type tokens, again with no write. A YAML program stands for the native form here (the same
 * plugin serves every language).
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS, type OperationName } from "../../permissions";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { explicitProvider, pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, measuredStep, PulumiCli, type CliResult } from "./pulumi-cli";

const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const IMAGE = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
const GROUP = "5b6c7d8e9f0a41b2c3d4e5f6a7b8c9d0";

/**
 * The dynamic program: a user, its membership of a group and a staging config; `fromNative`, each
 * aliased to its native type token (the way back from the native form).
 */
function dynamicProgram(fromNative: boolean): string {
  const options = (kind: string) => (fromNative ? `, { aliases: [{ type: "kasm:index:${kind}" }] }` : "");
  return `import * as kasm from "pulumi-kasm";
const ada = new kasm.User("ada", { username: "ada.moved", firstName: "Ada" }${options("User")});
new kasm.GroupMembership("ada-engineering", { userId: ada.userId, groupId: "${GROUP}" }${options("GroupMembership")});
new kasm.StagingConfig("chrome", { zoneId: "${ZONE}", imageId: "${IMAGE}", numSessions: 2, expiration: 1 }${options("StagingConfig")});
export const userId = ada.userId;
`;
}

/** How the native program reaches the installation: its default provider (the stack's `kasm:` settings), or an explicit one. */
type ProviderForm = "default provider" | "explicit provider";

/**
 * The same resources on the native provider, each aliased to its dynamic type token. An explicit
 * provider is aliased to the dynamic one too (optional: without it, the plugin's DiffConfig, which
 * never replaces, lets the resources move all the same, as the default provider's do).
 */
function nativeProgram(url: string, form: ProviderForm): string {
  const dynamic = (kind: string, name: string) => `urn:pulumi:dev::moving::pulumi-nodejs:dynamic/kasm:${kind}::${name}`;
  const provider = form === "explicit provider" ? "      provider: ${kasm}\n" : "";
  const resource = (name: string, kind: string, properties: string) =>
    `  ${name}:\n    type: kasm:index:${kind}\n    properties:\n${properties}    options:\n${provider}      aliases:\n        - ${dynamic(kind, name)}\n`;
  const explicit =
    form === "explicit provider"
      ? `${explicitProvider("kasm", url)}    options:\n      aliases:\n        - urn:pulumi:dev::moving::pulumi:providers:pulumi-nodejs::default\n`
      : "";
  return (
    `name: moving\nruntime: yaml\n${pluginFromCheckout()}resources:\n${explicit}` +
    resource("ada", "User", "      username: ada.moved\n      firstName: Ada\n") +
    resource("ada-engineering", "GroupMembership", `      userId: \${ada.userId}\n      groupId: "${GROUP}"\n`) +
    resource("chrome", "StagingConfig", `      zoneId: "${ZONE}"\n      imageId: "${IMAGE}"\n      numSessions: 2\n      expiration: 1\n`) +
    "outputs:\n  userId: ${ada.userId}\n"
  );
}

/** A CLI command's result, failing with its output unless it succeeded. */
function succeeded<R extends CliResult>(result: R): R {
  if (result.code !== 0) throw new Error(`pulumi exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The requests of a step that write: by the operation table (the emulator speaks the spec's names here). */
const writes = (requests: readonly string[]) => requests.map((line) => line.split(" ")[0]).filter((op) => OPERATIONS[op as OperationName]?.access === "write");

describe.skipIf(!hasPulumi).each(["default provider", "explicit provider"] as const)(
  "a dynamic stack moved to the native provider (%s), through the pulumi CLI",
  (form) => {
    let dir: string;
    let emulator: TestEmulator;
    const figures: string[] = [];
    const step = <R extends CliResult>(label: string, run: () => Promise<R>) => measuredStep(emulator, figures, label, run);

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "cli-move-forms-"));
      emulator = await startTestEmulator(
        {
          zones: [{ zone_id: ZONE, zone_name: "default" }],
          images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
          groups: [{ group_id: GROUP, name: "Engineering" }],
        },
        { apiNames: "spec" },
      );
    });
    afterAll(async () => {
      console.log(`moving a dynamic stack to the native provider (${form}):\n  ${figures.join("\n  ")}`);
      await emulator?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("keeps every object, there and back: the first up after each move writes nothing, refresh reads them, and a preview then shows no change", {
      timeout: SLOW * 3,
    }, async () => {
      const programDir = path.join(dir, "program");
      mkdirSync(programDir, { recursive: true });
      writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: moving\nruntime: nodejs\n");
      writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "moving", main: "index.ts" }));
      writeFileSync(path.join(programDir, "index.ts"), dynamicProgram(false));
      const cli = new PulumiCli({
        programDir,
        stack: "dev",
        workDir: path.join(dir, "work"),
        passphrase: PASSPHRASE,
        config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret },
        secretKeys: ["kasm:apiKeySecret"],
      });
      await cli.init();

      const created = await step("up (dynamic)", () => cli.steps("up"));
      expect(created.code, created.stdout + created.stderr).toBe(0);
      expect(created.ops).toMatchObject({ ada: "create", "ada-engineering": "create", chrome: "create" });
      const userId = (await cli.outputs()).userId;

      // The move: the program becomes the native one, in the same project and stack.
      for (const file of ["index.ts", "package.json"]) unlinkSync(path.join(programDir, file));
      writeFileSync(path.join(programDir, "Pulumi.yaml"), nativeProgram(emulator.url, form));
      const previewed = await step("preview (moved)", () => cli.steps("preview"));
      expect(previewed.code, previewed.stdout + previewed.stderr).toBe(0);
      expect(previewed.ops).toMatchObject({ ada: "same", "ada-engineering": "same", chrome: "same" });

      const moved = await step("up (moved)", () => cli.steps("up"));
      expect(moved.code, moved.stdout + moved.stderr).toBe(0);
      expect(moved.ops).toMatchObject({ ada: "same", "ada-engineering": "same", chrome: "same" });
      expect(writes(moved.requests)).toEqual([]);
      expect(await cli.outputs()).toEqual({ userId });

      const exported = JSON.parse(succeeded(await cli.run(["stack", "export", "--stack", "dev"])).stdout);
      const types = (exported.deployment.resources as { urn: string; type: string }[])
        .filter((r) => !r.type.startsWith("pulumi:"))
        .map((r) => r.type)
        .sort();
      expect(types).toEqual(["kasm:index:GroupMembership", "kasm:index:StagingConfig", "kasm:index:User"]);

      const refreshed = await step("refresh (moved)", () => cli.steps("refresh"));
      expect(refreshed.code, refreshed.stdout + refreshed.stderr).toBe(0);
      expect(writes(refreshed.requests)).toEqual([]);
      const after = JSON.stringify(JSON.parse(succeeded(await cli.run(["stack", "export", "--stack", "dev"])).stdout));
      // Nothing of the dynamic form is left once the plugin has read each object back.
      expect(after).not.toContain("__provider");
      expect(after).not.toContain("pulumi-nodejs");

      const same = await step("preview (no change)", () => cli.steps("preview"));
      expect(same.code).toBe(0);
      expect(Object.values(same.ops).every((op) => op === "same")).toBe(true);
      expect(same.requests).toEqual([]);

      // And back: the dynamic program again, each resource aliased to its native type token.
      writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: moving\nruntime: nodejs\n");
      writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "moving", main: "index.ts" }));
      writeFileSync(path.join(programDir, "index.ts"), dynamicProgram(true));
      // Each is updated in the state only, so that the dynamic-provider host finds its provider there for a refresh or a delete.
      const back = await step("up (moved back)", () => cli.steps("up"));
      expect(back.code, back.stdout + back.stderr).toBe(0);
      expect(back.ops).toMatchObject({ ada: "update", "ada-engineering": "update", chrome: "update" });
      expect(writes(back.requests)).toEqual([]);
      expect(await cli.outputs()).toEqual({ userId });
      const backAgain = await step("preview (moved back, no change)", () => cli.steps("preview"));
      expect(Object.values(backAgain.ops).every((op) => op === "same")).toBe(true);
      expect(backAgain.requests).toEqual([]);
      const refreshedBack = await step("refresh (moved back)", () => cli.steps("refresh"));
      expect(refreshedBack.code, refreshedBack.stdout + refreshedBack.stderr).toBe(0);

      const destroyed = await step("destroy", () => cli.steps("destroy"));
      expect(destroyed.code, destroyed.stdout + destroyed.stderr).toBe(0);
      expect(((await emulator.specCall("get_users")).body.users as { username: string }[]).map((u) => u.username)).not.toContain("ada.moved");
    });
  },
);
