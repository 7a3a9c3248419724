/**
 * What every model of the emulator shares: identifiers, times, secrets and small record helpers.
 *
 * The emulator keeps its own identifier handling on purpose: it models the product on its own,
 * independently of the provider's reading of it.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { UnhandledException, UnknownObject } from "../errors";

/** A new identifier in the product's form: 32 lowercase hex characters. */
export function newId(): string {
  return randomUUID().replace(/-/g, "");
}

const HEX_ID = /^[0-9a-f]{32}$/;

/**
 * The canonical form of an identifier sent by a client: hex and hyphenated UUIDs are the same
 * object. Returns undefined for anything that is not a UUID in either form.
 */
export function canonicalId(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const hex = value.trim().toLowerCase().replace(/-/g, "");
  return HEX_ID.test(hex) ? hex : undefined;
}

/**
 * How the product's database reads a value a handler compares with a UUID column, unchecked (1.15's
 * `getGroup`, `getImage`, `get_cast_config`: `filter(Group.group_id == value)` on a
 * `UUID(as_uuid=True)` column): the canonical id, or null for null (`IS NULL`, which matches
 * nothing). Any other value fails the call as 1.15 does ({@link UnhandledException}): SQLAlchemy
 * sends it as text and PostgreSQL refuses to cast it. PostgreSQL's uuid input takes 32 hex digits in
 * either case, a hyphen after any group of four, and braces around the whole (its documentation,
 * "UUID Type"); no spaces.
 */
export function databaseId(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    const inner = /^\{(.*)\}$/s.exec(value)?.[1] ?? value;
    if (/^[0-9a-f]{4}(?:-?[0-9a-f]{4}){7}$/i.test(inner)) return inner.replace(/-/g, "").toLowerCase();
  }
  throw new UnhandledException();
}

/**
 * Python's `uuid.UUID(value)`, as 1.15 checks an id it words a refusal for (update_group's
 * `group_id must be a uuid`, create_image's `server_id must be a uuid`): text, with `urn:` and
 * `uuid:` taken out, braces stripped from both ends and every hyphen removed, must be 32 hex digits.
 * The canonical id, or undefined when Python would raise.
 */
export function pythonUuid(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const hex = value
    .replace(/urn:/g, "")
    .replace(/uuid:/g, "")
    .replace(/^[{}]+|[{}]+$/g, "")
    .replace(/-/g, "");
  return /^[0-9a-f]{32}$/i.test(hex) ? hex.toLowerCase() : undefined;
}

/** A canonical id as the product's messages write a UUID (Python's `str(uuid.UUID(...))`): hyphenated, lower case. */
export function hyphenatedId(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A timestamp as the product writes it: `str(datetime)`, UTC, microseconds, no zone. */
export function timestamp(date: Date = new Date()): string {
  const iso = date.toISOString(); // 2020-11-12T14:29:25.808Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}

/**
 * Parse a `YYYY-MM-DD HH:MM:SS[.ffffff]` (UTC), an ISO 8601 time or a bare `YYYY-MM-DD` date;
 * undefined if it is none of them.
 */
export function parseTime(value: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!m) return undefined;
  const date = new Date(`${m[1]}T${m[2] ?? "00:00:00"}${m[3] ? m[3].slice(0, 4) : ""}${m[4] ?? "Z"}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A salted SHA-256 of a secret: keys and passwords are checked, never stored or shown. */
export function hashSecret(secret: string, salt: string): string {
  return createHash("sha256").update(salt).update("\0").update(secret).digest("hex");
}

/** A fresh salt for {@link hashSecret}. */
export function newSalt(): string {
  return randomBytes(8).toString("hex");
}

/** How the product masks a secret it will not show. */
export const MASK = "**********";

/** One kind of record, by its canonical id: how the state keeps every collection. */
export type Table<T> = Record<string, T>;

/** The record of `table` named by an id in either form; undefined when the id is malformed or unknown. */
export function byId<T>(table: Table<T>, id: unknown): T | undefined {
  const canonical = canonicalId(id);
  return canonical ? table[canonical] : undefined;
}

/**
 * `record`, or the product's error for an unknown object, worded as Kasm words it for that kind
 * (`wording` gets the id as the request gave it).
 */
export function orUnknown<T>(record: T | undefined, id: unknown, wording: (id: string) => string): T {
  if (record === undefined) throw new UnknownObject(wording(String(id ?? "")));
  return record;
}

/** The properties of `input` that are not undefined: an update changes only what was sent. */
export function definedOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The client permissions of a session, all off: the defaults of staging and casting configs. */
export const NO_CLIENT_PERMISSIONS = {
  allow_ws_audio: false,
  allow_ws_uploads: false,
  allow_ws_downloads: false,
  allow_ws_clipboard_down: false,
  allow_ws_clipboard_up: false,
  allow_ws_microphone: false,
} as const;

/** The client permissions a staging or casting config sets on the sessions it starts. */
export type ClientPermissions = { -readonly [K in keyof typeof NO_CLIENT_PERMISSIONS]: boolean };

/** The client permissions' field names, as both configs' answers list them. */
export const CLIENT_PERMISSION_FIELDS = Object.keys(NO_CLIENT_PERMISSIONS) as (keyof ClientPermissions)[];

/**
 * The client permissions only the released product has (1.15's staging and cast config records):
 * stored in product mode, off by default, and absent from the spec's records.
 */
export const PRODUCT_ONLY_CLIENT_PERMISSIONS = ["allow_kasm_gamepad", "allow_kasm_webcam", "allow_kasm_printing"] as const;

/** The product-only client permissions of a config; absent in configs created in spec mode. */
export type ProductClientPermissions = { [K in (typeof PRODUCT_ONLY_CLIENT_PERMISSIONS)[number]]?: boolean };

/** A config's product-only client permissions for a product-mode answer: false unless set. */
export function productClientPermissionsOf(config: ProductClientPermissions): Required<ProductClientPermissions> {
  return {
    allow_kasm_gamepad: config.allow_kasm_gamepad ?? false,
    allow_kasm_webcam: config.allow_kasm_webcam ?? false,
    allow_kasm_printing: config.allow_kasm_printing ?? false,
  };
}

/**
 * What every area model is built from: its tables (its part of the one state object the store
 * persists) and the other models its rules consult, passed in so that models import no one another.
 */
export abstract class AreaModel<Tables, Dependencies = Record<string, never>> {
  constructor(
    protected readonly tables: Tables,
    protected readonly deps: Dependencies = {} as Dependencies,
  ) {}
}
