/**
 * The permissions pack and a Workspace update, end to end: a program run through the test engine
 * (Pulumi's runtime and dynamic-provider host, the pack in Pulumi's analyzer runner) against an
 * emulator speaking the released product's vocabulary, with a key that holds Images Modify but
 * not Images Modify Resources. Pulumi's dynamic-provider host takes no part in previews, so the
 * pack sees the new inputs only, the same for a create and an update, and cannot tell whether a
 * change sets a compute-related field: every change of the workspace previews an advisory that
 * says so, naming the workspace, the permission and the native provider (whose preview says it,
 * see test/native/preview-notes.test.ts), and no preview diff shows a note. Kasm decides at
 * `pulumi up`: the memory change is refused, naming the permission, and nothing changes; the
 * description change goes in.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PERMISSIONS_PACK, SLOW, editFile, expectOk, mandatory, ops, tempDir } from "./helpers";

const PROJECT = "kasm-workspace-permissions";

/** The messages of the pack's "could not decide" advisories (the policy SDK's words for an undecided stack policy). */
function undecided(result: { readonly policyViolations: readonly { enforcementLevel: string; message: string }[] }): string[] {
  return result.policyViolations.filter((v) => v.enforcementLevel === "advisory" && v.message.includes("could not decide")).map((v) => v.message);
}
/** The pipeline's key: everything a workspace needs, except Images Modify Resources. */
const KEY = {
  name: "pipeline",
  key: "pipeline-key",
  secret: "pipeline-secret",
  permissions: ["Images View", "Images Create", "Images Modify", "Images Delete"],
};

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let programDir: string;
let engine: TestEngine;

/** A program with one workspace. */
function writeProgram(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: PROJECT, private: true, main: "index.ts", dependencies: { "@pulumi/pulumi": "^3.216.0", "pulumi-kasm": "^0.1.0" } }, null, 2),
  );
  writeFileSync(
    path.join(dir, "index.ts"),
    `import * as kasm from "pulumi-kasm";

new kasm.Workspace("chrome", { name: "kasmweb/chrome:1.16.0", friendlyName: "Chrome", description: "A browser", cores: 2, memory: 2_768_000_000 });
`,
  );
  return dir;
}

/** The pack's config: the key under each policy's name, as the README's `jq` line writes it. */
function packConfig() {
  const key = { permissions: KEY.permissions };
  return {
    "key-permission-dependencies": key,
    "resource-needs-permissions": key,
    "read-only-key": key,
    "least-privilege": { ...key, enforcementLevel: "disabled" as const },
  };
}

beforeAll(async () => {
  emulator = await startTestEmulator({ apiKeys: [KEY] }, { apiNames: "product" });
  tmp = tempDir("workspace-permissions");
  programDir = writeProgram(path.join(tmp.dir, "program"));
  engine = new TestEngine({
    programDir,
    project: PROJECT,
    stack: "ci",
    stateFile: path.join(tmp.dir, "ci.json"),
    passphrase: "workspace permissions correct horse",
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": KEY.key, "kasm:apiKeySecret": KEY.secret, "kasm:apiNames": "product", "kasm:maxRetries": "0" },
    secretKeys: ["kasm:apiKeySecret"],
    policyPacks: [{ dir: PERMISSIONS_PACK, config: packConfig() }],
  });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("the permissions pack with a key that holds Images Modify but not Images Modify Resources", () => {
  it("up creates the workspace (Images Create is enough), with no violation", { timeout: SLOW }, async () => {
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({ chrome: "create" });
    expect(up.policyViolations).toEqual([]);
  });

  it("the preview of a memory change cannot be decided (advisory, no mandatory); the up is refused by Kasm, naming Images Modify Resources, and nothing changes", {
    timeout: SLOW,
  }, async () => {
    const index = path.join(programDir, "index.ts");
    editFile(index, [["memory: 2_768_000_000", "memory: 4_000_000_000"]]);
    try {
      const preview = await engine.preview();
      expect(ops(preview)).toMatchObject({ chrome: "update" });
      expect(mandatory(preview)).toEqual([]);
      expect(undecided(preview)).toEqual([expect.stringContaining("Workspace 'chrome': update (update_image) needs 'Images Modify Resources' if so")]);
      expect(undecided(preview)[0]).toContain("the native provider's preview of an update says what it changes");
      // No note in what the preview shows: the diff names the field changed, and only it.
      expect(JSON.stringify(preview.resources)).not.toContain("resourceFieldsChanging");
      const up = await engine.up();
      expect(up.ok).toBe(false);
      expect(JSON.stringify(up.errors)).toContain("Images Modify Resources");
      const images = (await emulator.specCall("get_images")).body.images as { friendly_name: string; memory: number }[];
      expect(images.find((image) => image.friendly_name === "Chrome")?.memory).toBe(2_768_000_000);
    } finally {
      editFile(index, [["memory: 4_000_000_000", "memory: 2_768_000_000"]]);
    }
  });

  it("the preview of a description change gets the same advisory and no mandatory; the up applies it, and Kasm lets it in", { timeout: SLOW }, async () => {
    editFile(path.join(programDir, "index.ts"), [[`description: "A browser"`, `description: "The browser"`]]);
    const preview = await engine.preview();
    expectOk(preview);
    expect(ops(preview)).toMatchObject({ chrome: "update" });
    expect(mandatory(preview)).toEqual([]);
    expect(undecided(preview)).toEqual([expect.stringContaining("Workspace 'chrome': update (update_image) needs 'Images Modify Resources' if so")]);
    const up = await engine.up();
    expectOk(up);
    expect(mandatory(up)).toEqual([]);
    const images = (await emulator.specCall("get_images")).body.images as { friendly_name: string; description: string; memory: number }[];
    expect(images.find((image) => image.friendly_name === "Chrome")).toMatchObject({ description: "The browser", memory: 2_768_000_000 });
  });

  it("a preview without change stays one: no violation, no request to Kasm", { timeout: SLOW }, async () => {
    emulator.requests.length = 0;
    const preview = await engine.preview();
    expectOk(preview);
    expect(preview.resources.filter((r) => r.op !== "same")).toEqual([]);
    expect(preview.policyViolations).toEqual([]);
    expect(emulator.requests).toEqual([]);
  });
});
