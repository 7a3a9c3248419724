/**
 * Workspace sessions: request, status, delete, statistics, screenshots and commands.
 *
 * The spec does not show the payloads of request_ws, get_ws_status and delete_ws; they follow the
 * product's own session operations with `ws` in place of `kasm` (see emulator/README.md).
 */
import { z } from "zod";
import { InvalidRequest } from "../errors";
import { SESSION, SESSION_SERVER, USER_REF } from "../fields";
import { timestamp, type SessionRecord, type Store } from "../store";
import { bool, id, int, parse, Reply, type Handler } from "./common";

const SessionRef = z.object({ ws_id: id.optional(), user_id: id.optional() });

/** The session as the status and exec operations describe it: the fields the spec has seen. */
function sessionJson(store: Store, s: SessionRecord, observedFields: boolean) {
  const server = s.server_id ? store.servers.server(s.server_id) : undefined;
  const user = s.user_id ? store.users.user(s.user_id) : undefined;
  return SESSION.form(
    {
      ...s,
      server: server ? SESSION_SERVER.form(server, observedFields) : null,
      user: user ? USER_REF.form(user, observedFields) : null,
    },
    observedFields,
  );
}

function wsUrl(baseUrl: string, s: SessionRecord): string {
  return `${baseUrl}/#/connect/ws/${s.ws_id}`;
}

const requestWs: Handler = ({ body, store, baseUrl }) => {
  const req = parse(z.object({ user_id: id.optional(), image_id: id.optional(), enable_sharing: bool.optional() }), body, "");
  if (!req.user_id || !req.image_id) throw new InvalidRequest("Invalid Request: Missing required parameters");
  const s = store.sessions.createSession(req.user_id, req.image_id);
  const user = store.users.user(s.user_id)!;
  return {
    ws_id: s.ws_id,
    status: s.operational_status,
    share_id: s.share_id,
    username: user.username,
    user_id: user.user_id,
    session_token: s.session_token,
    ws_url: wsUrl(baseUrl, s),
  };
};

const getWsStatus: Handler = ({ body, store, baseUrl, observedFields }) => {
  const ref = parse(SessionRef, body, "");
  const s = store.sessions.sessionOf(ref.ws_id, ref.user_id);
  s.keepalive_date = timestamp();
  return {
    operational_status: s.operational_status,
    ws: sessionJson(store, s, observedFields),
    current_time: timestamp(),
    ws_url: wsUrl(baseUrl, s),
  };
};

const deleteWs: Handler = ({ body, store }) => {
  const ref = parse(SessionRef, body, "");
  const s = store.sessions.sessionOf(ref.ws_id, ref.user_id);
  store.sessions.removeSession(s.ws_id);
  return {};
};

/** A value from 0 to 10 that stays the same for one session: the emulator has no display to measure. */
function steady(seed: string, index: number): number {
  const n = parseInt(seed.slice(index * 2, index * 2 + 2), 16);
  return Math.round((n / 255) * 100) / 10;
}

const getBottleneckStats: Handler = ({ body, store }) => {
  const ref = parse(SessionRef, body, "");
  const s = store.sessions.sessionOf(ref.ws_id, ref.user_id);
  return { ws_user: { [s.share_id]: [0, 1, 2, 3].map((i) => steady(s.ws_id, i)) } };
};

const getSystemStats: Handler = ({ body, store }) => {
  const ref = parse(SessionRef, body, "");
  store.sessions.sessionOf(ref.ws_id, ref.user_id);
  return {
    cpu: { usage_percent: 12.5 },
    memory: { total: 2147483648, free: 1073741824, cached: 268435456, used: 805306368 },
    io_stats: {
      "/": { bytes_read: 1048576, bytes_read_per_sec: 0, bytes_written: 524288, bytes_written_per_sec: 0, iowait: 0.1 },
    },
  };
};

/** The smallest valid JPEG (1x1, grey): the emulator has no desktop to capture. */
const PLACEHOLDER_JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEAYABgAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==",
  "base64",
);

const getScreenshot: Handler = ({ body, store }) => {
  const req = parse(SessionRef.extend({ width: int.optional(), height: int.optional() }), body, "");
  store.sessions.sessionOf(req.ws_id, req.user_id);
  if (req.width !== undefined && req.width < 1) throw new InvalidRequest("Invalid Request: width must be positive");
  return new Reply(200, PLACEHOLDER_JPEG, "image/jpeg");
};

const execCommandWs: Handler = ({ body, store, observedFields }) => {
  const req = parse(
    SessionRef.extend({
      exec_config: z.object({
        cmd: z.string().min(1),
        environment: z.record(z.string(), z.string()).optional(),
        workdir: z.string().optional(),
        privileged: bool.optional(),
        user: z.string().optional(),
      }),
    }),
    body,
    "",
  );
  const s = store.sessions.sessionOf(req.ws_id, req.user_id);
  return { ws: sessionJson(store, s, observedFields), current_time: timestamp() };
};

/**
 * exec_ws (the product's exec_kasm, whose `target_kasm` the server lifts to the top level). The
 * product makes the URL optional (it passes an empty one to the action); when sent, it must parse.
 */
const execWs: Handler = ({ body, store, observedFields, apiNames }) => {
  const url = apiNames === "product" ? z.string().optional() : z.string();
  const req = parse(SessionRef.extend({ ws_exec: z.string().min(1), ws_url: url }), body, "");
  const s = store.sessions.sessionOf(req.ws_id, req.user_id);
  // An image created over the product's API may hold any JSON as its exec config: only an object names actions.
  const actions = store.images.image(s.image_id)?.exec_config;
  const isObject = typeof actions === "object" && actions !== null && !Array.isArray(actions);
  if (!isObject || !(actions as Record<string, unknown>)[req.ws_exec])
    throw new InvalidRequest(`Invalid Request: the image has no exec action (${req.ws_exec})`);
  if (req.ws_url !== undefined && !URL.canParse(req.ws_url)) throw new InvalidRequest("Invalid Request: ws_url must be a valid URL");
  return { ws: sessionJson(store, s, observedFields), current_time: timestamp() };
};

/** The handlers of this area, by operation. */
export const sessionHandlers = {
  request_ws: requestWs,
  get_ws_status: getWsStatus,
  delete_ws: deleteWs,
  get_ws_bottleneck_stats: getBottleneckStats,
  get_ws_system_stats: getSystemStats,
  get_ws_screenshot: getScreenshot,
  exec_command_ws: execCommandWs,
  exec_ws: execWs,
} satisfies Record<string, Handler>;
