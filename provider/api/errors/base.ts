/**
 * The root of the client's errors: {@link KasmApiError}, the fields every error may carry, the
 * configuration error (raised before any request), and what keeps secrets out of them (a cause is
 * copied, never kept; a server's message is quoted as given, already scrubbed). Apart from the
 * classes of each meaning because every one of them builds on this, and so that the one place
 * that touches an underlying error (`sanitiseCause`) is easy to find.
 */
import { scrubText } from "../records";
import type { SettingNames } from "../config";

/** What went wrong, in one word; see the table in `index.ts`. */
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
  | "unknown_path"
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
  /** The address of the installation that answered, so that the reader of a fleet's failure knows which one. */
  readonly installation?: string;
  /** What the request named, for a message: `group e0e0...0003, image 1b00...0001` (its ids). */
  readonly target?: string;
  /**
   * The words of an answer whose body is not JSON (a web server's error page): its text without
   * markup, scrubbed of secrets, cut short. Undefined when the body is JSON or empty.
   */
  readonly pageText?: string;
}

/**
 * Which installation answered, for a message: `` the server at https://kasm.example.com (provider
 * `staging`) ``, `the server at ... (connection "prod")`, or `the server` when the address is not known.
 */
export function answeringServer(details: Pick<KasmErrorDetails, "installation" | "settings">): string {
  if (details.installation === undefined) return "the server";
  const whose =
    details.settings?.provider !== undefined
      ? ` (provider \`${details.settings.provider}\`)`
      : details.settings?.connection !== undefined
        ? ` (connection "${details.settings.connection}")`
        : "";
  return `the server at ${details.installation}${whose}`;
}

/** A server's message as a message quotes it, or `with no message`. */
export function quote(message: string | undefined): string {
  return message === undefined || message === "" ? "with no message" : JSON.stringify(message);
}

/**
 * What an answer said, for a message: its `error_message` quoted, else the words of a body that is
 * not JSON (`with a body that is not JSON: "An unhandled exception occurred ..."`), else `with no message`.
 */
export function answerWords(details: Pick<KasmErrorDetails, "errorMessage" | "pageText">): string {
  if (details.errorMessage === undefined && details.pageText !== undefined) return `with a body that is not JSON: ${JSON.stringify(details.pageText)}`;
  return quote(details.errorMessage);
}

/** The operation and what the request named: `add_images_group (group e0e0..., image 1b00...)`. */
export function operationAndTarget(details: Pick<KasmErrorDetails, "operation" | "target">): string {
  return details.target ? `${details.operation} (${details.target})` : `${details.operation}`;
}

/** A short description of an underlying error: its code and scrubbed message. */
export function describeCause(cause: unknown): string {
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

/** The base class of every error of the Kasm API client. */
export class KasmApiError extends Error {
  /**
   * The class's own name (`KasmApiError`, `KasmUnknownUserError`, ...), set here once for every
   * subclass. (A bundler that renames classes would rename this too; the package ships unbundled.)
   */
  override readonly name: string = this.constructor.name;
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
  /** The settings that are missing, each with the option and environment variable that set it. */
  readonly missing: readonly string[];
  constructor(message: string, missing: readonly string[] = []) {
    super("configuration", message);
    this.missing = missing;
  }
}

/** Type guard: is `error` one of this client's errors? */
export function isKasmApiError(error: unknown): error is KasmApiError {
  return error instanceof KasmApiError;
}
