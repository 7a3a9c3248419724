/**
 * The connection side of the transport: the undici pool of one base URL (keep-alive connections,
 * timeouts, the most connections at once, the TLS trust the settings give) with undici's retry
 * interceptor over it, the TLS errors whose message suggests `caCert`, and the connection a
 * transport shares with its lenient views (the pool, the reads in flight, the answer listeners).
 */
import { rootCertificates } from "node:tls";
import { Pool, interceptors, type Dispatcher } from "undici";
import type { OperationName } from "../../catalogue";
import type { ResolvedConfig } from "./config";
import { ReadsInFlight } from "./reads-in-flight";

/** Told of every answer an operation gets, after it is checked: see `KasmTransport.onAnswer`. */
export type AnswerListener = (operation: OperationName, answer: unknown) => void;

/**
 * What a transport shares with its lenient views (see `KasmTransport.readingLeniently`): the one
 * connection to the installation, whichever way its callers take a vocabulary mismatch.
 */
export interface TransportConnection {
  /** The keep-alive pool to the base URL. */
  readonly pool: Pool;
  /** The pool behind undici's retry interceptor: what requests are sent through. */
  readonly retrying: Dispatcher;
  /** The reads in flight and the write generation. */
  readonly reads: ReadsInFlight;
  /** Who is told of every checked answer (see `KasmTransport.onAnswer`). */
  readonly listeners: AnswerListener[];
}

/** TLS certificate errors, for which the error message suggests `caCert`. */
export const TLS_TRUST_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** A new connection for `config`: its own pool, no reads in flight, nobody listening. */
export function openConnection(config: ResolvedConfig): TransportConnection {
  const pool = createPool(config);
  // undici re-sends the request; the per-request `retry` callback (see `KasmTransport.send`)
  // decides whether and when, following the policy. throwOnError=false: when the policy gives up
  // on an error answer, the answer itself (with its error_message) reaches us instead of a bare
  // "Request failed". `methods`: undici's own decision retries only idempotent HTTP methods, and
  // every Kasm operation but five is a POST; our callback replaces that decision, and both methods
  // are listed so that no method filter can stand in its way.
  const retrying = pool.compose(interceptors.retry({ throwOnError: false, methods: ["GET", "POST"] }));
  return { pool, retrying, reads: new ReadsInFlight(), listeners: [] };
}

/** The undici Pool for one base URL: keep-alive connections, timeouts and TLS trust. */
function createPool(config: ResolvedConfig): Pool {
  const tls = config.baseUrl.protocol === "https:";
  return new Pool(config.baseUrl.origin, {
    connect: {
      timeout: config.connectTimeoutMs,
      ...(tls && config.caCert !== undefined ? { ca: [...rootCertificates, config.caCert] } : {}),
      ...(tls && config.insecureSkipVerify ? { rejectUnauthorized: false } : {}),
    },
    // Requests beyond this many wait in the pool's queue instead of opening more connections.
    connections: config.maxConnections,
    // Per attempt: the wait for the answer's headers, and the longest pause inside its body.
    headersTimeout: config.requestTimeoutMs,
    bodyTimeout: config.requestTimeoutMs,
  });
}
