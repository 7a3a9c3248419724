/**
 * Zones, server pools and servers: where sessions run. The API reads them, drains servers and
 * imports servers from CSV; the rest comes from the seed or the data file.
 */
import { UnknownObject } from "../errors";
import { AreaModel, byId, canonicalId, newId, timestamp, type Table } from "./common";

/** A deployment zone as stored. */
export interface ZoneRecord {
  zone_id: string;
  zone_name: string;
  auto_scaling_enabled: boolean;
  cloud_enabled: boolean;
  cloud_region: string;
  cloud_access_key_id: string;
  cloud_secret_access_key: string;
  vm_agent_image_id: string | null;
}

/** A server pool as stored. */
export interface ServerPoolRecord {
  server_pool_id: string;
  server_pool_name: string;
  server_pool_type: string;
}

/** A server (a fixed host sessions can run on) as stored. */
export interface ServerRecord {
  server_id: string;
  created: string;
  server_type: string;
  hostname: string;
  friendly_name: string | null;
  port: number;
  connection_type: string;
  connection_credential_type: string;
  connection_username: string | null;
  connection_password: string | null;
  connection_private_key: string | null;
  connection_passphrase: string | null;
  use_user_private_key: boolean;
  zone_id: string;
  server_pool_id: string | null;
  enabled: boolean;
  is_draining: boolean;
  labels: string[];
  max_simultaneous_sessions: number;
  max_simultaneous_users: number;
  operational_status: string;
}

/** The part of the state this model owns. */
export interface ServersTables {
  zones: Table<ZoneRecord>;
  serverPools: Table<ServerPoolRecord>;
  servers: Table<ServerRecord>;
}

/** A zone as a seed describes it. */
export interface ZoneInput {
  zone_id?: string;
  zone_name: string;
  cloud_enabled?: boolean;
  cloud_region?: string;
  cloud_access_key_id?: string;
  cloud_secret_access_key?: string;
  vm_agent_image_id?: string;
}

/** A server pool as a seed describes it. */
export interface ServerPoolInput {
  server_pool_id?: string;
  server_pool_name: string;
  server_pool_type?: string;
}

/** A server as a seed describes it, its zone and pool already resolved to ids. */
export interface ServerInput {
  server_id?: string;
  hostname: string;
  friendly_name?: string;
  connection_type: string;
  port?: number;
  zone_id: string;
  server_pool_id?: string;
  server_type?: string;
  labels?: string[];
  is_draining?: boolean;
}

/** Zones, server pools and servers, and the rules that change servers. */
export class ServersModel extends AreaModel<ServersTables> {
  // --- zones and pools ------------------------------------------------------------------------

  /** Every zone. */
  allZones(): ZoneRecord[] {
    return Object.values(this.tables.zones);
  }

  /** A zone by id in either form; undefined when the id is malformed or unknown. */
  zone(id: unknown): ZoneRecord | undefined {
    return byId(this.tables.zones, id);
  }

  /** The zone named `name`, if any. */
  zoneByName(name: string): ZoneRecord | undefined {
    return this.allZones().find((z) => z.zone_name === name);
  }

  /** A server pool by id in either form; undefined when the id is malformed or unknown. */
  serverPool(id: unknown): ServerPoolRecord | undefined {
    return byId(this.tables.serverPools, id);
  }

  /** The server pool named `name`, if any. */
  serverPoolByName(name: string): ServerPoolRecord | undefined {
    return Object.values(this.tables.serverPools).find((p) => p.server_pool_name === name);
  }

  /** Add a seeded zone; "duplicate" when its id is taken (the caller words the error). */
  addSeedZone(input: ZoneInput): ZoneRecord | "duplicate" {
    const zone_id = input.zone_id ? canonicalId(input.zone_id)! : newId();
    if (this.tables.zones[zone_id]) return "duplicate";
    const zone: ZoneRecord = {
      zone_id,
      zone_name: input.zone_name,
      auto_scaling_enabled: false,
      cloud_enabled: input.cloud_enabled ?? false,
      cloud_region: input.cloud_region ?? "",
      cloud_access_key_id: input.cloud_access_key_id ?? "",
      cloud_secret_access_key: input.cloud_secret_access_key ?? "",
      vm_agent_image_id: input.vm_agent_image_id ?? null,
    };
    this.tables.zones[zone_id] = zone;
    return zone;
  }

  /** Add a seeded server pool. */
  addSeedServerPool(input: ServerPoolInput): ServerPoolRecord {
    const server_pool_id = input.server_pool_id ? canonicalId(input.server_pool_id)! : newId();
    const pool: ServerPoolRecord = {
      server_pool_id,
      server_pool_name: input.server_pool_name,
      server_pool_type: input.server_pool_type ?? "Server",
    };
    this.tables.serverPools[server_pool_id] = pool;
    return pool;
  }

  // --- servers --------------------------------------------------------------------------------

  /** Every server. */
  allServers(): ServerRecord[] {
    return Object.values(this.tables.servers);
  }

  /** A server by id in either form; undefined when the id is malformed or unknown. */
  server(id: unknown): ServerRecord | undefined {
    return byId(this.tables.servers, id);
  }

  /** get_servers: one server by id. */
  requireServer(serverId: unknown): ServerRecord {
    const server = this.server(serverId);
    if (!server) throw new UnknownObject(`Invalid Server ID (${String(serverId ?? "")})`);
    return server;
  }

  /** The server a new session of an image runs on: the first of the image's zone, if it has one. */
  serverForZone(zoneId: string | null): ServerRecord | undefined {
    return this.allServers().find((s) => !zoneId || s.zone_id === zoneId);
  }

  /** set_drain_server: sets the server's draining flag to the value given. */
  setDraining(serverId: unknown, draining: boolean): void {
    this.requireServer(serverId).is_draining = draining;
  }

  /** Store a server built and checked elsewhere (a CSV import checks every row before storing any). */
  insertServer(server: ServerRecord): void {
    this.tables.servers[server.server_id] = server;
  }

  /** Add a seeded server, with the product's defaults for what the seed leaves out. */
  addSeedServer(input: ServerInput): ServerRecord {
    const server_id = input.server_id ? canonicalId(input.server_id)! : newId();
    const server: ServerRecord = {
      server_id,
      created: timestamp(),
      server_type: input.server_type ?? "Desktop",
      hostname: input.hostname,
      friendly_name: input.friendly_name ?? null,
      port: input.port ?? (input.connection_type === "RDP" ? 3389 : 22),
      connection_type: input.connection_type,
      connection_credential_type: "STATIC",
      connection_username: null,
      connection_password: null,
      connection_private_key: null,
      connection_passphrase: null,
      use_user_private_key: false,
      zone_id: input.zone_id,
      server_pool_id: input.server_pool_id ?? null,
      enabled: true,
      is_draining: input.is_draining ?? false,
      labels: input.labels ?? [],
      max_simultaneous_sessions: 1,
      max_simultaneous_users: 1,
      operational_status: "running",
    };
    this.tables.servers[server_id] = server;
    return server;
  }
}
