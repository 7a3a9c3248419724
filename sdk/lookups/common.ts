/**
 * What the program's lookups share: the program's client, the `...Output` twins (each secret field
 * of a record as a secret Output) and the lookup's error. The lookups themselves (finding and
 * shaping the records, each record type's secret fields) are provider/lookups/, which the native
 * provider's Invoke serves too.
 */
import * as pulumi from "@pulumi/pulumi";
// The client itself (and undici with it) loads on the first lookup: a program that runs none does
// not spend the time (about 0.2 s of CPU) on it.
import type { KasmClient } from "../../provider/api/client";
import type { ConnectionRegistry } from "../../provider/runtime";
import { lookupFailure, secretValues, withoutSecrets, type RecordSecrets } from "../../provider/lookups/common";
import { connectionName, type Connection } from "../connection";

export { scrubbed, withoutSecrets, type Api, type Camelized, type WithoutSecrets } from "../../provider/lookups/common";

// --- secrets -------------------------------------------------------------------------------------

/**
 * A record as the `...Output` twins return it: each secret field of `S` is a secret Output. Read
 * it as `result.connectionPassword` or `result.apply((r) => r.connectionPassword)`: both give a
 * secret `Output<string>`.
 */
export type WithSecretOutputs<T, S> = Omit<T, keyof S> & { readonly [K in keyof S]-?: pulumi.Output<S[K]> };

/** The record, from the API's form, with each secret field as a secret Output. */
export function withSecretOutputs<T, S>(record: object, secrets: RecordSecrets<T, S>): WithSecretOutputs<T, S> {
  const wrapped = Object.entries(secretValues(record, secrets)).map(([field, value]) => [field, pulumi.secret(value)]);
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
 * The program's connections (`ConnectionRegistry` of provider/runtime.ts, the registry the provider's host uses too):
 * each connection's settings and client, read from the program's stack configuration, then the
 * environment. Created on first use, with the client code.
 */
export async function programConnections(): Promise<ConnectionRegistry> {
  if (connections === undefined) {
    const { ConnectionRegistry } = await import("../../provider/runtime");
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
    super(lookupFailure(lookup, cause), { cause });
    // Without a stack the runtime prints the message and never calls util.inspect (see above).
    this.stack = undefined;
  }
}

/** Every lookup of provider/lookups, by name (the table the native provider's functions come from too). */
type Lookups = typeof import("../../provider/lookups")["LOOKUPS"];
/** The arguments a lookup's `fetch` takes after the client (`unknown` for one that takes none). */
type ArgsOf<N extends keyof Lookups> = Lookups[N]["fetch"] extends (client: KasmClient, args: infer A) => unknown ? A : never;
/** What a lookup's `fetch` finds. */
type FoundBy<N extends keyof Lookups> = Lookups[N]["fetch"] extends (...args: never[]) => Promise<infer R> ? R : never;

/**
 * The lookup of provider/lookups with this name, handed the client of the lookup's connection,
 * failing with a {@link KasmLookupError} named after it.
 *
 * provider/lookups loads on a program's first lookup, not with the SDK: with it come zod and the
 * API's record schemas (about 0.1 s of CPU), which a program that calls no lookup does not spend.
 */
export function named<N extends keyof Lookups>(lookup: N): (args: ArgsOf<N>, options?: LookupOptions) => Promise<FoundBy<N>> {
  return async (args, options = {}) => {
    try {
      const { LOOKUPS } = await import("../../provider/lookups");
      const fetch = LOOKUPS[lookup].fetch as (client: KasmClient, args: ArgsOf<N>) => Promise<FoundBy<N>>;
      return await fetch(await programClient(options), args);
    } catch (error) {
      throw new KasmLookupError(lookup, error);
    }
  };
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
