/**
 * The two wire vocabularies of Kasm's API, and the one table that translates between them.
 *
 * The API documentation (the `spec` vocabulary, the default) writes `ws` for a workspace session
 * and `ctr` for a container: `allow_ws_audio`, `ws_url`, `auto_login_ws`, `request_ws`,
 * `ctr_registry`. Every public source about the released product (1.15 to 1.19: a decompile of the
 * 1.15.0 API server, a Terraform client tested against a real 1.16.1, clients written for 1.19)
 * names the same things `kasm` and `docker` (the `product` vocabulary). The product ignores a
 * field it does not know and answers 200 with its default, so a setting sent in the wrong
 * vocabulary is silently not applied.
 *
 * Only the client speaks either vocabulary: programs, inputs, outputs and state use one set of
 * names whatever the installation speaks. This module is the one place that knows both:
 * - writing is exact: requests carry the configured vocabulary's names only ({@link toWire});
 * - reading is tolerant: an answer is understood whichever names it uses ({@link fromWire});
 * - an answer that shows the other vocabulary is reported ({@link VocabularyReading.spoke}), so
 *   that the transport fails instead of reporting success for a setting the installation did not
 *   take.
 */
/** Which names the client writes on the wire: the API documentation's (`spec`) or the released product's (`product`). */
export type ApiNames = "spec" | "product";

/** The values of {@link ApiNames}, for checking a setting. */
export const API_NAMES: readonly ApiNames[] = ["spec", "product"];

/**
 * Each field whose name differs, as `[spec, product]`. Sources: a decompile of the 1.15.0 API
 * server (public_api.py, admin_api.py, data/model.py) and the staging, cast config and user types
 * of a Terraform client whose CI runs a real Kasm 1.16.1.
 */
export const FIELD_NAMES: readonly (readonly [spec: string, product: string])[] = [
  // Staging and cast configs: the session permissions.
  ["allow_ws_audio", "allow_kasm_audio"],
  ["allow_ws_uploads", "allow_kasm_uploads"],
  ["allow_ws_downloads", "allow_kasm_downloads"],
  ["allow_ws_clipboard_down", "allow_kasm_clipboard_down"],
  ["allow_ws_clipboard_up", "allow_kasm_clipboard_up"],
  ["allow_ws_microphone", "allow_kasm_microphone"],
  // Cast configs.
  ["allow_ws_sharing", "allow_kasm_sharing"],
  ["ws_url", "kasm_url"],
  ["dynamic_ws_url", "dynamic_kasm_url"],
  ["dynamic_ctr_network", "dynamic_docker_network"],
  ["ws_audio_default_on", "kasm_audio_default_on"],
  ["ws_ime_mode_default_on", "kasm_ime_mode_default_on"],
  // User attributes.
  ["auto_login_ws", "auto_login_kasm"],
  // Sessions, in user and server records and in session answers.
  ["wss", "kasms"],
  ["ws_id", "kasm_id"],
  ["ws", "kasm"],
  // Server and image records.
  ["ctr_images", "docker_images"],
  ["ctr_info", "docker_info"],
  ["ctr_registry", "docker_registry"],
  ["ctr_user", "docker_user"],
  ["ctr_token", "docker_token"],
  // Session recordings (1.15.0 decompile, admin_api.py: get_session_recordings and get_sessions_recordings).
  ["target_ws_id", "target_kasm_id"],
  ["target_ws_ids", "target_kasm_ids"],
  ["ws_sessions", "kasm_sessions"],
  // get_kasm_bottleneck_stats answers under the session's display user, `kasm_user` by default
  // (1.15.0 decompile, client_api.py, where that user's credentials are built).
  ["ws_user", "kasm_user"],
  // exec_kasm, the product's exec_ws (1.15.0 decompile, client_api.py): its parameters travel in target_kasm.
  ["target_ws", "target_kasm"],
  ["ws_exec", "kasm_exec"],
];

/**
 * Operations whose name differs, spec name to product name (1.15.0 decompile, public_api.py;
 * `destroy_kasm` is the name clients written for 1.19 call; `exec_kasm` is in client_api.py, which
 * the public API inherits). `get_ws_system_stats` has no counterpart in the sources and keeps its
 * name.
 */
export const OPERATION_NAMES: Readonly<Record<string, string>> = {
  request_ws: "request_kasm",
  get_ws_status: "get_kasm_status",
  delete_ws: "destroy_kasm",
  exec_command_ws: "exec_command_kasm",
  get_ws_screenshot: "get_kasm_screenshot",
  get_ws_bottleneck_stats: "get_kasm_bottleneck_stats",
  exec_ws: "exec_kasm",
};

const PRODUCT_BY_SPEC: ReadonlyMap<string, string> = new Map(FIELD_NAMES.map(([spec, product]) => [spec, product]));
const SPEC_BY_PRODUCT: ReadonlyMap<string, string> = new Map(FIELD_NAMES.map(([spec, product]) => [product, spec]));

/** The operation's name on the wire of an installation that speaks `names`. */
export function wireOperationName(operation: string, names: ApiNames): string {
  return names === "product" ? (OPERATION_NAMES[operation] ?? operation) : operation;
}

/**
 * Request parameters in the vocabulary the installation speaks: unchanged for `spec`; for
 * `product`, every field of {@link FIELD_NAMES} renamed, at any depth.
 */
export function toWire(params: object, names: ApiNames): object {
  return names === "spec" ? params : (renameKeys(params, PRODUCT_BY_SPEC) as object);
}

/** An answer as the client reads it, and which vocabulary its names showed. */
export interface VocabularyReading {
  /** The answer with every product name turned into the spec name the client's schemas use. */
  readonly answer: unknown;
  /**
   * The vocabulary the answer's names show: `product` when it holds only product names of
   * {@link FIELD_NAMES}, `spec` when only spec names, undefined when it holds none (or both).
   */
  readonly spoke: ApiNames | undefined;
  /** The names of the other vocabulary than `names` that the answer holds, for a message. */
  readonly foreignNames: readonly string[];
}

/**
 * Read an answer whichever vocabulary it uses (see {@link VocabularyReading}). When an answer
 * holds a field in both vocabularies, the configured one's value is kept.
 */
export function fromWire(answer: unknown, names: ApiNames): VocabularyReading {
  const seen = { spec: new Set<string>(), product: new Set<string>() };
  const translated = renameKeys(answer, SPEC_BY_PRODUCT, seen, names);
  const spoke = seen.product.size > 0 && seen.spec.size === 0 ? "product" : seen.spec.size > 0 && seen.product.size === 0 ? "spec" : undefined;
  const other = names === "spec" ? seen.product : seen.spec;
  return { answer: translated, spoke, foreignNames: [...other].sort() };
}

/**
 * A copy of `value` with the keys of plain objects renamed by `names`, at any depth. With `seen`,
 * note which spec and product names occur; when both forms of one field occur, the form of
 * `prefer`'s vocabulary wins.
 */
function renameKeys(
  value: unknown,
  names: ReadonlyMap<string, string>,
  seen?: { spec: Set<string>; product: Set<string> },
  prefer: ApiNames = "spec",
): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, names, seen, prefer));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    const renamed = names.get(key);
    if (seen) {
      if (SPEC_BY_PRODUCT.has(key)) seen.product.add(key);
      else if (PRODUCT_BY_SPEC.has(key)) seen.spec.add(key);
    }
    const target = renamed ?? key;
    const translatedItem = renameKeys(item, names, seen, prefer);
    if (target in out) {
      // Both forms of one field: keep the value written in the preferred vocabulary.
      const keyIsPreferred = prefer === "product" ? SPEC_BY_PRODUCT.has(key) : !SPEC_BY_PRODUCT.has(key);
      if (!keyIsPreferred) continue;
    }
    out[target] = translatedItem;
  }
  return out;
}

/**
 * What a refresh collects instead of failing: the vocabulary mismatches its reads met. A client
 * reads into one when asked to (`KasmClient.readingLeniently`): a refresh still reads the object
 * (answers are understood in both vocabularies) and warns, where a create or update fails.
 */
export interface LenientReads {
  /** One message per mismatch met, free of secrets. */
  readonly mismatches: string[];
}

/** Note a mismatch in `notes`, once: reads that meet the same mismatch again warn once. */
export function noteMismatch(notes: LenientReads, message: string): void {
  if (!notes.mismatches.includes(message)) notes.mismatches.push(message);
}
