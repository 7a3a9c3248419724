/**
 * The errors of the connection rather than of an answer: the server could not be reached (refused,
 * reset, TLS), it took too long, or it did not become healthy in time. Apart from the answers'
 * errors because no answer was read: they name the network's code and the attempts, never a text
 * of Kasm's.
 */
import { KasmApiError, describeCause, type KasmErrorDetails, type KasmErrorKind } from "./base";

/** The connection failed: refused, reset, closed early, TLS verification failed. */
export class KasmTransportError extends KasmApiError {
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
  constructor(details: KasmErrorDetails & { readonly code?: string }, note = "") {
    super(details, note, "timeout");
  }
}

/** The health endpoint did not answer `{ok: true}` before the deadline. */
export class KasmHealthCheckError extends KasmApiError {
  /** Why the last attempt failed. */
  readonly lastFailure: string;
  constructor(attempts: number, elapsedMs: number, lastFailure: string) {
    super("unhealthy", `the Kasm API did not report healthy within ${Math.round(elapsedMs)} ms (${attempts} attempt(s)); last failure: ${lastFailure}`, {
      operation: "healthcheck",
      attempts,
    });
    this.lastFailure = lastFailure;
  }
}
