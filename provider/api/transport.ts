/**
 * The HTTP transport of the Kasm API client: one keep-alive undici Pool for the base URL, TLS
 * settings, timeouts, undici's retry interceptor driven by {@link RetryPolicy}, the request
 * envelopes (JSON with body credentials, multipart with header credentials), and the mapping of
 * answers to results or {@link KasmApiError}s.
 *
 * The API secret lives in a private field, so it never shows up when a transport or a client is
 * printed or serialised; every log line and error message is scrubbed of it.
 *
 * Reads of the same object that overlap in time share one request: a read arrives while an
 * identical one (same operation, same target, ids compared in canonical form) is waiting for its
 * answer, and gets a copy of that answer (see `ReadsInFlight` in `pool.ts`). Nothing is kept once the
 * answer is in, and a read issued after a write started never joins one issued before it: this
 * only saves duplicate requests, it never serves an old answer.
 *
 * Every id field of a JSON call's parameters is sent in the canonical form (see "request ids"
 * below), whatever spelling the caller used. Which fields hold ids, and the words for an id that is
 * none, live here because the transport is their one user: it rewrites every request's ids, and
 * its errors name the malformed ones and what a request names.
 *
 * The wire vocabulary (`apiNames`, see the wire vocabularies in `records.ts`) is applied here and nowhere else: requests
 * and operation names are written in the configured vocabulary, answers are read in either, and an
 * answer in the other vocabulary fails the call ({@link KasmVocabularyError}; a read through a
 * lenient view, {@link KasmTransport.readingLeniently}, notes it instead). An operation only the
 * product has is refused before anything is sent when the vocabulary is `spec`. An answer of 2xx
 * that carries an `error_message` is an error, never a success (1.15 answers many refusals so).
 * An answer whose body is not JSON (1.15's page for an exception it does not handle) is described
 * by its words; a 5xx to a request that sent an id that is no Kasm id in any spelling is that id's
 * fault, not retried, and a {@link KasmMalformedIdError} naming the field.
 */
import type { Dispatcher, RetryHandler } from "undici";
import type { z } from "zod";
import { OPERATIONS, type OperationContext, type OperationName } from "../../permissions/operations";
import { canonicalId } from "../../permissions/planned-calls";
import {
  KasmApiError,
  KasmMalformedIdError,
  KasmResponseShapeError,
  KasmTimeoutError,
  KasmMissingOperationError,
  KasmUnknownPathError,
  KasmTransportError,
  KasmUnsupportedOperationError,
  KasmVocabularyError,
  errorForStatus,
  type ShapeIssue,
} from "./errors";
import { configKey, envVar, howToSet, type HealthGates, type KasmLogger, type ResolvedConfig, type SettingNames } from "./config";
import * as batch from "./schemas/batch";
import { CsvValidationData } from "./schemas/batch";
import * as casting from "./schemas/casting";
import { Id } from "./schemas/common";
import * as egress from "./schemas/egress";
import * as groups from "./schemas/groups";
import * as images from "./schemas/images";
import * as licenses from "./schemas/licenses";
import * as login from "./schemas/login";
import * as recordings from "./schemas/recordings";
import * as servers from "./schemas/servers";
import * as sessions from "./schemas/sessions";
import * as staging from "./schemas/staging";
import * as users from "./schemas/users";
import * as zones from "./schemas/zones";
import { RetryPolicy, TIMEOUT_ERROR_CODES, parseRetryAfter, repeatMode, type RepeatMode } from "./retry";
import { csvProblems, formatPath, notRepeatedNote, pageWords } from "./answer-words";
import { TLS_TRUST_CODES, openConnection, type AnswerListener, type TransportConnection } from "./pool";
import { collectSecretValues, fromWire, noteMismatch, redact, scrubText, toWire, wireOperationName, type ApiNames, type LenientReads } from "./records";
import type { AllowedCalls } from "./allowed-calls";

/** Options of one call. */
export interface CallOptions {
  /**
   * What the client knows about the call's circumstances (a system group, an admin user...), so
   * that a 403 names every permission that applies.
   */
  readonly context?: OperationContext;
}

/** A CSV file for a multipart batch import. */
export interface CsvUpload {
  /** The CSV text. */
  readonly csv: string;
  /** The file name the server sees. Default: `import.csv`. */
  readonly filename?: string;
}

/** An answer, before it is interpreted. */
interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly attempts: number;
}

/** The outcome of one health probe. */
export interface HealthProbe {
  readonly healthy: boolean;
  /** Why it is not healthy (status and body start, or the network error), free of secrets. */
  readonly detail: string;
}

/**
 * A checked answer, and the vocabulary mismatch it showed, if any: whether that mismatch fails the
 * call is for each caller to decide (see `accepted`), as a strict and a lenient caller may share one read.
 */
interface Checked<T> {
  readonly answer: T;
  readonly mismatch: KasmVocabularyError | undefined;
}

/** The transport the operation functions call. One per client, and one per lenient view of it. */
export class KasmTransport {
  /** The base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The API key (an identifier, not a secret). */
  readonly apiKey: string;
  /** The retry policy every request of this transport follows. */
  readonly policy: RetryPolicy;
  /** The wire vocabulary requests are written in (see the wire vocabularies in `records.ts`). */
  readonly apiNames: ApiNames;
  /** Whose settings these are: the keys messages name (`kasm:` or a named connection's). */
  readonly settingNames: SettingNames;
  /**
   * Where a read notes an answer in the other vocabulary instead of failing: set on a lenient view
   * (see {@link KasmTransport.readingLeniently}), undefined on a transport whose reads fail.
   */
  readonly lenientReads: LenientReads | undefined;
  /**
   * The operations this transport may send: set on a view for one lifecycle step of a resource
   * (see {@link KasmTransport.allowingOnly}), undefined on a transport that sends any.
   */
  readonly allowedCalls: AllowedCalls | undefined;
  /** The settings, kept for the views, which read the same ones. */
  readonly #config: ResolvedConfig;
  readonly #secret: string;
  readonly #pathPrefix: string;
  readonly #logger?: KasmLogger;
  readonly #waitForHealthySeconds: number;
  /** The health waits this transport shares with the other clients of its registry (see {@link HealthGates}). */
  readonly healthGates: HealthGates;
  readonly #connection: TransportConnection;

  /**
   * @param config The resolved settings.
   * @param connection The pool, reads in flight and listeners to use: a lenient view shares its
   *   transport's. Default: a new connection of its own.
   * @param lenientReads Where reads note a vocabulary mismatch instead of failing (see
   *   {@link KasmTransport.lenientReads}). Default: none, they fail.
   * @param allowedCalls The operations it may send (see {@link KasmTransport.allowedCalls}). Default: any.
   */
  constructor(config: ResolvedConfig, connection: TransportConnection = openConnection(config), lenientReads?: LenientReads, allowedCalls?: AllowedCalls) {
    this.#config = config;
    this.#connection = connection;
    this.lenientReads = lenientReads;
    this.allowedCalls = allowedCalls;
    this.baseUrl = config.baseUrl.href.replace(/\/$/, "");
    this.apiKey = config.apiKey;
    this.apiNames = config.apiNames;
    this.settingNames = config.settingNames;
    this.#secret = config.apiKeySecret;
    this.#pathPrefix = config.baseUrl.pathname.replace(/\/$/, "");
    this.#logger = config.logger;
    this.#waitForHealthySeconds = config.waitForHealthySeconds;
    this.healthGates = config.healthGates;
    this.policy = new RetryPolicy({
      maxRetries: config.maxRetries,
      baseDelayMs: config.retryBaseDelayMs,
      maxDelayMs: config.retryMaxDelayMs,
    });
  }

  /**
   * A view of this transport for a refresh: the same connection (pool, reads in flight, write
   * generation, listeners), but a read whose answer shows the other vocabulary notes it in `notes`
   * (once per message) and goes on with what it read, where this transport fails it. A write fails
   * all the same: the installation may have ignored what it sent.
   */
  readingLeniently(notes: LenientReads): KasmTransport {
    return new KasmTransport(this.#config, this.#connection, notes, this.allowedCalls);
  }

  /**
   * A view of this transport for one lifecycle step of a resource: the same connection, reading as
   * this one does, but an operation `allowed` does not allow is refused with its error before
   * anything is sent (see `allowed-calls.ts`). A view of a view allows what both allow.
   */
  allowingOnly(allowed: AllowedCalls): KasmTransport {
    const outer = this.allowedCalls;
    const both: AllowedCalls =
      outer === undefined
        ? allowed
        : {
            allows: (operation) => outer.allows(operation) && allowed.allows(operation),
            refusal: (operation) => (outer.allows(operation) ? allowed.refusal(operation) : outer.refusal(operation)),
          };
    return new KasmTransport(this.#config, this.#connection, this.lenientReads, both);
  }

  /**
   * Throw the refusal of {@link KasmTransport.allowedCalls} when it does not allow `operation`:
   * every call checks it before sending, and so does a shared lookup before it answers from a
   * listing another caller read (`KeyLookups`, `UsernameLookups` and `UserReads` in `client.ts`).
   */
  requireAllowed(operation: OperationName): void {
    if (this.allowedCalls !== undefined && !this.allowedCalls.allows(operation)) throw this.allowedCalls.refusal(operation);
  }

  /**
   * Call a JSON-envelope operation: POST (or GET with a body, for the egress reads) of
   * `{api_key, api_key_secret, ...params}`, then validate the answer against `schema`. A read
   * identical to one still waiting for its answer shares that request (see the module comment).
   */
  async call<S extends z.ZodType>(operation: OperationName, params: object, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    this.requireAvailable(operation);
    this.requireAllowed(operation);
    if (OPERATIONS[operation].access !== "read") return this.accepted(operation, await this.callOnce(operation, params, schema, options));
    const key = `${operation} ${JSON.stringify(params, canonicalIds)} ${JSON.stringify(options.context ?? null)}`;
    // Shared with this transport's views too: each caller takes the mismatch its own way below.
    const checked = await this.#connection.reads.share(key, () => this.callOnce(operation, params, schema, options), copyOfAnswer);
    return this.accepted(operation, checked);
  }

  /**
   * A number that changes whenever a write operation starts or ends. What was read while it kept
   * one value is as current as this transport's own writes can make it; a read that must not miss
   * this process's writes compares it before and after.
   */
  get writeGeneration(): number {
    return this.#connection.reads.writeGeneration;
  }

  /**
   * Be told of every checked answer of a JSON or multipart operation (for what never changes in
   * an installation, such as the id of All Users, learned from the user records that pass by).
   * The listener must not throw, and must not change the answer.
   */
  onAnswer(listener: AnswerListener): void {
    this.#connection.listeners.push(listener);
  }

  /**
   * Whether the installation can have `operation`: one that only the product has is refused,
   * before anything is sent, when the vocabulary is `spec`.
   */
  supports(operation: OperationName): boolean {
    return OPERATIONS[operation].availability === "spec" || this.apiNames === "product";
  }

  private requireAvailable(operation: OperationName): void {
    if (!this.supports(operation)) throw new KasmUnsupportedOperationError(operation, undefined, this.settingNames);
  }

  /** The JSON envelope of a call: the parameters in the wire vocabulary, ids canonical, and the credentials. */
  private jsonBody(params: object): string {
    return JSON.stringify({ ...toWire(withCanonicalIds(params), this.apiNames), api_key: this.apiKey, api_key_secret: this.#secret });
  }

  private async callOnce<S extends z.ZodType>(operation: OperationName, params: object, schema: S, options: CallOptions): Promise<Checked<z.infer<S>>> {
    const request = requestFacts(params);
    const answer = await this.send(operation, {
      body: this.jsonBody(params),
      headers: { "content-type": "application/json", accept: "application/json" },
      // Kasm fails on an id it cannot read every time: a 5xx then is not worth another attempt.
      serverErrorsFinal: request.malformed.length > 0,
    });
    return this.tell(operation, this.interpret(operation, answer, schema, request, options.context));
  }

  /**
   * Tell the listeners of a checked answer, in the other vocabulary too: it was understood, and
   * what a listener learns (the id of All Users) does not depend on the names it came in.
   */
  private tell<T>(operation: OperationName, checked: Checked<T>): Checked<T> {
    for (const listener of this.#connection.listeners) listener(operation, checked.answer);
    return checked;
  }

  /**
   * What this transport's caller goes on with: the answer, unless it showed the other vocabulary.
   * Then a write fails, and so does a read, except through a lenient view (a refresh), which notes
   * the mismatch and goes on with what it read.
   */
  private accepted<T>(operation: OperationName, checked: Checked<T>): T {
    const { answer, mismatch } = checked;
    if (mismatch === undefined) return answer;
    if (OPERATIONS[operation].access !== "read" || this.lenientReads === undefined) throw mismatch;
    noteMismatch(this.lenientReads, mismatch.message);
    return answer;
  }

  /** Call a JSON-envelope operation that answers with binary content (a screenshot), returned as is. */
  async callBinary(operation: OperationName, params: object, options: CallOptions = {}): Promise<Buffer> {
    this.requireAvailable(operation);
    this.requireAllowed(operation);
    const answer = await this.send(operation, {
      body: this.jsonBody(params),
      headers: { "content-type": "application/json" },
    });
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    throw this.errorFor(operation, answer, requestFacts(params), options.context);
  }

  /**
   * Call a multipart batch operation: the credentials in the `api-key` and `api-key-secret`
   * headers, the CSV as the file of form field `file_content`, and `query` in the query string.
   */
  async callMultipart<S extends z.ZodType>(
    operation: OperationName,
    upload: CsvUpload,
    query: Record<string, string>,
    schema: S,
    options: CallOptions = {},
  ): Promise<z.infer<S>> {
    this.requireAvailable(operation);
    this.requireAllowed(operation);
    // Loaded here: undici is loaded with the connection's pool, at the first request (see pool.ts).
    const { FormData, Response } = require("undici") as typeof import("undici");
    const form = new FormData();
    form.append("file_content", new Blob([upload.csv], { type: "text/csv" }), upload.filename ?? "import.csv");
    // Let undici's own multipart encoder write the body, into a buffer that a retry can resend.
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const answer = await this.send(operation, {
      body,
      query,
      headers: {
        "content-type": encoded.headers.get("content-type") ?? "multipart/form-data",
        accept: "application/json",
        "api-key": this.apiKey,
        "api-key-secret": this.#secret,
      },
    });
    return this.accepted(
      operation,
      this.tell(operation, this.interpret(operation, answer, schema, { secrets: [], malformed: [], target: "" }, options.context)),
    );
  }

  /** One GET of `{baseUrl}/api/__healthcheck`, without retries: healthy when it answers `{ok: true}`. */
  async probeHealth(timeoutMs: number): Promise<HealthProbe> {
    try {
      const res = await this.#connection.pool.request({
        path: `${this.#pathPrefix}/api/__healthcheck`,
        method: "GET",
        headers: { accept: "application/json" },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await res.body.text();
      let ok = false;
      try {
        ok = (JSON.parse(text) as { ok?: unknown }).ok === true;
      } catch {
        // Not JSON: reported below with the start of the body.
      }
      if (res.statusCode === 200 && ok) return { healthy: true, detail: "ok" };
      return { healthy: false, detail: `HTTP ${res.statusCode}: ${scrubText(text.slice(0, 200), [this.#secret])}` };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { healthy: false, detail: `${code ?? "error"}: ${scrubText((error as Error).message ?? "", [this.#secret])}` };
    }
  }

  /** Report something through the configured logger, with secrets removed. */
  log(level: "debug" | "info" | "warn", message: string, fields?: Record<string, unknown>): void {
    const write = this.#logger?.[level];
    if (!write) return;
    write.call(this.#logger, scrubText(message, [this.#secret]), fields === undefined ? undefined : redact(fields, [this.#secret]));
  }

  /** Close the connection pool. Requests in flight finish first. */
  async close(): Promise<void> {
    await this.#connection.close();
  }

  /** What `JSON.stringify` shows: where the transport points, never the secret. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, apiKey: this.apiKey };
  }

  /** Send one request through the retrying dispatcher and read the whole answer. */
  private async send(operation: OperationName, request: OutgoingRequest): Promise<RawAnswer> {
    // The `waitForHealthySeconds` setting: once per base URL among the clients sharing the gates, before the first request.
    await this.healthGates.wait({ transport: this }, this.#waitForHealthySeconds);
    const spec = OPERATIONS[operation];
    const mode = repeatMode(operation);
    // Before and after: a read that overlaps a write in any way sees the generation change.
    if (spec.access !== "read") return this.#connection.reads.whileWriting(() => this.sendOnce(operation, spec, mode, request));
    return this.sendOnce(operation, spec, mode, request);
  }

  private async sendOnce(operation: OperationName, spec: (typeof OPERATIONS)[OperationName], mode: RepeatMode, request: OutgoingRequest): Promise<RawAnswer> {
    let retries = 0;
    const retryOptions: RetryHandler.RetryOptions = {
      retry: this.policy.undiciRetry(
        operation,
        mode,
        (event) => {
          retries += 1;
          this.log("debug", `${operation}: attempt ${event.attempt} failed (${event.reason}); retrying in ${event.delayMs} ms`, { ...event });
        },
        request.serverErrorsFinal,
      ),
    };
    // The retry interceptor merges per-request `retryOptions` into its own; undici's types do not list the field.
    const options: Dispatcher.RequestOptions & { retryOptions: RetryHandler.RetryOptions } = {
      // The operation's name is the path's last segment; the product names a few of them otherwise.
      path: this.#pathPrefix + spec.path.replace(/[^/]+$/, wireOperationName(operation, this.apiNames)),
      method: spec.method,
      query: request.query,
      headers: request.headers,
      body: request.body,
      retryOptions,
    };
    try {
      const res = await this.#connection.retrying.request(options);
      // Always read the whole body, so that the connection goes back to the pool.
      const body = Buffer.from(await res.body.arrayBuffer());
      return { status: res.statusCode, headers: res.headers, body, attempts: retries + 1 };
    } catch (error) {
      throw this.transportError(operation, mode, error, retries + 1);
    }
  }

  /**
   * A 2xx answer validated against `schema`, with the vocabulary mismatch it showed (left to each
   * caller, see `accepted`), or the error for any other status.
   */
  private interpret<S extends z.ZodType>(
    operation: OperationName,
    answer: RawAnswer,
    schema: S,
    request: RequestFacts,
    context: OperationContext | undefined,
  ): Checked<z.infer<S>> {
    if (answer.status < 200 || answer.status >= 300) throw this.errorFor(operation, answer, request, context);
    let json: unknown = {};
    const text = answer.body.toString("utf8");
    // unassign_user_server answers 204 without content; every other operation answers JSON.
    if (text.trim() !== "") {
      try {
        json = JSON.parse(text);
      } catch {
        throw new KasmResponseShapeError({
          operation,
          status: answer.status,
          attempts: answer.attempts,
          issues: [{ path: "", message: "the body is not JSON" }],
        });
      }
    }
    // 1.15 answers many refusals with 200 and an error_message: never a success.
    if (isObject(json) && typeof json.error_message === "string" && json.error_message.trim() !== "") {
      throw this.errorFor(operation, answer, request, context);
    }
    const reading = fromWire(json, this.apiNames);
    const parsed = schema.safeParse(reading.answer);
    if (parsed.success) {
      const mismatched = reading.spoke !== undefined && reading.spoke !== this.apiNames;
      return { answer: parsed.data, mismatch: mismatched ? this.vocabularyError(operation, reading.foreignNames, parsed.data) : undefined };
    }
    throw new KasmResponseShapeError({
      operation,
      status: answer.status,
      attempts: answer.attempts,
      issues: parsed.error.issues.map((issue): ShapeIssue => ({ path: formatPath(issue.path), message: issue.message })),
    });
  }

  /** The error for an answer in the other vocabulary than the configured one (see `accepted` for who fails with it). */
  private vocabularyError(operation: OperationName, foreignNames: readonly string[], answer: unknown): KasmVocabularyError {
    const write = OPERATIONS[operation].access !== "read";
    return new KasmVocabularyError({ operation, configured: this.apiNames, foreignNames, answer, write, settings: this.settingNames });
  }

  /**
   * The error for an answer that failed (non-2xx, or 2xx with an error_message), with the server's
   * message scrubbed of every secret of the request. A body that is not JSON (a web server's error
   * page: Kasm 1.15 answers an exception it does not handle so, with HTTP 500) is described by its
   * words. A 5xx to a request that sent an id that is no Kasm id is that id's fault: a
   * {@link KasmMalformedIdError} naming it.
   */
  private errorFor(operation: OperationName, answer: RawAnswer, request: RequestFacts, context: OperationContext | undefined): KasmApiError {
    const secrets = [this.#secret, ...request.secrets];
    let errorMessage: string | undefined;
    let validationErrors: string[] | undefined;
    let pageText: string | undefined;
    const text = answer.body.toString("utf8");
    try {
      const json = JSON.parse(text) as { error_message?: unknown; csv_validation_data?: unknown };
      if (typeof json.error_message === "string") errorMessage = scrubText(json.error_message, secrets);
      const report = CsvValidationData.safeParse(json.csv_validation_data);
      if (report.success) validationErrors = csvProblems(report.data).map((p) => scrubText(p, secrets));
    } catch {
      // Not JSON (a web server's or a proxy's error page): described by its words.
      const words = pageWords(text);
      if (words !== undefined) pageText = scrubText(words, secrets);
    }
    const malformed = request.malformed[0];
    if (answer.status >= 500 && malformed !== undefined) {
      return new KasmMalformedIdError({
        operation,
        status: answer.status,
        errorMessage,
        pageText,
        attempts: answer.attempts,
        settings: this.settingNames,
        installation: this.baseUrl,
        field: malformed.path,
        value: scrubText(malformed.value, secrets),
        object: objectOfIdField(malformed.field),
      });
    }
    const wireName = wireOperationName(operation, this.apiNames);
    // A 404 for an operation that the other vocabulary names otherwise (get_ws_status, get_kasm_status) or lacks: the installation speaks that one.
    if (
      answer.status === 404 &&
      (OPERATIONS[operation].availability === "product" || wireOperationName(operation, "product") !== wireOperationName(operation, "spec"))
    )
      return new KasmMissingOperationError({
        operation,
        status: 404,
        errorMessage,
        attempts: answer.attempts,
        wireName,
        configured: this.apiNames,
        settings: this.settingNames,
      });
    if (answer.status === 404)
      return new KasmUnknownPathError({ operation, status: 404, errorMessage, attempts: answer.attempts, wireName, settings: this.settingNames });
    const retryAfterMs = parseRetryAfter(answer.headers["retry-after"]);
    return errorForStatus(
      {
        operation,
        status: answer.status,
        errorMessage,
        pageText,
        target: request.target ? scrubText(request.target, secrets) : undefined,
        validationErrors,
        attempts: answer.attempts,
        retryAfterMs,
        context,
        settings: this.settingNames,
        installation: this.baseUrl,
      },
      notRepeatedNote(repeatMode(operation), { status: answer.status }),
    );
  }

  /** The error for a request that got no answer. */
  private transportError(operation: OperationName, mode: RepeatMode, error: unknown, attempts: number): KasmApiError {
    if (error instanceof KasmApiError) return error;
    const code = typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : undefined;
    const details = { operation, attempts, code, cause: error, settings: this.settingNames };
    if (code !== undefined && TLS_TRUST_CODES.has(code)) {
      return new KasmTransportError(
        details,
        `: the server's TLS certificate is not trusted; pass its CA certificate with ${this.settingNames.provider === undefined ? `the caCert option (${envVar(this.settingNames, "caCert")}) or the configuration \`${configKey(this.settingNames, "caCert")}\`` : howToSet(this.settingNames, "caCert")}`,
      );
    }
    // Which address was tried and where it is set: with several installations, the reader must
    // know which connection's setting to fix.
    const note = `${notRepeatedNote(mode, { code })}. The address is ${this.baseUrl}, set by ${howToSet(this.settingNames, "baseUrl")}`;
    if (code !== undefined && TIMEOUT_ERROR_CODES.includes(code)) return new KasmTimeoutError(details, note);
    return new KasmTransportError(details, note);
  }
}

/** A request as the transport sends it. */
interface OutgoingRequest {
  readonly body: string | Buffer;
  readonly headers: Record<string, string>;
  readonly query?: Record<string, string>;
  /** Whether a 5xx answer is final: not retried (see {@link RetryPolicy.undiciRetry}). */
  readonly serverErrorsFinal?: boolean;
}

/** What the error of a request's answer needs from the request: its secrets, its ids that are no ids, what it names. */
interface RequestFacts {
  readonly secrets: readonly string[];
  readonly malformed: readonly MalformedId[];
  readonly target: string;
}

function requestFacts(params: object): RequestFacts {
  return { secrets: collectSecretValues(params), malformed: malformedIds(params), target: requestTarget(params) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A shared read's outcome for one more caller: its own copy of the answer, which it may change without the others seeing it. */
function copyOfAnswer<T>(checked: Checked<T>): Checked<T> {
  return { answer: structuredClone(checked.answer), mismatch: checked.mismatch };
}

/** A JSON.stringify replacer that writes every Kasm id in one form, so that both forms share a read. */
function canonicalIds(_key: string, value: unknown): unknown {
  return typeof value === "string" ? canonicalId(value) : value;
}

/**
 * Anything that carries a transport: a {@link KasmClient}. The operation functions take one as
 * their first argument, so that they can be called as `createUser(client, ...)` or, bound, as
 * `client.users.createUser(...)`.
 */
export interface KasmApi {
  /** The transport the operations send their requests through. */
  readonly transport: KasmTransport;
}

// --- request ids ------------------------------------------------------------------------------------

/*
 * Outgoing ids in the canonical form: the id fields of every request go through the same zod id
 * schema as the answers (`Id`, schemas/common.ts), so that Kasm receives an id in one
 * spelling (32 lowercase hex digits) whatever spelling the program wrote.
 *
 * Which fields hold ids is read from the record and request schemas themselves: a field is an id
 * field when its schema is `Id` (optional, nullable, or a list of them). The transport applies
 * {@link withCanonicalIds} to the parameters of every JSON call, so no operation and no resource
 * converts ids on its own.
 */

/** The definition every zod schema carries (zod's own introspection surface). */
interface SchemaDefinition {
  readonly type: string;
  readonly shape?: Record<string, unknown>;
  readonly innerType?: unknown;
  readonly in?: unknown;
  readonly out?: unknown;
  readonly element?: unknown;
  readonly options?: readonly unknown[];
  readonly left?: unknown;
  readonly right?: unknown;
}

function definitionOf(schema: unknown): SchemaDefinition | undefined {
  return (schema as { _zod?: { def?: SchemaDefinition } } | null)?._zod?.def;
}

/** The schemas directly inside a schema (the fields of an object excepted). */
function innerSchemas(def: SchemaDefinition): unknown[] {
  return [def.innerType, def.in, def.out, def.element, def.left, def.right, ...(def.options ?? [])].filter((s) => s !== undefined);
}

/** Whether a field's schema is the id schema: `Id`, possibly optional, nullable or a list of ids. */
function isIdSchema(schema: unknown): boolean {
  if (schema === Id) return true;
  const def = definitionOf(schema);
  if (!def) return false;
  if (["optional", "nullable", "default", "readonly", "array"].includes(def.type)) return isIdSchema(def.innerType ?? def.element);
  // nullable() of the common schemas is a preprocess step (a pipe) in front of a nullable schema.
  if (def.type === "pipe") return isIdSchema(def.out);
  return false;
}

/**
 * The names of the fields whose schema is `Id`, in any object schema reachable from `schemas`
 * (nested objects, lists, unions, wrappers).
 */
export function idFieldNames(schemas: Iterable<unknown>): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (schema: unknown): void => {
    const def = definitionOf(schema);
    if (!def || seen.has(schema)) return;
    seen.add(schema);
    if (def.type === "object" && def.shape) {
      for (const [name, field] of Object.entries(def.shape)) {
        if (isIdSchema(field)) names.add(name);
        visit(field);
      }
    }
    innerSchemas(def).forEach(visit);
  };
  for (const schema of schemas) visit(schema);
  return names;
}

/** The schema modules of the client: every record and request it knows. */
const SCHEMA_MODULES: readonly Record<string, unknown>[] = [
  batch,
  casting,
  egress,
  groups,
  images,
  licenses,
  login,
  recordings,
  servers,
  sessions,
  staging,
  users,
  zones,
];

/** Every field name that holds an id in the API's records and requests (`user_id`, `selected_gateways`, `default_image`, ...). */
export const ID_FIELD_NAMES: ReadonlySet<string> = idFieldNames(SCHEMA_MODULES.flatMap((module) => Object.values(module)));

/** An id through the id schema: the canonical form, or the value as written when it is no id in any spelling (Kasm reports it). */
function canonical(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const parsed = (Id as z.ZodType<string>).safeParse(value);
  return parsed.success ? parsed.data : value;
}

/**
 * A copy of a request's parameters with the value of every id field (at any depth) in the
 * canonical form; other values are kept as they are.
 *
 * @example withCanonicalIds({ target_user: { user_id: "6E1A5C0C-1F4B-4F6A-9F52-35E1C0A2B3D4" } })
 * // { target_user: { user_id: "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4" } }
 */
export function withCanonicalIds<T>(params: T): T {
  return rewrite(params, false) as T;
}

function rewrite(value: unknown, isIdField: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, isIdField));
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, rewrite(field, ID_FIELD_NAMES.has(name))]));
  return isIdField ? canonical(value) : value;
}

/** An id field of a request whose value is no Kasm id in any spelling. */
export interface MalformedId {
  /** Where in the request, such as `target_group.group_id`. */
  readonly path: string;
  /** The field's name, such as `group_id`. */
  readonly field: string;
  /** The value as the caller gave it. */
  readonly value: string;
}

/**
 * The id fields of a request whose value is text that is no Kasm id in any spelling (an empty text
 * is left out: some operations take `""` for none). Kasm 1.15 hands such a value to its database,
 * which cannot read it as a UUID and fails the call with a server error.
 */
export function malformedIds(params: unknown): MalformedId[] {
  const found: MalformedId[] = [];
  visitIds(params, "", (path, field, value) => {
    if (typeof value === "string" && value.trim() !== "" && !(Id as z.ZodType<string>).safeParse(value).success) found.push({ path, field, value });
  });
  return found;
}

/**
 * What a request names, for a message: each id it sends, as `group e0e0...0003` (the field's name
 * without `_id`), the first three. Empty when it sends no id.
 */
export function requestTarget(params: unknown): string {
  const named: string[] = [];
  visitIds(params, "", (_path, field, value) => {
    if (typeof value === "string" && value !== "") named.push(`${objectOfIdField(field)} ${value.length > 80 ? `${value.slice(0, 80)}...` : value}`);
  });
  return named.slice(0, 3).join(", ");
}

/** The object an id field names, in words: `group_id` a group, `cast_config_id` a cast config. */
export function objectOfIdField(field: string): string {
  return field
    .replace(/_ids?$/, "")
    .replace(/^target_/, "")
    .replace(/_/g, " ");
}

/** Call `visit` with each id field's path, name and value (list items one by one), at any depth. */
function visitIds(value: unknown, path: string, visit: (path: string, field: string, value: unknown) => void): void {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) visitIds(item, `${path}[${i}]`, visit);
    return;
  }
  if (!value || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return;
  for (const [name, field] of Object.entries(value)) {
    const where = path === "" ? name : `${path}.${name}`;
    if (!ID_FIELD_NAMES.has(name)) visitIds(field, where, visit);
    else if (Array.isArray(field)) for (const [i, item] of field.entries()) visit(`${where}[${i}]`, name, item);
    else visit(where, name, field);
  }
}
