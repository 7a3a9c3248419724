/**
 * Workspace registries (the product's, served in product mode only): list them, add one (which
 * fetches its files from its URL, as the product does), fetch one again, switch its automatic
 * updates, delete one.
 *
 * 1.15 decompile, `admin_api.py` get_registries, create_registry (`_create_registry`),
 * update_registry, registry_auto_updates, delete_registry: inherited from the admin API, a refused
 * request answers HTTP 200 with an `error_message`, and one the product does not handle (a list
 * that is no JSON, an unknown id to delete) its 500 page. A registry is a static site: the product
 * reads `<url>/versions.txt` (one schema version a line, `1.0` wanted) and then
 * `<url>/1.0/list.json` ({name, icon, description, list_url, workspaces, ...}).
 *
 * The emulator fetches from loopback addresses only (127.0.0.1, ::1, localhost): any other host is
 * answered as an unreachable one, so that no test reaches past the machine (its own rule).
 */
import { z } from "zod";
import { RefusedWith200, UnhandledException } from "../errors";
import { withSlash, type RegistryConfig, type RegistryRecord, type Store } from "../store";
import { bool, parse, type Handler } from "./common";

/** The schema version 1.15 reads a registry's list for (`valid_schema`). */
const SCHEMA_VERSION = "1.0";

/** How long the emulator waits for a registry's file. */
const FETCH_TIMEOUT_MS = 5000;

/** The five fields 1.15 requires of a registry's list. */
const LIST_FIELDS = ["name", "icon", "description", "list_url", "workspaces"] as const;

const CreateRegistry = z.object({
  registry: z.string().optional(),
  // 1.16's (the tf client sends them): stored (channel) or taken and unused (override_schema); see emulator/README.md.
  channel: z.string().nullable().optional(),
  override_schema: z.string().nullable().optional(),
});

const RegistryId = z.object({
  registry_id: z.unknown().optional(),
  // The tf client's shape of delete_registry; 1.15 reads the top-level registry_id only.
  target_registry: z.object({ registry_id: z.unknown().optional() }).optional(),
});

const AutoUpdates = z.object({ registry_id: z.unknown().optional(), auto_updates: bool.optional() });

/** Whether the emulator may fetch from this URL's host: loopback only. */
function loopback(url: URL): boolean {
  return ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname);
}

/** The outcome of one fetch: the body, the HTTP status of a refusal, or no answer at all. */
type Fetched = { ok: true; text: string } | { ok: false; status: number } | { ok: false; unreachable: true };

async function fetchFile(url: string): Promise<Fetched> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, unreachable: true };
  }
  if (!["http:", "https:"].includes(parsed.protocol) || !loopback(parsed)) return { ok: false, unreachable: true };
  try {
    const res = await fetch(parsed, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "follow" });
    if (!res.ok) return { ok: false, status: res.status };
    return { ok: true, text: await res.text() };
  } catch {
    return { ok: false, unreachable: true };
  }
}

/**
 * 1.15's `_create_registry`: fetch the registry's versions and list, then add it, or with
 * `existing` fetch it again into that record. Refusals are 1.15's texts.
 */
async function fetchRegistry(
  store: Store,
  url: string,
  channel: string | null,
  existing?: RegistryRecord,
): Promise<{ registry: ReturnType<typeof registryJson> }> {
  const versions = await fetchFile(`${url}versions.txt`);
  if (!versions.ok) {
    if ("status" in versions) throw new RefusedWith200("This registry does not appear to have a valid schema list");
    throw new RefusedWith200("A valid url needs to be entered");
  }
  if (!versions.text.split(/\r?\n/).includes(SCHEMA_VERSION))
    throw new RefusedWith200("This registry does not appear to have a compatible schema version available");
  // Not caught by 1.15: a list it cannot fetch or parse fails the request unhandled.
  const list = await fetchFile(`${url}${SCHEMA_VERSION}/list.json`);
  if (!list.ok) throw new UnhandledException();
  let data: unknown;
  try {
    data = JSON.parse(list.text);
  } catch {
    throw new UnhandledException();
  }
  if (typeof data !== "object" || data === null || Array.isArray(data) || !LIST_FIELDS.every((k) => k in data))
    throw new RefusedWith200("This does not look like a valid registry.");
  const config = data as RegistryConfig;
  // A list that names no URL string, or no list of workspaces, fails 1.15's database write: unhandled there too.
  if (typeof config.list_url !== "string" || !Array.isArray(config.workspaces)) throw new UnhandledException();
  if (existing) return { registry: registryJson(store.registries.refresh(existing, config)) };
  if (store.registries.byUrl(config.list_url)) throw new RefusedWith200("This Registry has already been installed.");
  return { registry: registryJson(store.registries.add(config, SCHEMA_VERSION, channel)) };
}

/**
 * A registry as create and update answer it: 1.15's data-model form, its URL as stored (the list's
 * `list_url`, where get_registries adds a slash); `is_verified` false: no registry the emulator
 * serves is signed by Kasm.
 */
function registryJson(r: RegistryRecord) {
  return {
    registry_id: r.registry_id,
    config: r.config,
    do_auto_update: r.do_auto_update,
    registry_url: r.registry_url,
    workspaces: r.config.workspaces,
    schema_version: r.schema_version,
    is_verified: false,
    channel: r.channel,
  };
}

/** A registry as get_registries lists it: its list's fields apart from the workspaces in `config`. */
function registryItem(r: RegistryRecord) {
  const { workspaces, ...config } = r.config;
  return {
    registry_id: r.registry_id,
    registry_url: withSlash(r.registry_url),
    do_auto_update: r.do_auto_update,
    schema_version: r.schema_version,
    is_verified: false,
    workspaces,
    config,
    channel: r.channel,
  };
}

/** The architectures of the servers' Docker hosts, as 1.15 lists them beside the registries. */
function architectures(store: Store): string[] {
  const names: Record<string, string> = { aarch64: "arm64", amd64: "amd64", x86_64: "amd64" };
  const found = new Set<string>();
  for (const server of store.servers.allServers()) {
    const info = (server as { ctr_info?: unknown }).ctr_info;
    const arch = typeof info === "object" && info !== null ? names[String((info as Record<string, unknown>).Architecture)] : undefined;
    if (arch) found.add(arch);
  }
  return [...found];
}

/** The registry a request names (top level, or the tf client's `target_registry`), or the product's refusal. */
function namedRegistry(store: Store, body: Record<string, unknown>): { id: unknown; record: RegistryRecord | undefined } {
  const req = parse(RegistryId, body, "");
  const id = req.registry_id ?? req.target_registry?.registry_id;
  if (id === undefined) throw new RefusedWith200("Missing Registry ID");
  return { id, record: store.registries.registry(id) };
}

const getRegistries: Handler = ({ store }) => ({
  registries: store.registries.all().map(registryItem),
  architectures: architectures(store),
});

const createRegistry: Handler = async ({ body, store }) => {
  const req = parse(CreateRegistry, body, "");
  if (req.registry === undefined) throw new RefusedWith200("Invalid Request. Missing required parameters");
  return fetchRegistry(store, withSlash(req.registry), req.channel ?? null);
};

/**
 * update_registry: the registry's list fetched again. 1.15 nests what its fetch answers in
 * `registry`, so a refused fetch answers `{registry: {error_message}}`; an unknown id fails there
 * too (`There was a problem updating the registry`), a malformed one before
 * (`There was a problem finding the registry <id>`).
 */
const updateRegistry: Handler = async ({ body, store }) => {
  const { id, record } = namedRegistry(store, body);
  if (typeof id !== "string" || !/^[0-9a-f]{32}$|^[0-9a-f-]{36}$/i.test(id)) throw new RefusedWith200(`There was a problem finding the registry ${String(id)}`);
  if (!record) throw new RefusedWith200("There was a problem updating the registry");
  try {
    return { registry: await fetchRegistry(store, withSlash(record.registry_url), record.channel, record) };
  } catch (error) {
    if (error instanceof RefusedWith200) return { registry: { error_message: error.message } };
    throw error;
  }
};

const registryAutoUpdates: Handler = ({ body, store }) => {
  const req = parse(AutoUpdates, body, "");
  if (req.registry_id === undefined || req.auto_updates === undefined) throw new RefusedWith200("Missing Registry ID");
  const record = store.registries.registry(req.registry_id);
  if (!record) throw new RefusedWith200(`There was a problem finding the registry ${String(req.registry_id)}`);
  return { registry: registryJson(store.registries.setAutoUpdate(record, req.auto_updates)) };
};

/** delete_registry: 1.15 hands an unknown id to its database unchecked, which fails unhandled. */
const deleteRegistry: Handler = ({ body, store }) => {
  const { record } = namedRegistry(store, body);
  if (!record) throw new UnhandledException();
  store.registries.delete(record);
  return {};
};

/** The handlers of this area, by operation. */
export const registryHandlers = {
  get_registries: getRegistries,
  create_registry: createRegistry,
  update_registry: updateRegistry,
  registry_auto_updates: registryAutoUpdates,
  delete_registry: deleteRegistry,
} satisfies Record<string, Handler>;
