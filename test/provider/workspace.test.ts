/**
 * Workspace and GroupWorkspace through Pulumi's real dynamic-provider host against the emulator.
 * With `kasm:apiNames product` (the product project of the suite): create with resources, a
 * registry and run config, a no-change plan, a memory change in place, drift on refresh, an image
 * deleted in Kasm gone on refresh, adoption by container name and friendly name, a group's
 * authorization made, read and removed (one that exists already recorded without a write; an add
 * whose answer was lost looked up, never sent twice); the registry password never in an error or the host's
 * output; what the native preview of an update notes for the permissions pack (the compute-related fields it changes), and that check adds nothing to the inputs. With `spec`: check refuses both kinds before any request, naming the setting.
 */
import { resourceFieldsChanging } from "../../provider/resources/workspace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";
import { IMAGE_JSON_SETTINGS, IMAGE_SETTINGS } from "../../provider/api";
import { UNKNOWN } from "../../permissions/planned-calls";

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({ users: [{ username: "mia" }] });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

const REGISTRY_PASSWORD = "registry-pa55-never-shown";

/** The image with this id as Kasm shows it, or undefined when Kasm has none. */
async function imageInKasm(id: string): Promise<Record<string, unknown> | undefined> {
  const res = await emulator.specCall("get_image", { target_image: { image_id: id } });
  return res.status === 200 && !res.body.error_message ? res.body.image : undefined;
}

const CHROME = {
  name: "kasmweb/chrome:1.16.0",
  friendlyName: "Chrome",
  description: "A browser",
  categories: ["Browsers"],
  enabled: true,
  cores: 2,
  memory: 2_768_000_000,
  registry: "https://registry.example.test/",
  registryUsername: "puller",
  registryPassword: REGISTRY_PASSWORD,
  runConfig: { hostname: "kasm" },
};

describe.runIf(TEST_API_NAMES === "product")("Workspace, against a released Kasm", () => {
  it("check refuses values Kasm cannot hold, naming the input, before any request", async () => {
    const before = emulator.requests.length;
    const { failures } = await new Driven(host, "Workspace", "bad").check({
      name: "kasmweb/x:1",
      friendlyName: "X",
      memory: 1.5,
      cores: 0,
      categories: ["a\nb"],
    });
    expect(failures.map((f) => f.property).sort()).toEqual(["categories.0", "cores", "memory"]);
    expect(emulator.requests.length).toBe(before);
  });

  it("creates, plans no change, changes memory in place, refreshes drift, and deletes", async () => {
    const chrome = new Driven(host, "Workspace", "chrome");
    await chrome.create(CHROME);
    expect(chrome.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await imageInKasm(chrome.id)).toMatchObject({
      name: CHROME.name,
      friendly_name: "Chrome",
      cores: 2,
      memory: 2_768_000_000,
      categories: ["Browsers"],
    });
    expect((await chrome.diff(CHROME)).changes).toBe("none");

    const bigger = { ...CHROME, memory: 4_000_000_000 };
    const diff = await chrome.diff(bigger);
    expect(diff.changes).toBe("some");
    expect(diff.replaces ?? []).toEqual([]);
    await chrome.update(bigger);
    expect(chrome.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await imageInKasm(chrome.id)).toMatchObject({ memory: 4_000_000_000, description: "A browser", cores: 2 });

    // Someone changes the description in the Kasm UI (which sends the record's settings back, configs as JSON text): refresh shows it; the next update puts it back.
    const current = (await imageInKasm(chrome.id))!;
    const settings = Object.fromEntries(
      IMAGE_SETTINGS.filter((key) => current[key] !== undefined && current[key] !== null).map((key) => [
        key,
        IMAGE_JSON_SETTINGS.includes(key) ? JSON.stringify(current[key]) : key === "categories" ? (current[key] as string[]).join("\n") : current[key],
      ]),
    );
    expect((await emulator.specCall("update_image", { target_image: { ...settings, image_id: chrome.id, description: "edited by hand" } })).status).toBe(200);
    expect((await chrome.read()).inputs).toMatchObject({ description: "edited by hand", registryPassword: REGISTRY_PASSWORD });
    await chrome.update(bigger);
    expect((await imageInKasm(chrome.id))?.description).toBe("A browser");

    await chrome.delete();
    expect(await imageInKasm(chrome.id)).toBeUndefined();
    // The registry password was never written to the host's output.
    expect(host.stderr.join("")).not.toContain(REGISTRY_PASSWORD);
  });

  it("check adds nothing to the inputs (a dynamic diff and the state would show it); a state an earlier version left a note in previews no change and sends nothing", async () => {
    const chrome = new Driven(host, "Workspace", "noted");
    const declared = { ...CHROME, name: "kasmweb/noted:1.16.0" };
    await chrome.create(declared);
    const olds = (await chrome.check(declared)).inputs;
    expect(olds).not.toHaveProperty("resourceFieldsChanging");
    expect((await chrome.check({ ...declared, memory: 4_000_000_000 }, olds)).inputs).not.toHaveProperty("resourceFieldsChanging");
    // A state that still holds an earlier version's note: a plan without change stays one, and sends nothing.
    const stale = { ...olds, resourceFieldsChanging: ["memory"] };
    const before = emulator.requests.length;
    const again = await chrome.check(declared, stale);
    expect(again.inputs).not.toHaveProperty("resourceFieldsChanging");
    expect((await chrome.diff(again.inputs)).changes).toBe("none");
    expect(emulator.requests.length).toBe(before);
    await chrome.delete();
  });

  it("what the native preview of an update notes for the policies (resourceFieldsChanging): the compute fields whose declared value differs from the state's", async () => {
    const state = { ...CHROME, imageId: "0b2f5f5e-4d3c-4b6a-9c1d-2e3f4a5b6c7d" };
    expect(resourceFieldsChanging({}, CHROME)).toBeUndefined();
    expect(resourceFieldsChanging(state, { ...CHROME, memory: 4_000_000_000, description: "changed" })).toEqual(["memory"]);
    expect(resourceFieldsChanging(state, { ...CHROME, description: "changed" })).toEqual([]);
    expect(resourceFieldsChanging(state, { ...CHROME, registryPassword: "another-token", runConfig: { hostname: "other" } })).toEqual([
      "registryPassword",
      "runConfig",
    ]);
    // One the program stops declaring keeps Kasm's value: no change. One not known yet: the placeholder, unless another surely changes.
    const { cores: _cores, ...withoutCores } = CHROME;
    expect(resourceFieldsChanging(state, withoutCores)).toEqual([]);
    expect(resourceFieldsChanging(state, { ...CHROME, cores: UNKNOWN })).toBe(UNKNOWN);
    expect(resourceFieldsChanging(state, { ...CHROME, cores: UNKNOWN, memory: 1 })).toEqual(["memory"]);
  });

  it("a requireGpu Kasm does not store (1.15 takes it and leaves it out) fails the create, naming the input, the release and the way out", async () => {
    const gpu = new Driven(host, "Workspace", "gpu");
    const error = await gpu.create({ name: "kasmweb/cuda:1.16.0", friendlyName: "CUDA", requireGpu: true }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      /Workspace 'CUDA' \(kasmweb\/cuda:1\.16\.0\): Kasm answered the write but does not show requireGpu as declared, so that setting was not taken\./,
    );
    expect(error?.message).toContain("requireGpu: Kasm 1.15 takes require_gpu in create_image and update_image but never stores it");
    expect(error?.message).toContain("leave it out, or declare false");
    // Declared false, as Kasm keeps it: taken.
    const plain = new Driven(host, "Workspace", "no-gpu");
    await plain.create({ name: "kasmweb/cuda:1.16.1", friendlyName: "CUDA 2", requireGpu: false });
    expect(plain.id).toMatch(/^[0-9a-f]{32}$/);
    await plain.delete();
  });

  it("an image deleted in Kasm is gone on refresh; adopt takes an existing one over by container name and friendly name", async () => {
    const gone = new Driven(host, "Workspace", "gone");
    await gone.create({ name: "kasmweb/terminal:1.16.0", friendlyName: "Terminal" });
    expect((await emulator.specCall("delete_image", { target_image: { image_id: gone.id } })).status).toBe(200);
    expect((await gone.read()).id).toBe("");

    const made = await emulator.specCall("create_image", { target_image: { name: "kasmweb/vs-code:1.16.0", friendly_name: "VS Code", description: "old" } });
    expect(made.status).toBe(200);
    const adopted = new Driven(host, "Workspace", "code");
    await adopted.create({ name: "kasmweb/vs-code:1.16.0", friendlyName: "VS Code", description: "Editor", adopt: true });
    expect(adopted.id.replace(/-/g, "")).toBe(String(made.body.image.image_id).replace(/-/g, ""));
    expect((await imageInKasm(adopted.id))?.description).toBe("Editor");
    await adopted.delete();
  });

  it("GroupWorkspace lets a group launch a workspace, records one that exists without a write, is gone on refresh once removed in Kasm, and is removed on delete", async () => {
    const group = await emulator.specCall("create_group", { target_group: { name: "Launchers", priority: 10 } });
    const groupId = String(group.body.group.group_id);
    const image = new Driven(host, "Workspace", "desktop");
    await image.create({ name: "kasmweb/desktop:1.16.0", friendlyName: "Desktop" });

    const grant = new Driven(host, "GroupWorkspace", "launchers-desktop");
    await grant.create({ groupId, imageId: image.id });
    const listed = async () =>
      ((await emulator.specCall("get_images_group", { target_group: { group_id: groupId } })).body.images ?? []) as { image_id: string }[];
    expect((await listed()).map((i) => i.image_id.replace(/-/g, ""))).toContain(image.id.replace(/-/g, ""));
    expect((await grant.read()).id).toBe(grant.id);
    // An authorization that exists is the declared one, adopt or not: recorded with one read, no write.
    for (const [name, adopt] of [
      ["again", undefined],
      ["again-adopted", true],
    ] as const) {
      const before = emulator.requests.length;
      const again = new Driven(host, "GroupWorkspace", name);
      await again.create({ groupId, imageId: image.id, ...(adopt === undefined ? {} : { adopt }) });
      expect(again.id).toBe(grant.id);
      expect(emulator.requests.slice(before).map((line) => line.split(" ")[0])).toEqual(["get_images_group"]);
    }

    await grant.delete();
    expect(await listed()).toEqual([]);
    expect((await grant.read()).id).toBe("");

    // An add that committed and whose answer was lost is looked up, never sent again: a second add
    // would make a second authorisation (1.15), which one remove would leave behind.
    const lost = new Driven(host, "GroupWorkspace", "lost-answer");
    await emulator.faults({ rate: 1, kinds: ["500"], operations: ["add_images_group"], phase: "after" });
    const before = emulator.requests.length;
    try {
      await lost.create({ groupId, imageId: image.id });
    } finally {
      await emulator.faults(null);
    }
    expect(lost.id).toBe(grant.id);
    expect(emulator.requests.slice(before).map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual([
      "get_images_group 200",
      "add_images_group 200",
      "add_images_group fault",
      "get_images_group 200",
      // The create's own read back of the group's images.
      "get_images_group 200",
    ]);
    expect((await listed()).map((i) => i.image_id.replace(/-/g, ""))).toEqual([image.id.replace(/-/g, "")]);
    await lost.delete();
    expect(await listed()).toEqual([]);
    await image.delete();
  });
});

describe.runIf(TEST_API_NAMES === "spec")("Workspace, with the API documentation's vocabulary", () => {
  it("check refuses both kinds before any request, naming kasm:apiNames and how to switch", async () => {
    const before = emulator.requests.length;
    for (const [kind, inputs] of [
      ["Workspace", { name: "kasmweb/chrome:1.16.0", friendlyName: "Chrome" }],
      ["GroupWorkspace", { groupId: "a".repeat(32), imageId: "b".repeat(32) }],
    ] as const) {
      const { failures } = await new Driven(host, kind, "x").check(inputs);
      expect(failures).toHaveLength(1);
      expect(failures[0].reason).toContain('kasm:apiNames is "spec"');
      expect(failures[0].reason).toContain("pulumi config set kasm:apiNames product");
    }
    expect(emulator.requests.length).toBe(before);
  });
});
