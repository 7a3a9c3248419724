/**
 * Operations of the sessions area: request a workspace session, poll its status, delete it, read
 * its statistics and a screenshot, and run commands in it.
 *
 * Hand a session to its user only once its status is `running` (see {@link getWsStatus}).
 */
import { deleteOnce } from "../retry";
import {
  ExecResult,
  RequestWsResult,
  WsBottleneckStats,
  WsStatus,
  WsSystemStats,
  type ExecCommandParams,
  type ExecWsParams,
  type RequestWsParams,
  type ScreenshotParams,
  type SessionTarget,
} from "../schemas/sessions";
import type { KasmApi } from "../transport";

/**
 * Request a new session of an image for a user (`request_ws`; needs Users Auth Session and User).
 * Not repeated after a failure that may have reached the server: that could start two sessions.
 */
export async function requestWs(api: KasmApi, params: RequestWsParams): Promise<RequestWsResult> {
  return api.transport.call("request_ws", params, RequestWsResult);
}

/**
 * Read a session's status (`get_ws_status`). Poll it at regular intervals until
 * `wsStatusOf(status) === "running"`; loading profiles or provisioning compute takes time.
 */
export async function getWsStatus(api: KasmApi, params: SessionTarget): Promise<WsStatus> {
  return api.transport.call("get_ws_status", params, WsStatus);
}

/**
 * Delete a session (`delete_ws`). If a retried attempt answers that the session is unknown, an
 * earlier attempt deleted it: done.
 */
export async function deleteWs(api: KasmApi, params: SessionTarget): Promise<void> {
  await deleteOnce(api.transport, "delete_ws", params);
}

/** Read how constrained a session's display is, per connection (`get_ws_bottleneck_stats`). */
export async function getWsBottleneckStats(api: KasmApi, params: SessionTarget): Promise<WsBottleneckStats> {
  return api.transport.call("get_ws_bottleneck_stats", params, WsBottleneckStats);
}

/** Read CPU, memory and disk statistics of a session's container (`get_ws_system_stats`). */
export async function getWsSystemStats(api: KasmApi, params: SessionTarget): Promise<WsSystemStats> {
  return api.transport.call("get_ws_system_stats", params, WsSystemStats);
}

/** A JPEG screenshot of a session (`get_ws_screenshot`; needs Users Auth Session and User), as bytes. */
export async function getWsScreenshot(api: KasmApi, params: ScreenshotParams): Promise<Buffer> {
  return api.transport.callBinary("get_ws_screenshot", params);
}

/**
 * Run a command in a session's container (`exec_command_ws`; needs Users Auth Session and
 * Sessions Modify). Not repeated after a failure that may have reached the server: the command
 * would run twice.
 */
export async function execCommandWs(api: KasmApi, params: ExecCommandParams): Promise<ExecResult> {
  return api.transport.call("exec_command_ws", params, ExecResult);
}

/**
 * Run an exec action predefined in the image's `exec_config` (`exec_ws`; same permissions as
 * {@link execCommandWs}, and likewise not repeated).
 */
export async function execWs(api: KasmApi, params: ExecWsParams): Promise<ExecResult> {
  // A released Kasm's exec_kasm takes the session, the action and the URL inside target_kasm.
  if (api.transport.apiNames === "product") {
    const { user_id, ...target } = params;
    return api.transport.call("exec_ws", { user_id, target_ws: target }, ExecResult);
  }
  return api.transport.call("exec_ws", params, ExecResult);
}
