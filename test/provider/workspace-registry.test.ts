/**
 * WorkspaceRegistry through Pulumi's real dynamic-provider host against the emulator, with a
 * registry site served on 127.0.0.1. With `kasm:apiNames product` (the product project of the
 * suite): create (Kasm fetches the site's files), a no-change plan, autoUpdate in place, the URL
 * and the channel replacing, refresh after drift and after a deletion in Kasm, adoption by URL,
 * a refused URL named in plain words, and a delete that finds the registry gone. With `spec`:
 * check refuses the kind before any request, naming the setting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KasmClient } from "../../provider/api";
import { LOOKUPS } from "../../provider/lookups";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { serveRegistry, type RegistrySite } from "../helpers/registry-site";
import { TEST_API_NAMES } from "../helpers/vocabulary";

let emulator: TestEmulator;
let host: ProviderHost;
let site: RegistrySite;

beforeAll(async () => {
  emulator = await startTestEmulator({});
  host = await hostFor(emulator);
  site = await serveRegistry();
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
  await site?.close();
});

/** The registry with this id as Kasm lists it, or undefined. */
async function registryInKasm(id: string) {
  const res = await emulator.specCall("get_registries");
  expect(res.status).toBe(200);
  return (res.body.registries ?? []).find((r: { registry_id: string }) => r.registry_id === id);
}

describe.runIf(TEST_API_NAMES === "product")("WorkspaceRegistry, against a released Kasm", () => {
  it("check refuses a URL that is not http or https, naming the property, before any request", async () => {
    const before = emulator.requests.length;
    const { failures } = await new Driven(host, "WorkspaceRegistry", "bad").check({ url: "registry.example.org" });
    expect(failures.map((f) => f.property)).toEqual(["url"]);
    expect(failures[0].reason).toMatch(/http:\/\/ or https:\/\//);
    expect(emulator.requests.length).toBe(before);
  });

  it("creates (Kasm fetches the site), plans no change, switches autoUpdate in place, refreshes drift and deletes", async () => {
    const registry = new Driven(host, "WorkspaceRegistry", "acme");
    site.requests.length = 0;
    await registry.create({ url: site.url.replace(/\/$/, "") });
    expect(site.requests).toEqual(["/versions.txt", "/1.0/list.json"]);
    expect(registry.id).toMatch(/^[0-9a-f]{32}$/);
    expect(registry.state).toMatchObject({ registryId: registry.id, registryUrl: site.url, registryName: "Acme Registry" });
    expect((registry.state.workspaces as { friendlyName: string }[]).map((w) => w.friendlyName)).toEqual(["Acme Editor", "Acme Browser"]);
    expect((registry.state.workspaces as object[])[0]).toEqual({
      name: "acme/editor:1.0.0",
      friendlyName: "Acme Editor",
      description: "A text editor",
      imageSrc: "img/editor.png",
      dockerRegistry: "https://index.docker.io/v1/",
    });
    expect(await registryInKasm(registry.id)).toMatchObject({ registry_url: site.url, do_auto_update: false });
    // The URL declared without its slash is the same address: no change.
    expect((await registry.diff({ url: site.url.replace(/\/$/, "") })).changes).toBe("none");

    await registry.update({ url: site.url.replace(/\/$/, ""), autoUpdate: true });
    expect((await registryInKasm(registry.id)).do_auto_update).toBe(true);

    // Someone switches automatic updates off in Kasm: refresh shows it, the next update puts it back.
    expect((await emulator.specCall("registry_auto_updates", { registry_id: registry.id, auto_updates: false })).status).toBe(200);
    expect((await registry.read()).inputs).toMatchObject({ autoUpdate: false });
    await registry.update({ url: site.url.replace(/\/$/, ""), autoUpdate: true });
    expect((await registryInKasm(registry.id)).do_auto_update).toBe(true);

    await registry.delete();
    expect(await registryInKasm(registry.id)).toBeUndefined();
  });

  it("the URL and the channel replace the registry; autoUpdate does not", async () => {
    const registry = new Driven(host, "WorkspaceRegistry", "replace");
    await registry.create({ url: site.url, channel: "stable" });
    expect((await registryInKasm(registry.id)).channel).toBe("stable");
    const channel = await registry.diff({ url: site.url, channel: "beta" });
    expect(channel.replaces).toEqual(["channel"]);
    const url = await registry.diff({ url: "http://127.0.0.1:1/", channel: "stable" });
    expect(url.replaces).toEqual(["url"]);
    const auto = await registry.diff({ url: site.url, channel: "stable", autoUpdate: true });
    expect(auto.replaces ?? []).toEqual([]);
    await registry.delete();
  });

  it("a registry at that URL is an error that suggests adopt; adopt takes it over", async () => {
    const made = await emulator.specCall("create_registry", { registry: site.url });
    expect(made.status).toBe(200);
    const existingId = made.body.registry.registry_id;
    await expect(new Driven(host, "WorkspaceRegistry", "dup").create({ url: site.url })).rejects.toThrow(/already exists.*adopt: true/s);
    const adopted = new Driven(host, "WorkspaceRegistry", "adopted");
    await adopted.create({ url: site.url, autoUpdate: true, adopt: true });
    expect(adopted.id).toBe(existingId);
    expect((await registryInKasm(existingId)).do_auto_update).toBe(true);
    await adopted.delete();
  });

  it("a URL Kasm cannot fetch fails with Kasm's words; a registry deleted in Kasm is gone on refresh, and its delete is done", async () => {
    await expect(new Driven(host, "WorkspaceRegistry", "nowhere").create({ url: `${site.url}nowhere/` })).rejects.toThrow(
      /does not appear to have a valid schema list/,
    );
    const gone = new Driven(host, "WorkspaceRegistry", "gone");
    await gone.create({ url: site.url });
    expect((await emulator.specCall("delete_registry", { registry_id: gone.id })).status).toBe(200);
    expect((await gone.read()).id).toBe("");
    const before = emulator.requests.length;
    await gone.delete();
    // One read, no delete_registry (Kasm would fail on an id it does not have).
    expect(emulator.requests.slice(before).map((line) => line.split(" ")[0])).toEqual(["get_registries"]);
  });
});

describe.runIf(TEST_API_NAMES === "product")("the registry lookups (their one implementation, for the SDK and the native provider)", () => {
  it("getRegistries lists each registry with its workspaces; getRegistryWorkspaces gives one registry's, by id or URL, or names what it did not find", async () => {
    const client = new KasmClient({ baseUrl: emulator.url, apiKey: ADMIN.key, apiKeySecret: ADMIN.secret, apiNames: "product", maxRetries: 0 }, {});
    try {
      const made = await emulator.specCall("create_registry", { registry: site.url });
      const id = made.body.registry.registry_id as string;
      const all = await LOOKUPS.getRegistries.fetch(client, {});
      expect(all.map((r) => r.registry_url)).toEqual(["https://registry.kasmweb.com/", site.url]);
      const byId = await LOOKUPS.getRegistryWorkspaces.fetch(client, { registryId: id });
      expect(byId.map((w) => w.friendly_name)).toEqual(["Acme Editor", "Acme Browser"]);
      const byUrl = await LOOKUPS.getRegistryWorkspaces.fetch(client, { url: site.url.replace(/\/$/, "") });
      expect(byUrl).toEqual(byId);
      await expect(LOOKUPS.getRegistryWorkspaces.fetch(client, { url: "https://nowhere.example/" })).rejects.toThrow(
        "Kasm has no registry at https://nowhere.example/",
      );
      await emulator.specCall("delete_registry", { registry_id: id });
    } finally {
      await client.close();
    }
  });
});

describe.runIf(TEST_API_NAMES === "spec")("WorkspaceRegistry, with the API documentation's vocabulary", () => {
  it("check refuses it before any request, naming kasm:apiNames and how to switch", async () => {
    const before = emulator.requests.length;
    const { failures } = await new Driven(host, "WorkspaceRegistry", "acme").check({ url: "http://127.0.0.1:1/" });
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toContain('kasm:apiNames is "spec"');
    expect(failures[0].reason).toContain("pulumi config set kasm:apiNames product");
    expect(emulator.requests.length).toBe(before);
  });
});
