/**
 * Typed access to a resource's properties: {@link inputsOf} hands a policy the inputs of a
 * resource of one kind, typed as that kind's provider declares them, and {@link PolicyProps} types
 * what a stack policy sees (the inputs and the outputs), so that a misspelt property name fails
 * to compile instead of reading `undefined` forever.
 *
 * The types come from the provider's registry of kinds (each kind's manifest) through a TYPE-ONLY
 * import: it is erased when compiled, so the packs load nothing from the provider at run time. A value may still be a
 * placeholder for what is not known during preview (see `UNKNOWN_SENTINELS` in `permissions/planned-calls.ts`): every property is
 * typed as possibly {@link UnknownPlaceholder}, and the readers in `policy/hardening/common.ts`
 * turn it into "not known".
 */
import type { InputsOfKind, kinds, OutputsOfKind } from "../../provider";
import type { PreviewNoteOf } from "../../permissions";
import { kindOf, rawProps, type KasmKind } from "./kasm";

/** The registry's kinds, as types (see `kinds` in provider/index.ts). */
type Kinds = typeof kinds;

/** The declared inputs of each kind, as its manifest's schema declares them. */
export type KindInputs = { readonly [K in KasmKind]: InputsOfKind<Kinds[K]> };

/** What each kind's provider adds to its inputs (a stack policy sees them once the resource exists). */
export type KindOutputTypes = { readonly [K in KasmKind]: OutputsOfKind<Kinds[K]> };

/**
 * What the engine puts in place of a value not known during preview: one of the strings of
 * `UNKNOWN_SENTINELS`, whatever the property's declared type. Test it with `isUnknownValue`.
 */
export type UnknownPlaceholder = string;

/**
 * A kind's inputs as a policy receives them: any may be absent (a policy also sees resources
 * the provider's check would refuse) and any may be an {@link UnknownPlaceholder}.
 */
export type PolicyInputs<K extends KasmKind> = {
  readonly [P in keyof KindInputs[K]]?: KindInputs[K][P] | UnknownPlaceholder;
};

/**
 * A kind's properties as a stack policy receives them: its inputs and, once the resource exists,
 * its outputs, and what a native preview of an update notes for the policies (a Workspace's `resourceFieldsChanging`:
 * see `PREVIEW_NOTES`); like {@link PolicyInputs}, any may be absent or an {@link UnknownPlaceholder}.
 */
export type PolicyProps<K extends KasmKind> = PolicyInputs<K> & {
  readonly [P in keyof KindOutputTypes[K]]?: KindOutputTypes[K][P] | UnknownPlaceholder;
} & { readonly [P in PreviewNoteOf<K>]?: readonly string[] | UnknownPlaceholder };

/**
 * The inputs of `resource` typed as kind `kind` declares them, or undefined when it is a resource
 * of another kind (or not a Kasm resource at all). `__`-prefixed properties are left out, and
 * values not known yet are handed over as their placeholders (see {@link rawProps}).
 *
 * @example
 * ```ts
 * const cast = inputsOf("CastConfig", args);
 * if (cast && flag(cast.allowAnonymous) === true) ...
 * ```
 */
export function inputsOf<K extends KasmKind>(kind: K, resource: { readonly type: string; readonly props: unknown }): PolicyInputs<K> | undefined {
  if (kindOf(resource) !== kind) return undefined;
  return rawProps(resource.props) as PolicyInputs<K>;
}
