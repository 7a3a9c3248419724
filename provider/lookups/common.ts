/**
 * What every lookup shares, wherever it runs (the program's `sdk/lookups/`, the native provider's
 * Invoke): the presentation of the API's records (camelCase; each record type's secret fields
 * apart; any other field named like a secret left out), "find the only one", the wording of a
 * lookup's failure, and the description of a lookup that the table in `index.ts` holds.
 *
 * Nothing here knows of Pulumi's runtime: the program wraps the secret fields as secret Outputs,
 * the native provider as secret values of its answer.
 */
import type { z } from "zod";
import type { KasmClient } from "../api/client";
import { camelized, isSecretFieldName, toSnakeCase, type Camelized } from "../api/records";

export type { Camelized };

/** The client the lookups read through (for the record types of its operations). */
export type Api = KasmClient;

// --- secrets -------------------------------------------------------------------------------------

/**
 * A record as the plain lookups return it: the secret fields `S` are left out (typed `never`, so
 * that a program reading one finds out when it compiles rather than by getting `undefined`).
 */
export type WithoutSecrets<T, S> = Omit<T, keyof S> & { readonly [K in keyof S]?: never };

/** How a package schema types a secret field: text, or any value. */
export type SecretFieldType = "string" | "any";

/** The schema type of a secret field whose value is `V`: text for a string, else any value. */
type SecretTypeOf<V> = NonNullable<V> extends string ? "string" : "any";

/** A secret field of a record, as a package schema describes it. */
export interface SecretField {
  /** The schema type of its value (used where the record's zod schema does not declare the field). */
  readonly type: SecretFieldType;
  /** What the field is, for the package schema (a function's output, a Python or Go docstring). */
  readonly description: string;
}

/** Which fields of a record type `T` are the secrets `S`: the names, checked against `S` by the compiler. */
export interface RecordSecrets<T, S> {
  /** The secret fields, by their camelCase names. */
  readonly fields: readonly string[];
  /** The schema type and description of each, by name. */
  readonly specs: Readonly<Record<string, SecretField>>;
  /** Carries the types only. */
  readonly carries?: { record: T; secrets: S };
}

/**
 * A {@link RecordSecrets}: `specs` must name every field of `S`, and nothing else, each with the
 * schema type its value has (`"string"` for text, `"any"` for anything else) and its description.
 */
export function recordSecrets<T, S>(
  specs: { readonly [K in keyof S]-?: { readonly type: SecretTypeOf<S[K]>; readonly description: string } },
): RecordSecrets<T, S> {
  return { fields: Object.keys(specs), specs: specs as Readonly<Record<string, SecretField>> };
}

/** The secrets of a record type that has none. */
export const NO_SECRETS: RecordSecrets<unknown, object> = { fields: [], specs: {} };

/** A copy without the fields named like a secret, at any depth (see the lookups' module TSDoc in sdk/lookups). */
function withoutSecretNamed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretNamed);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !isSecretFieldName(k))
        .map(([k, v]) => [k, withoutSecretNamed(v)]),
    );
  return value;
}

/** A record with no secret fields of its own, from the API's form: only the fields named like a secret are left out. */
export function scrubbed<R>(record: R): Camelized<R> {
  return camelized(withoutSecretNamed(record) as R);
}

/** The record, from the API's form, without its secret fields. */
export function withoutSecrets<T, S>(record: object, secrets: RecordSecrets<T, S>): WithoutSecrets<T, S> {
  const left = secrets.fields.map(toSnakeCase);
  return scrubbed(Object.fromEntries(Object.entries(record).filter(([k]) => !left.includes(k)))) as WithoutSecrets<T, S>;
}

/**
 * The secret fields of a record, from the API's form, by their camelCase names: each value
 * camelCased as a whole (nothing inside it is left out: the whole value is the secret), undefined
 * for a field the record lacks.
 */
export function secretValues<T, S>(record: object, secrets: RecordSecrets<T, S>): Record<string, unknown> {
  const values = record as Record<string, unknown>;
  return Object.fromEntries(secrets.fields.map((field) => [field, camelized(values[toSnakeCase(field)])]));
}

// --- finding -------------------------------------------------------------------------------------

/** Find the only element matching, or fail naming what was looked for. */
export function single<T>(found: T[], what: string): T {
  if (found.length === 1) return found[0];
  throw new Error(found.length === 0 ? `Kasm has no ${what}` : `Kasm has ${found.length} matches for ${what}; be more specific`);
}

/**
 * `read` (a read of one object by its key), with Kasm's "no such object" (the client's
 * `KasmNotFoundError`, such as get_user's bare "Invalid Request") said as `Kasm has no <what>`,
 * like a lookup that filters a list; the client's error stays reachable as the cause.
 */
export async function noneFound<R>(read: Promise<R>, what: string): Promise<R> {
  try {
    return await read;
  } catch (error) {
    // Loaded here, not with the module: a program's `import "pulumi-kasm"` does not load the client's
    // errors (and the permission tables their advice reads) until a lookup fails.
    const { KasmNotFoundError } = await import("../api/errors");
    if (error instanceof KasmNotFoundError) throw new Error(`Kasm has no ${what}`, { cause: error });
    throw error;
  }
}

/** The fields of a filter that are set, or undefined when none is (no filter at all). */
export function definedOnly(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/**
 * What a lookup that failed says: its name, then the message of what failed (the client's error,
 * such as `get_zones: the server refused the call (HTTP 403 ...)`, or `Kasm has no zone "x"`).
 * The program's `KasmLookupError` and the native provider's Invoke both say it so.
 */
export function lookupFailure(lookup: string, cause: unknown): string {
  return `${lookup}: ${cause instanceof Error ? cause.message : String(cause)}`;
}

// --- descriptions --------------------------------------------------------------------------------

/** Every argument of `A` (a union's members' too), each optional: what an arguments' schema checks before its own rules. */
export type ArgShape<A> = { [K in KeysOf<A> & string]?: ValueOf<A, K> };
type KeysOf<A> = A extends unknown ? keyof A : never;
type ValueOf<A, K extends PropertyKey> = A extends unknown ? (K extends keyof A ? A[K] : never) : never;

/** The record type a lookup answers: its API schema, its name in a package schema, its secret fields. */
export interface RecordSpec<R> {
  /** The zod schema of the API's record (snake_case): a package schema's output types come from it. */
  readonly schema: z.ZodType<R>;
  /** The record's name, such as `Zone` (a list lookup's element type is named after it). */
  readonly name: string;
  /** Its secret fields (present in every answer, secret). */
  readonly secrets: RecordSecrets<unknown, unknown>;
}

/** What every lookup's description holds. */
interface LookupBase<A, R> {
  /** What it finds, for a package schema. */
  readonly description: string;
  /**
   * Its arguments by their camelCase names, strict (a misspelt argument is refused), with the
   * rules between them (`exactlyOneOf`): what the native provider checks the engine's arguments
   * with, and where a package schema's inputs come from.
   */
  readonly args: z.ZodType<NoInfer<ArgShape<A>>>;
  /** The record type it answers. */
  readonly record: RecordSpec<R>;
}

/** A lookup that answers one record (or fails naming what it looked for). */
export interface OneRecordLookup<A, R> extends LookupBase<A, R> {
  readonly list?: undefined;
  /** Find the record, in the API's form. */
  fetch(client: KasmClient, args: A): Promise<R>;
}

/** A lookup that answers a list of records (as a package schema's function: the object `{ <list>: [...] }`). */
export interface RecordListLookup<A, R> extends LookupBase<A, R> {
  /** The name of the one property of its answer as an object, such as `zones`. */
  readonly list: string;
  /** Read the records, in the API's form. */
  fetch(client: KasmClient, args: A): Promise<R[]>;
}

/** A lookup's description (see `LOOKUPS` in index.ts); `any` by default, as the table holds every argument and record type. */
export type Lookup<A = any, R = any> = OneRecordLookup<A, R> | RecordListLookup<A, R>;

/** A lookup of one record, its types inferred from `fetch`. */
export function oneRecord<A, R>(lookup: OneRecordLookup<A, R>): OneRecordLookup<A, R> {
  return lookup;
}

/** A lookup of a list of records, its types inferred from `fetch`. */
export function recordList<A, R>(lookup: RecordListLookup<A, R>): RecordListLookup<A, R> {
  return lookup;
}
