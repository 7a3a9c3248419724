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
 * | `license`        | {@link KasmLicenseLimitError} | HTTP 403 `License limit exceeded`: the license's seats are used up |
 * | `bad_request`    | {@link KasmBadRequestError} | HTTP 400 (and other 4xx)                                     |
 * | `not_found`      | {@link KasmNotFoundError}   | HTTP 400 (or 200) whose message says the object is unknown   |
 * | `not_found`      | {@link KasmMalformedIdError} | HTTP 5xx to a request that sent an id that is no Kasm id (Kasm's database cannot read it); not retried |
 * | `rate_limited`   | {@link KasmRateLimitError}  | HTTP 429 after the retries ran out                           |
 * | `server`         | {@link KasmServerError}     | HTTP 5xx after the retries ran out                           |
 * | `transport`      | {@link KasmTransportError}  | the connection failed (refused, reset, TLS)                  |
 * | `timeout`        | {@link KasmTimeoutError}    | connecting or waiting for the answer took too long           |
 * | `response_shape` | {@link KasmResponseShapeError} | the answer does not have the documented shape            |
 * | `unhealthy`      | {@link KasmHealthCheckError} | {@link waitForHealthy} ran out of time                     |
 * | `vocabulary`     | {@link KasmVocabularyError} | the answer shows the installation speaks the other vocabulary than `apiNames` |
 * | `vocabulary`     | {@link KasmMissingOperationError} | HTTP 404 for an operation the other vocabulary names otherwise or lacks |
 * | `unknown_path`   | {@link KasmUnknownPathError} | HTTP 404 for any other operation: a wrong address, or a release without it |
 * | `unsupported`    | {@link KasmUnsupportedOperationError} | a product operation, called with `apiNames` `spec` (nothing is sent) |
 *
 * Kasm's texts, not only its status codes, decide the class: a 403 `License limit exceeded. ...`
 * is about the license, not a permission, and `Invalid user name or password.` is about the
 * credentials whatever its code. Releases before 1.19.0 swapped the codes and used other texts
 * (1.15: 403 `Access Denied` for wrong credentials, 401 `Unauthorized` for a missing permission);
 * both releases' texts are classified right. See {@link errorForStatus}.
 *
 * Secrets: no error holds a request body, a credential or a secret value. Server messages are
 * scrubbed of the secret values of the request before they are stored, and `cause` is a plain
 * copy of the underlying error's name, code and (scrubbed) message, never the original object.
 *
 * | file | what it holds |
 * |---|---|
 * | `base.ts` | {@link KasmApiError}, its details, the configuration error, the cause's sanitising |
 * | `answers.ts` | the errors of Kasm's answers: credentials, permission, license, refused request and its meanings, rate limit, server, shape |
 * | `connection.ts` | the errors of the connection: transport, timeout, health check |
 * | `vocabulary.ts` | the errors of the two wire vocabularies |
 * | `messages.ts` | Kasm's texts and what each means, for 1.19 and 1.15 |
 * | `advice.ts` | what a message tells its reader to do: permissions to grant, seats, settings |
 * | `classify.ts` | {@link errorForStatus}: from a status and a text to the error |
 */
// Every export of the files of the meanings; of base.ts and messages.ts only the public ones (the
// others, such as the message patterns, are the folder's own).
export {
  isKasmApiError,
  KasmApiError,
  KasmConfigurationError,
  type KasmErrorDetails,
  type KasmErrorKind,
} from "./base";
export * from "./answers";
export * from "./connection";
export * from "./vocabulary";
export { isNotFoundMessage, type LicenseLimited } from "./messages";
export * from "./classify";
