/**
 * examples/workspace-catalogue end to end, through Pulumi's program runtime and the test engine,
 * against two emulators speaking the released product's vocabulary: `up` creates three
 * workspaces, two groups and five authorizations in each installation; an `up` without change
 * sends no request; a change of memory updates the workspace in place; a workspace deleted in
 * Kasm shows as gone on refresh and comes back on the next `up`; destroy removes everything.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { EXAMPLES, PASSPHRASE, SLOW, copyExample, editFile, expectOk, ops, tempDir } from "./helpers";

const EXAMPLE = path.join(EXAMPLES, "workspace-catalogue");
const seedFile = (name: string) => JSON.parse(readFileSync(path.join(EXAMPLE, name), "utf8"));
const STAGING_SEED = seedFile("seed.json");
const PRODUCTION_SEED = seedFile("seed-production.json");
const PROJECT = "kasm-workspace-catalogue";

let staging: TestEmulator;
let production: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let programDir: string;
let engine: TestEngine;

beforeAll(async () => {
  [staging, production] = await Promise.all([
    startTestEmulator(STAGING_SEED, { apiNames: "product" }),
    startTestEmulator(PRODUCTION_SEED, { apiNames: "product" }),
  ]);
  tmp = tempDir("workspace-catalogue");
  programDir = copyExample("workspace-catalogue", tmp.dir);
  const [stagingKey] = STAGING_SEED.apiKeys;
  const [productionKey] = PRODUCTION_SEED.apiKeys;
  engine = new TestEngine({
    programDir,
    project: PROJECT,
    stack: "dev",
    stateFile: path.join(tmp.dir, "dev.json"),
    passphrase: PASSPHRASE,
    config: {
      "kasm:baseUrl": staging.url,
      "kasm:apiKey": stagingKey.key,
      "kasm:apiKeySecret": stagingKey.secret,
      "kasm:apiNames": "product",
      "kasm-production:baseUrl": production.url,
      "kasm-production:apiKey": productionKey.key,
      "kasm-production:apiKeySecret": productionKey.secret,
      "kasm-production:apiNames": "product",
    },
    secretKeys: ["kasm:apiKeySecret", "kasm-production:apiKeySecret"],
  });
}, 60_000);

afterAll(async () => {
  await Promise.all([staging?.close(), production?.close()]);
  tmp?.remove();
});

/** The workspaces an installation lists, by friendly name. */
async function workspaces(emulator: TestEmulator): Promise<Record<string, Record<string, unknown>>> {
  const images = (await emulator.specCall("get_images")).body.images as Record<string, unknown>[];
  return Object.fromEntries(images.map((image) => [String(image.friendly_name), image]));
}

/** Which workspaces each group may launch, by group name and friendly name. */
async function launches(emulator: TestEmulator): Promise<Record<string, string[]>> {
  const groups = (await emulator.specCall("get_groups")).body.groups as { group_id: string; name: string }[];
  const names = Object.fromEntries(
    Object.values(await workspaces(emulator)).map((image) => [String(image.image_id).replace(/-/g, ""), String(image.friendly_name)]),
  );
  const result: Record<string, string[]> = {};
  for (const group of groups.filter((g) => ["Engineering", "Support"].includes(g.name))) {
    const images = (await emulator.specCall("get_images_group", { target_group: { group_id: group.group_id } })).body.images as { image_id: string }[];
    result[group.name] = images.map((image) => names[image.image_id.replace(/-/g, "")]).sort();
  }
  return result;
}

const CATALOGUE = { Engineering: ["Chrome", "Terminal", "VS Code"], Support: ["Chrome", "Terminal"] };

describe("examples/workspace-catalogue", () => {
  it("a lookup of a workspace the program declares is unknown in the preview that creates it, and finds it on up", { timeout: SLOW }, async () => {
    const file = path.join(programDir, "index.ts");
    const lookup = 'export const lookedUp = kasm.getImageOutput({ name: "kasmweb/chrome:1.16.0" }).imageId;\n';
    editFile(file, [["export const imageIds", `${lookup}export const imageIds`]]);
    const preview = await engine.preview();
    expectOk(preview);
    expect(await workspaces(staging)).not.toHaveProperty("Chrome");
    const up = await engine.up();
    expectOk(up);
    expect(String(up.outputs.lookedUp).replace(/-/g, "")).toBe(String((await workspaces(staging)).Chrome.image_id).replace(/-/g, ""));
    // Back to the example as shipped: a lookup reads Kasm at every run, which the next tests count.
    editFile(file, [[lookup, ""]]);
  });

  it("up created the workspaces, the groups and who may launch what, in both installations", { timeout: SLOW }, async () => {
    const state = engine.readState().filter((r) => r.urn.includes("dynamic/kasm:"));
    expect(state).toHaveLength(2 * (3 + 2 + 5));
    for (const emulator of [staging, production]) {
      expect(await workspaces(emulator)).toMatchObject({
        Chrome: { memory: 2_768_000_000 },
        "VS Code": { cores: 4 },
        Terminal: { categories: ["Development", "Utilities"] },
      });
      expect(await launches(emulator)).toEqual(CATALOGUE);
    }
  });

  it("an up without change sends no request to either installation", { timeout: SLOW }, async () => {
    staging.requests.length = 0;
    production.requests.length = 0;
    const again = await engine.up();
    expectOk(again);
    expect(again.resources.filter((r) => r.op !== "same")).toEqual([]);
    expect([staging.requests, production.requests]).toEqual([[], []]);
  });

  it("a change of memory updates the workspace in place, in both installations", { timeout: SLOW }, async () => {
    const ids = { staging: (await workspaces(staging)).Chrome.image_id, production: (await workspaces(production)).Chrome.image_id };
    editFile(path.join(programDir, "index.ts"), [["memory: 2_768_000_000", "memory: 4_000_000_000"]]);
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)).toMatchObject({ "chrome-staging": "update", "chrome-production": "update" });
    expect((await workspaces(staging)).Chrome).toMatchObject({ image_id: ids.staging, memory: 4_000_000_000 });
    expect((await workspaces(production)).Chrome).toMatchObject({ image_id: ids.production, memory: 4_000_000_000 });
  });

  it("a workspace deleted in Kasm is gone on refresh and comes back on the next up", { timeout: SLOW }, async () => {
    const terminal = (await workspaces(production)).Terminal;
    // The authorizations go with the image in Kasm: remove them first, as the UI does.
    for (const group of (await production.specCall("get_groups")).body.groups as { group_id: string }[])
      await production.specCall("remove_images_group", { target_group: { group_id: group.group_id }, target_image: { image_id: terminal.image_id } });
    expect((await production.specCall("delete_image", { target_image: { image_id: terminal.image_id } })).status).toBe(200);
    const refresh = await engine.refresh();
    expectOk(refresh);
    expect(ops(refresh)["terminal-production"]).toBe("delete");
    const up = await engine.up();
    expectOk(up);
    expect(ops(up)["terminal-production"]).toBe("create");
    expect((await workspaces(production)).Terminal).toBeDefined();
    expect(await launches(production)).toEqual(CATALOGUE);
  });

  it("destroy removes every workspace, group and authorization, and no API secret is in the state", { timeout: SLOW }, async () => {
    const text = readFileSync(path.join(tmp.dir, "dev.json"), "utf8");
    for (const key of [STAGING_SEED.apiKeys[0], PRODUCTION_SEED.apiKeys[0]]) expect(text).not.toContain(key.secret);
    expectOk(await engine.destroy());
    for (const emulator of [staging, production]) {
      expect(Object.keys(await workspaces(emulator)).filter((name) => ["Chrome", "VS Code", "Terminal"].includes(name))).toEqual([]);
      expect(((await emulator.specCall("get_groups")).body.groups as { name: string }[]).map((g) => g.name)).not.toContain("Engineering");
    }
  });
});
