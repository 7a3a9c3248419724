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
export const ServerUser = z.object({
  user_id: Id.describe("The assigned user's id (32 hex digits)."),
  username: z.string().describe("The assigned user's login name."),
});
/** A user assigned to a server. */
export type ServerUser = z.infer<typeof ServerUser>;

/** A server: a host reached over a connection type such as SSH, or an agent host. */
export const Server = z.looseObject({
  server_id: Id.describe("The server's id (32 hex digits)."),
  hostname: NullableString.optional().describe("The server's hostname."),
  friendly_name: NullableString.optional().describe("The server's friendly name."),
  server_type: NullableString.optional().describe("The server's type, such as `Desktop` or `host`."),
  connection_type: NullableString.optional().describe("How Kasm connects to the server, such as `SSH` or a remote-display type."),
  connection_port: nullable(Int).optional().describe("The port of the server's connection."),
  connection_username: NullableString.optional().describe("The username of the server's connection."),
  connection_credential_type: NullableString.optional().describe("The kind of credentials the connection uses, such as `STATIC` or `PROMPT_USER`."),
  use_user_private_key: nullable(Bool).optional().describe("Whether the connection uses the user's private key."),
  operational_status: NullableString.optional().describe("The server's operational status, such as `running`."),
  enabled: nullable(Bool).optional().describe("Whether the server is enabled."),
  is_draining: nullable(Bool).optional().describe("Whether the server is draining (the flag set_drain_server sets)."),
  zone_id: NullableId.optional().describe("The id of the server's zone (32 hex digits)."),
  zone_name: NullableString.optional().describe("The name of the server's zone."),
  server_pool_id: NullableId.optional().describe("The id of the server's server pool (32 hex digits)."),
  server_pool_name: NullableString.optional().describe("The name of the server's server pool."),
  max_simultaneous_sessions: nullable(Int).optional().describe("The most sessions the server may run at the same time."),
  max_simultaneous_users: nullable(Int).optional().describe("The most users the server may serve at the same time."),
  cores: nullable(Num).optional().describe("The server's CPU cores."),
  memory: nullable(Num).optional().describe("The server's memory, in bytes."),
  labels: z.array(z.string()).nullable().optional().describe("The server's labels."),
  assigned_users: z.array(ServerUser).optional().describe("The users assigned to the server."),
  wss: z.array(SessionSummary).optional().describe("The sessions on the server."),
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
