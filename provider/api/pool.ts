/**
 * The connection side of the transport: the undici pool of one base URL (keep-alive connections,
 * timeouts, the most connections at once, the TLS trust the settings give) with undici's retry
 * interceptor over it, the TLS errors whose message suggests `caCert`, and the connection a
 * transport shares with its lenient views (the pool, the reads in flight, the answer listeners).
 *
 * The reads in flight ({@link ReadsInFlight}, one per connection pool, with its write generation):
 * reads of the same object that overlap in time share one request. A read arrives while an
 * identical one is waiting for its answer, and gets a copy of that answer. Nothing is kept once
 * the answer is in, and a read issued after a write started never joins one issued before it
 * (the write generation is part of every key): this only saves duplicate requests, it never
 * serves an old answer. The transport and its lenient views (see `KasmTransport.readingLeniently`)
 * share them with the pool: a refresh's read and another caller's read of the same object still
 * send one request, and each caller decides for itself what the answer means to it.
 */
import { rootCertificates } from "node:tls";
import type { Dispatcher, Pool } from "undici";
import type { OperationName } from "../../permissions/operations";
import type { ResolvedConfig } from "./config";

/** Told of every answer an operation gets, after it is checked: see `KasmTransport.onAnswer`. */
export type AnswerListener = (operation: OperationName, answer: unknown) => void;

/**
 * What a transport shares with its lenient views (see `KasmTransport.readingLeniently`): the one
 * connection to the installation, whichever way its callers take a vocabulary mismatch.
 */
export interface TransportConnection {
  /** The keep-alive pool to the base URL, opened (and undici loaded) at the first request. */
  readonly pool: Pool;
  /** The pool behind undici's retry interceptor: what requests are sent through. */
  readonly retrying: Dispatcher;
  /** Close the pool; requests in flight finish first, later ones fail (a pool never opened is opened closed, if ever). */
  close(): Promise<void>;
  /** The reads in flight and the write generation. */
  readonly reads: ReadsInFlight;
  /** Who is told of every checked answer (see `KasmTransport.onAnswer`). */
  readonly listeners: AnswerListener[];
}

/** TLS certificate errors, for which the error message suggests `caCert`. */
export const TLS_TRUST_CODES: ReadonlySet<string> = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/**
 * A new connection for `config`: its own pool, no reads in flight, nobody listening. The pool is
 * opened, and undici (about a hundred modules, some 70 ms) loaded, at the first request: a process
 * that sends none (the provider plugin in a preview without change, a program's `import`) does not
 * spend that time.
 */
export function openConnection(config: ResolvedConfig): TransportConnection {
  let opened: { pool: Pool; retrying: Dispatcher } | undefined;
  let closed = false;
  const open = () => {
    if (opened === undefined) {
      opened = poolFor(config);
      // Closed before its first request: a request now fails as one after close always did.
      if (closed) void opened.pool.close();
    }
    return opened;
  };
  return {
    get pool() {
      return open().pool;
    },
    get retrying() {
      return open().retrying;
    },
    async close() {
      closed = true;
      if (opened !== undefined) await opened.pool.close();
    },
    reads: new ReadsInFlight(),
    listeners: [],
  };
}

/** The pool for `config` and undici's retry interceptor over it. */
function poolFor(config: ResolvedConfig): { pool: Pool; retrying: Dispatcher } {
  const { interceptors } = require("undici") as typeof import("undici");
  const pool = createPool(config);
  // undici re-sends the request; the per-request `retry` callback (see `KasmTransport.send`)
  // decides whether and when, following the policy. throwOnError=false: when the policy gives up
  // on an error answer, the answer itself (with its error_message) reaches us instead of a bare
  // "Request failed". `methods`: undici's own decision retries only idempotent HTTP methods, and
  // every Kasm operation but five is a POST; our callback replaces that decision, and both methods
  // are listed so that no method filter can stand in its way.
  const retrying = pool.compose(interceptors.retry({ throwOnError: false, methods: ["GET", "POST"] }));
  return { pool, retrying };
}

/** The undici Pool for one base URL: keep-alive connections, timeouts and TLS trust. */
function createPool(config: ResolvedConfig): Pool {
  const { Pool } = require("undici") as typeof import("undici");
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

// --- reads in flight ------------------------------------------------------------------------------

/** A read waiting for its answer, and how many other callers share it. */
interface SharedRead {
  readonly answer: Promise<unknown>;
  joined: number;
}

/** The reads in flight of one connection and its write generation (see the module comment: one per connection pool). */
export class ReadsInFlight {
  /** Reads in flight, by write generation and the caller's key. */
  readonly #reads = new Map<string, SharedRead>();
  #generation = 0;

  /**
   * A number that changes whenever a write starts or ends. What was read while it kept one value
   * is as current as this connection's own writes can make it.
   */
  get writeGeneration(): number {
    return this.#generation;
  }

  /** Run `write`, the generation changing before and after it: a read that overlaps it in any way sees the change. */
  async whileWriting<T>(write: () => Promise<T>): Promise<T> {
    this.#generation += 1;
    try {
      return await write();
    } finally {
      this.#generation += 1;
    }
  }

  /**
   * The outcome of `read`, or of the identical read (same `key`, no write started since) that is
   * still waiting for its answer. Each caller gets its own `copy`, so that one may change what it
   * got without the others seeing it; the caller that started the read gets the outcome itself
   * when nobody joined.
   *
   * @param key What makes two reads identical: the operation and its parameters, in one form.
   */
  async share<T>(key: string, read: () => Promise<T>, copy: (outcome: T) => T): Promise<T> {
    const generationKey = `${this.#generation} ${key}`;
    const shared = this.#reads.get(generationKey);
    if (shared) {
      shared.joined += 1;
      return copy((await shared.answer) as T);
    }
    const started: SharedRead = { answer: read(), joined: 0 };
    this.#reads.set(generationKey, started);
    try {
      const outcome = (await started.answer) as T;
      return started.joined > 0 ? copy(outcome) : outcome;
    } finally {
      if (this.#reads.get(generationKey) === started) this.#reads.delete(generationKey);
    }
  }
}
