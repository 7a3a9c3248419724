/**
 * The terms every kind's provider is written in: the properties that travel between the engine
 * and a provider, declared inputs as a refresh leaves them, and the methods of a kind's provider.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { KasmClient } from "../../api/client";
import type { SettingNames } from "../../api/config";
import type { ApiNames } from "../../api/records";
import type { InstallationMemory } from "../../runtime";
import type { KasmKind } from "../../../permissions/kinds";
import { UNKNOWN, type KindCalls } from "../../../permissions/planned-calls";

/** Pulumi's placeholder for a value not known during preview (the permission catalogue's). */
export { UNKNOWN };

/** Properties as they travel between the engine and a provider. */
export type Props = Record<string, unknown>;

/** Declared inputs as a refresh may leave them: a field Kasm has cleared reads back as null. */
export type RefreshedInputs<Inputs> = { [K in keyof Inputs]?: Inputs[K] | null };

/** The provider's own settings, which no client option has (see `PROVIDER_SETTINGS` in runtime.ts). */
export type ProviderSetting = "checkBeforeChanges" | "takeOverChanges";

/**
 * What a kind's method needs of its surroundings, handed to it as an argument by the one place
 * that knows them (the registry's wrapper, connections.ts): the installation the object lives on,
 * its client and settings, how to name the resource in a message, and how to tell the user.
 */
export interface KindContext {
  /** The connection the object lives on; undefined for the default one (`kasm:`). */
  readonly connection: string | undefined;
  /** Where that connection's settings are read (`kasm:`, or `kasm-<name>:`), for messages. */
  readonly settingNames: SettingNames;
  /**
   * The installation's client, built on first use and shared by every resource of the process; a
   * refresh's `read` is handed a lenient view of it (see lenient-refresh.ts).
   *
   * @throws `KasmConfigurationError` naming the connection's own keys when a setting is missing.
   */
  client(): KasmClient;
  /** The client if one was built already, else undefined: for `check`, which must not build one only to send nothing. */
  existingClient(): KasmClient | undefined;
  /** The wire vocabulary the connection is configured with, known without a client. */
  apiNames(): ApiNames;
  /**
   * What the host process remembers of the connection's installation between calls (the one read
   * before changes, the keys found absent): kept by the host's runtime, shared by every resource
   * on the connection.
   */
  memory(): InstallationMemory;
  /** A provider setting of the connection: its key, else its variable, else undefined. */
  setting(option: ProviderSetting): string | undefined;
  /** How a message names the resource: `User ada` (by its Pulumi name; by `id` for a state that does not keep the name). */
  label(kind: string, id: string): string;
  /**
   * The `pulumi import` command that takes the object with this id (the resource's id) into the
   * state as this resource, where the CLI can: a native provider's resource without a parent
   * (the provider knows its URN, and its explicit provider's). Undefined for a dynamic resource,
   * which `pulumi import` cannot take, and where the command cannot be written whole.
   */
  importCommand?(id: string): string | undefined;
  /** A warning to the user (the engine's diagnostics). Never a secret. */
  warn(message: string): Promise<unknown>;
  /** Something worth knowing that is not a problem (an INFO diagnostic). Never a secret. */
  note(message: string): Promise<unknown>;
}

/**
 * A diff as a kind's provider answers it: Pulumi's, and the inputs that differ. Pulumi's
 * dynamic-provider host passes on only `changes`, `replaces` and `deleteBeforeReplace`; the native
 * provider turns `changedFields` into the engine's field-level (detailed) diff. A kind that does
 * not know its fields (a bulk kind) leaves it out, and the engine then compares the inputs itself.
 */
export interface KindDiffResult extends pulumi.dynamic.DiffResult {
  /** The inputs whose declared value differs from the state's (`replaces` among them). */
  readonly changedFields?: readonly string[];
  /**
   * Those of `changedFields` that differ only because the program stopped declaring them: the
   * state forgets them, and Kasm keeps its value, so nothing is sent for them.
   */
  readonly forgottenFields?: readonly string[];
}

/**
 * The methods of one kind's provider, in the terms of Pulumi's
 * `dynamic.ResourceProvider<Inputs, Outputs>` without `configure`, each handed its
 * {@link KindContext}: `State` is what the state holds (the declared inputs and the outputs).
 * `check` takes the properties as the program sent them, unchecked: it is where they become
 * `Inputs`. The wrappers around every kind hold them as `KindProvider` (of `Props`: the wire's
 * view), which any kind's provider is.
 */
export interface KindProvider<Inputs extends object = Props, State extends object = Props> {
  check(olds: Props, news: Props, context: KindContext): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: State, news: Inputs, context: KindContext): Promise<KindDiffResult>;
  create(inputs: Inputs, context: KindContext): Promise<pulumi.dynamic.CreateResult<State>>;
  read(id: string, props: State, context: KindContext): Promise<pulumi.dynamic.ReadResult<State>>;
  update(id: string, olds: State, news: Inputs, context: KindContext): Promise<pulumi.dynamic.UpdateResult<State>>;
  delete(id: string, props: State, context: KindContext): Promise<void>;
}

/**
 * A kind's provider as Pulumi's dynamic-provider host calls it (`providers[kind].create(inputs)`,
 * from the serialized provider in each resource's state): the properties alone, the context
 * built from them by the registry's wrapper.
 */
export interface HostProvider {
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}

/**
 * The role of one input: `key` names the object (a change replaces it), `api` is sent to Kasm,
 * `provider` only steers the provider (`adopt`, `forceDelete`) and is never sent.
 */
export type FieldRole = "key" | "api" | "provider";

/** One input as the manifest describes it. */
export interface ManifestField {
  readonly role: FieldRole;
  /** A change to it replaces the object (Kasm cannot change it in place). */
  readonly replaces: boolean;
  /** Left out, the provider writes its default in (a drain's `draining`): its output is never undefined. */
  readonly alwaysSet?: boolean;
  /** The kind whose objects' ids the input holds (see {@link FieldRule.refersTo}). */
  readonly refersTo?: KasmKind;
}

/**
 * What a kind's docs say, written once in the kind's file: the TypeScript SDK's class and its
 * TSDoc are generated from them (`scripts/sdk/typescript.ts`), and the native provider's package
 * schema describes the resource and each property with them, so that the Python, Go and YAML
 * docs say the same. Markdown; an input without a doc fails to compile. (An output's doc is its
 * `.describe` text in the kind's zod outputs: `npm run build` stops without it.)
 */
export interface KindDocs<Inputs extends object> {
  /** What the resource is and does: the SDK class's TSDoc and the schema's resource description. */
  readonly description: string;
  /** The doc of the SDK's `<Kind>Args` interface. */
  readonly arguments: string;
  /** A TypeScript program using the kind: the SDK class's `@example`, left out of the schema (it would mislead a Python or YAML reader). */
  readonly example: string;
  /** Each input's. */
  readonly inputs: { readonly [K in keyof Inputs & string]-?: string };
  /** The object type of an input whose items are objects with named fields, by the input's name. */
  readonly inputObjects?: { readonly [K in keyof Inputs & string]?: ObjectDocs };
  /**
   * What the API cannot do and what the resource does about it, in one line: the last column of the
   * README's Resources table, which is generated from the docs (`npm run docs`). Empty when nothing.
   */
  readonly limits: string;
  /**
   * Why `kasm-import` declares no objects of this kind (what it cannot read back from Kasm, or what
   * another kind declares already); a kind without one is written by an area of importer/kinds.ts.
   */
  readonly notImported?: string;
}

/**
 * What a kind's docs say of the kind as a whole, written in the kind's file beside its field
 * declarations, which carry each input's doc (`declareFields`): {@link KindDocs} without the
 * per-input parts.
 */
export type KindTexts = Omit<KindDocs<object>, "inputs" | "inputObjects">;

/** The docs of an object type: its own, and its fields' by name. */
export interface ObjectDocs {
  /** The name of the SDK interface that types the objects (`UserSetUser`). */
  readonly name: string;
  readonly description: string;
  readonly properties: Readonly<Record<string, string>>;
}

/**
 * What a kind declares about itself, read by everything that derives from the kind instead of
 * listing it again: its input schema and the role of each input (a test fails when a schema key
 * has none), and its output schema (the outputs' types for the TypeScript SDK, the policy packs and
 * the native package schema, and the names a preview marks unknown).
 */
export interface KindManifest<Inputs extends object = Props, Outputs extends object = object> {
  /** The kind's inputs; `check` validates with it. */
  readonly schema: z.ZodType<Inputs>;
  /** Every input of the schema, with its role. */
  readonly fields: Readonly<Record<string, ManifestField>>;
  /** What the SDK and the native schema say of the kind and its inputs (an output's doc is in {@link outputs}). */
  readonly docs: KindDocs<Inputs>;
  /**
   * The inputs that hold a secret, from the kind's field declarations (the one list of them): the
   * SDK wraps them with `pulumi.secret`, the package schema and the README mark them, both hosts
   * keep them secret in the state and never name one as the property of a check failure (the
   * Pulumi CLI prints a failing property's value beside the reason). None when left out.
   */
  readonly secrets?: readonly string[];
  /** Two inputs of which a program gives exactly one (a bulk kind's rows, as a list or as CSV): the SDK's types say so. */
  readonly exactlyOneOf?: readonly [string, string];
  /**
   * Outputs that map names to ids, where a preview writes `ID_AFTER_IMPORT` (permissions/bulk-rows.ts)
   * for a row the change adds: the SDK turns those into unknown values, so that what uses them
   * previews as changing.
   */
  readonly plannedIds?: readonly string[];
  /** What the provider adds to the inputs, each output with its type ({@link NO_OUTPUTS} when nothing). */
  readonly outputs: z.ZodType<Outputs>;
  /**
   * What the native provider's preview of an update adds to the planned outputs for the policy
   * packs (the permission catalogue's `PREVIEW_NOTES`), from the state's properties and the checked inputs.
   */
  readonly previewNotes?: (state: Props, news: Props) => Readonly<Record<string, unknown>>;
  /**
   * What each lifecycle step of the kind's provider calls: its calls declaration, beside the
   * kind's file (`<kind>.calls.ts`), from which the permissions table is assembled too; each
   * step's client refuses what it does not list (see `withDeclaredCalls` in `connections.ts`).
   */
  readonly calls: KindCalls;
}

/** The output schema of a kind that adds nothing to its inputs (a link, a drain, a set of groups). */
export const NO_OUTPUTS: z.ZodType<Record<never, never>> = z.strictObject({});

/** A kind as the registry holds it: its provider's methods and its manifest. */
export type Kind<Inputs extends object = Props, State extends object = Props, Outputs extends object = object> = KindProvider<Inputs, State> & {
  readonly manifest: KindManifest<Inputs, Outputs>;
};

/** The inputs a registered kind declares. */
// Inferred from the schema alone: the docs and the other members name the inputs too, and would widen them.
export type InputsOfKind<K> = K extends { readonly manifest: { readonly schema: z.ZodType<infer Inputs> } } ? Inputs : never;

/** The outputs a registered kind adds to its inputs. */
export type OutputsOfKind<K> = K extends { readonly manifest: { readonly outputs: z.ZodType<infer Outputs> } } ? Outputs : never;

/**
 * The inputs of a manifest's schema that have no role, and the roles that name no input: both
 * empty for a kind whose every input is compared, sent or kept as its role says. A zod input
 * added without a role would otherwise never be sent or diffed, silently.
 */
export function unmatchedFields(manifest: Pick<KindManifest<object, object>, "schema" | "fields">): {
  readonly withoutRole: string[];
  readonly notInSchema: string[];
} {
  const shape = (manifest.schema as unknown as { shape?: Record<string, unknown> }).shape;
  const inputs = Object.keys(shape ?? {});
  const roles = Object.keys(manifest.fields);
  return { withoutRole: inputs.filter((name) => !roles.includes(name)), notInSchema: roles.filter((name) => !inputs.includes(name)) };
}
