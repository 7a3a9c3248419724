/**
 * The dynamic provider object behind each SDK class.
 *
 * Pulumi serializes this object (with `pulumi.runtime.serializeFunction`) into the state as
 * `__provider`, and the dynamic-provider host deserializes it to call it. So it holds nothing: no
 * client, no secret, no schema. Each method loads the real implementation by package name in
 * the host (`require("pulumi-kasm/provider")`), where `configure` has put the credentials.
 */
import * as pulumi from "@pulumi/pulumi";
import type { KindName } from "../provider";
import { idOutputOf, kasmTypeToken, kindModuleName } from "../permissions/kinds";
import { ID_AFTER_IMPORT } from "../permissions/id-after-import";
import { connectionName, type ConnectionArgs } from "./connection";

/** The type token of a kind: `pulumi-nodejs:dynamic/kasm:<Kind>`, what policy packs match on. */
export function typeToken(kind: KindName): string {
  return kasmTypeToken(kind);
}

/**
 * The serializable provider of one kind. Create one per kind and reuse it: Pulumi caches its serialization.
 *
 * Pulumi's `customTimeouts` resource option has no effect on these resources: the engine sends its
 * value with Create, Update and Delete, but the dynamic-provider host calls `create(inputs)`,
 * `update(id, olds, news)` and `delete(id, props)` without it. Each API call is bounded instead by
 * the `kasm:connectTimeoutMs`, `kasm:requestTimeoutMs`, `kasm:maxRetries`, `kasm:retryBaseDelayMs`
 * and `kasm:retryMaxDelayMs` settings (README.md, "Timeouts").
 */
export function kindProvider(kind: KindName): pulumi.dynamic.ResourceProvider {
  // Only `kind` is captured; `require` runs in the host, resolving the installed package.
  return {
    configure: async (req) => require("pulumi-kasm/provider").configure(req),
    check: async (olds, news) => require("pulumi-kasm/provider").providers[kind].check(olds, news),
    diff: async (id, olds, news) => require("pulumi-kasm/provider").providers[kind].diff(id, olds, news),
    create: async (inputs) => require("pulumi-kasm/provider").providers[kind].create(inputs),
    read: async (id, props) => require("pulumi-kasm/provider").providers[kind].read(id, props),
    update: async (id, olds, news) => require("pulumi-kasm/provider").providers[kind].update(id, olds, news),
    delete: async (id, props) => require("pulumi-kasm/provider").providers[kind].delete(id, props),
  };
}

/** Whether `obj` is a resource of the given kind (by its type token; works across copies of this package). */
export function isKind(obj: unknown, kind: KindName): boolean {
  return typeof obj === "object" && obj !== null && (obj as { __pulumiType?: string }).__pulumiType === typeToken(kind);
}

/**
 * The outputs of a resource that mirror its arguments: argument `K` of type `pulumi.Input<T>`
 * becomes the output `K` of type `pulumi.Output<T>`, and an optional argument an output of
 * `T | undefined`. Mapping the arguments' own keys keeps their TSDoc on the outputs. A class merges
 * it in with an interface of its name, so it declares only its computed outputs:
 *
 * ```ts
 * export interface User extends InputOutputs<UserArgs> {}
 * ```
 */
export type InputOutputs<Args> = {
  // The connection is kept by name: the output is the name, never the object.
  readonly [K in keyof Args]-?: K extends "connection" ? pulumi.Output<string | undefined> : pulumi.Output<pulumi.Unwrap<Args[K]>>;
};

/**
 * The outputs the provider computes for a kind: each key of the kind's `Outputs` type
 * (`provider/resources/<kind>.ts`) as a `pulumi.Output` of the same type. Mapping the Outputs'
 * own keys keeps their TSDoc, so an output is documented once, in the provider, and a program sees
 * that doc on the class. A class merges it in beside {@link InputOutputs}:
 *
 * ```ts
 * export interface User extends InputOutputs<UserArgs>, ComputedOutputs<UserOutputs> {}
 * ```
 */
export type ComputedOutputs<Outputs> = {
  readonly [K in keyof Outputs]-?: pulumi.Output<Outputs[K]>;
};

/**
 * The one provider of a kind: the whole exports of its module `sdk/kinds/dynamic/<kind>`
 * (`pulumi-kasm/dynamic/<kind>`), loaded once. Pulumi caches a provider's serialization by
 * object, and writes a module's exports from node_modules into the state as a `require` of the
 * module instead of the source of its methods. Where the package is not under node_modules (a
 * link to a checkout) Pulumi writes the methods' source, which runs the same.
 */
function sharedKindProvider(kind: KindName): pulumi.dynamic.ResourceProvider {
  return require(`./kinds/dynamic/${kindModuleName(kind)}`) as pulumi.dynamic.ResourceProvider;
}

/** A resource this program declares: its kind, the name of its connection and its arguments as given. */
export interface DeclaredResource {
  readonly kind: KindName;
  readonly connection: string | undefined;
  readonly args: object;
  readonly resource: KasmResource<object, object>;
}

/**
 * The resources this program declares: a program declares its resources in one process, so this
 * list is that program's, as Pulumi's own list of registered resources is. A lookup reads it to
 * wait for an object the program creates (see `getImageOutput`).
 */
const declaredResources: DeclaredResource[] = [];

/** The resources of `kind` this program has declared so far (see {@link DeclaredResource}). */
export function declaredOf(kind: KindName): readonly DeclaredResource[] {
  return declaredResources.filter((declared) => declared.kind === kind);
}

/** What a {@link KasmResource} registers besides the arguments. */
export interface KasmResourceOutputs<Args, Outputs> {
  /**
   * The outputs the provider computes, each named once: exactly the keys of the kind's `Outputs`
   * (a missing or misspelt one fails to compile). Registered as undefined, so Pulumi fills them
   * from the state.
   */
  readonly computed?: { readonly [K in keyof Outputs]-?: true };
  /**
   * Arguments kept secret: wrapped with `pulumi.secret` (an argument left out is registered as
   * undefined, so its output exists too) and listed in `additionalSecretOutputs`.
   */
  readonly secrets?: readonly (keyof Args & string)[];
  /**
   * Computed outputs that map names to ids, where the provider plans {@link ID_AFTER_IMPORT} for a
   * row a change adds (see {@link idsKnownAfterImport}).
   */
  readonly plannedIds?: readonly (keyof Outputs & string)[];
}

/**
 * `ids` with each id the provider planned as {@link ID_AFTER_IMPORT} (a row a change adds) made
 * Pulumi's unknown value during a preview: `staff.userIds["ada"]` is known for a user the set
 * keeps, so a resource using it shows no change, and unknown for a user it adds, so a resource
 * using it shows as created. Outside a preview the ids are Kasm's, untouched.
 */
function idsKnownAfterImport(ids: pulumi.Output<Record<string, string>>): pulumi.Output<Record<string, string>> {
  if (!pulumi.runtime.isDryRun()) return ids;
  return ids.apply((map) => {
    if (map === undefined || map === null || !Object.values(map).includes(ID_AFTER_IMPORT)) return map;
    return Object.fromEntries(Object.entries(map).map(([username, id]) => [username, id === ID_AFTER_IMPORT ? (pulumi.unknown as unknown as string) : id]));
  });
}

/**
 * The base of the SDK's resource classes: a dynamic resource of one kind, with the kind's shared
 * provider, its type token (`pulumi-nodejs:dynamic/kasm:<Kind>`) and an `isInstance` that
 * matches it. A class sets {@link KasmResource.kind}, names its computed outputs to the constructor,
 * and merges in their types with {@link ComputedOutputs} and those of its arguments with
 * {@link InputOutputs}.
 */
export abstract class KasmResource<Args extends object, Outputs extends object = Record<never, never>> extends pulumi.dynamic.Resource {
  /** The kind the class manages; `isInstance` and the constructor read it from the class. */
  declare protected static readonly kind: KindName;

  /**
   * Whether `obj` is a resource of this class's kind (by type token; works across copies of
   * this package).
   */
  static override isInstance<T>(this: abstract new (...args: never[]) => T, obj: unknown): obj is T {
    return isKind(obj, (this as unknown as typeof KasmResource).kind);
  }

  /**
   * Registers a resource of the class's kind with its arguments, its computed outputs as undefined
   * and its secret arguments wrapped.
   */
  protected constructor(name: string, args: Args, opts: pulumi.CustomResourceOptions | undefined, outputs: KasmResourceOutputs<Args, Outputs> = {}) {
    const kind = (new.target as unknown as typeof KasmResource).kind;
    const props = { ...args } as Record<string, unknown>;
    // Only the connection's name reaches the provider and the state (see Connection).
    const connection = connectionName((args as ConnectionArgs).connection);
    if (connection === undefined) delete props.connection;
    else props.connection = connection;
    // The provider names the resource in its warnings by it (the host tells it neither URN nor name).
    props.__resourceName = name;
    for (const key of Object.keys(outputs.computed ?? {})) props[key] = undefined;
    const secrets = outputs.secrets ?? [];
    for (const key of secrets) props[key] = args[key] === undefined ? undefined : pulumi.secret(args[key]);
    const options = secrets.length === 0 ? opts : pulumi.mergeOptions(opts, { additionalSecretOutputs: [...secrets] });
    super(sharedKindProvider(kind), name, props, options, "kasm", kind);
    // The class declares these outputs (`declare readonly`), so these assignments are the ones that stand.
    const self = this as unknown as Record<string, pulumi.Output<unknown>>;
    for (const key of outputs.plannedIds ?? []) self[key] = idsKnownAfterImport(self[key] as pulumi.Output<Record<string, string>>);
    // The object's Kasm id is the resource's id (permissions/kinds.ts, KIND_ID_OUTPUTS), and an update
    // keeps it. Pulumi's dynamic-provider host takes no part in previews, so the engine previews an
    // update's outputs as its inputs and the computed id output would be unknown to every dependent,
    // which would then preview a change (or a replacement) that `up` does not make. The resource's
    // id is known in the preview of an update and unknown in that of a create or a replacement,
    // exactly when the object's id is.
    const idOutput = idOutputOf(kind);
    if (idOutput !== undefined) self[idOutput] = this.id;
    declaredResources.push({ kind, connection, args, resource: this as unknown as KasmResource<object, object> });
  }
}

/**
 * `Args` with exactly one of the keys `A` and `B` given: giving both, or neither, fails to compile
 * (the bulk kinds take their rows as a list or as CSV text, never both).
 */
export type ExactlyOneOf<Args, A extends keyof Args, B extends keyof Args> = Args &
  (
    | ({ readonly [K in A]-?: NonNullable<Args[K]> } & { readonly [K in B]?: undefined })
    | ({ readonly [K in B]-?: NonNullable<Args[K]> } & { readonly [K in A]?: undefined })
  );
