/**
 * Authentication and authorisation of a call, enforcing catalogue.
 *
 * 401 for a missing or unknown key, a wrong secret or an expired key; 403 when the key lacks a
 * permission the call needs (with the dependency rules: a permission without its dependencies is
 * not in effect), or is Read Only and the call writes. `Global Admin` holds every permission.
 */
import { timingSafeEqual } from "node:crypto";
import {
  OPERATIONS,
  effectivePermissions,
  requiredPermissions,
  type OperationContext,
  type OperationName,
  type PermissionName,
} from "../catalogue";
import { InvalidCredentials, Unauthorized } from "./errors";
import { hashSecret, parseTime, type ApiKeyRecord, type Store } from "./store";

/**
 * The permissions in effect for each key. Keys do not change while the emulator runs, and
 * working this out per request was a measurable share of the emulator's time.
 */
const effectiveByKey = new WeakMap<ApiKeyRecord, Set<PermissionName>>();

/** The key a call was made with, once authenticated. */
export class Caller {
  constructor(readonly key: ApiKeyRecord) {}

  /** Throw 403 unless the key may call `operation` in `context`. */
  require(operation: OperationName, context: OperationContext = {}): void {
    if (this.key.read_only && OPERATIONS[operation].access !== "read") throw new Unauthorized();
    const { all, oneOf } = requiredPermissions(operation, context);
    if (!all.every((p) => this.has(p)) || (oneOf.length > 0 && !oneOf.some((p) => this.has(p)))) throw new Unauthorized();
  }

  /** Whether a permission is in effect for this key (held, with its dependencies). */
  has(permission: PermissionName): boolean {
    let effective = effectiveByKey.get(this.key);
    if (!effective) effectiveByKey.set(this.key, (effective = effectivePermissions(this.key.permissions)));
    return effective.has(permission);
  }
}

/** Check a key and secret against the store; throw 401 unless they match a key that has not expired. */
export function authenticate(store: Store, key: unknown, secret: unknown, now: Date = new Date()): Caller {
  if (typeof key !== "string" || typeof secret !== "string" || key === "" || secret === "") throw new InvalidCredentials();
  const record = store.keys.byKey(key);
  if (!record) throw new InvalidCredentials();
  const expected = Buffer.from(record.secret_hash, "hex");
  const actual = Buffer.from(hashSecret(secret, record.secret_salt), "hex");
  if (!timingSafeEqual(expected, actual)) throw new InvalidCredentials();
  if (record.expires) {
    const expires = parseTime(record.expires);
    if (!expires || expires <= now) throw new InvalidCredentials();
  }
  return new Caller(record);
}
