/**
 * The errors of Kasm's answers: refused credentials, a missing permission, a license limit, a
 * refused request and its meanings a caller acts on (an unknown object, a membership or
 * assignment that exists or does not, a duplicate, a delete that needs `force`), rate limiting,
 * a failing server, and an answer of the wrong shape. Apart from the connection and vocabulary
 * errors because each of these is what Kasm answered; `classify.ts` decides which one an answer is.
 */
import type { OperationContext } from "../../../permissions/operations";
import type { PermissionName } from "../../../permissions/names";
import { credentialSettings, licenseAdvice, permissionAdvice } from "./advice";
import { answeringServer, answerWords, KasmApiError, operationAndTarget, quote, type KasmErrorDetails, type KasmErrorKind } from "./base";
import { EXPIRED_KEY_MESSAGE, licenseLimited, type LicenseLimited } from "./messages";

/** One way in which a response differs from its schema. */
export interface ShapeIssue {
  /** Where in the response body, such as `user.user_id`. */
  readonly path: string;
  /** What is wrong there (never the value itself). */
  readonly message: string;
}

/** HTTP 401 (1.15: 403 `Access Denied`): the API key or secret is wrong, expired or deleted. */
export class KasmAuthenticationError extends KasmApiError {
  /** Whether Kasm said the key has expired (1.15: `Access has expired`). */
  readonly expired: boolean;
  constructor(details: KasmErrorDetails) {
    const expired = EXPIRED_KEY_MESSAGE.test((details.errorMessage ?? "").trim());
    super(
      "authentication",
      `${details.operation}: ${answeringServer(details)} refused the API credentials (HTTP ${details.status ?? 401} ${quote(details.errorMessage)}). ` +
        (expired
          ? "The API key has expired: give it a later expiration date (Settings, Developers) or create a new key, and configure it."
          : `Check the API key and secret (${credentialSettings(details.settings)}), and that the key has not expired or been deleted.`),
      details,
    );
    this.expired = expired;
  }
}

/**
 * HTTP 403: the API key lacks a permission the operation needs, or it is Read Only and the
 * operation writes. The message names what to grant, from the shared permission catalogue.
 */
export class KasmPermissionError extends KasmApiError {
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
    super(
      "permission",
      `${details.operation}: ${answeringServer(details)} refused the call (HTTP ${details.status ?? 403} ${quote(details.errorMessage)}). ${advice.text}`,
      details,
    );
    this.requiredPermissions = advice.all;
    this.requiredOneOf = advice.oneOf;
    this.toGrant = advice.toGrant;
    this.mayAlsoNeed = advice.mayAlsoNeed;
  }
}

/**
 * HTTP 403 `License limit exceeded. Unable to create user` (or `... session`): the deployment's
 * license has no seat left for what the call creates. It is not about the API key's permissions,
 * so the message gives no permission advice; it says which seats are used up and how to get more.
 */
export class KasmLicenseLimitError extends KasmApiError {
  /** What could not be created, when Kasm's message says (undefined otherwise). */
  declare readonly limited?: LicenseLimited;

  constructor(details: KasmErrorDetails & { readonly operation: string }) {
    const limited = licenseLimited(details.errorMessage);
    super(
      "license",
      `${details.operation}: ${answeringServer(details)} refused the call: ${limited === "feature" ? "the license does not include this feature" : "a license limit is reached"} (HTTP ${details.status ?? 403} ${quote(details.errorMessage)}). ${licenseAdvice(limited)}`,
      details,
    );
    if (limited !== undefined) this.limited = limited;
  }
}

/** HTTP 400 (or another 4xx): the server refused the request's content. */
export class KasmBadRequestError extends KasmApiError {
  /** For a refused batch import: each problem of the CSV validation report, such as `row 2: CSV_ERROR_009 ...`. */
  declare readonly validationErrors?: readonly string[];
  /** `message`: a subclass's own words (default: the refusal, with Kasm's message and the CSV problems). */
  constructor(details: KasmErrorDetails, kind: KasmErrorKind = "bad_request", message?: string) {
    const problems = details.validationErrors ?? [];
    const listed = problems.length === 0 ? "" : `: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? `; and ${problems.length - 5} more` : ""}`;
    super(
      kind,
      message ?? `${operationAndTarget(details)}: the server refused the request (HTTP ${details.status} ${quote(details.errorMessage)})${listed}`,
      details,
    );
    if (details.validationErrors !== undefined) this.validationErrors = details.validationErrors;
  }
}

/**
 * The object the request names does not exist: HTTP 400 (or a 200 with `error_message`) with a
 * message such as `Unknown user (...)` or `Staging config with id (...) does not exist`. Kasm has
 * no 404 for an unknown object: a 404 is a {@link KasmUnknownPathError}.
 */
export class KasmNotFoundError extends KasmBadRequestError {
  constructor(details: KasmErrorDetails, message?: string) {
    super(details, "not_found", message);
  }
}

/**
 * An id the request sends is no Kasm id in any spelling (as a program, a state or an import gave
 * it), and the server failed on it with a server error: Kasm 1.15 hands such a value to its
 * database, which cannot read it as a UUID, and answers HTTP 500 with its web server's page. No
 * object has such an id, so this is a {@link KasmNotFoundError} (a read finds nothing, a delete has
 * nothing to do), whichever vocabulary the installation speaks. It is not repeated: the answer
 * would be the same. The message names the field, the value and what to give instead.
 */
export class KasmMalformedIdError extends KasmNotFoundError {
  /** Where in the request, such as `target_group.group_id`. */
  readonly field: string;
  /** The value sent. */
  readonly value: string;
  constructor(details: KasmErrorDetails & { readonly field: string; readonly value: string; readonly object: string }) {
    const value = details.value.length > 80 ? `${details.value.slice(0, 80)}...` : details.value;
    super(
      details,
      `${details.operation}: ${details.field} ${JSON.stringify(value)} is not a Kasm id (32 hexadecimal digits, or a hyphenated UUID), so no ${details.object} has it. ` +
        `${answeringServer(details)} failed on it (HTTP ${details.status} ${answerWords(details)}), as Kasm does with an id its database cannot read; ` +
        `the request was not repeated, since it would fail the same way. Give the ${details.object}'s id as Kasm shows it.`,
    );
    this.field = details.field;
    this.value = details.value;
  }
}

/**
 * The user the request names does not exist (`Unknown user (...)`, `Invalid User ID`): told apart
 * from the other object of a two-object call (the group of `add_user_group`, the server of
 * `assign_user_server`), which a caller treats otherwise.
 */
export class KasmUnknownUserError extends KasmNotFoundError {}

/** The casting config the request names does not exist (rather than its image or group). */
export class KasmUnknownCastConfigError extends KasmNotFoundError {}

/** `User (<u>) is already a member of group (<g>)`: the membership a call adds exists. */
export class KasmAlreadyMemberError extends KasmBadRequestError {}

/** `User (<u>) is not a member of group (<g>)`: the membership a call removes does not exist. */
export class KasmNotMemberError extends KasmBadRequestError {}

/** `User (<u>) is not assigned to server (<s>)`: the assignment a call removes does not exist. */
export class KasmNotAssignedError extends KasmBadRequestError {}

/** An object with the same natural key (a name, a key, a zone and image) exists already. */
export class KasmAlreadyExistsError extends KasmBadRequestError {}

/**
 * Kasm refuses to delete an object that others still depend on unless the call sets `force`: a
 * user with running sessions (`... kasms and 'force' option not set`), a group with members.
 */
export class KasmForceRequiredError extends KasmBadRequestError {}

/** HTTP 429 after every retry was used up. */
export class KasmRateLimitError extends KasmApiError {
  constructor(details: KasmErrorDetails) {
    super("rate_limited", `${details.operation}: the server is rate limiting (HTTP 429) and still was after ${details.attempts} attempt(s)`, details);
  }
}

/** HTTP 5xx after every retry was used up (or at once, for an operation that must not be repeated). */
export class KasmServerError extends KasmApiError {
  constructor(details: KasmErrorDetails, note = "") {
    super(
      "server",
      `${operationAndTarget(details)}: the server failed (HTTP ${details.status} ${answerWords(details)}) after ${details.attempts} attempt(s)${note}`,
      details,
    );
  }
}

/** The response does not have the shape the client relies on. */
export class KasmResponseShapeError extends KasmApiError {
  /** Every offending place in the response. */
  readonly issues: readonly ShapeIssue[];
  constructor(details: KasmErrorDetails & { readonly issues: readonly ShapeIssue[] }) {
    const listed = details.issues.map((i) => `${i.path || "(body)"}: ${i.message}`).join("; ");
    super("response_shape", `${details.operation}: unexpected response from the server: ${listed}`, details);
    this.issues = details.issues;
  }
}
