/**
 * Schemas of the sessions area: workspace sessions (`ws`), their statistics and commands.
 *
 * The spec lists only some fields of a session record; records are loose objects, so the fields
 * it does not list are kept as they come.
 */
import { z } from "zod";
import { AnyObject, Id, Int, Num, NullableId, NullableString, Timestamp, nullable } from "./common";

/**
 * The owner of a session, as embedded in session records. A session nobody holds yet (a staged
 * one) is listed in a server record with the user `{username: "", user_id: ""}` (the 1.15 API
 * server's get_servers): its id reads as null.
 */
export const SessionUser = z.object({
  user_id: z
    .preprocess((value) => (value === "" ? null : value), NullableId)
    .describe("The id of the user the session belongs to (32 hex digits); null for a session nobody holds yet (a staged one)."),
  username: z.string().describe("The login name of the user the session belongs to; empty for a session nobody holds yet."),
});
/** The owner of a session, as embedded in session records. */
export type SessionUser = z.infer<typeof SessionUser>;

/** A session as listed inside a user or server record (`wss`). */
export const SessionSummary = z.looseObject({
  ws_id: Id.describe("The session's id (32 hex digits)."),
  start_date: NullableString.optional().describe("When the session started (`YYYY-MM-DD HH:MM:SS.ffffff`)."),
  keepalive_date: NullableString.optional().describe("The session's last keepalive time (`YYYY-MM-DD HH:MM:SS.ffffff`)."),
  user: SessionUser.nullable().optional().describe("The user the session belongs to."),
});
/** A session as listed inside a user or server record (`wss`). */
export type SessionSummary = z.infer<typeof SessionSummary>;

/** A workspace session. */
export const Session = SessionSummary.extend({
  expiration_date: NullableString.optional(),
  operational_status: z.string().optional(),
  // Nulls for a session on no server (the 1.15 API server's get_users).
  server: z
    .looseObject({ server_id: NullableId, hostname: NullableString.optional(), port: nullable(Int).optional() })
    .nullable()
    .optional(),
});
/** A workspace session. */
export type Session = z.infer<typeof Session>;

/**
 * Parameters of `request_ws`. The spec does not show them; these are the ones every session
 * request needs (whose session, of which image), and any further ones are passed through as given.
 */
export const RequestWsParams = z.looseObject({
  user_id: Id,
  image_id: Id,
});
/** Parameters of `request_ws`. */
export type RequestWsParams = z.infer<typeof RequestWsParams>;

/** The answer of `request_ws`: the new session. The spec does not show it; `ws_id` is what is relied on. */
export const RequestWsResult = z.looseObject({
  ws_id: Id,
  operational_status: z.string().optional(),
  ws_url: NullableString.optional(),
});
/** The answer of `request_ws`. */
export type RequestWsResult = z.infer<typeof RequestWsResult>;

/** Names a session and its owner: the parameters of most session operations. */
export const SessionTarget = z.object({
  ws_id: Id,
  user_id: Id,
});
/** Names a session and its owner: the parameters of most session operations. */
export type SessionTarget = z.infer<typeof SessionTarget>;

/**
 * The answer of `get_ws_status`. The status is either at top level or inside `ws`, depending on
 * the release; {@link wsStatusOf} reads both.
 */
export const WsStatus = z.looseObject({
  operational_status: z.string().optional(),
  ws: z.looseObject({ operational_status: z.string().optional() }).optional(),
});
/** The answer of `get_ws_status`. */
export type WsStatus = z.infer<typeof WsStatus>;

/** The session's `operational_status`, wherever the answer carries it. */
export function wsStatusOf(status: WsStatus): string | undefined {
  return status.operational_status ?? status.ws?.operational_status;
}

/**
 * The answer of `get_ws_bottleneck_stats`: per connection, four numbers from 0 to 10 (CPU, CPU
 * average, network, network average); lower means more constrained.
 */
export const WsBottleneckStats = z.object({
  ws_user: z.record(z.string(), z.tuple([Num, Num, Num, Num])),
});
/** The answer of `get_ws_bottleneck_stats`. */
export type WsBottleneckStats = z.infer<typeof WsBottleneckStats>;

/** Read counters of one disk mount in `get_ws_system_stats`. */
export const IoStats = z.object({
  bytes_read: Num,
  bytes_read_per_sec: Num,
  bytes_written: Num,
  bytes_written_per_sec: Num,
  iowait: Num,
});
/** Read counters of one disk mount in `get_ws_system_stats`. */
export type IoStats = z.infer<typeof IoStats>;

/** The answer of `get_ws_system_stats`: CPU, memory (bytes) and disk statistics of the session's container. */
export const WsSystemStats = z.object({
  cpu: z.object({ usage_percent: Num }),
  memory: z.object({ total: Num, free: Num, cached: Num, used: Num }),
  io_stats: z.record(z.string(), IoStats),
});
/** The answer of `get_ws_system_stats`. */
export type WsSystemStats = z.infer<typeof WsSystemStats>;

/** Parameters of `get_ws_screenshot`. */
export const ScreenshotParams = SessionTarget.extend({
  /** Default 300. */
  width: z.number().int().positive().optional(),
  /** May be overridden by the server to keep the aspect ratio. */
  height: z.number().int().positive().optional(),
});
/** Parameters of `get_ws_screenshot`. */
export type ScreenshotParams = z.infer<typeof ScreenshotParams>;

/** A command to run in a session's container (`exec_command_ws`). */
export const ExecConfig = z.object({
  cmd: z.string(),
  environment: z.record(z.string(), z.string()).optional(),
  workdir: z.string().optional(),
  privileged: z.boolean().optional(),
  /** Default: the sandboxed user. `root` runs as root and disables sandbox protections. */
  user: z.string().optional(),
});
/** A command to run in a session's container (`exec_command_ws`). */
export type ExecConfig = z.infer<typeof ExecConfig>;

/** Parameters of `exec_command_ws`. */
export const ExecCommandParams = SessionTarget.extend({ exec_config: ExecConfig });
/** Parameters of `exec_command_ws`. */
export type ExecCommandParams = z.infer<typeof ExecCommandParams>;

/** Parameters of `exec_ws`: run an exec action predefined in the image's `exec_config`. */
export const ExecWsParams = SessionTarget.extend({
  ws_exec: z.string(),
  /** Must be a valid URL even when the action ignores it. */
  ws_url: z.string(),
});
/** Parameters of `exec_ws`. */
export type ExecWsParams = z.infer<typeof ExecWsParams>;

/** The answer of `exec_command_ws` and `exec_ws`: the container record and the server's time (UTC). */
export const ExecResult = z.object({
  ws: AnyObject,
  current_time: Timestamp,
});
/** The answer of `exec_command_ws` and `exec_ws`. */
export type ExecResult = z.infer<typeof ExecResult>;
