/**
 * Workspace registries (the product's, served in product mode only): the static sites a Kasm lists
 * workspaces from. The records and their rules; fetching a registry's files is the handler's.
 *
 * 1.15 keeps a registry as the `list.json` it fetched (`config`, its `workspaces` inside), the
 * schema version it found in `versions.txt`, whether it updates itself (`do_auto_update`) and its
 * URL, which is the `list_url` the registry names, unique (decompile, `data/model.py` Registry,
 * `data/access_postgres.py` create_registry and update_registry). The `channel` is 1.16's (the tf
 * client reads it in every registry): stored as sent, null when none was.
 */
import { AreaModel, byId, newId, type Table } from "./common";

/** What a registry's `<schema>/list.json` holds: these five fields at least (1.15 refuses one without them). */
export interface RegistryConfig {
  name: unknown;
  icon: unknown;
  description: unknown;
  list_url: string;
  workspaces: unknown[];
  [field: string]: unknown;
}

/** One registry. */
export interface RegistryRecord {
  registry_id: string;
  registry_url: string;
  config: RegistryConfig;
  do_auto_update: boolean;
  schema_version: string;
  channel: string | null;
}

/** The part of the state this model owns. */
export interface RegistriesTables {
  registries: Table<RegistryRecord>;
}

/**
 * The registry a fresh Kasm lists: Kasm's own, at the URL its documentation names (the Workspace
 * Registry guide). Its contents are not modelled (the emulator fetches nothing beyond loopback): no workspaces.
 */
export const DEFAULT_REGISTRY_URL = "https://registry.kasmweb.com/";

/** The default registry's list as the emulator keeps it: its URL, no workspaces (name and icon unknown: empty). */
export const DEFAULT_REGISTRY_CONFIG: RegistryConfig = { name: "", icon: "", description: "", list_url: DEFAULT_REGISTRY_URL, workspaces: [] };

/** The product appends a slash to a registry's URL before it fetches from it or answers it (1.15 `addSlash`). */
export function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

/** Registries: add, refresh from what was fetched, switch automatic updates, delete. */
export class RegistriesModel extends AreaModel<RegistriesTables> {
  /** Every registry, in the order they were added. */
  all(): RegistryRecord[] {
    return Object.values(this.tables.registries);
  }

  /** The registry of this id (any spelling), or undefined. */
  registry(id: unknown): RegistryRecord | undefined {
    return byId(this.tables.registries, id);
  }

  /** The registry whose URL is `url` (1.15 looks the fetched `list_url` up exactly). */
  byUrl(url: string): RegistryRecord | undefined {
    return this.all().find((r) => r.registry_url === url);
  }

  /** Add a registry from its fetched list; the caller has checked that its URL is free. */
  add(config: RegistryConfig, schemaVersion: string, channel: string | null, doAutoUpdate = false): RegistryRecord {
    const record: RegistryRecord = {
      registry_id: newId(),
      registry_url: config.list_url,
      config,
      do_auto_update: doAutoUpdate,
      schema_version: schemaVersion,
      channel,
    };
    this.tables.registries[record.registry_id] = record;
    return record;
  }

  /** Replace a registry's list with one fetched again (1.15 update: config and URL from the new list). */
  refresh(record: RegistryRecord, config: RegistryConfig): RegistryRecord {
    record.config = config;
    record.registry_url = config.list_url;
    return record;
  }

  /** Switch a registry's automatic updates (1.15 registry_auto_updates). */
  setAutoUpdate(record: RegistryRecord, on: boolean): RegistryRecord {
    record.do_auto_update = on;
    return record;
  }

  /** Delete a registry; the images installed from it stay (1.15 keeps no link from an image to its registry). */
  delete(record: RegistryRecord): void {
    delete this.tables.registries[record.registry_id];
  }
}
