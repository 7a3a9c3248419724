/**
 * Deployment zones and servers: list zones, read a server, drain a server.
 * (Batch creation of servers from a CSV file lives in batch.ts.)
 */
import { z } from "zod";
import { InvalidRequest, MissingParameters } from "../errors";
import { SERVER, SERVER_CALCULATION, SERVER_SESSION, SERVER_USER, SERVER_ZONE, USER_REF, ZONE } from "../fields";
import { MASK, type ServerRecord, type Store, type ZoneRecord } from "../store";
import { bool, id, parse, type Handler } from "./common";

/**
 * A zone. The spec lists only the brief form's fields, so the full form (without `brief`) shows
 * the same ones: a field the spec does not list is a field a real Kasm may not send.
 */
function zoneJson(zone: ZoneRecord, observedFields: boolean) {
  return ZONE.form({ ...zone, cloud_secret_access_key: zone.cloud_secret_access_key ? MASK : "" }, observedFields);
}

/**
 * A server record with every field of the spec; what the emulator does not model has a fixed
 * value. Observed mode adds `is_draining` (see fields.ts).
 */
export function serverJson(store: Store, s: ServerRecord, observedFields: boolean) {
  const zone = store.servers.zone(s.zone_id);
  const pool = s.server_pool_id ? store.servers.serverPool(s.server_pool_id) : undefined;
  const sessions = store.sessions.sessionsOnServer(s.server_id);
  const zoneRef = { zone_id: s.zone_id, zone_name: zone?.zone_name ?? null };
  const calculation = (used: number, max: number) => SERVER_CALCULATION.form({ percentage: 0, used, max }, observedFields);
  return SERVER.form(
    {
      server_id: s.server_id,
      created: s.created,
      server_type: s.server_type,
      agent_version: null,
      container_limit: null,
      cores: 4,
      memory: 8589934592,
      ctr_images: null,
      ctr_info: null,
      hostname: s.hostname,
      instance_id: null,
      last_reported: s.created.replace(" ", "T"),
      last_reported_elapsed: "0:00:05",
      operational_status: s.operational_status,
      provider: null,
      memory_stats: null,
      disk_stats: null,
      network_interfaces: null,
      cpu_percent: null,
      cores_override: null,
      memory_override: null,
      gpus: 0,
      gpu_info: null,
      gpu_percent: null,
      gpu_memory_used_percent: null,
      gpu_temp: null,
      gpus_override: null,
      manager_id: null,
      manager: null,
      core_calculations: calculation(0, 4),
      memory_calculations: calculation(0, 8589934592),
      public_ip: null,
      enabled: s.enabled,
      prune_images_mode: "Off",
      connection_type: s.connection_type,
      connection_info: null,
      connection_username: s.connection_username,
      connection_password: s.connection_password ? MASK : null,
      connection_port: s.port,
      connection_private_key: s.connection_private_key ? MASK : null,
      connection_passphrase: s.connection_passphrase ? MASK : null,
      connection_credential_type: s.connection_credential_type,
      connection_sso_username_domain: null,
      use_user_private_key: s.use_user_private_key,
      max_simultaneous_sessions: s.max_simultaneous_sessions,
      max_simultaneous_users: s.max_simultaneous_users,
      zone_id: zoneRef.zone_id,
      zone_name: zoneRef.zone_name,
      zone: SERVER_ZONE.form(zoneRef, observedFields),
      server_pool_id: s.server_pool_id,
      server_pool_name: pool?.server_pool_name ?? null,
      friendly_name: s.friendly_name,
      is_autoscaled: false,
      agent_installed: false,
      drain_time: null,
      labels: [...s.labels],
      inherited_labels: [],
      server_template_id: null,
      autoscale_config: null,
      registration_jwt: null,
      registration_jwt_expiration: null,
      assigned_users: store.users.usersOfServer(s.server_id).map((u) => SERVER_USER.form(u, observedFields)),
      wss: sessions.map((w) => {
        // A session nobody holds yet (a staged one) names its user with empty strings, as the
        // 1.15 API server's get_servers writes it.
        const user = w.user_id ? store.users.user(w.user_id) : { username: "", user_id: "" };
        return SERVER_SESSION.form({ ...w, user: user ? USER_REF.form(user, observedFields) : null }, observedFields);
      }),
      is_draining: s.is_draining,
    },
    observedFields,
  );
}

const ServerRef = z.object({ server_id: id.optional() });

/** The handlers of this area, by operation. */
export const serverHandlers = {
  get_zones: ({ body, store, observedFields }) => {
    // `brief` is accepted and checked; both forms show the brief fields, the only ones the spec lists.
    parse(z.object({ brief: bool.optional() }), body, "");
    return { zones: store.servers.allZones().map((zone) => zoneJson(zone, observedFields)) };
  },
  get_servers: ({ body, store, observedFields, apiNames }) => {
    const ref = parse(ServerRef, body.target_server, "target_server");
    if (apiNames === "product") {
      // The product answers a list: every server, or the one named (none when the id names nothing).
      const servers = ref.server_id ? [store.servers.server(ref.server_id)].filter((s) => s !== undefined) : store.servers.allServers();
      return { servers: servers.map((s) => serverJson(store, s, observedFields)) };
    }
    if (!ref.server_id) throw new MissingParameters();
    return { server: serverJson(store, store.servers.requireServer(ref.server_id), observedFields) };
  },
  set_drain_server: ({ body, store }) => {
    const req = parse(ServerRef.extend({ is_draining: bool.optional() }), body.target_server, "target_server");
    if (!req.server_id || req.is_draining === undefined) throw new MissingParameters();
    if (typeof req.is_draining !== "boolean") throw new InvalidRequest("Invalid Request: is_draining must be a boolean");
    store.servers.setDraining(req.server_id, req.is_draining);
    return {};
  },
} satisfies Record<string, Handler>;
