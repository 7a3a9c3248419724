/**
 * The retry policy: which failures are worth another attempt, how long to wait, and which
 * operations may be repeated at all. Everything about retrying is decided here; the transport
 * plugs {@link RetryPolicy.undiciRetry} into undici's retry interceptor (which re-sends the
 * request) and the create operations use {@link RetryPolicy} for their recover-then-retry loop.
 *
 * And what the answer to a repeated write means, for the operations that write (see "a repeated
 * write" below): the `recover` loop of a create ({@link createOnce}) and the deletes and
 * membership changes that find their work done. They live with the policy because they are the
 * other half of the same decision: the repeat modes say which operations the transport may send
 * again, and these functions do what the transport may not, following the policy's waits.
 */
import type { RetryHandler } from "undici";
import type { z } from "zod";
import type { OperationName } from "../../permissions/operations";
import { KasmApiError, KasmBadRequestError, KasmMalformedIdError, KasmNotFoundError, KasmRateLimitError, KasmServerError, KasmTransportError } from "./errors";
import { Empty } from "./schemas/common";
import type { CallOptions, KasmTransport } from "./transport";

/**
 * How an operation may be repeated after a failure that left its outcome unknown.
 *
 * - `idempotent`: sending it twice has the effect of sending it once (reads, updates, deletes,
 *   membership changes). Retried on every transient failure. Deletes and membership changes that
 *   answer "does not exist" / "already a member" after a retry count as done (see the operations).
 * - `recover`: a create whose object has a natural key. Never re-sent blindly: after a transient
 *   failure the operation looks the object up by that key, adopts it if the first attempt
 *   committed, and only otherwise creates it again.
 * - `once`: must not be repeated unless the request certainly never reached the server
 *   (connection refused, connect timeout): batch imports, license activation (each call adds
 *   seats), session requests and commands run inside sessions.
 */
export type RepeatMode = "idempotent" | "recover" | "once";

/** How each operation may be repeated; the type makes every operation of the catalogue have an entry. */
export const REPEAT_MODES: Readonly<Record<OperationName, RepeatMode>> = Object.freeze({
  // Users
  create_user: "recover", // natural key: username
  batch_create_user: "once",
  get_user: "idempotent",
  get_users: "idempotent",
  update_user: "idempotent",
  delete_user: "idempotent",
  logout_user: "idempotent",
  get_attributes: "idempotent",
  update_user_attributes: "idempotent",
  assign_user_server: "idempotent",
  unassign_user_server: "idempotent",
  // Groups
  add_user_group: "idempotent",
  remove_user_group: "idempotent",
  get_groups: "idempotent",
  get_users_group: "idempotent",
  create_group: "recover", // natural key: name (the product refuses a second group of that name)
  update_group: "idempotent",
  delete_group: "idempotent",
  get_images_group: "idempotent",
  // A second add of a pair adds a second authorisation (1.15's table has no unique constraint,
  // decompile), which one remove leaves behind: looked up by the pair before it is sent again.
  add_images_group: "recover", // natural key: (group_id, image_id)
  remove_images_group: "idempotent",
  // Images
  get_image: "idempotent",
  create_image: "recover", // natural key: name and friendly name (see findImage)
  update_image: "idempotent", // the whole record each time
  delete_image: "idempotent",
  // Sessions
  request_ws: "once", // a second request would start a second session
  get_ws_status: "idempotent",
  delete_ws: "idempotent",
  get_ws_bottleneck_stats: "idempotent",
  get_ws_system_stats: "idempotent",
  get_ws_screenshot: "idempotent",
  exec_command_ws: "once", // the command would run twice
  exec_ws: "once",
  // Images, recordings, login
  get_images: "idempotent",
  get_session_recordings: "idempotent",
  get_sessions_recordings: "idempotent",
  get_login: "idempotent", // mints another login link; the first one is simply not used
  // Licensing
  activate: "once", // each call takes seats from the entitlement
  get_licenses: "idempotent",
  // Workspace registries
  get_registries: "idempotent",
  create_registry: "recover", // natural key: the registry's URL
  update_registry: "idempotent",
  registry_auto_updates: "idempotent",
  delete_registry: "idempotent",
  // Staging
  get_staging_configs: "idempotent",
  get_staging_config: "idempotent",
  create_staging_config: "recover", // natural key: (zone_id, image_id)
  update_staging_config: "idempotent",
  delete_staging_config: "idempotent",
  // Zones and servers
  get_zones: "idempotent",
  batch_create_server: "once",
  set_drain_server: "idempotent",
  get_servers: "idempotent",
  // Casting
  create_cast_config: "recover", // no read operation: a duplicate-key answer after a failure counts as committed
  update_cast_config: "idempotent",
  delete_cast_config: "idempotent",
  get_cast_configs: "idempotent",
  get_cast_config: "idempotent",
  // Egress
  get_egress_providers: "idempotent",
  create_egress_provider: "recover", // natural key: name
  update_egress_provider: "idempotent",
  delete_egress_provider: "idempotent",
  get_image_egress_gateways: "idempotent",
  get_egress_gateways: "idempotent",
  create_egress_gateway: "recover", // natural key: (egress_provider_id, name)
  update_egress_gateway: "idempotent",
  delete_egress_gateway: "idempotent",
  get_egress_provider_mapping: "idempotent",
  create_egress_provider_mapping: "recover", // natural key: (egress_provider_id, user/group/image)
  update_egress_provider_mapping: "idempotent",
  delete_egress_provider_mapping: "idempotent",
  get_egress_credentials: "idempotent",
  create_egress_credential: "recover", // natural key: (egress_provider_id, name, user/group/image)
});

/** The repeat mode of an operation. */
export function repeatMode(operation: OperationName): RepeatMode {
  return REPEAT_MODES[operation];
}

/** Statuses that mean "try again later": rate limiting and server-side failures. */
export const RETRYABLE_STATUSES: readonly number[] = [429, 500, 502, 503, 504];

/**
 * Network error codes worth another attempt: the connection broke or timed out. The undici codes
 * are those of its SocketError, ConnectTimeoutError, HeadersTimeoutError and BodyTimeoutError.
 */
export const RETRYABLE_ERROR_CODES: readonly string[] = [
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
];

/**
 * Codes that prove the request never reached the server, so that even a `once` operation may be
 * sent again: nothing was listening, or the connection could not be opened in time.
 */
export const NOT_SENT_ERROR_CODES: readonly string[] = ["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "EAI_AGAIN"];

/** Codes that mean a timeout rather than a broken connection. */
export const TIMEOUT_ERROR_CODES: readonly string[] = ["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"];

/** Settings of a {@link RetryPolicy}. */
export interface RetryPolicyOptions {
  /** Retries after the first attempt (so up to `maxRetries + 1` attempts). */
  readonly maxRetries: number;
  /** The backoff before the first retry; it doubles with each retry. */
  readonly baseDelayMs: number;
  /** The longest wait between attempts, including a wait asked for by `Retry-After`. */
  readonly maxDelayMs: number;
  /** A source of randomness in [0, 1) for the jitter; tests may pass a fixed one. */
  readonly random?: () => number;
}

/** One retry the policy decided on, as reported to {@link RetryObserver}. */
export interface RetryEvent {
  readonly operation: string;
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** A short, secret-free description of the failure: a status or an error code. */
  readonly reason: string;
  readonly delayMs: number;
}

/** Called whenever the policy decides to retry. */
export type RetryObserver = (event: RetryEvent) => void;

/** A failure, reduced to what the policy looks at. */
export interface Failure {
  /** The HTTP status, for an answer. */
  readonly status?: number;
  /** The network error code, for a failed connection. */
  readonly code?: string;
  /** The `Retry-After` header of the answer, if any. */
  readonly retryAfter?: string | string[];
}

/** The retry policy: exponential backoff with full jitter, `Retry-After` honoured up to the maximum delay. */
export class RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  private readonly random: () => number;

  constructor(options: RetryPolicyOptions) {
    this.maxRetries = options.maxRetries;
    this.baseDelayMs = options.baseDelayMs;
    this.maxDelayMs = options.maxDelayMs;
    this.random = options.random ?? Math.random;
  }

  /** Whether a failure is transient: a retryable status or network error code. */
  isTransient(failure: Failure): boolean {
    if (failure.status !== undefined) return RETRYABLE_STATUSES.includes(failure.status);
    return failure.code !== undefined && RETRYABLE_ERROR_CODES.includes(failure.code);
  }

  /** Whether an operation of this mode may be sent again after this failure. */
  mayResend(mode: RepeatMode, failure: Failure): boolean {
    if (!this.isTransient(failure)) return false;
    if (mode === "idempotent") return true;
    // `recover` creates are re-sent by their own loop after a lookup, not by the transport.
    return failure.code !== undefined && NOT_SENT_ERROR_CODES.includes(failure.code);
  }

  /**
   * How long to wait before retry number `retry` (1 for the first retry). With `Retry-After`,
   * the server's wait, capped at `maxDelayMs`; otherwise a random wait between zero and
   * `baseDelayMs * 2^(retry-1)`, capped at `maxDelayMs` ("full jitter", so that many clients
   * failing together do not retry together).
   */
  delayMs(retry: number, retryAfter?: string | string[]): number {
    const asked = parseRetryAfter(retryAfter);
    if (asked !== undefined) return Math.min(asked, this.maxDelayMs);
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** Math.max(0, retry - 1));
    return Math.floor(this.random() * ceiling);
  }

  /**
   * The `retry` callback for undici's RetryHandler, for one request of `operation`. It replaces
   * undici's default decision (which retries only idempotent HTTP methods; every Kasm operation
   * but five is a POST) with this policy's. `onRetry` hears of each retry. With
   * `serverErrorsFinal`, an answer of 5xx is not retried (a broken connection still is): the
   * request holds something the server is known to fail on every time (an id that is no Kasm id).
   */
  undiciRetry(operation: OperationName, mode: RepeatMode, onRetry: RetryObserver, serverErrorsFinal = false): RetryHandler.RetryCallback {
    return (err, { state }, callback) => {
      const failure = failureOf(err);
      const final = serverErrorsFinal && failure.status !== undefined && failure.status >= 500;
      // state.counter is the number of attempts made so far.
      if (final || state.counter > this.maxRetries || !this.mayResend(mode, failure)) {
        callback(err);
        return;
      }
      const delayMs = this.delayMs(state.counter, failure.retryAfter);
      onRetry({ operation, attempt: state.counter, reason: describeFailure(failure), delayMs });
      setTimeout(() => callback(null), delayMs);
    };
  }
}

/** The parts of an undici error the policy looks at. */
export function failureOf(err: unknown): Failure {
  const e = err as { statusCode?: unknown; code?: unknown; headers?: Record<string, string | string[] | undefined> };
  // undici's RequestRetryError carries the status of an answer; its code is UND_ERR_REQ_RETRY.
  if (typeof e.statusCode === "number") return { status: e.statusCode, retryAfter: e.headers?.["retry-after"] };
  return { code: typeof e.code === "string" ? e.code : undefined };
}

/** A short description of a failure for logs: `HTTP 503` or `ECONNRESET`. */
export function describeFailure(failure: Failure): string {
  return failure.status !== undefined ? `HTTP ${failure.status}` : (failure.code ?? "network error");
}

/** `Retry-After` as milliseconds: either delay-seconds or an HTTP date. */
export function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

// --- a repeated write -------------------------------------------------------------------------------

/*
 * What the answer to a repeated write means.
 *
 * A request whose connection broke, or that got a 5xx, may or may not have been applied. For
 * idempotent operations the transport simply sends it again; but then the second answer can
 * describe the state the first attempt left behind ("does not exist" for a delete, "already a
 * member" for a group join), and {@link callCountingAsDone} counts those as success.
 *
 * Creates are not idempotent: {@link createOnce} looks the object up by its natural key after a
 * transient failure, adopts what it finds, and creates again only when nothing was committed.
 */

/**
 * Call an idempotent operation; when it was sent more than once and the final answer is an error
 * that `alreadyDone` recognises, the earlier attempt did the work: return `undefined` (done).
 */
export async function callCountingAsDone<S extends z.ZodType>(
  transport: KasmTransport,
  operation: OperationName,
  params: object,
  schema: S,
  alreadyDone: (error: KasmBadRequestError) => boolean,
  options: CallOptions = {},
): Promise<z.infer<S> | undefined> {
  try {
    return await transport.call(operation, params, schema, options);
  } catch (error) {
    if (error instanceof KasmBadRequestError && (error.attempts ?? 1) > 1 && alreadyDone(error)) {
      transport.log("info", `${operation}: an earlier attempt had already applied the change (${error.errorMessage}); counted as done`);
      return undefined;
    }
    throw error;
  }
}

/**
 * Call a delete (an operation that answers nothing); when it was sent more than once and the final
 * answer is that the object does not exist, an earlier attempt deleted it: done. A first attempt
 * that finds nothing still fails with {@link KasmNotFoundError}: the caller decides what that means.
 */
export async function deleteOnce(transport: KasmTransport, operation: OperationName, params: object): Promise<void> {
  await callCountingAsDone(transport, operation, params, Empty, (error) => error instanceof KasmNotFoundError);
}

/** How {@link createOnce} finds what an earlier attempt may have committed. */
export interface Adoption<T> {
  /** Look the object up by its natural key; `undefined` when there is none. */
  find(): Promise<T | undefined>;
  /**
   * For objects that cannot be looked up: whether a refusal of a repeated create proves that an
   * earlier attempt committed, and what to return then. Return `undefined` to let the error through.
   */
  repeatRefused?(error: KasmBadRequestError): T | undefined;
}

/**
 * Create an object whose create is not idempotent, without ever creating it twice. (Adopting an
 * object a program declares with `adopt` is the resources' business, not this function's.)
 *
 * 1. Send the create. The transport repeats it only when the request certainly never reached the
 *    server (connection refused).
 * 2. On a transient failure (5xx, 429, broken connection, timeout) the outcome is unknown: wait as
 *    the retry policy says, then look the object up by its natural key. Found: the failed attempt
 *    committed; adopt it. Not found: create again (back to 1), up to the policy's retries.
 * 3. When a repeated create is refused (400, typically "already exists"), an earlier attempt
 *    committed after the lookup ran, or its answer was lost: look it up once more and adopt it.
 *
 * An object with the key that existed before the first attempt is found in 2 or 3 as well, and
 * taken for the created one. A caller for whom that matters looks the key up before calling this,
 * as every resource does (provider/resources/framework/define-kind.ts, `findFirst`).
 */
export async function createOnce<T>(transport: KasmTransport, operation: OperationName, create: () => Promise<T>, adoption: Adoption<T>): Promise<T> {
  const policy = transport.policy;
  let uncertain = false;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await create();
    } catch (error) {
      if (uncertain && error instanceof KasmBadRequestError) {
        const found = await adoption.find();
        if (found !== undefined) return adopted(transport, operation, found, error.errorMessage);
        const accepted = adoption.repeatRefused?.(error);
        if (accepted !== undefined) return adopted(transport, operation, accepted, error.errorMessage);
        throw error;
      }
      if (!isTransient(transport, error)) throw error;
      uncertain = true;
      await waitBeforeLookingUp(transport, operation, error, attempt, "the object");
      // Even when no retry is left, a failed attempt that committed is a success.
      const found = await adoption.find();
      if (found !== undefined) return adopted(transport, operation, found, `attempt ${attempt} had committed`);
      if (attempt > policy.maxRetries) throw error;
    }
  }
}

/**
 * Whether an error is one after which a write's outcome is unknown and trying again makes sense: a
 * transient failure by the retry policy (HTTP 429, 500, 502, 503 or 504, a broken connection, a
 * timeout), whose answer may have been lost after the write committed.
 */
export function isTransient(transport: KasmTransport, error: unknown): error is KasmApiError {
  // The transport found the server fails on an id the request sent, as it will every time (nothing was written).
  if (!(error instanceof KasmApiError) || error instanceof KasmMalformedIdError) return false;
  const code = (error as { code?: string }).code;
  return transport.policy.isTransient(error.status !== undefined ? { status: error.status } : { code });
}

/**
 * Whether a write that failed so may have committed all the same: any answer of a server error or
 * of rate limiting (a proxy in front of Kasm may answer either after Kasm wrote), and any connection
 * that broke or timed out. Wider than {@link isTransient}: a write that must not be repeated blindly
 * (a batch import) looks up what it may have made after each of these, and is sent again only after
 * a transient one.
 */
export function mayHaveCommitted(error: unknown): error is KasmApiError {
  return error instanceof KasmServerError || error instanceof KasmRateLimitError || error instanceof KasmTransportError;
}

/**
 * Wait before looking up what failed attempt number `attempt` of `operation` may have committed:
 * the server's `Retry-After` (a 429 or 503 carries one), capped at the longest delay the retry
 * settings allow, or the settings' backoff for that attempt.
 */
export async function waitBeforeLookingUp(
  transport: KasmTransport,
  operation: OperationName,
  error: KasmApiError,
  attempt: number,
  what: string,
): Promise<void> {
  const policy = transport.policy;
  const delayMs = error.retryAfterMs !== undefined ? Math.min(error.retryAfterMs, policy.maxDelayMs) : policy.delayMs(attempt);
  transport.log("debug", `${operation}: attempt ${attempt} failed (${error.status ?? error.kind}); looking for ${what} in ${delayMs} ms`);
  await sleep(delayMs);
}

function adopted<T>(transport: KasmTransport, operation: OperationName, value: T, why: string | undefined): T {
  transport.log("info", `${operation}: adopted the object an earlier attempt created (${why ?? "found by its natural key"})`);
  return value;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
