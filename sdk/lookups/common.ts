/**
 * What every lookup shares: the program's client, the presentation of records (camelCase, secrets
 * left out or made secret Outputs), the lookup's error, and the `...Output` twins.
 */
import * as pulumi from "@pulumi/pulumi";
// The client itself (and undici with it) loads on the first lookup: a program that runs none does
// not spend the time (about 0.2 s of CPU) on it.
import type { KasmClient } from "../../provider/api/client";
import type { ConnectionRegistry } from "../../provider/connections";
import { camelized, toSnakeCase, type Camelized } from "../../provider/api/records";
import { isSecretFieldName } from "../../provider/api/redact";
import { connectionName, type Connection } from "../connection";

export type { Camelized };

/** The client the lookups read through (for the record types of its operations). */
export type Api = KasmClient;

// --- secrets -------------------------------------------------------------------------------------

/**
 * A record as the plain lookups return it: the secret fields `S` are left out (typed `never`, so
 * that a program reading one finds out when it compiles rather than by getting `undefined`).
 */
export type WithoutSecrets<T, S> = Omit<T, keyof S> & { readonly [K in keyof S]?: never };

/**
 * A record as the `...Output` twins return it: each secret field of `S` is a secret Output. Read
 * it as `result.connectionPassword` or `result.apply((r) => r.connectionPassword)`: both give a
 * secret `Output<string>`.
 */
export type WithSecretOutputs<T, S> = Omit<T, keyof S> & { readonly [K in keyof S]-?: pulumi.Output<S[K]> };

/** Which fields of a record type `T` are the secrets `S`: the names, checked against `S` by the compiler. */
export interface RecordSecrets<T, S> {
  readonly fields: readonly string[];
  /** Carries the types only. */
  readonly types?: { record: T; secrets: S };
}

/** A {@link RecordSecrets}: `fields` must name every field of `S`, and nothing else. */
export function recordSecrets<T, S>(fields: { readonly [K in keyof S]-?: true }): RecordSecrets<T, S> {
  return { fields: Object.keys(fields) };
}

/** A copy without the fields named like a secret, at any depth (see the lookups' module TSDoc). */
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

/** The record, from the API's form, with each secret field as a secret Output. */
export function withSecretOutputs<T, S>(record: object, secrets: RecordSecrets<T, S>): WithSecretOutputs<T, S> {
  const values = record as Record<string, unknown>;
  const wrapped = secrets.fields.map((field) => [field, pulumi.secret(camelized(values[toSnakeCase(field)]))]);
  return { ...withoutSecrets(record, secrets), ...Object.fromEntries(wrapped) } as WithSecretOutputs<T, S>;
}

// --- the program's client ------------------------------------------------------------------------

/**
 * The options every lookup takes after its arguments, as Pulumi's invokes take `InvokeOptions`.
 */
export interface LookupOptions {
  /**
   * The installation to read: a {@link Connection} or its name (its settings are `kasm-<name>:` or
   * `KASM_<NAME>_*`). Default: the one `kasm:` configures.
   */
  readonly connection?: Connection | string;
}

/** The program's connections, over its stack configuration; created by the first lookup. */
let connections: ConnectionRegistry | undefined;

/**
 * The program's connections (provider/connections.ts, the registry the provider's host uses too):
 * each connection's settings and client, read from the program's stack configuration, then the
 * environment. Created on first use, with the client code.
 */
export async function programConnections(): Promise<ConnectionRegistry> {
  if (connections === undefined) {
    const { ConnectionRegistry } = await import("../../provider/connections");
    // runtime.getConfig reads secrets too, without the warning Config.get gives for them; the value
    // only goes to the client, never into an output.
    connections ??= new ConnectionRegistry((key) => pulumi.runtime.getConfig(key));
    // The program exits when Pulumi is done with it; an open keep-alive pool must not hold it up.
    process.once("beforeExit", () => void connections?.close());
  }
  return connections;
}

/**
 * The client of this program for a lookup's `connection` (default: the one `kasm:` configures): the
 * stack configuration, then the environment; for a named connection, its own `kasm-<name>:` keys
 * and `KASM_<NAME>_*` variables only. One client per connection while its settings stay the same.
 */
export async function programClient(options?: LookupOptions): Promise<KasmClient> {
  return (await programConnections()).client(connectionName(options?.connection));
}

// --- errors and Output twins ---------------------------------------------------------------------

/**
 * What a lookup fails with: its name, then the message of what failed (the client's error, such as
 * `get_zones: the server refused the call (HTTP 403 ...)`, or `Kasm has no zone "x"`), which stays
 * reachable as `cause` (a `KasmApiError` from `pulumi-kasm/api`, whose `kind` and `status` say what
 * went wrong, with its stack).
 *
 * It has no stack of its own, and it is a `pulumi.RunError`, so that Pulumi's runtime reports the
 * message alone, at once. The runtime formats an uncaught error that has a stack (a RunError too,
 * for its tracing) with `util.inspect(err, { colors: true })`, and on Node 20 and 22 that call
 * loops over the stack frames that ts-node maps to `node_modules/@pulumi/<file>.ts` (any error
 * raised inside an `apply` has them, and so does its `cause`) for one to three minutes, growing
 * the program to about 4 GB, before it gives up and prints the error plainly. The README's "When
 * a program fails" has the figures.
 */
export class KasmLookupError extends pulumi.RunError {
  override readonly name = "KasmLookupError";

  constructor(
    /** The lookup that failed, such as `getZone`. */
    readonly lookup: string,
    cause: unknown,
  ) {
    super(`${lookup}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    // Without a stack the runtime prints the message and never calls util.inspect (see above).
    this.stack = undefined;
  }
}

/**
 * `fetch`, handed the client of the lookup's connection and its options (for a lookup that calls
 * another, `getZone` reading through `getZones`, on the same connection), failing with a
 * {@link KasmLookupError} named after the lookup. One raised by a lookup it calls is renamed, so
 * that the message names what the program called.
 */
export function named<A, R>(
  lookup: string,
  fetch: (args: A, client: KasmClient, options: LookupOptions) => Promise<R>,
): (args: A, options?: LookupOptions) => Promise<R> {
  return async (args, options = {}) => {
    try {
      return await fetch(args, await programClient(options), options);
    } catch (error) {
      throw new KasmLookupError(lookup, error instanceof KasmLookupError ? error.cause : error);
    }
  };
}

/** Find the only element matching, or fail naming what was looked for. */
export function single<T>(found: T[], what: string): T {
  if (found.length === 1) return found[0];
  throw new Error(found.length === 0 ? `Kasm has no ${what}` : `Kasm has ${found.length} matches for ${what}; be more specific`);
}

/** The arguments of a lookup with every field a `pulumi.Input`. */
export type InputArgs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** An Output twin: fetch the API's records for the resolved arguments, then present them. */
export function outputOf<A, R, P>(
  fetch: (args: A, options?: LookupOptions) => Promise<R>,
  present: (records: R) => P,
): (args: InputArgs<A>, options?: LookupOptions) => pulumi.Output<P> {
  return (args, options) => pulumi.output(args).apply(async (a) => present(await fetch(a as A, options))) as pulumi.Output<P>;
}

/** The fields of a filter that are set, or undefined when none is (no filter at all). */
export function definedOnly(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? Object.fromEntries(entries) : undefined;
}
