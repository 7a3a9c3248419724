/**
 * Objects that exist already, are gone, or were half created: `adopt` (taking over an object with
 * the same natural key), the errors a user can act on when one exists without it, and the errors
 * that keep a half-created object in the state.
 */
import type * as pulumi from "@pulumi/pulumi";
import { KasmAlreadyExistsError, KasmNotFoundError } from "../../api/errors/answers";
import { KasmApiError } from "../../api/errors/base";
import { KasmVocabularyError } from "../../api/errors/vocabulary";
import { KasmInitializationError, KasmNotAdoptedError } from "./errors";
import { refusedTakeOver, takeOverChanges } from "./take-over";
import type { KindContext } from "./types";

// --- errors ----------------------------------------------------------------------------------------

/** What `read` answers for an object that no longer exists: Pulumi drops it from the state. */
export const GONE: pulumi.dynamic.ReadResult = Object.freeze({ id: "", props: {} });

/** What `fetch` reads, or undefined when Kasm says the object does not exist. */
export async function unlessGone<T>(fetch: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fetch();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * What `call` answers; when Kasm says an object it names does not exist, the error `missing` builds
 * (Kasm's as its cause) instead, which names the object and the way out.
 */
export async function orMissing<T>(call: () => Promise<T>, missing: (cause: Error) => Error): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) throw missing(error);
    throw error;
  }
}

/** How {@link createOrAdopt} finds, updates and creates one kind's object. */
export interface Adoption<T> {
  /** The `adopt` input: take over an object with the same natural key. */
  readonly adopt: unknown;
  /** The kind and the natural key, for the error when the object exists and `adopt` is not set. */
  readonly kind: string;
  readonly key: string;
  /** Which other resources may declare the same object, for the error (see {@link alreadyExistsError}). */
  readonly declaredBy?: string;
  /** The object with the same natural key, if there is one. */
  find(): Promise<T | undefined>;
  /** The resource's id an object found would have, for the way out the error names (see {@link alreadyExistsError}). */
  idOf?(existing: T): string;
  /**
   * Look the key up before creating even without `adopt`, and refuse an existing object, named by
   * what this returns (`staging config <id>`). Every kind whose create the client recovers by its
   * natural key sets it (users, groups, staging configs, egress objects): after a server error the
   * client looks the key up to learn whether its create committed (see `createOnce`), and would take
   * an object that existed before for its own, so a program would manage, and its destroy delete,
   * an object made outside Pulumi without `adopt`. A released Kasm also fails a duplicate staging
   * config with a server error (a unique constraint its code does not check first), and no source
   * says how it answers a duplicate egress provider, gateway, mapping or credential. Costs one read
   * per create, with the View permission every Create permission needs anyway.
   */
  findFirst?(existing: T): string;
  /**
   * Whether the existing object is already in the declared state (see {@link isAsDeclared}): it is
   * then taken over as it is, and nothing is written. Without this hook, adopting always updates.
   */
  asDeclared?(existing: T): boolean;
  /** Bring the existing object to the declared state. */
  update(existing: T): Promise<T>;
  create(): Promise<T>;
}

/**
 * Create an object; with `adopt`, take over the existing one with the same natural key instead and
 * bring it to the declared state (no request when it is in that state already, see
 * {@link Adoption.asDeclared}; refused, with nothing written, when it is not and the
 * `takeOverChanges` setting is `refuse`: see framework/take-over.ts). Without `adopt`, an existing object
 * is an error that suggests it.
 */
export async function createOrAdopt<T>(how: Adoption<T>, context: KindContext): Promise<T> {
  const refused = (cause: unknown, existing: T | undefined) =>
    alreadyExistsError({
      kind: how.kind,
      key: how.key,
      cause,
      declaredBy: how.declaredBy,
      context,
      id: existing === undefined ? undefined : how.idOf?.(existing),
    });
  if (how.adopt === true || how.findFirst) {
    const existing = await how.find();
    if (existing !== undefined && how.adopt !== true) throw refused(how.findFirst?.(existing), existing);
    if (existing !== undefined) {
      if (how.asDeclared?.(existing)) return existing;
      // Refused in check already when it could read; here for a plan made without that read.
      if (takeOverChanges(context) === "refuse") throw new KasmNotAdoptedError(`${how.kind} ${how.key}: ${refusedTakeOver(context, how.kind, how.key, [])}`);
      return how.update(existing);
    }
  }
  try {
    return await how.create();
  } catch (error) {
    if (isAlreadyExists(error)) throw refused(error, how.idOf ? await how.find().catch(() => undefined) : undefined);
    throw error;
  }
}

/** Whether a Kasm error says the object does not exist. */
export function isNotFound(error: unknown): error is KasmNotFoundError {
  return error instanceof KasmNotFoundError;
}

/** Whether a Kasm error says an object with the same natural key exists already. */
export function isAlreadyExists(error: unknown): boolean {
  return error instanceof KasmAlreadyExistsError;
}

/** What {@link alreadyExistsError} says of an object that exists already. */
export interface AlreadyExists {
  /** The kind and the natural key: `User`, `'ada'`. */
  readonly kind: string;
  readonly key: string;
  /**
   * Kasm's refusal of the create, whose words the message quotes; or, when the object was found
   * before any create, the words that name it (`staging config <id>`).
   */
  readonly cause?: unknown;
  /**
   * For a kind whose object another resource may declare too (`another StagingConfig of this
   * zone and image`): the error then says to keep one of them first, since `adopt` would leave
   * both resources managing the object and undoing each other.
   */
  readonly declaredBy?: string;
  /**
   * The resource's context: the installation's address, so that the message names where the
   * object is (a program may manage several), and the `pulumi import` command where the CLI has one.
   */
  readonly context?: KindContext;
  /** The resource's id the object would have (its Kasm id), when known: the import command takes it. */
  readonly id?: string;
  /** False when `adopt` cannot take the object over here (a casting config where none can be read): no way out after an interrupted up is named. */
  readonly adoptable?: boolean;
}

/**
 * The error for an object that exists already when `adopt` is not set: where it is, how to take
 * it over (`adopt: true`), and what to do when an earlier `pulumi up` made it and was interrupted
 * before it could record it (Pulumi keeps such a create as pending, and shows it at the next up).
 * The CLI's `pulumi refresh --import-pending-creates <urn> <id>` is not named: with Pulumi 3.276
 * it drops the pending create without recording the resource (measured, test/cli/interrupted.test.ts);
 * `adopt: true`, or a native resource's `pulumi import`, records it, and `pulumi refresh
 * --clear-pending-creates` drops the pending create. Never a secret: the key and id only.
 */
export function alreadyExistsError(what: AlreadyExists): KasmNotAdoptedError {
  const { kind, key, cause, declaredBy, context, id, adoptable = true } = what;
  const installation = context?.client().baseUrl;
  const detail =
    (installation === undefined ? "" : ` at ${installation}`) +
    (typeof cause === "string" ? ` (${cause})` : cause instanceof KasmApiError && cause.errorMessage ? ` (Kasm: ${cause.errorMessage})` : "");
  const importCommand = context?.importCommand?.(id ?? "<its id>");
  const interrupted = !adoptable
    ? ""
    : ` If an earlier \`pulumi up\` was interrupted while creating it (the next \`up\` lists it as "interrupted while creating"), ` +
      (importCommand === undefined ? "\`adopt: true\` takes it over too" : `\`${importCommand}\` takes it into the state as it is (or set \`adopt: true\`)`) +
      `, and \`pulumi refresh --yes --clear-pending-creates\` drops the pending create that \`up\` left.`;
  if (declaredBy)
    return new KasmNotAdoptedError(
      `${kind} ${key} already exists in Kasm${detail}. If another resource declares it (${declaredBy}), keep only one of ` +
        `them: with both, each undoes the other's changes, and adopt would not stop that. If it was made outside Pulumi, set ` +
        `\`adopt: true\` on the resource to take it over and bring it to the declared state.${interrupted}`,
      typeof cause === "string" ? undefined : cause,
    );
  return new KasmNotAdoptedError(
    `${kind} ${key} already exists in Kasm${detail}. Set \`adopt: true\` on the resource to take it over and bring it ` +
      `to the declared state, or declare another ${kind.toLowerCase()}.${interrupted}`,
    typeof cause === "string" ? undefined : cause,
  );
}

/**
 * An error that keeps a half-created object in the state: Pulumi records `id` and `properties`
 * and reports the resource as failed to initialise, instead of forgetting an object that exists
 * (see {@link KasmInitializationError}). Its message is the cause's.
 */
export function initializationFailure(id: string, properties: object, cause: unknown): KasmInitializationError {
  return new KasmInitializationError(id, properties, cause);
}

/**
 * Run a create whose answer may show that the installation speaks the other wire vocabulary
 * (`kasm:apiNames`): the object then exists, but settings named the other way were not applied.
 * `created` finds the object in the answer; the error keeps it in the state as failed to
 * initialise (see {@link initializationFailure}), so nothing is left untracked, and the next
 * update, with the right setting, applies what was declared.
 */
export async function keepingWhatWasCreated<T>(
  create: () => Promise<T>,
  created: (answer: unknown) => { readonly id: string; readonly properties: object } | undefined,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    const kept = error instanceof KasmVocabularyError ? created(error.answer) : undefined;
    throw kept ? initializationFailure(kept.id, kept.properties, error) : error;
  }
}
