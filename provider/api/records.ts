/**
 * The fields of the API's records, by name: what each is called where (in programs, camelCase; on
 * the wire, in the vocabulary the installation speaks), and which hold secrets. Every reader of a
 * record goes through these three tables (the transport, the kinds' field rules, the lookups, the
 * errors), and they need nothing else: no zod, no client, so that the SDK, which loads this module
 * with the package for the lookups' presentation of records, pays for none of that.
 *
 * The one mapping between the API's snake_case records and the camelCase names that programs,
 * resources and lookups use. Every conversion of field names goes through this module:
 *
 * - {@link camelized}: a whole record (nested objects and arrays too) in camelCase, as the lookups
 *   return it;
 * - {@link fromApiFields}: the named camelCase fields of a record, values as the API sent them, as
 *   a resource's `read` reports them;
 * - {@link toApiBody}: the declared camelCase inputs of a resource as the snake_case body of a
 *   request.
 *
 * The types follow the zod schemas of the records, so a misspelt field name fails to compile.
 *
 * @example
 * ```ts
 * const config = await client.staging.getStagingConfig({ staging_config_id });
 * const current = fromApiFields(config, ["numSessions", "expiration"]); // { numSessions: number; expiration: number }
 * const body = toApiBody({ numSessions: 2, zoneId }, ["numSessions", "zoneId"]); // { num_sessions: 2, zone_id: ... }
 * ```
 */

// --- camelCase for programs -------------------------------------------------------------------------

/** `first_name` -> `firstName`, at the type level (the same rule as {@link toCamelCase}). */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** `firstName` -> `first_name`, at the type level (the same rule as {@link toSnakeCase}). */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Uppercase<Head> ? (Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`) : Head}${SnakeCase<Tail>}`
  : S;

/**
 * The named fields of a record type, in camelCase, values unchanged. The API schemas may keep
 * unknown fields (an index signature); only the named fields are typed here.
 */
export type CamelKeyed<T> = { [K in keyof T as string extends K ? never : K extends string ? CamelCase<K> : never]: T[K] };

/** The camelCase names of a record type's named fields. */
export type CamelField<T> = keyof CamelKeyed<T> & string;

/** An API record with camelCase keys, all the way down (arrays and nested objects too). */
export type Camelized<T> = T extends readonly (infer E)[]
  ? Camelized<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K extends string ? CamelCase<K> : K]: Camelized<T[K]> }
    : T;

/** `casting_config_name` -> `castingConfigName`: an API field's camelCase name. */
export function toCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `castingConfigName` -> `casting_config_name`: the API's name of a camelCase field. */
export function toSnakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A parsed API record (or a list of them) with every key in camelCase, at any depth. Values other
 * than objects and arrays are kept as they are.
 */
export function camelized<T>(record: T): Camelized<T> {
  if (Array.isArray(record)) return record.map(camelized) as Camelized<T>;
  if (record && typeof record === "object")
    return Object.fromEntries(Object.entries(record).map(([key, value]) => [toCamelCase(key), camelized(value)])) as Camelized<T>;
  return record as Camelized<T>;
}

/**
 * The named fields of an API record, by their camelCase names, with the values the API sent
 * (nested objects are not renamed: a field such as a free-form configuration keeps its keys). A
 * field the record lacks is left out of the result.
 *
 * @example fromApiFields(gateway, ["name", "country"]) // { name: "eu-1", country: "DE" }
 */
export function fromApiFields<T extends object, F extends CamelField<T>>(record: T, fields: readonly F[]): Pick<CamelKeyed<T>, F> {
  const wanted = new Set<string>(fields);
  const picked: Record<string, unknown> = {};
  // Through the record's own keys, so that a field is found by the same rule as camelized() names it.
  for (const [key, value] of Object.entries(record)) {
    const name = toCamelCase(key);
    if (wanted.has(name)) picked[name] = value;
  }
  return picked as Pick<CamelKeyed<T>, F>;
}

/**
 * The body of a request for the declared inputs among `keys`: snake_case names, values unchanged,
 * inputs left undefined (not declared by the program) left out.
 *
 * @example toApiBody({ zoneId: "ab…", numSessions: undefined }, ["zoneId", "numSessions"]) // { zone_id: "ab…" }
 */
export function toApiBody(inputs: Readonly<Record<string, unknown>>, keys: Iterable<string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of keys) if (inputs[key] !== undefined) body[toSnakeCase(key)] = inputs[key];
  return body;
}

// --- the two wire vocabularies ----------------------------------------------------------------------

/*
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

// --- secrets ----------------------------------------------------------------------------------------

/*
 * Keeping secrets out of everything the client prints: error messages, error fields and log lines.
 *
 * Two complementary defences:
 * - {@link redact} replaces the value of every field whose *name* is known to hold a secret
 *   (`api_key_secret`, `password`, `wireguard_private_key`, ...) before a structure is serialised;
 * - {@link scrubText} removes secret-looking *content* from free text (PEM private keys, WireGuard
 *   `PrivateKey =` lines) and any exact secret value the caller knows about, such as the values
 *   sent in the request that failed. Server error messages pass through it, because a server may
 *   echo part of its input back.
 *
 * Request bodies never go into errors at all; these functions are the second line of defence.
 */

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

/**
 * Field names whose values are secrets, in the spellings the API and this client use.
 * Compared case-insensitively and with `-` treated as `_`, so the `api-key-secret` header matches too.
 */
export const SECRET_FIELD_NAMES: readonly string[] = Object.freeze([
  "api_key_secret",
  "apikeysecret",
  "password",
  "connection_password",
  "connection_private_key",
  "connection_passphrase",
  "private_key",
  "passphrase",
  "activation_key",
  "wireguard_private_key",
  "mesh_key",
  "cloud_secret_access_key",
  "ctr_token",
  "crypt_password",
  "crypt_salt",
  "registration_jwt",
  "session_token",
  "token",
  "authorization",
  "cookie",
]);

const SECRET_NAMES: ReadonlySet<string> = new Set(SECRET_FIELD_NAMES.map(normaliseName));

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/-/g, "_");
}

/** Whether a field of this name holds a secret (see {@link SECRET_FIELD_NAMES}). */
export function isSecretFieldName(name: string): boolean {
  return SECRET_NAMES.has(normaliseName(name));
}

/**
 * A deep copy of `value` with every secret field's value replaced by {@link REDACTED}, and every
 * string passed through {@link scrubText}. Safe to log or serialise. Cycles are cut.
 */
export function redact<T>(value: T, knownSecrets: Iterable<string> = []): T {
  const secrets = [...knownSecrets];
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrubText(v, secrets);
    if (v === null || typeof v !== "object") return v;
    if (seen.has(v)) return "[Circular]";
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(v)) {
      out[key] = isSecretFieldName(key) && inner !== null && inner !== undefined && inner !== "" ? REDACTED : walk(inner);
    }
    return out;
  };
  return walk(value) as T;
}

// A PEM block of any private key type, and a WireGuard `PrivateKey = ...` (or `PresharedKey`) line.
const PEM_PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;
// No word boundary before the name: inside JSON-escaped text it follows a literal `\n`.
const WIREGUARD_KEY_LINE = /(PrivateKey|PresharedKey)\s*=\s*[^\s\\"]+/gi;
// Below this length a "secret" would match ordinary words (an empty or one-letter password).
const MIN_SCRUBBED_LENGTH = 4;

/**
 * `text` without secret-looking content (PEM private keys, WireGuard private key lines) and
 * without any occurrence of the given secret values.
 */
export function scrubText(text: string, knownSecrets: Iterable<string> = []): string {
  let out = text.replace(PEM_PRIVATE_KEY, REDACTED).replace(WIREGUARD_KEY_LINE, (_m, key: string) => `${key} = ${REDACTED}`);
  // Each secret also in its JSON-escaped form, as it appears in an echoed request body; longest
  // first, so that a secret that contains another is removed whole.
  const forms = [...knownSecrets].flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  const values = [...new Set(forms)].filter((s) => s.length >= MIN_SCRUBBED_LENGTH).sort((a, b) => b.length - a.length);
  for (const secret of values) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * Every string value held under a secret field name anywhere in `value`: the values to scrub from
 * whatever the server answers to a request that carried them.
 */
export function collectSecretValues(value: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown, secretContext: boolean): void => {
    if (typeof v === "string") {
      if (secretContext) found.push(v);
      return;
    }
    if (v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const item of v) walk(item, secretContext);
      return;
    }
    for (const [key, inner] of Object.entries(v)) walk(inner, secretContext || isSecretFieldName(key));
  };
  walk(value, false);
  return found;
}
