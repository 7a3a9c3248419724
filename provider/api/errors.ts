/**
 * The errors the Kasm API client throws.
 *
 * Every error is a {@link KasmApiError}: catch that one class to handle them all, then tell them
 * apart by subclass (`instanceof KasmPermissionError`) or by {@link KasmApiError.kind}.
 *
 * | kind             | class                       | when                                                         |
 * |------------------|-----------------------------|--------------------------------------------------------------|
 * | `configuration`  | {@link KasmConfigurationError} | a client option is missing or invalid                     |
 * | `authentication` | {@link KasmAuthenticationError} | HTTP 401: the key or secret is wrong or expired          |
 * | `permission`     | {@link KasmPermissionError} | HTTP 403: the key lacks a permission (or is Read Only)       |
 * | `license`        | {@link KasmLicenseLimitError} | HTTP 403 `License limit exceeded`: the licence's seats are used up |
 * | `bad_request`    | {@link KasmBadRequestError} | HTTP 400 (and other 4xx)                                     |
 * | `not_found`      | {@link KasmNotFoundError}   | HTTP 404, or a 400 whose message says the object is unknown  |
 * | `rate_limited`   | {@link KasmRateLimitError}  | HTTP 429 after the retries ran out                           |
 * | `server`         | {@link KasmServerError}     | HTTP 5xx after the retries ran out                           |
 * | `transport`      | {@link KasmTransportError}  | the connection failed (refused, reset, TLS)                  |
 * | `timeout`        | {@link KasmTimeoutError}    | connecting or waiting for the answer took too long           |
 * | `response_shape` | {@link KasmResponseShapeError} | the answer does not have the documented shape            |
 * | `unhealthy`      | {@link KasmHealthCheckError} | {@link waitForHealthy} ran out of time                     |
 * | `vocabulary`     | {@link KasmVocabularyError} | the answer shows the installation speaks the other vocabulary than `apiNames` |
 * | `vocabulary`     | {@link KasmMissingOperationError} | HTTP 404 for an operation the other vocabulary names otherwise or lacks |
 * | `unsupported`    | {@link KasmUnsupportedOperationError} | a product operation, called with `apiNames` `spec` (nothing is sent) |
 *
 * Kasm's texts, not only its status codes, decide the class: a 403 `License limit exceeded. ...`
 * is about the licence, not a permission, and `Invalid user name or password.` is about the
 * credentials whatever its code. Releases before 1.19.0 swapped the codes and used other texts
 * (1.15: 403 `Access Denied` for wrong credentials, 401 `Unauthorized` for a missing permission);
 * both releases' texts are classified right. See {@link errorForStatus}.
 *
 * Secrets: no error holds a request body, a credential or a secret value. Server messages are
 * scrubbed of the secret values of the request before they are stored, and `cause` is a plain
 * copy of the underlying error's name, code and (scrubbed) message, never the original object.
 */
import {
  closeUnderDependencies,
  isOperationName,
  OPERATIONS,
  requiredPermissions,
  type ContextualRequirement,
  type OperationContext,
  type PermissionName,
} from "../../catalogue";
import { scrubText } from "./redact";
import { configKey, DEFAULT_SETTING_NAMES, envVar, type SettingNames } from "./setting-names";

/** What went wrong, in one word; see the table in this module's documentation. */
export type KasmErrorKind =
  | "configuration"
  | "authentication"
  | "permission"
  | "license"
  | "bad_request"
  | "not_found"
  | "rate_limited"
  | "server"
  | "transport"
  | "timeout"
  | "response_shape"
  | "unhealthy"
  | "vocabulary"
  | "unsupported";

/** The fields every {@link KasmApiError} may carry. */
export interface KasmErrorDetails {
  /** The API operation that failed, such as `create_user`. */
  readonly operation?: string;
  /** The HTTP status of the final answer, when there was one. */
  readonly status?: number;
  /** The server's `error_message`, scrubbed of secrets. */
  readonly errorMessage?: string;
  /** How many times the request was sent (1 when it was not retried). */
  readonly attempts?: number;
  /** How long the server asked to wait before trying again (`Retry-After`), in milliseconds. */
  readonly retryAfterMs?: number;
  /** The problems a CSV validation report lists (batch imports), scrubbed of secrets. */
  readonly validationErrors?: readonly string[];
  /** The underlying error (a sanitised copy). */
  readonly cause?: unknown;
  /**
   * Whose settings the failing client was built from, so that the message names that
   * connection's keys (`kasm-prod:apiKeySecret`, `KASM_PROD_API_KEY_SECRET`). Default: `kasm:`.
   */
  readonly settings?: SettingNames;
}

/** The base class of every error of the Kasm API client. */
export class KasmApiError extends Error {
  override readonly name: string = "KasmApiError";
  /** What went wrong, in one word. */
  readonly kind: KasmErrorKind;
  // `declare`: no own property unless set, so that unset fields do not show up as `undefined`
  // when an error is printed or serialised.
  /** The API operation that failed, such as `create_user` (absent for configuration errors). */
  declare readonly operation?: string;
  /** The HTTP status of the final answer, when there was one. */
  declare readonly status?: number;
  /** The server's `error_message`, scrubbed of secrets. */
  declare readonly errorMessage?: string;
  /** How many times the request was sent (1 when it was not retried). */
  declare readonly attempts?: number;
  /** How long the server asked to wait before trying again (`Retry-After`), in milliseconds. */
  declare readonly retryAfterMs?: number;

  constructor(kind: KasmErrorKind, message: string, details: KasmErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: sanitiseCause(details.cause) });
    this.kind = kind;
    if (details.operation !== undefined) this.operation = details.operation;
    if (details.status !== undefined) this.status = details.status;
    if (details.errorMessage !== undefined) this.errorMessage = details.errorMessage;
    if (details.attempts !== undefined) this.attempts = details.attempts;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }

  /** A plain object for logs and `JSON.stringify`: the message and the fields above, nothing else. */
  toJSON(): Record<string, unknown> {
    const { stack: _stack, ...fields } = { ...this } as Record<string, unknown>;
    return { ...fields, name: this.name, message: this.message };
  }
}

/** A client option is missing or invalid. `missing` names every missing setting. */
export class KasmConfigurationError extends KasmApiError {
  override readonly name = "KasmConfigurationError";
  /** The settings that are missing, each with the option and environment variable that set it. */
  readonly missing: readonly string[];
  constructor(message: string, missing: readonly string[] = []) {
    super("configuration", message);
    this.missing = missing;
  }
}

/** HTTP 401 (1.15: 403 `Access Denied`): the API key or secret is wrong, expired or deleted. */
export class KasmAuthenticationError extends KasmApiError {
  override readonly name = "KasmAuthenticationError";
  /** Whether Kasm said the key has expired (1.15: `Access has expired`). */
  readonly expired: boolean;
  constructor(details: KasmErrorDetails) {
    const expired = EXPIRED_KEY_MESSAGE.test((details.errorMessage ?? "").trim());
    super(
      "authentication",
      `${details.operation}: the server refused the API credentials (HTTP ${details.status ?? 401} ${quote(details.errorMessage)}). ` +
        (expired
          ? "The API key has expired: give it a later expiration date (Settings, Developers) or create a new key, and configure it."
          : `Check the API key and secret (${credentialSettings(details.settings)}), and that the key has not expired or been deleted.`),
      details,
    );
    this.expired = expired;
  }
}

/** Where a connection's API key and secret are set, for a message. */
function credentialSettings(names: SettingNames = DEFAULT_SETTING_NAMES): string {
  return (
    `\`${configKey(names, "apiKey")}\` and \`${configKey(names, "apiKeySecret")}\`, ` +
    `or ${envVar(names, "apiKey")} and ${envVar(names, "apiKeySecret")}`
  );
}

/**
 * HTTP 403: the API key lacks a permission the operation needs, or it is Read Only and the
 * operation writes. The message names what to grant, from the shared permission catalogue.
 */
export class KasmPermissionError extends KasmApiError {
  override readonly name = "KasmPermissionError";
  /** Every one of these is needed (with the context the client knew of). */
  readonly requiredPermissions: readonly PermissionName[];
  /** When not empty, one of these is needed as well. */
  readonly requiredOneOf: readonly PermissionName[];
  /** The permissions above together with everything they depend on: what to grant the key. */
  readonly toGrant: readonly PermissionName[];
  /** Permissions needed only in some circumstances, with the circumstance. */
  readonly mayAlsoNeed: readonly string[];

  constructor(details: KasmErrorDetails & { readonly operation: string; readonly context?: OperationContext }) {
    const advice = permissionAdvice(details.operation, details.context ?? {});
    super("permission", `${details.operation}: the server refused the call (HTTP ${details.status ?? 403} ${quote(details.errorMessage)}). ${advice.text}`, details);
    this.requiredPermissions = advice.all;
    this.requiredOneOf = advice.oneOf;
    this.toGrant = advice.toGrant;
    this.mayAlsoNeed = advice.mayAlsoNeed;
  }
}

/**
 * What a licence stopped: a new user (named-user seats), a new session (concurrent sessions), or
 * a feature the licence does not include (1.15: 403 `Access Denied. This feature is not licensed`).
 */
export type LicenseLimited = "user" | "session" | "feature";

/**
 * HTTP 403 `License limit exceeded. Unable to create user` (or `... session`): the deployment's
 * licence has no seat left for what the call creates. It is not about the API key's permissions,
 * so the message gives no permission advice; it says which seats are used up and how to get more.
 */
export class KasmLicenseLimitError extends KasmApiError {
  override readonly name = "KasmLicenseLimitError";
  /** What could not be created, when Kasm's message says (undefined otherwise). */
  declare readonly limited?: LicenseLimited;

  constructor(details: KasmErrorDetails & { readonly operation: string }) {
    const limited = licenseLimited(details.errorMessage);
    super("license", `${details.operation}: the server refused the call: ${limited === "feature" ? "the licence does not include this feature" : "a licence limit is reached"} (HTTP ${details.status ?? 403} ${quote(details.errorMessage)}). ${licenseAdvice(limited)}`, details);
    if (limited !== undefined) this.limited = limited;
  }
}

/** What the licence limit of a Kasm message stopped: `... Unable to create user` or `... session`. */
function licenseLimited(message: string | undefined): LicenseLimited | undefined {
  if (UNLICENSED_FEATURE_MESSAGE.test((message ?? "").trim())) return "feature";
  const what = /unable to create (user|session)/i.exec(message ?? "")?.[1]?.toLowerCase();
  return what === "user" || what === "session" ? what : undefined;
}

/** Which seats are used up and what to do, in plain words; no permission advice (the key is not at fault). */
function licenseAdvice(limited: LicenseLimited | undefined): string {
  const notTheKey = "This is not about the API key's permissions.";
  if (limited === "user")
    return (
      "The licence's named-user seats are all used (a Per Named User licence counts every user). Activate more seats " +
      "(a LicenseActivation, or Diagnostics > System Info > Licenses in the Kasm UI) or delete users that are no longer " +
      `needed, then try again. ${notTheKey}`
    );
  if (limited === "feature")
    return (
      "The installation's licence does not include the feature this operation uses (Kasm's Community Edition lacks " +
      "several, such as session staging and casting). Activate a licence that includes it (a LicenseActivation, or " +
      `Diagnostics > System Info > Licenses in the Kasm UI), or leave the feature out of the program. ${notTheKey}`
    );
  if (limited === "session")
    return (
      "The licence's concurrent sessions are all in use (5 on the Community Edition, without a licence; otherwise the " +
      "seats of the Per Concurrent Session licences). End sessions that are no longer needed or activate more seats, " +
      `then try again. ${notTheKey}`
    );
  return `The licence's seats are used up. Activate more seats or free some, then try again. ${notTheKey}`;
}

/** HTTP 400 (or another 4xx): the server refused the request's content. */
export class KasmBadRequestError extends KasmApiError {
  override readonly name: string = "KasmBadRequestError";
  /** For a refused batch import: each problem of the CSV validation report, such as `row 2: CSV_ERROR_009 ...`. */
  declare readonly validationErrors?: readonly string[];
  constructor(details: KasmErrorDetails, kind: KasmErrorKind = "bad_request") {
    const problems = details.validationErrors ?? [];
    const listed = problems.length === 0 ? "" : `: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? `; and ${problems.length - 5} more` : ""}`;
    super(kind, `${details.operation}: the server refused the request (HTTP ${details.status} ${quote(details.errorMessage)})${listed}`, details);
    if (details.validationErrors !== undefined) this.validationErrors = details.validationErrors;
  }
}

/**
 * The object the request names does not exist: HTTP 404, or HTTP 400 with a message such as
 * `Unknown user (...)` or `Staging config with id (...) does not exist` (Kasm answers 400 there).
 */
export class KasmNotFoundError extends KasmBadRequestError {
  override readonly name: string = "KasmNotFoundError";
  constructor(details: KasmErrorDetails) {
    super(details, "not_found");
  }
}

/**
 * The user the request names does not exist (`Unknown user (...)`, `Invalid User ID`): told apart
 * from the other object of a two-object call (the group of `add_user_group`, the server of
 * `assign_user_server`), which a caller treats otherwise.
 */
export class KasmUnknownUserError extends KasmNotFoundError {
  override readonly name: string = "KasmUnknownUserError";
}

/** The casting config the request names does not exist (rather than its image or group). */
export class KasmUnknownCastConfigError extends KasmNotFoundError {
  override readonly name: string = "KasmUnknownCastConfigError";
}

/** `User (<u>) is already a member of group (<g>)`: the membership a call adds exists. */
export class KasmAlreadyMemberError extends KasmBadRequestError {
  override readonly name: string = "KasmAlreadyMemberError";
}

/** `User (<u>) is not a member of group (<g>)`: the membership a call removes does not exist. */
export class KasmNotMemberError extends KasmBadRequestError {
  override readonly name: string = "KasmNotMemberError";
}

/** `User (<u>) is not assigned to server (<s>)`: the assignment a call removes does not exist. */
export class KasmNotAssignedError extends KasmBadRequestError {
  override readonly name: string = "KasmNotAssignedError";
}

/** An object with the same natural key (a name, a key, a zone and image) exists already. */
export class KasmAlreadyExistsError extends KasmBadRequestError {
  override readonly name: string = "KasmAlreadyExistsError";
}

/**
 * Kasm refuses to delete an object that others still depend on unless the call sets `force`: a
 * user with running sessions (`... kasms and 'force' option not set`), a group with members.
 */
export class KasmForceRequiredError extends KasmBadRequestError {
  override readonly name: string = "KasmForceRequiredError";
}

/** HTTP 429 after every retry was used up. */
export class KasmRateLimitError extends KasmApiError {
  override readonly name = "KasmRateLimitError";
  constructor(details: KasmErrorDetails) {
    super("rate_limited", `${details.operation}: the server is rate limiting (HTTP 429) and still was after ${details.attempts} attempt(s)`, details);
  }
}

/** HTTP 5xx after every retry was used up (or at once, for an operation that must not be repeated). */
export class KasmServerError extends KasmApiError {
  override readonly name = "KasmServerError";
  constructor(details: KasmErrorDetails, note = "") {
    super(
      "server",
      `${details.operation}: the server failed (HTTP ${details.status} ${quote(details.errorMessage)}) after ${details.attempts} attempt(s)${note}`,
      details,
    );
  }
}

/** The connection failed: refused, reset, closed early, TLS verification failed. */
export class KasmTransportError extends KasmApiError {
  override readonly name: string = "KasmTransportError";
  /** The network error code, such as `ECONNRESET` or `UND_ERR_SOCKET`. */
  declare readonly code?: string;
  constructor(details: KasmErrorDetails & { readonly code?: string }, note = "", kind: KasmErrorKind = "transport") {
    const what = kind === "timeout" ? "timed out" : "could not reach the server";
    super(kind, `${details.operation}: ${what} (${describeCause(details.cause)}) after ${details.attempts} attempt(s)${note}`, details);
    if (details.code !== undefined) this.code = details.code;
  }
}

/** Connecting, or waiting for the answer, took longer than the configured timeout. */
export class KasmTimeoutError extends KasmTransportError {
  override readonly name = "KasmTimeoutError";
  constructor(details: KasmErrorDetails & { readonly code?: string }, note = "") {
    super(details, note, "timeout");
  }
}

/** One way in which a response differs from its schema. */
export interface ShapeIssue {
  /** Where in the response body, such as `user.user_id`. */
  readonly path: string;
  /** What is wrong there (never the value itself). */
  readonly message: string;
}

/** The response does not have the shape the client relies on. */
export class KasmResponseShapeError extends KasmApiError {
  override readonly name = "KasmResponseShapeError";
  /** Every offending place in the response. */
  readonly issues: readonly ShapeIssue[];
  constructor(details: KasmErrorDetails & { readonly issues: readonly ShapeIssue[] }) {
    const listed = details.issues.map((i) => `${i.path || "(body)"}: ${i.message}`).join("; ");
    super("response_shape", `${details.operation}: unexpected response from the server: ${listed}`, details);
    this.issues = details.issues;
  }
}

/** How to switch the wire vocabulary of the connection `names` describes, for messages. */
function switchAdvice(to: "spec" | "product", names: SettingNames = DEFAULT_SETTING_NAMES): string {
  return (
    `Set ${configKey(names, "apiNames")} to "${to}" (\`pulumi config set ${configKey(names, "apiNames")} ${to}\`, ` +
    `or ${envVar(names, "apiNames")}=${to} for the client and lookups)`
  );
}

/**
 * The answer shows that the installation speaks the other wire vocabulary than the configured
 * `apiNames` (see `vocabulary.ts`). A released Kasm ignores fields it does not know and answers
 * 200, so a write in the wrong vocabulary may have been applied without the settings it named:
 * this error says so instead of reporting success. `answer` is the answer as read (translated).
 */
export class KasmVocabularyError extends KasmApiError {
  override readonly name = "KasmVocabularyError";
  /** The vocabulary the client is configured with. */
  readonly configured: "spec" | "product";
  /** The vocabulary the answer showed. */
  readonly answered: "spec" | "product";
  /** The names of the answered vocabulary that the answer holds. */
  readonly foreignNames: readonly string[];
  readonly #answer: unknown;

  constructor(
    details: KasmErrorDetails & {
      readonly operation: string;
      readonly configured: "spec" | "product";
      readonly foreignNames: readonly string[];
      readonly answer: unknown;
      readonly write: boolean;
    },
  ) {
    const answered = details.configured === "spec" ? "product" : "spec";
    const speaks = answered === "product" ? "the released Kasm product's names" : "the API documentation's names";
    const shown = details.foreignNames.slice(0, 4).join(", ") + (details.foreignNames.length > 4 ? ", ..." : "");
    const consequence = details.write
      ? "it ignores fields named the other way, so settings this call sent may not have been applied"
      : "settings written in the configured vocabulary would be ignored";
    super(
      "vocabulary",
      `${details.operation}: the installation answered with ${speaks} (${shown}), but ${configKey(details.settings ?? DEFAULT_SETTING_NAMES, "apiNames")} is "${details.configured}": ` +
        `${consequence}. ${switchAdvice(answered, details.settings)} and run again.`,
      details,
    );
    this.configured = details.configured;
    this.answered = answered;
    this.foreignNames = details.foreignNames;
    this.#answer = details.answer;
  }

  /**
   * The answer, read whichever names it used: what a create that did commit needs to keep its
   * object in the state. Kept private, so that printing, inspecting or serialising the error never
   * shows a record (which may hold credentials).
   */
  get answer(): unknown {
    return this.#answer;
  }
}

/**
 * HTTP 404 for an operation whose name or existence depends on the vocabulary (a product-only
 * operation, or one the product names otherwise, such as `request_kasm`): the installation most
 * likely speaks the other vocabulary than the configured `apiNames`.
 */
export class KasmMissingOperationError extends KasmApiError {
  override readonly name = "KasmMissingOperationError";
  constructor(details: KasmErrorDetails & { readonly operation: string; readonly wireName: string; readonly configured: "spec" | "product" }) {
    const other = details.configured === "spec" ? "product" : "spec";
    super(
      "vocabulary",
      `${details.operation}: the installation has no operation ${details.wireName} (HTTP 404 ${quote(details.errorMessage)}). ` +
        `${configKey(details.settings ?? DEFAULT_SETTING_NAMES, "apiNames")} is "${details.configured}", and ${details.configured === "product" ? "an installation that follows the API documentation names it otherwise or lacks it" : "a released Kasm names it otherwise"}. ` +
        `${switchAdvice(other, details.settings)} if the installation ${other === "spec" ? "follows the API documentation" : "is a released Kasm (1.15 or later)"}, and run again.`,
      details,
    );
  }
}

/**
 * An operation that only the released product has (groups, cast config reads, licence listing:
 * the API documentation leaves them out), called while `apiNames` is `spec`. Nothing was sent.
 */
export class KasmUnsupportedOperationError extends KasmApiError {
  override readonly name = "KasmUnsupportedOperationError";
  constructor(operation: string, purpose?: string, settings: SettingNames = DEFAULT_SETTING_NAMES) {
    super(
      "unsupported",
      `${operation}${purpose ? ` (${purpose})` : ""} is an operation of the released Kasm product that the API documentation does not list, ` +
        `and ${configKey(settings, "apiNames")} is "spec", so it was not sent. If the installation is a released Kasm (1.15 or later), ${switchAdvice("product", settings)}.`,
      { operation },
    );
  }
}

/** The health endpoint did not answer `{ok: true}` before the deadline. */
export class KasmHealthCheckError extends KasmApiError {
  override readonly name = "KasmHealthCheckError";
  /** Why the last attempt failed. */
  readonly lastFailure: string;
  constructor(attempts: number, elapsedMs: number, lastFailure: string) {
    super(
      "unhealthy",
      `the Kasm API did not report healthy within ${Math.round(elapsedMs)} ms (${attempts} attempt(s)); last failure: ${lastFailure}`,
      { operation: "healthcheck", attempts },
    );
    this.lastFailure = lastFailure;
  }
}

/** Type guard: is `error` one of this client's errors? */
export function isKasmApiError(error: unknown): error is KasmApiError {
  return error instanceof KasmApiError;
}

/** Texts of Kasm's 400 answers that mean "no such object" (Kasm has no 404 for these). */
const NOT_FOUND_MESSAGES: readonly RegExp[] = [
  /^Unknown\b/i, // Unknown User, Unknown user (<id>), Unknown session (<id>)
  /\bdoes not exist\b/i,
  /\bdoes not exit by that id\b/i, // 1.15 update_group, as written there
  /^Invalid (User|Group|Server|Image|Zone) ID\b/i,
  /\bnot found\b/i,
];

/** Whether a 400 error message of `operation` says the named object does not exist. */
export function isNotFoundMessage(operation: string, message: string | undefined): boolean {
  if (message === undefined) return false;
  // get_user answers a bare "Invalid Request" when no user has that id or name.
  if (operation === "get_user" && message.trim() === "Invalid Request") return true;
  return NOT_FOUND_MESSAGES.some((re) => re.test(message.trim()));
}

/** Kasm's text for a licence whose seats are used up (`License limit exceeded. Unable to create user`). */
const LICENSE_LIMIT_MESSAGE = /^licen[cs]e limit exceeded\b/i;
/** Kasm's text for wrong or expired credentials (401 from 1.19.0; some earlier releases sent 403). */
const BAD_CREDENTIALS_MESSAGE = /^invalid user ?name or password\b/i;
/** 1.15's text for a wrong key or secret (HTTP 403), exactly: `Access Denied`. */
const ACCESS_DENIED_MESSAGE = /^access denied\.?$/i;
/** 1.15's text for an expired key (HTTP 401). */
const EXPIRED_KEY_MESSAGE = /^access has expired\b/i;
/** 1.15's text for a feature the licence lacks (HTTP 403). */
const UNLICENSED_FEATURE_MESSAGE = /^access denied\. this feature is not licensed\b/i;
/** The text of a missing permission: 1.19 answers 403 `Unauthorized.`, 1.15 answers 401 `Unauthorized`. */
const UNAUTHORIZED_MESSAGE = /^unauthorized\.?$/i;
/** 1.15's text for a key whose permissions do not reach the target group (HTTP 401, update_group). */
const NOT_AUTHORIZED_FOR_TARGET_MESSAGE = /^user not authorized to\b/i;

/**
 * The error for a non-2xx answer. `errorMessage` must already be scrubbed of secrets.
 * `note` is appended to server and transport errors (for example "the request may have been applied").
 *
 * For 401 and 403 Kasm's text decides first: `License limit exceeded...` is a
 * {@link KasmLicenseLimitError} and `Invalid user name or password.` a {@link KasmAuthenticationError},
 * whichever of the two codes carries them. Otherwise a 401 is an authentication error and a 403
 * (`Unauthorized.`, or a text the spec does not list) a permission error.
 */
export function errorForStatus(
  details: KasmErrorDetails & { readonly operation: string; readonly status: number; readonly context?: OperationContext },
  note = "",
): KasmApiError {
  const { status } = details;
  if (status === 401 || status === 403) {
    const text = (details.errorMessage ?? "").trim();
    if (LICENSE_LIMIT_MESSAGE.test(text) || UNLICENSED_FEATURE_MESSAGE.test(text)) return new KasmLicenseLimitError(details);
    if (BAD_CREDENTIALS_MESSAGE.test(text) || ACCESS_DENIED_MESSAGE.test(text) || EXPIRED_KEY_MESSAGE.test(text)) return new KasmAuthenticationError(details);
    if (UNAUTHORIZED_MESSAGE.test(text) || NOT_AUTHORIZED_FOR_TARGET_MESSAGE.test(text)) return new KasmPermissionError(details);
    return status === 401 ? new KasmAuthenticationError(details) : new KasmPermissionError(details);
  }
  // A 200 with an error_message (1.15 answers many refusals so) is read like a 400.
  if (status === 404 || ((status === 400 || status < 300) && isNotFoundMessage(details.operation, details.errorMessage))) return notFoundError(details);
  if (status === 429) return new KasmRateLimitError(details);
  if (status >= 500) return new KasmServerError(details, note);
  const meaning = REFUSAL_MEANINGS.find(([text]) => text.test((details.errorMessage ?? "").trim()));
  return meaning ? new meaning[1](details) : new KasmBadRequestError(details);
}

/**
 * Kasm's refusals that mean one thing a caller acts on, each with its class: read here, where
 * answers are read, so that no caller reads Kasm's texts. First match wins.
 */
const REFUSAL_MEANINGS: readonly (readonly [RegExp, new (details: KasmErrorDetails) => KasmBadRequestError])[] = [
  [/\bis already a member\b/i, KasmAlreadyMemberError],
  [/\bis not a member\b/i, KasmNotMemberError],
  [/\bis not assigned\b/i, KasmNotAssignedError],
  [/'force' option not set/i, KasmForceRequiredError],
  // "already assigned": the assignment a call makes exists (no release is known to send it; Kasm accepts assigning twice).
  [/\balready exists\b|\bmust be unique\b|\balready assigned\b/i, KasmAlreadyExistsError],
];

/** The not-found error, naming what is missing when the text says (the user, the casting config). */
function notFoundError(details: KasmErrorDetails): KasmNotFoundError {
  const text = details.errorMessage ?? "";
  if (/\bUser ID\b|\bunknown user\b/i.test(text)) return new KasmUnknownUserError(details);
  if (/\bcast config\b/i.test(text)) return new KasmUnknownCastConfigError(details);
  return new KasmNotFoundError(details);
}

interface PermissionAdvice {
  all: PermissionName[];
  oneOf: PermissionName[];
  toGrant: PermissionName[];
  mayAlsoNeed: string[];
  text: string;
}

/** What to tell a user whose call was refused with 403, from the shared permission catalogue. */
function permissionAdvice(operation: string, context: OperationContext): PermissionAdvice {
  if (!isOperationName(operation)) return { all: [], oneOf: [], toGrant: [], mayAlsoNeed: [], text: "The API key lacks a permission this operation needs." };
  const spec = OPERATIONS[operation];
  const requirement = requiredPermissions(operation, context);
  const all = [...requirement.all];
  const oneOf = [...requirement.oneOf];
  // With a choice, suggest the first alternative in the list of what to grant.
  const toGrant = [...closeUnderDependencies([...all, ...oneOf.slice(0, 1)])];
  const applied = new Set<PermissionName>(all);
  const mayAlsoNeed = (spec.contextual ?? [])
    .filter((rule: ContextualRequirement) => rule.add.some((p) => !applied.has(p)))
    .map((rule: ContextualRequirement) => `${rule.add.join(", ")} when ${rule.reason}`);

  const parts = [`The API key needs all of: ${toGrant.join(", ")}`];
  if (oneOf.length > 1) parts[0] += ` (any one of ${oneOf.join(" or ")} will do, with its dependencies)`;
  parts[0] += "; grant those it lacks";
  const dependencies = toGrant.filter((p) => !all.includes(p) && !oneOf.includes(p));
  if (dependencies.length > 0) parts.push(`${dependencies.join(", ")} ${dependencies.length === 1 ? "is" : "are"} needed by the permission dependency rules`);
  if (mayAlsoNeed.length > 0) parts.push(`It may also need ${mayAlsoNeed.join("; ")}`);
  if (spec.access === "write") parts.push("A key with the Read Only setting is refused every write operation whatever its permissions");
  return { all, oneOf, toGrant, mayAlsoNeed, text: `${parts.join(". ")}.` };
}

function quote(message: string | undefined): string {
  return message === undefined || message === "" ? "with no message" : JSON.stringify(message);
}

/** A short description of an underlying error: its code and scrubbed message. */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return "unknown error";
  const code = (cause as { code?: unknown }).code;
  const message = scrubText(cause.message);
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * A copy of an underlying error that holds only its name, code and scrubbed message. The
 * original may reference sockets, request options or response data, none of which belongs in
 * an error that users log.
 */
function sanitiseCause(cause: unknown): Error {
  if (!(cause instanceof Error)) return new Error("unknown error");
  const copy = new Error(scrubText(cause.message));
  Object.defineProperty(copy, "name", { value: cause.name, enumerable: false });
  const code = (cause as { code?: unknown }).code;
  if (typeof code === "string") Object.defineProperty(copy, "code", { value: code, enumerable: true });
  return copy;
}
