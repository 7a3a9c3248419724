/**
 * A resource's life through the native provider: Check, Diff, Create, Read, Update and Delete,
 * each handed to the kind's own provider (the registry's `kinds`, the same implementations the
 * dynamic-provider host serves) with the context of this process's one installation.
 *
 * What is the native protocol's own is done here, and only here: secrets unwrapped on the way in
 * and wrapped on the way out (properties.ts); a preview's Create and Update send nothing and
 * answer the computed outputs as unknown (Create) or as the state has them (Update); the kind's
 * changed inputs become the engine's field-level diff; an import's Read, which carries no state,
 * asks the kind for every input and keeps those Kasm has.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { kindOfTypeToken } from "../../permissions/kinds";
import { UNKNOWN } from "../../permissions/planned-calls";
import type { KindName } from "..";
import { warn, note } from "../engine-log";
import { contextIn, type ConnectionRegistry } from "../runtime";
import { failuresBeforePlan } from "../resources/framework/connections";
import { KasmInitializationError } from "../resources/framework/errors";
import { HalfAppliedFailure } from "./errors";
import type { Kind, KindContext, KindDiffResult, Props } from "../resources/framework/types";
import { outputNames } from "./outputs";
import { fromStruct, secretNames, toStruct } from "./properties";
import { inputNames } from "./schema";

/** What the lifecycle methods need of the provider process. */
export interface LifecycleDeps {
  /** Every kind, by name (its provider and its manifest). */
  readonly kinds: Readonly<Record<KindName, Kind>>;
  /** The process's one installation (the default connection), as Configure left it. */
  readonly connections: ConnectionRegistry;
  /** The engine's address, for diagnostics (the plugin's first argument, or Attach's). */
  engineAddress(): string | undefined;
  /** Whether Configure was given every setting (a preview may configure with values not known yet). */
  settingsKnown(): boolean;
  /** The explicit provider this process is, by name and URN; undefined for a default provider (or an engine that sent neither). */
  explicitProvider?(): { readonly name: string; readonly urn: string } | undefined;
}

/**
 * The type token and the name of a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`; a
 * parent's type before a `$`), and whether the resource has a parent other than the stack.
 */
function partsOfUrn(urn: string): { readonly type: string; readonly name: string; readonly parented: boolean } {
  const parts = urn.split("::");
  const types = (parts[2] ?? "").split("$");
  return { type: types.at(-1) ?? "", name: parts.slice(3).join("::"), parented: types.length > 1 };
}

/** A word as a POSIX shell reads it back: as it is when it holds nothing the shell would take, else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9._:@%+=/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `pulumi import` command that takes the object with this id into the state as the resource
 * of `urn` (see `KindContext.importCommand`): with the explicit provider it runs on; undefined for
 * a resource with a parent, whose name and URN `pulumi import` would also need (`--parent`) and the
 * child's URN does not give.
 */
function importCommandOf(urn: string, provider: { readonly name: string; readonly urn: string } | undefined): ((id: string) => string) | undefined {
  const { type, name, parented } = partsOfUrn(urn);
  if (parented) return undefined;
  const through = provider === undefined ? "" : ` --provider ${shellWord(`${provider.name}=${provider.urn}`)}`;
  return (id) => `pulumi import ${type} ${shellWord(name)} ${id} --yes --protect=false --generate-code=false${through}`;
}

/** The lifecycle methods over `deps` (see the module comment). */
export function lifecycle(deps: LifecycleDeps) {
  /** The kind of a URN's resource, and the context its methods are handed. */
  function resolve(urn: string): { readonly kind: KindName; readonly provider: Kind; readonly secretInputs: readonly string[]; readonly context: KindContext } {
    const { type, name } = partsOfUrn(urn);
    const kind = kindOfTypeToken(type, "native");
    if (kind === undefined || !(kind in deps.kinds))
      throw new Error(`unknown resource type ${type}: the kasm provider serves kasm:index:<Kind>, such as kasm:index:User`);
    const report = { engineAddress: deps.engineAddress(), urn };
    const context = contextIn(deps.connections, undefined, name, { warn: (message) => warn(message, report), note: (message) => note(message, report) });
    // A preview whose provider settings are not known yet (Configure skipped) cannot read the
    // installation: no read before the plan, as with `checkBeforeChanges: false`.
    const settingsKnown = deps.settingsKnown();
    const setting: KindContext["setting"] = (option) => (!settingsKnown && option === "checkBeforeChanges" ? "false" : context.setting(option));
    const importCommand = importCommandOf(urn, deps.explicitProvider?.());
    return {
      kind: kind as KindName,
      provider: deps.kinds[kind as KindName],
      secretInputs: deps.kinds[kind as KindName].manifest.secrets ?? [],
      context: { ...context, setting, ...(importCommand === undefined ? {} : { importCommand }) },
    };
  }

  return {
    async check(req: provproto.CheckRequest): Promise<provproto.CheckResponse> {
      const { kind, provider, secretInputs, context } = resolve(req.getUrn());
      const olds = fromStruct(req.getOlds());
      const news = fromStruct(req.getNews());
      const checked = await provider.check(olds.props, news.props, context);
      const inputs = (checked.inputs ?? news.props) as Props;
      // As the dynamic host does: the kind's failures, or the installation's one read when the inputs change.
      const failures = await failuresBeforePlan(kind, secretInputs, olds.props, { ...checked, inputs }, context);
      const response = new provproto.CheckResponse().setInputs(toStruct(inputs, secretNames(secretInputs, inputs, news.secrets)));
      return response.setFailuresList(failures.map((failure) => new provproto.CheckFailure().setProperty(failure.property).setReason(failure.reason)));
    },

    async diff(req: provproto.DiffRequest): Promise<provproto.DiffResponse> {
      const { provider, context } = resolve(req.getUrn());
      const olds = fromStruct(req.getOlds()).props;
      const news = fromStruct(req.getNews()).props;
      const result: KindDiffResult = await provider.diff(req.getId(), olds, news, context);
      const replaces = [...(result.replaces ?? [])];
      // An input the program stopped declaring is no step here: the engine writes a native
      // resource's new inputs on a `same` step too, and Kasm keeps the value, which the outputs
      // still show. (The kinds count it as a change for the dynamic host, whose state is its outputs.)
      // So an `import` option whose program declares fewer fields than Kasm holds previews the import alone.
      const forgotten = new Set(result.forgottenFields ?? []);
      const changedFields = result.changedFields?.filter((field) => !forgotten.has(field));
      const changes =
        result.changes === undefined
          ? provproto.DiffResponse.DiffChanges.DIFF_UNKNOWN
          : result.changes && (changedFields === undefined || changedFields.length > 0 || replaces.length > 0)
            ? provproto.DiffResponse.DiffChanges.DIFF_SOME
            : provproto.DiffResponse.DiffChanges.DIFF_NONE;
      const response = new provproto.DiffResponse()
        .setChanges(changes)
        .setReplacesList(replaces)
        .setDeletebeforereplace(result.deleteBeforeReplace === true);
      // Without the kind's fields the engine compares the inputs itself.
      if (changedFields === undefined && replaces.length === 0) return response;
      response.setHasdetaileddiff(true);
      for (const field of new Set([...(changedFields ?? []), ...replaces]))
        response.getDetaileddiffMap().set(field, propertyDiff(field, olds, news, replaces.includes(field)));
      return response;
    },

    async create(req: provproto.CreateRequest): Promise<provproto.CreateResponse> {
      const { provider, secretInputs, context } = resolve(req.getUrn());
      const inputs = fromStruct(req.getProperties());
      const secrets = secretNames(secretInputs, inputs.props, inputs.secrets);
      if (req.getPreview()) {
        // Nothing is sent in a preview: the computed outputs are not known yet.
        const unknowns = Object.fromEntries(outputNames(provider).map((name) => [name, UNKNOWN]));
        return new provproto.CreateResponse().setId("").setProperties(toStruct({ ...inputs.props, ...unknowns }, secrets));
      }
      const result = await provider.create(inputs.props, context).catch((error: unknown) => keepingSecrets(error, secretInputs, secrets));
      return new provproto.CreateResponse()
        .setId(result.id)
        .setProperties(toStruct(result.outs as Props, secretNames(secretInputs, result.outs ?? {}, secrets)));
    },

    async read(req: provproto.ReadRequest): Promise<provproto.ReadResponse> {
      const { provider, secretInputs, context } = resolve(req.getUrn());
      const state = fromStruct(req.getProperties());
      const declared = fromStruct(req.getInputs());
      // An import reads an object the state does not hold yet: ask for every input (null), keep what Kasm has.
      const importing = Object.keys(state.props).length === 0;
      const asked = importing ? Object.fromEntries(inputNames(provider).map((name) => [name, null])) : state.props;
      const result = await provider.read(req.getId(), asked, context);
      const response = new provproto.ReadResponse().setId(result.id ?? "");
      if (!result.id) return response;
      const props = importing ? withoutNulls(result.props ?? {}) : ((result.props ?? state.props) as Props);
      const inputs = importing ? withoutNulls(result.inputs ?? {}) : ((result.inputs ?? declared.props) as Props);
      const secrets = secretNames(secretInputs, props, [...state.secrets, ...declared.secrets]);
      return response.setProperties(toStruct(props, secrets)).setInputs(toStruct(inputs, secretNames(secretInputs, inputs, secrets)));
    },

    async update(req: provproto.UpdateRequest): Promise<provproto.UpdateResponse> {
      const { provider, secretInputs, context } = resolve(req.getUrn());
      const olds = fromStruct(req.getOlds());
      const news = fromStruct(req.getNews());
      const secrets = secretNames(secretInputs, news.props, [...olds.secrets, ...news.secrets]);
      if (req.getPreview()) {
        // Nothing is sent in a preview: the state's computed outputs stand (an update keeps the object).
        // The planned outputs also carry what the policy packs cannot tell from them (which fields
        // the update changes): the CLI prints no planned output of an update, and no state keeps them.
        const kept = Object.fromEntries(
          outputNames(provider)
            .filter((name) => name in olds.props)
            .map((name) => [name, olds.props[name]]),
        );
        const notes = provider.manifest.previewNotes?.(olds.props, news.props) ?? {};
        return new provproto.UpdateResponse().setProperties(toStruct({ ...news.props, ...kept, ...notes }, secrets));
      }
      const result = await provider
        .update(req.getId(), olds.props, news.props, context)
        .catch((error: unknown) => keepingSecrets(error, secretInputs, secrets));
      const outs = (result.outs ?? { ...olds.props, ...news.props }) as Props;
      return new provproto.UpdateResponse().setProperties(toStruct(outs, secretNames(secretInputs, outs, secrets)));
    },

    async delete(req: provproto.DeleteRequest): Promise<void> {
      const { provider, context } = resolve(req.getUrn());
      await provider.delete(req.getId(), fromStruct(req.getProperties()).props, context);
    },
  };
}

/** The lifecycle methods, as {@link lifecycle} builds them. */
export type Lifecycle = ReturnType<typeof lifecycle>;

/** One field of the engine's detailed diff: added, deleted or updated, and whether it replaces. */
function propertyDiff(field: string, olds: Props, news: Props, replaces: boolean): provproto.PropertyDiff {
  const Kind = provproto.PropertyDiff.Kind;
  const kind =
    olds[field] === undefined
      ? replaces
        ? Kind.ADD_REPLACE
        : Kind.ADD
      : news[field] === undefined
        ? replaces
          ? Kind.DELETE_REPLACE
          : Kind.DELETE
        : replaces
          ? Kind.UPDATE_REPLACE
          : Kind.UPDATE;
  return new provproto.PropertyDiff().setKind(kind).setInputdiff(true);
}

/** Properties without the nulls an import's read leaves for the inputs Kasm does not hold. */
function withoutNulls(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([, value]) => value !== null));
}

/**
 * Rethrow `error`; when it keeps a half-created object (a `KasmInitializationError`), as a
 * {@link HalfAppliedFailure} that names which of its properties the engine must keep secret
 * (errors.ts sends them wrapped).
 */
function keepingSecrets(error: unknown, secretInputs: readonly string[], secrets: ReadonlySet<string>): never {
  if (error instanceof KasmInitializationError) throw new HalfAppliedFailure(error, secretNames(secretInputs, error.properties as Props, secrets));
  throw error;
}
