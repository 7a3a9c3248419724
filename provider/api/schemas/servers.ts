/**
 * Schemas of the servers area: server records, draining, and the batch server import.
 *
 * A server record has many fields; the ones below are checked, the rest are kept as they come.
 */
import { z } from "zod";
import { BatchResult } from "./batch";
import { Bool, Id, Int, NullableId, NullableString, Num, nullable } from "./common";
import { SessionSummary } from "./sessions";

/** A user assigned to a server. */
export const ServerUser = z.object({ user_id: Id, username: z.string() });
/** A user assigned to a server. */
export type ServerUser = z.infer<typeof ServerUser>;

/** A server: a host reached over a connection type such as SSH, or an agent host. */
export const Server = z.looseObject({
  server_id: Id,
  hostname: NullableString.optional(),
  friendly_name: NullableString.optional(),
  server_type: NullableString.optional(),
  connection_type: NullableString.optional(),
  connection_port: nullable(Int).optional(),
  connection_username: NullableString.optional(),
  connection_credential_type: NullableString.optional(),
  use_user_private_key: nullable(Bool).optional(),
  operational_status: NullableString.optional(),
  enabled: nullable(Bool).optional(),
  is_draining: nullable(Bool).optional(),
  zone_id: NullableId.optional(),
  zone_name: NullableString.optional(),
  server_pool_id: NullableId.optional(),
  server_pool_name: NullableString.optional(),
  max_simultaneous_sessions: nullable(Int).optional(),
  max_simultaneous_users: nullable(Int).optional(),
  cores: nullable(Num).optional(),
  memory: nullable(Num).optional(),
  labels: z.array(z.string()).nullable().optional(),
  assigned_users: z.array(ServerUser).optional(),
  wss: z.array(SessionSummary).optional(),
});
/** A server: a host reached over a connection type such as SSH, or an agent host. */
export type Server = z.infer<typeof Server>;

/** Parameters of `set_drain_server`. */
export const DrainServerParams = z.object({
  server_id: Id,
  is_draining: z.boolean(),
});
/** Parameters of `set_drain_server`. */
export type DrainServerParams = z.infer<typeof DrainServerParams>;

/** The answer of `batch_create_server`: the created servers are under `resources.servers`. */
export const BatchServersResult = BatchResult(z.object({ servers: z.array(Server) }));
/** The answer of `batch_create_server`. */
export type BatchServersResult = z.infer<typeof BatchServersResult>;
