/**
 * The released product's vocabulary, and how product mode translates to and from it.
 *
 * The spec writes `ws` (workspace session) and `ctr` (container) in identifiers; every public
 * source about the released product (1.15 to 1.19) names the same things `kasm` and `docker`.
 * The emulator keeps the spec's names inside (records, handlers, the data file); in product mode
 * (`--api-names product`) this module renames a request's product names to those before a handler
 * sees it, drops the spec-only names (the product ignores fields it does not know, so a client
 * speaking the spec's names gets 200 and the defaults), and renames an answer's names to the
 * product's. The table is the emulator's own (it never imports the provider), written from the
 * sources that emulator/README.md names row by row.
 *
 * @example
 * ```ts
 * requestFromProduct("create_staging_config", { target_staging_config: { allow_kasm_audio: true } });
 * // { target_staging_config: { allow_ws_audio: true } }
 * ```
 */
import type { OperationName } from "../permissions";

/** Which names the emulator speaks on the wire: the spec's (the default) or the released product's. */
export type ApiNames = "spec" | "product";

/** The values of {@link ApiNames}. */
export const API_NAMES: readonly ApiNames[] = ["spec", "product"];

/** One field named differently by the product: the emulator's (the spec's) name, the product's, and where it occurs. */
export interface FieldRename {
  readonly spec: string;
  readonly product: string;
  /** The records, requests and answers that carry it. */
  readonly where: string;
}

const SESSION_PERMISSION = "staging and cast configs (requests and answers)";

/** Every field the product names differently (emulator/README.md gives each row's source). */
export const FIELD_RENAMES: readonly FieldRename[] = [
  { spec: "allow_ws_audio", product: "allow_kasm_audio", where: SESSION_PERMISSION },
  { spec: "allow_ws_uploads", product: "allow_kasm_uploads", where: SESSION_PERMISSION },
  { spec: "allow_ws_downloads", product: "allow_kasm_downloads", where: SESSION_PERMISSION },
  { spec: "allow_ws_clipboard_down", product: "allow_kasm_clipboard_down", where: SESSION_PERMISSION },
  { spec: "allow_ws_clipboard_up", product: "allow_kasm_clipboard_up", where: SESSION_PERMISSION },
  { spec: "allow_ws_microphone", product: "allow_kasm_microphone", where: SESSION_PERMISSION },
  { spec: "allow_ws_sharing", product: "allow_kasm_sharing", where: "cast configs" },
  { spec: "ws_url", product: "kasm_url", where: "cast configs; request_kasm and get_kasm_status answers; exec_kasm's target_kasm" },
  { spec: "dynamic_ws_url", product: "dynamic_kasm_url", where: "cast configs" },
  { spec: "dynamic_ctr_network", product: "dynamic_docker_network", where: "cast configs" },
  { spec: "ws_audio_default_on", product: "kasm_audio_default_on", where: "cast configs" },
  { spec: "ws_ime_mode_default_on", product: "kasm_ime_mode_default_on", where: "cast configs" },
  { spec: "auto_login_ws", product: "auto_login_kasm", where: "user attributes (get_attributes, update_user_attributes)" },
  { spec: "wss", product: "kasms", where: "user and server records" },
  { spec: "ws_id", product: "kasm_id", where: "session requests and answers, session items of users and servers" },
  { spec: "ws", product: "kasm", where: "the session object of get_kasm_status, exec_command_kasm and exec_kasm" },
  { spec: "ctr_images", product: "docker_images", where: "server records" },
  { spec: "ctr_info", product: "docker_info", where: "server records" },
  { spec: "ctr_registry", product: "docker_registry", where: "image records" },
  { spec: "ctr_user", product: "docker_user", where: "image records" },
  { spec: "ctr_token", product: "docker_token", where: "image records" },
  { spec: "target_ws_id", product: "target_kasm_id", where: "get_session_recordings request" },
  { spec: "target_ws_ids", product: "target_kasm_ids", where: "get_sessions_recordings request" },
  { spec: "ws_sessions", product: "kasm_sessions", where: "get_sessions_recordings answer" },
  { spec: "ws_user", product: "kasm_user", where: "get_kasm_bottleneck_stats answer" },
  { spec: "ws_exec", product: "kasm_exec", where: "exec_kasm's target_kasm" },
];

/**
 * Operations the product names differently. `get_ws_system_stats` has no counterpart in any
 * source and keeps its name; `exec_ws` is the product's `exec_kasm`, whose parameters travel in
 * `target_kasm` (see {@link requestFromProduct}).
 */
export const OPERATION_RENAMES: Readonly<Partial<Record<OperationName, string>>> = {
  request_ws: "request_kasm",
  get_ws_status: "get_kasm_status",
  delete_ws: "destroy_kasm",
  exec_command_ws: "exec_command_kasm",
  get_ws_screenshot: "get_kasm_screenshot",
  get_ws_bottleneck_stats: "get_kasm_bottleneck_stats",
  exec_ws: "exec_kasm",
};

/**
 * Fields whose values are the caller's own data (command environments, exec actions, metadata,
 * connection ids, disk mounts): their keys are never renamed, whatever they are called.
 */
const OPAQUE_VALUES = new Set([
  "exec_config",
  "environment",
  "group_metadata",
  "volume_mappings",
  "run_config",
  "persistent_profile_config",
  "launch_config",
  "company",
  "ws_user",
  "kasm_user",
  "io_stats",
  "memory_stats",
  "disk_stats",
  "network_interfaces",
  "ctr_info",
  "docker_info",
  "connection_info",
  // A workspace registry's list and its workspaces, as fetched from the registry's site.
  "config",
  "workspaces",
]);

const PRODUCT_BY_SPEC = new Map(FIELD_RENAMES.map((r) => [r.spec, r.product]));
const SPEC_BY_PRODUCT = new Map(FIELD_RENAMES.map((r) => [r.product, r.spec]));

/** The operation's name on the wire of an emulator speaking `names`. */
export function wireOperationName(operation: OperationName, names: ApiNames): string {
  return names === "product" ? (OPERATION_RENAMES[operation as OperationName] ?? operation) : operation;
}

/**
 * A product-mode request as the handlers read it: product names renamed to the emulator's, and
 * the spec-only names dropped, as the product ignores them. `exec_kasm` takes its session, action
 * and URL in `target_kasm` ({kasm_id, kasm_exec, kasm_url}; the user stays at the top level): they
 * are lifted to where `exec_ws` reads them, and only they count.
 */
export function requestFromProduct(operation: OperationName, body: Record<string, unknown>): Record<string, unknown> {
  const renamed = rename(body, SPEC_BY_PRODUCT, PRODUCT_BY_SPEC) as Record<string, unknown>;
  if (operation !== "exec_ws") return renamed;
  const { target_kasm, ws_id: _id, ws_exec: _exec, ws_url: _url, ...rest } = renamed;
  const target = typeof target_kasm === "object" && target_kasm !== null && !Array.isArray(target_kasm) ? target_kasm : {};
  return { ...rest, ...target };
}

/** A product-mode answer: the emulator's names renamed to the product's. */
export function answerToProduct(body: unknown): unknown {
  return rename(body, PRODUCT_BY_SPEC);
}

/**
 * A copy of `value` with the keys of its objects renamed by `names` and those in `drop` left out,
 * at any depth but inside {@link OPAQUE_VALUES}, whose values are copied as they are.
 */
function rename(value: unknown, names: ReadonlyMap<string, string>, drop?: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rename(item, names, drop));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (drop?.has(key)) continue;
    out[names.get(key) ?? key] = OPAQUE_VALUES.has(key) ? item : rename(item, names, drop);
  }
  return out;
}
