/**
 * Workspace registries as code, through the `pulumi` CLI against the emulator in product mode and
 * a registry served on 127.0.0.1: a program declares the registry, reads the workspaces it offers
 * (the registry's `workspaces` output), installs one as a Workspace and authorises a group for it
 * (GroupWorkspace). `up` makes the four; a preview of the unchanged program sends nothing (the
 * emulator's request log); after Kasm changed the registry (automatic updates switched on, the
 * registry's list fetched again with a third workspace), `refresh` records it and the next `up`
 * sends exactly the one call that puts the declared setting back; `destroy` removes all four.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { writeProgram } from "../helpers/options-programs";
import { serveRegistry, type RegistrySite } from "../helpers/registry-site";
import { PASSPHRASE, SLOW, tempDir } from "../e2e/helpers";
import { hasPulumi, measuredStep, stackOn, type PulumiCli } from "./pulumi-cli";

/** The program: the registry, the workspace it offers installed, a group authorised for it. */
const program = (url: string) => `
const registry = new kasm.WorkspaceRegistry("acme", { url: "${url}", autoUpdate: false });
const editor = registry.workspaces.apply((offered) => {
  const found = offered.find((w) => w.friendlyName === "Acme Editor");
  if (!found) throw new Error(\`the registry offers no Acme Editor: \${offered.map((w) => w.friendlyName).join(", ")}\`);
  return found;
});
const workspace = new kasm.Workspace("editor", {
  name: editor.name,
  friendlyName: editor.friendlyName,
  description: editor.description,
  imageSrc: editor.imageSrc,
  registry: editor.dockerRegistry,
});
const editors = new kasm.Group("editors", { name: "Editors" });
new kasm.GroupWorkspace("editors-editor", { groupId: editors.groupId, imageId: workspace.imageId });
export const offered = registry.workspaces.apply((ws) => ws.map((w) => w.friendlyName));
export const registryId = registry.registryId;
export const imageId = workspace.imageId;
export const groupId = editors.groupId;
`;

describe.skipIf(!hasPulumi)("a workspace registry as code, through the pulumi CLI", () => {
  let tmp: ReturnType<typeof tempDir>;
  let emulator: TestEmulator;
  let site: RegistrySite;
  let cli: PulumiCli;
  const figures: string[] = [];
  const step = <R extends object>(label: string, run: () => Promise<R>) => measuredStep(emulator, figures, label, run);
  const operations = (requests: string[]) => requests.map((line) => line.split(" ")[0]);

  beforeAll(async () => {
    tmp = tempDir("cli-registries");
    site = await serveRegistry();
    emulator = await startTestEmulator({}, { apiNames: "product" });
    const programDir = writeProgram(tmp.dir, program(site.url), "registries");
    cli = await stackOn(emulator.url, ADMIN, programDir, path.join(tmp.dir, "work"), PASSPHRASE);
    await cli.ok(["config", "set", "--stack", "dev", "kasm:apiNames", "product"]);
  }, SLOW);
  afterAll(async () => {
    if (figures.length) console.log(`a registry through the CLI:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    await site?.close();
    tmp?.remove();
  });

  it("up, a preview that sends nothing, refresh after Kasm changed the registry, up putting it back, destroy", { timeout: SLOW }, async () => {
    // up: Kasm fetches the registry's files; the workspace it offers is installed and authorised.
    site.requests.length = 0;
    const up = await step("up", () => cli.steps("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.errors).toEqual({});
    expect(up.ops).toMatchObject({ acme: "create", editor: "create", editors: "create", "editors-editor": "create" });
    expect(site.requests).toEqual(["/versions.txt", "/1.0/list.json"]);
    const outputs = await cli.outputs();
    expect(outputs.offered).toEqual(["Acme Editor", "Acme Browser"]);
    const registries = (await emulator.specCall("get_registries")).body.registries as { registry_id: string; registry_url: string; do_auto_update: boolean }[];
    expect(registries.find((r) => r.registry_id === outputs.registryId)).toMatchObject({ registry_url: site.url, do_auto_update: false });
    const image = (await emulator.specCall("get_images")).body.images.find((i: { image_id: string }) => i.image_id === outputs.imageId);
    expect(image).toMatchObject({ name: "acme/editor:1.0.0", friendly_name: "Acme Editor", description: "A text editor" });
    const authorised = (await emulator.specCall("get_images_group", { target_group: { group_id: outputs.groupId } })).body.images;
    expect(authorised.map((i: { image_id: string }) => i.image_id)).toEqual([outputs.imageId]);

    // A preview of the unchanged program: every resource the same, and not one request.
    const preview = await step("preview (no change)", () => cli.steps("preview"));
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(preview.ops).toMatchObject({ acme: "same", editor: "same", editors: "same", "editors-editor": "same" });
    expect(preview.requests).toEqual([]);

    // Kasm changes the registry: automatic updates on, and its list fetched again with a third workspace.
    site.workspaces.push({ name: "acme/terminal:1.0.0", friendly_name: "Acme Terminal", description: "A terminal", image_src: "img/terminal.png" });
    expect((await emulator.specCall("registry_auto_updates", { registry_id: outputs.registryId, auto_updates: true })).status).toBe(200);
    expect((await emulator.specCall("update_registry", { registry_id: outputs.registryId })).body.registry.registry.workspaces).toHaveLength(3);

    const refresh = await step("refresh (the registry changed in Kasm)", () => cli.steps("refresh"));
    expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
    expect(refresh.errors).toEqual({});
    expect(operations(refresh.requests)).not.toContain("registry_auto_updates");
    const recorded = (await cli.exported()).resources?.find((r) => r.urn.endsWith("::acme")) as { outputs?: Record<string, unknown> } | undefined;
    expect(recorded?.outputs?.autoUpdate).toBe(true);
    expect((recorded!.outputs!.workspaces as unknown[]).length).toBe(3);

    // The next up puts the declared setting back with one call, and lists the third workspace.
    const back = await step("up (autoUpdate back to the program's)", () => cli.steps("up"));
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(back.ops).toMatchObject({ acme: "update", editor: "same", editors: "same", "editors-editor": "same" });
    expect(operations(back.requests).filter((op) => !op.startsWith("get_"))).toEqual(["registry_auto_updates"]);
    expect(
      (await emulator.specCall("get_registries")).body.registries.find((r: { registry_id: string }) => r.registry_id === outputs.registryId).do_auto_update,
    ).toBe(false);
    expect((await cli.outputs()).offered).toEqual(["Acme Editor", "Acme Browser", "Acme Terminal"]);

    // destroy: the authorisation, the group, the workspace and the registry are gone from Kasm.
    const destroy = await step("destroy", () => cli.steps("destroy"));
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(operations(destroy.requests)).toEqual(expect.arrayContaining(["remove_images_group", "delete_group", "delete_image", "delete_registry"]));
    expect((await emulator.specCall("get_registries")).body.registries.map((r: { registry_url: string }) => r.registry_url)).toEqual([
      "https://registry.kasmweb.com/",
    ]);
    expect((await emulator.specCall("get_images")).body.images.some((i: { image_id: string }) => i.image_id === outputs.imageId)).toBe(false);
    expect((await emulator.specCall("get_groups")).body.groups.some((g: { group_id: string }) => g.group_id === outputs.groupId)).toBe(false);
  });
});
