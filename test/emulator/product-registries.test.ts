/**
 * The product's workspace registries over HTTP in product mode: the default registry a fresh Kasm
 * lists, create_registry fetching the site's files (served on 127.0.0.1), its refusals as 1.15
 * gives them (HTTP 200 with an `error_message`), update_registry fetching again,
 * registry_auto_updates, delete_registry in both shapes, and spec mode's 404s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationName, PermissionName } from "../../permissions";
import { wire } from "../helpers/emulator";
import { emulatorsInBothVocabularies } from "../helpers/emulator-pair";
import { serveRegistry, type RegistrySite } from "../helpers/registry-site";

const REGISTRY_OPERATIONS: OperationName[] = ["get_registries", "create_registry", "update_registry", "registry_auto_updates", "delete_registry"];
const key = (name: string, permissions: PermissionName[]) => ({ name, key: `key-${name}`, secret: `secret-${name}`, permissions });

const emulators = emulatorsInBothVocabularies({ apiKeys: [key("viewer", ["Registries View", "Images View", "System View", "Agents View"])] });
let site: RegistrySite;
beforeAll(async () => {
  site = await serveRegistry();
});
afterAll(async () => site?.close());

const registries = async () =>
  (await emulators.product.call("get_registries", {})).body.registries as {
    registry_id: string;
    registry_url: string;
    workspaces: { friendly_name: string }[];
    do_auto_update: boolean;
  }[];

describe("which mode serves the registry operations", () => {
  it.each(REGISTRY_OPERATIONS)("spec mode answers %s as an unknown operation", async (operation) => {
    expect(wire(await emulators.spec.call(operation, {}))).toEqual({ status: 404, body: { error_message: `Unknown API path (/api/public/${operation})` } });
  });
});

describe("registries", () => {
  it("a fresh Kasm lists its default registry, with no workspaces the emulator knows of", async () => {
    const res = await emulators.product.call("get_registries", {});
    expect(res.status).toBe(200);
    expect(res.body.registries).toEqual([
      expect.objectContaining({
        registry_url: "https://registry.kasmweb.com/",
        workspaces: [],
        do_auto_update: false,
        schema_version: "1.0",
        is_verified: false,
      }),
    ]);
    expect(res.body.architectures).toEqual(expect.any(Array));
  });

  it("create_registry fetches versions.txt and 1.0/list.json from the URL and lists the registry with its workspaces", async () => {
    site.requests.length = 0;
    const res = await emulators.product.call("create_registry", { registry: site.url.replace(/\/$/, ""), channel: "stable" });
    expect(res.status).toBe(200);
    expect(res.body.registry).toEqual(
      expect.objectContaining({ registry_url: site.url, schema_version: "1.0", do_auto_update: false, channel: "stable", workspaces: site.workspaces }),
    );
    expect(site.requests).toEqual(["/versions.txt", "/1.0/list.json"]);
    const listed = (await registries()).find((r) => r.registry_url === site.url);
    expect(listed?.workspaces.map((w) => w.friendly_name)).toEqual(["Acme Editor", "Acme Browser"]);
    // get_registries keeps the workspaces apart from the rest of the list.
    const raw = (await emulators.product.call("get_registries", {})).body.registries.find((r: { registry_url: string }) => r.registry_url === site.url);
    expect(raw.config).toEqual({ name: "Acme Registry", icon: "icon.png", description: "Workspaces for tests", list_url: site.url, contact_url: "" });
  });

  it("a registry already installed is refused with 1.15's text, HTTP 200", async () => {
    expect(wire(await emulators.product.call("create_registry", { registry: site.url }))).toEqual({
      status: 200,
      body: { error_message: "This Registry has already been installed." },
    });
  });

  it("an unreachable URL, a site without versions.txt, an incompatible schema, a list without its fields: 1.15's texts", async () => {
    const refused = async (registry: string) => (await emulators.product.call("create_registry", { registry })).body;
    expect(await refused("http://127.0.0.1:1/")).toEqual({ error_message: "A valid url needs to be entered" });
    expect(await refused("not a url")).toEqual({ error_message: "A valid url needs to be entered" });
    // Beyond loopback the emulator fetches nothing: answered as unreachable.
    expect(await refused("https://registry.example.com/")).toEqual({ error_message: "A valid url needs to be entered" });
    expect(await refused(`${site.url}nowhere/`)).toEqual({ error_message: "This registry does not appear to have a valid schema list" });
    const other = await serveRegistry([], "Other");
    try {
      other.versions = "0.9\n2.0\n";
      expect(await refused(other.url)).toEqual({ error_message: "This registry does not appear to have a compatible schema version available" });
    } finally {
      await other.close();
    }
    expect(wire(await emulators.product.call("create_registry", {}))).toEqual({
      status: 200,
      body: { error_message: "Invalid Request. Missing required parameters" },
    });
  });

  it("Kasm keeps the list_url the list names as the registry's URL: create answers it as stored, get_registries with a slash", async () => {
    const other = await serveRegistry([], "Unslashed");
    try {
      other.listUrl = other.url.replace(/\/$/, "");
      const made = await emulators.product.call("create_registry", { registry: other.url });
      expect(made.body.registry.registry_url).toBe(other.listUrl);
      expect((await registries()).find((r) => r.registry_id === made.body.registry.registry_id)?.registry_url).toBe(other.url);
      expect((await emulators.product.call("create_registry", { registry: other.url })).body).toEqual({
        error_message: "This Registry has already been installed.",
      });
      await emulators.product.call("delete_registry", { registry_id: made.body.registry.registry_id });
    } finally {
      await other.close();
    }
  });

  it("update_registry fetches the list again; registry_auto_updates switches automatic updates", async () => {
    const id = (await registries()).find((r) => r.registry_url === site.url)!.registry_id;
    site.workspaces.push({ name: "acme/terminal:1.0.0", friendly_name: "Acme Terminal", description: "", image_src: "" });
    const res = await emulators.product.call("update_registry", { registry_id: id });
    expect(res.status).toBe(200);
    expect(res.body.registry.registry.workspaces).toHaveLength(3);
    expect((await registries()).find((r) => r.registry_id === id)!.workspaces).toHaveLength(3);
    const auto = await emulators.product.call("registry_auto_updates", { registry_id: id, auto_updates: true });
    expect(auto.body.registry.do_auto_update).toBe(true);
    expect((await registries()).find((r) => r.registry_id === id)!.do_auto_update).toBe(true);
  });

  it("update_registry and registry_auto_updates of an unknown or missing id: 1.15's texts", async () => {
    const unknown = "ffffffffffffffffffffffffffffffff";
    expect((await emulators.product.call("update_registry", { registry_id: unknown })).body).toEqual({
      error_message: "There was a problem updating the registry",
    });
    expect((await emulators.product.call("update_registry", { registry_id: "nope" })).body).toEqual({
      error_message: "There was a problem finding the registry nope",
    });
    expect((await emulators.product.call("update_registry", {})).body).toEqual({ error_message: "Missing Registry ID" });
    expect((await emulators.product.call("registry_auto_updates", { registry_id: unknown, auto_updates: true })).body).toEqual({
      error_message: `There was a problem finding the registry ${unknown}`,
    });
  });

  it("delete_registry takes the id at the top level (1.15) or in target_registry (the tf client); an unknown id fails unhandled", async () => {
    const id = (await registries()).find((r) => r.registry_url === site.url)!.registry_id;
    expect(wire(await emulators.product.call("delete_registry", { target_registry: { registry_id: id } }))).toEqual({ status: 200, body: {} });
    expect((await registries()).some((r) => r.registry_id === id)).toBe(false);
    expect((await emulators.product.call("delete_registry", { registry_id: id })).status).toBe(500);
    expect((await emulators.product.call("delete_registry", {})).body).toEqual({ error_message: "Missing Registry ID" });
    // Deleted, it can be added again.
    expect((await emulators.product.call("create_registry", { registry: site.url })).body.registry.registry_url).toBe(site.url);
  });

  it("needs Registries View to list, Registries Create to add", async () => {
    const viewer = { key: "key-viewer", secret: "secret-viewer" };
    expect((await emulators.product.call("get_registries", {}, viewer)).status).toBe(200);
    expect((await emulators.product.call("create_registry", { registry: site.url }, viewer)).status).toBeGreaterThanOrEqual(400);
  });
});
