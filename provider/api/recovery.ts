/**
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
import type { z } from "zod";
import type { OperationName } from "../../permissions/operations";
import { KasmApiError, KasmBadRequestError, KasmMalformedIdError, KasmNotFoundError, KasmRateLimitError, KasmServerError, KasmTransportError } from "./errors";
import { Empty } from "./schemas/common";
import type { CallOptions, KasmTransport } from "./transport";

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
