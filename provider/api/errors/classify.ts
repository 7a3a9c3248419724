/**
 * From an answer's status and text to its error: {@link errorForStatus}, read once here so that
 * no caller reads Kasm's texts (callers test `instanceof`). Apart from the classes because it is
 * the one decision that needs them all, and the texts of `messages.ts` with them.
 */
import type { OperationContext } from "../../../permissions/operations";
import {
  KasmAlreadyExistsError,
  KasmAlreadyMemberError,
  KasmAuthenticationError,
  KasmBadRequestError,
  KasmForceRequiredError,
  KasmLicenseLimitError,
  KasmNotAssignedError,
  KasmNotFoundError,
  KasmNotMemberError,
  KasmPermissionError,
  KasmRateLimitError,
  KasmServerError,
  KasmUnknownCastConfigError,
  KasmUnknownUserError,
} from "./answers";
import type { KasmApiError, KasmErrorDetails } from "./base";
import {
  ACCESS_DENIED_MESSAGE,
  BAD_CREDENTIALS_MESSAGE,
  EXPIRED_KEY_MESSAGE,
  isNotFoundMessage,
  LICENSE_LIMIT_MESSAGE,
  NOT_AUTHORIZED_CHANGE_MESSAGE,
  NOT_AUTHORIZED_FOR_TARGET_MESSAGE,
  UNAUTHORIZED_ACTION_MESSAGE,
  UNAUTHORIZED_FOR_TARGET_MESSAGE,
  UNAUTHORIZED_MESSAGE,
  UNLICENSED_FEATURE_MESSAGE,
} from "./messages";

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
  // "has already been installed": 1.15 create_registry for a registry of that URL.
  [/\balready exists\b|\bmust be unique\b|\balready assigned\b|\bhas already been installed\b/i, KasmAlreadyExistsError],
];

/** The not-found error, naming what is missing when the text says (the user, the casting config). */
function notFoundError(details: KasmErrorDetails): KasmNotFoundError {
  const text = details.errorMessage ?? "";
  if (/\bUser ID\b|\bunknown user\b|^no user found\b|^missing or invalid user$/i.test(text)) return new KasmUnknownUserError(details);
  if (/\bcast config\b/i.test(text)) return new KasmUnknownCastConfigError(details);
  return new KasmNotFoundError(details);
}

/**
 * The error for a non-2xx answer. `errorMessage` must already be scrubbed of secrets.
 * `note` is appended to server and transport errors (for example "the request may have been applied").
 *
 * For 401 and 403 Kasm's text decides first: `License limit exceeded...` is a
 * {@link KasmLicenseLimitError} and `Invalid user name or password.` a {@link KasmAuthenticationError},
 * whichever of the two codes carries them. The texts of a missing permission are a permission
 * error with either code: `Unauthorized.`, and the words 1.15 answers with HTTP 401 when it checks
 * a permission on the object an operation changes (`Unauthorized Action.`, `User not authorized
 * to ...`, `API Key (<name>) unauthorized for ...`). Otherwise a 401 is an authentication error
 * and a 403 (a text the spec does not list) a permission error. 1.15's HTTP 200 `User (None) is not
 * authorized to make these changes to the image.` is a permission error too.
 *
 * A 5xx is a {@link KasmServerError}; the transport makes one a {@link KasmMalformedIdError}
 * first when the request sent an id that is no Kasm id (Kasm's database fails on it).
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
    const permissionWords = [
      UNAUTHORIZED_MESSAGE,
      UNAUTHORIZED_ACTION_MESSAGE,
      NOT_AUTHORIZED_FOR_TARGET_MESSAGE,
      UNAUTHORIZED_FOR_TARGET_MESSAGE,
      NOT_AUTHORIZED_CHANGE_MESSAGE,
    ];
    if (permissionWords.some((words) => words.test(text))) return new KasmPermissionError(details);
    return status === 401 ? new KasmAuthenticationError(details) : new KasmPermissionError(details);
  }
  // 1.15 words some permissions it checks inside an operation itself, with HTTP 200 (update_image).
  if (status < 300 && NOT_AUTHORIZED_CHANGE_MESSAGE.test((details.errorMessage ?? "").trim())) return new KasmPermissionError(details);
  // A 200 with an error_message (1.15 answers many refusals so) is read like a 400. Kasm answers an
  // unknown object so, never with 404: the transport reads a 404 as a path nothing answers.
  if ((status === 400 || status < 300) && isNotFoundMessage(details.operation, details.errorMessage)) return notFoundError(details);
  if (status === 429) return new KasmRateLimitError(details);
  if (status >= 500) return new KasmServerError(details, note);
  const meaning = REFUSAL_MEANINGS.find(([text]) => text.test((details.errorMessage ?? "").trim()));
  return meaning ? new meaning[1](details) : new KasmBadRequestError(details);
}
