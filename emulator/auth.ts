/**
 * Authentication and authorisation of a call, enforcing catalogue.
 *
 * 401 for a missing or unknown key, a wrong secret or an expired key; 403 when the key lacks a
 * permission the call needs (with the dependency rules: a permission without its dependencies is
 * not in effect), or is Read Only and the call writes. `Global Admin` holds every permission.
 *
 * With 1.15's answers (`--auth-answers 1.15`), as its API server's authentication gave them: no
 * key or secret 400 `Invalid Request`; an unknown key or a wrong secret 403 `Access Denied`; an
 * expired key 401 `Access has expired` (checked before the secret, as 1.15 did); a missing
 * permission or a Read Only key writing 401 `Unauthorized`.
 */
import { timingSafeEqual } from "node:crypto";
import { OPERATIONS, effectivePermissions, requiredPermissions, type OperationContext, type OperationName, type PermissionName } from "../permissions";
import {
  AccessDenied115,
  AccessExpired115,
  InvalidCredentials,
  NoCredentials115,
  Unauthorized,
  Unauthorized115,
  type AuthAnswers,
  type EmulatorError,
} from "./errors";
import { hashSecret, parseTime, type ApiKeyRecord, type Store } from "./store";

/**
 * The permissions in effect for each key. Keys do not change while the emulator runs, and
 * working this out per request was a measurable share of the emulator's time.
 */
const effectiveByKey = new WeakMap<ApiKeyRecord, Set<PermissionName>>();

/** The key a call was made with, once authenticated. */
export class Caller {
  constructor(
    readonly key: ApiKeyRecord,
    /** Which release's answers a refusal takes (see {@link authenticate}). */
    readonly answers: AuthAnswers = "1.19",
  ) {}

  /**
   * Throw 403 (401 with 1.15's answers) unless the key may call `operation` in `context`. An
   * operation that checks a permission inside, on the object it changes, gives `refusal115`: 1.15's
   * own answer there, which it gives instead of its authentication's (update_group's 401 `User not
   * authorized to modify the target group.`, update_image's HTTP 200).
   */
  require(operation: OperationName, context: OperationContext = {}, refusal115?: () => EmulatorError): void {
    const refuse = () => (this.answers === "1.15" && refusal115 ? refusal115() : this.refusal());
    if (this.key.read_only && OPERATIONS[operation].access !== "read") throw refuse();
    const { all, oneOf } = requiredPermissions(operation, context);
    if (!all.every((p) => this.has(p)) || (oneOf.length > 0 && !oneOf.some((p) => this.has(p)))) throw refuse();
  }

  /** The error for a call the key may not make, in the emulator's answers. */
  refusal(): Unauthorized | Unauthorized115 {
    return this.answers === "1.15" ? new Unauthorized115() : new Unauthorized();
  }

  /** Whether a permission is in effect for this key (held, with its dependencies). */
  has(permission: PermissionName): boolean {
    let effective = effectiveByKey.get(this.key);
    if (!effective) {
      effective = effectivePermissions(this.key.permissions);
      effectiveByKey.set(this.key, effective);
    }
    return effective.has(permission);
  }
}

/**
 * Check a key and secret against the store; throw unless they match a key that has not expired
 * (401 `Invalid user name or password.`, or 1.15's answers when `answers` says so).
 */
export function authenticate(store: Store, key: unknown, secret: unknown, now: Date = new Date(), answers: AuthAnswers = "1.19"): Caller {
  const old = answers === "1.15";
  if (typeof key !== "string" || typeof secret !== "string" || key === "" || secret === "") throw old ? new NoCredentials115() : new InvalidCredentials();
  const record = store.keys.byKey(key);
  if (!record) throw old ? new AccessDenied115() : new InvalidCredentials();
  const expires = record.expires ? parseTime(record.expires) : undefined;
  // An expiry that does not parse counts as expired: a key is never let in by a malformed date.
  const expired = !!record.expires && (!expires || expires <= now);
  // 1.15 told an expired key so before it looked at the secret.
  if (old && expired) throw new AccessExpired115();
  const expected = Buffer.from(record.secret_hash, "hex");
  const actual = Buffer.from(hashSecret(secret, record.secret_salt), "hex");
  if (!timingSafeEqual(expected, actual)) throw old ? new AccessDenied115() : new InvalidCredentials();
  if (expired) throw new InvalidCredentials();
  return new Caller(record, answers);
}
