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

/** 403: creating one more user would exceed the named-user licence seats. */
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

/** 404: no such route (the path is not an operation of the API). */
export class NoSuchOperation extends EmulatorError {
  constructor(path: string) {
    super(404, `Unknown API path (${path})`);
  }
}
