/**
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
