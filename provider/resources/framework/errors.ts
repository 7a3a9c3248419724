/**
 * The errors the kinds throw themselves, one class per meaning: the provider's own verdicts, as
 * opposed to Kasm's answers, which are the client's errors (`../../api/errors/`) and pass through
 * a kind unchanged.
 *
 * Every one is a {@link KasmResourceError}: catch that class to handle them all, then tell them
 * apart by subclass.
 *
 * | class | when |
 * |---|---|
 * | {@link KasmNotAdoptedError} | an object with the resource's natural key exists in Kasm and was not taken over |
 * | {@link KasmObjectMissingError} | an object the resource manages or names does not exist in Kasm |
 * | {@link KasmDeclarationRefusedError} | Kasm refused the declared values, and nothing was written |
 * | {@link KasmUnsupportedInputError} | the inputs ask for something Kasm cannot do, with these settings or at all |
 * | {@link KasmReadPermissionError} | Kasm left out a part of a record that the API key may not view |
 * | {@link KasmDeleteBlockedError} | Kasm keeps an object that others depend on, unless the delete forces it |
 * | {@link KasmOutcomeUnknownError} | a write may or may not have been applied, and Kasm cannot say which |
 * | {@link KasmValueNotTakenError} | Kasm answered a write, but reading the object back does not show a declared value |
 * | {@link KasmUnfinishedError} | a run made part of its writes and failed the others |
 * | {@link KasmInitializationError} | the same, with the object kept in the state as failed to initialise |
 * | {@link KasmUndeclaredCallError} | a step of a kind's provider called an operation its kind's calls declaration does not list for it; nothing was sent |
 *
 * Why classes and not texts: a caller that drives a provider in its own process (a test, an
 * automation) can tell the meanings apart without matching words. Across Pulumi's
 * dynamic-provider host only the message travels, so the messages are the texts users read,
 * unchanged by the class; the class never adds to them.
 *
 * Secrets: a message names objects by their natural keys and ids and quotes Kasm's messages, which
 * the client has scrubbed already; it never holds a declared value of a secret input. `cause`
 * keeps only errors made inside this provider (the client's, or these), which hold no secret by
 * construction (see `../../api/errors/base.ts`).
 */
import type { PermissionName } from "../../../permissions/names";
import { answeringServer, KasmApiError } from "../../api/errors/base";
import type { KindContext } from "./types";

/** The cause worth keeping: an error of the client or of this file, which holds no secret; otherwise none. */
function safeCause(cause: unknown): { cause: Error } | undefined {
  return cause instanceof KasmApiError || cause instanceof KasmResourceError ? { cause } : undefined;
}

/**
 * The base class of every error a kind throws of its own (not Kasm's answers, which are
 * {@link KasmApiError}s). The message says what happened and what to do; `cause`, when set, is
 * the client's error for Kasm's answer behind it (an instance of the `api/errors` class of its
 * meaning, such as `KasmAlreadyExistsError` or `KasmNotFoundError`).
 */
export class KasmResourceError extends Error {
  /** The class's own name (`KasmNotAdoptedError`, ...), set here once for every subclass, as in the client's errors. */
  override readonly name: string = this.constructor.name;

  /**
   * @param message What happened and what to do, as users read it.
   * @param cause Kasm's answer behind it; kept only when it is an error of the client or of this
   *   file (see {@link safeCause}), so that nothing unscrubbed rides along.
   */
  constructor(message: string, cause?: unknown) {
    super(message, safeCause(cause));
  }
}

/**
 * An object with the resource's natural key (a name, a username, a membership) exists in Kasm, and
 * the resource did not take it over: `adopt` is not set; or it is, and the take-over cannot bring
 * the object to the declared state (the API cannot change it, cannot find its id, another object
 * holds the name) or `takeOverChanges` is `refuse`. Nothing was written.
 *
 * The user sets `adopt: true`, makes the program match Kasm, declares another key, or removes the
 * object in Kasm, as the message says for the case.
 */
export class KasmNotAdoptedError extends KasmResourceError {}

/**
 * An object the resource manages or names does not exist in Kasm: the user of a link, the server
 * to drain, a group named by a row, or the resource's own object deleted outside Pulumi where Kasm
 * cannot read it back (so no refresh could have noticed).
 *
 * The user creates the object, corrects the id or name, or replaces the resource, as the message
 * says.
 */
export class KasmObjectMissingError extends KasmResourceError {}

/**
 * The {@link KasmObjectMissingError} of a resource whose `userId` names a user the installation does
 * not have: it names the resource, the installation and the way out. A user deleted in Kasm and
 * created again (by its `User` resource, after a refresh dropped it) has a new id, which a program
 * that writes the id as text does not follow.
 *
 * @param about What else the message says of the user's absence (`; the attributes record exists only with its user`).
 */
export function missingUserError(context: KindContext, kind: string, userId: string, about = "", cause?: unknown): KasmObjectMissingError {
  const where = answeringServer({ installation: context.existingClient()?.baseUrl, settings: context.settingNames });
  return new KasmObjectMissingError(
    `${context.label(kind, userId)}: ${where} has no user with id ${userId}${about}. A user deleted in Kasm and created again has a new id: ` +
      "give userId from the User resource (its userId output) rather than as text, so that this resource follows it; or remove this resource.",
    cause,
  );
}

/**
 * Kasm refused the declared values and wrote nothing: an import whose validation report lists
 * problems. `problems` holds each one, with the place in the program it is about (`users[4]
 * ('carol').groups[0]: ...`), as the message lists them.
 *
 * The user fixes each problem in the program and runs again.
 */
export class KasmDeclarationRefusedError extends KasmResourceError {
  /** Each problem, in the program's terms. */
  readonly problems: readonly string[];

  constructor(message: string, problems: readonly string[], cause?: unknown) {
    super(message, cause);
    this.problems = problems;
  }
}

/**
 * The inputs ask for something Kasm cannot do: with every setting (All Users listed among a user's
 * groups, which Kasm manages itself), or with the configured ones (a group's id that the API
 * documentation's vocabulary cannot look up). Nothing was written.
 *
 * The user changes the inputs, or the setting the message names.
 */
export class KasmUnsupportedInputError extends KasmResourceError {}

/**
 * Kasm's answer left out a part of a record (a user's groups, a user's servers) because the API
 * key may not view it, so the declared state cannot be compared with Kasm's. Unlike the client's
 * `KasmPermissionError`, no call was refused: the answer was silent. Nothing was written.
 *
 * The user grants the API key the permissions in `toGrant` (what the message names).
 */
export class KasmReadPermissionError extends KasmResourceError {
  constructor(
    message: string,
    /** The permissions to grant the API key, with what they depend on. */
    readonly toGrant: readonly PermissionName[],
  ) {
    super(message);
  }
}

/**
 * Kasm refused to delete an object that others still depend on (a user with running sessions, a
 * group with members) because the delete did not force it; `cause` is the client's
 * `KasmForceRequiredError`. The object is left in Kasm and in the state.
 *
 * The user sets `forceDelete: true` on the resource, or removes the dependants first.
 */
export class KasmDeleteBlockedError extends KasmResourceError {}

/**
 * A write may or may not have been applied, and Kasm cannot say which: its answer was lost, or it
 * lacks objects it should name, and the API cannot list or read them back. Repeating the write
 * blindly could make a second object that the API cannot delete, so the provider does not.
 *
 * `knownIds` holds the new objects the answer did name (key -> id), which the state keeps; it is
 * empty when none is known.
 *
 * The user looks in the Kasm admin UI, as the message says, before running again.
 */
export class KasmOutcomeUnknownError extends KasmResourceError {
  /** The objects the answer named, by key (a server's name) -> id. */
  readonly knownIds: ReadonlyMap<string, string>;

  constructor(message: string, knownIds: ReadonlyMap<string, string> = new Map(), cause?: unknown) {
    super(message, cause);
    this.knownIds = knownIds;
  }
}

/**
 * Kasm answered a write, but the object read back does not show a declared value: the
 * installation did not take it (it speaks the other wire vocabulary, or this release ignores or
 * refuses the value without saying so). `fields` names the inputs. Never reported as applied.
 *
 * The user checks `kasm:apiNames` and the values, as the message says, and runs `pulumi up` again.
 */
export class KasmValueNotTakenError extends KasmResourceError {
  constructor(
    message: string,
    /** The inputs whose declared value Kasm does not show. */
    readonly fields: readonly string[],
  ) {
    super(message);
  }
}

/**
 * A run made part of its writes and failed the others (a bulk kind's users, some deleted and some
 * left). The message counts what was done and lists each failure.
 *
 * The user fixes what the failures say and runs again: it does only what is left.
 */
export class KasmUnfinishedError extends KasmResourceError {}

/**
 * An object created or changed only in part, kept in the state rather than forgotten: Pulumi's
 * dynamic-provider host reads `id`, `properties` and `reasons` off the error (an "initialization
 * failure"), records the object with those properties, and reports the resource as failed to
 * initialise. Examples: a create whose answer showed the other wire vocabulary (the object exists
 * without the settings named the other way), a membership set applied in part, an import whose
 * answer named only some of the new servers.
 *
 * The user fixes what the message says and runs `pulumi up` again, which finishes the work.
 */
export class KasmInitializationError extends KasmUnfinishedError {
  /** The id of the object, which the state keeps. */
  readonly id: string;
  /**
   * The properties the state records for it. Not read-only: the registry's wrapper adds the
   * connection and the serialized provider to them before the host sees them (framework/connections.ts).
   */
  properties: object;
  /** Why it failed: the message, as the one reason the host reports. */
  readonly reasons: readonly string[];

  /**
   * @param id The object's id.
   * @param properties Its state as far as the work went.
   * @param cause What stopped the work: its message becomes this error's message and reason.
   */
  constructor(id: string, properties: object, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(reason, cause);
    this.id = id;
    this.properties = properties;
    this.reasons = [reason];
  }
}

/**
 * A lifecycle step of a kind's provider called an operation that the kind's calls declaration
 * (`provider/resources/<kind>.calls.ts`), for these properties, does not list for that step, and
 * none of the allowances of `UNLISTED_CALLS` (`connections.ts`) covers. Refused before anything was sent: the
 * permission policies judge an API key by the declaration, so a call it leaves out would need a
 * permission no policy asked for.
 *
 * A fault of the provider, not of the program: the kind's author lists the call in the
 * declaration (with its circumstances), or stops making it.
 */
export class KasmUndeclaredCallError extends KasmResourceError {
  constructor(
    /** The kind whose step made the call. */
    readonly kind: string,
    /** The lifecycle step: create, read, update or delete. */
    readonly step: string,
    /** The operation refused. */
    readonly operation: string,
  ) {
    super(
      `${kind} ${step} called ${operation}, which the ${kind} kind's \`calls\` declaration does not list for its ${step} step: ` +
        "the provider refused it before sending anything. This is a fault of the provider: the permission policies judge " +
        "API keys by the declaration, so the call must be listed there (with its circumstances) or not be made.",
    );
  }
}
