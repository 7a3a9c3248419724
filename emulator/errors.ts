/**
 * The errors the emulator answers with: one class per error on the wire.
 *
 * Every failure is a JSON body carrying `error_message`, as the spec's Errors section says.
 * Handlers and the store throw these; the server turns them into responses and never lets any
 * other exception through as anything but a 500 (which the tests treat as a bug).
 */

/** Base class: an HTTP status, an `error_message`, and any extra body fields. */
export class EmulatorError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extraBody: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The JSON body sent to the client. */
  body(): Record<string, unknown> {
    return { error_message: this.message, ...this.extraBody };
  }
}

/** 401: missing or unknown key, wrong secret, or expired key (1.19.0 wording). */
export class InvalidCredentials extends EmulatorError {
  constructor() {
    super(401, "Invalid user name or password.");
  }
}

/** 403: the key lacks a permission the call needs, or is Read Only and the call writes. */
export class Unauthorized extends EmulatorError {
  constructor() {
    super(403, "Unauthorized.");
  }
}

/** The authentication and authorisation answers: the spec's (1.19, the default) or 1.15's. */
export type AuthAnswers = "1.19" | "1.15";

/** The values of {@link AuthAnswers}. */
export const AUTH_ANSWERS: readonly AuthAnswers[] = ["1.19", "1.15"];

/** 1.15: no key or no secret at all (400 `Invalid Request`). */
export class NoCredentials115 extends EmulatorError {
  constructor() {
    super(400, "Invalid Request");
  }
}

/** 1.15: an unknown key, or a wrong secret (403 `Access Denied`). */
export class AccessDenied115 extends EmulatorError {
  constructor() {
    super(403, "Access Denied");
  }
}

/** 1.15: the key has expired, whatever the secret (401 `Access has expired`). */
export class AccessExpired115 extends EmulatorError {
  constructor() {
    super(401, "Access has expired");
  }
}

/** 1.15: the key lacks a permission, or is Read Only and the call writes (401 `Unauthorized`, no full stop). */
export class Unauthorized115 extends EmulatorError {
  constructor() {
    super(401, "Unauthorized");
  }
}

/**
 * 1.15's refusal of a permission that an operation checks inside, on the object it changes, in
 * that operation's own words and status (update_group: 401 `User not authorized to modify the
 * target group.`; update_image: HTTP 200 `User (None) is not authorized to make these changes to
 * the image.`, the "user" being the session's, which an API key call does not have). Given only
 * with 1.15's answers; with 1.19's the emulator's permission refusal stands.
 */
export class PermissionRefused115 extends EmulatorError {}

/**
 * HTTP 200 with an `error_message`: how the product's admin-inherited operations (create_group,
 * update_group, delete_group, get_users_group) refuse a request, without changing the status.
 * Nothing is changed and nothing is persisted, as for any other error.
 */
export class RefusedWith200 extends EmulatorError {
  constructor(message: string) {
    super(200, message);
  }
}

/** 400: the request is malformed or refers to something that does not exist, or breaks a rule. */
export class InvalidRequest extends EmulatorError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 400: a required parameter is missing (the product's own wording). */
export class MissingParameters extends EmulatorError {
  constructor(separator: ":" | "." = ":") {
    super(400, `Invalid Request${separator} Missing required parameters`);
  }
}

/** 400: an object with the same natural key exists already. */
export class AlreadyExists extends EmulatorError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 400: an identifier names nothing. */
export class UnknownObject extends EmulatorError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 403: creating one more user would exceed the named-user license seats. */
export class LicenseLimitExceeded extends EmulatorError {
  constructor(what: "user" | "session") {
    super(403, `License limit exceeded. Unable to create ${what}`);
  }
}

/** 400: an uploaded CSV cannot be parsed at all. */
export class CsvFormatError extends EmulatorError {
  constructor(reason: string) {
    super(400, `Invalid file format: ${reason}`, { csv_validation_data: null, resources: null });
  }
}

/** 400: the CSV parses but rows or headers are invalid; nothing was created. */
export class CsvValidationFailed extends EmulatorError {
  constructor(csvValidationData: unknown) {
    super(400, "Failed to import CSV file data", { csv_validation_data: csvValidationData, resources: null });
  }
}

/** 400: the activation service refused an activation. */
export class ActivationRefused extends EmulatorError {
  constructor(reason: string) {
    super(400, `Error during activation: ${reason}`);
  }
}

/**
 * The body 1.15's API server answers for an exception it does not handle: its `server.py` sets
 * `request.error_response` to `generic_error_response`, which writes this page (sic: two opening
 * tags, no closing ones). Not JSON.
 */
export const UNHANDLED_EXCEPTION_PAGE = "<html><body>An unhandled exception occurred check logs for details<body><html>";

/**
 * The Content-Type of that page: CherryPy's `json_out` tool sets `application/json` before the
 * handler runs (`cherrypy/lib/jsontools.py`), and `generic_error_response` changes only the status
 * and the body, so the page goes out labelled as JSON.
 */
export const UNHANDLED_EXCEPTION_CONTENT_TYPE = "application/json";

/**
 * 500: a request the product fails on with an exception it does not handle, rather than refuses
 * (1.15's update_image reading a compute-related field that `target_image` leaves out, a value its
 * database cannot read as a UUID, a row its foreign keys refuse). In product mode the server answers
 * 1.15's page ({@link UNHANDLED_EXCEPTION_PAGE}, see `wireBody`); in spec mode the JSON body every
 * failure here has.
 */
export class UnhandledException extends EmulatorError {
  constructor() {
    super(500, "Internal Server Error");
  }
}

/** 404: no such route (the path is not an operation of the API). */
export class NoSuchOperation extends EmulatorError {
  constructor(path: string) {
    super(404, `Unknown API path (${path})`);
  }
}
