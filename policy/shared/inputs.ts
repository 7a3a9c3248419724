/**
 * Typed access to a resource's properties: {@link inputsOf} hands a policy the inputs of a
 * resource of one kind, typed as that kind's provider declares them, and {@link PolicyProps} types
 * what a stack policy sees (the inputs and the outputs), so that a misspelt property name fails
 * to compile instead of reading `undefined` forever.
 *
 * The types come from the providers' zod schemas and outputs through TYPE-ONLY imports: they are erased when
 * compiled, so the packs load nothing from the provider at run time. A value may still be a
 * placeholder for what is not known during preview (see `catalogue/values.ts`): every property is
 * typed as possibly {@link UnknownPlaceholder}, and the readers in `policy/hardening/common.ts`
 * turn it into "not known".
 */
import type { CastConfigInputs, CastConfigOutputs } from "../../provider/resources/cast-config";
import type { EgressCredentialInputs, EgressCredentialOutputs } from "../../provider/resources/egress-credential";
import type { EgressGatewayInputs, EgressGatewayOutputs } from "../../provider/resources/egress-gateway";
import type { EgressProviderInputs, EgressProviderOutputs } from "../../provider/resources/egress-provider";
import type { EgressProviderMappingInputs, EgressProviderMappingOutputs } from "../../provider/resources/egress-provider-mapping";
import type { GroupInputs, GroupOutputs } from "../../provider/resources/group";
import type { GroupMembershipInputs } from "../../provider/resources/group-membership";
import type { LicenseActivationInputs, LicenseActivationOutputs } from "../../provider/resources/license-activation";
import type { ServerDrainInputs, ServerDrainOutputs } from "../../provider/resources/server-drain";
import type { ServerImportInputs, ServerImportOutputs } from "../../provider/resources/server-import";
import type { StagingConfigInputs, StagingConfigOutputs } from "../../provider/resources/staging-config";
import type { UserInputs, UserOutputs } from "../../provider/resources/user";
import type { UserAttributesInputs, UserAttributesOutputs } from "../../provider/resources/user-attributes";
import type { UserGroupsInputs } from "../../provider/resources/user-groups";
import type { UserServerAssignmentInputs } from "../../provider/resources/user-server-assignment";
import type { UserSetInputs, UserSetOutputs } from "../../provider/resources/user-set";
import { kindOf, rawProps, type KasmKind } from "./kasm";

/**
 * The declared inputs of each kind.
 */
export interface KindInputs {
  readonly CastConfig: CastConfigInputs;
  readonly EgressCredential: EgressCredentialInputs;
  readonly EgressGateway: EgressGatewayInputs;
  readonly EgressProvider: EgressProviderInputs;
  readonly EgressProviderMapping: EgressProviderMappingInputs;
  readonly Group: GroupInputs;
  readonly GroupMembership: GroupMembershipInputs;
  readonly LicenseActivation: LicenseActivationInputs;
  readonly ServerDrain: ServerDrainInputs;
  readonly ServerImport: ServerImportInputs;
  readonly StagingConfig: StagingConfigInputs;
  readonly User: UserInputs;
  readonly UserAttributes: UserAttributesInputs;
  readonly UserGroups: UserGroupsInputs;
  readonly UserServerAssignment: UserServerAssignmentInputs;
  readonly UserSet: UserSetInputs;
}

/** A kind whose provider adds nothing to its inputs. */
type NoOutputs = Record<never, never>;

/** What each kind's provider adds to its inputs (a stack policy sees them once the resource exists). */
export interface KindOutputTypes {
  readonly CastConfig: CastConfigOutputs;
  readonly EgressCredential: EgressCredentialOutputs;
  readonly EgressGateway: EgressGatewayOutputs;
  readonly EgressProvider: EgressProviderOutputs;
  readonly EgressProviderMapping: EgressProviderMappingOutputs;
  readonly Group: GroupOutputs;
  readonly GroupMembership: NoOutputs;
  readonly LicenseActivation: LicenseActivationOutputs;
  readonly ServerDrain: ServerDrainOutputs;
  readonly ServerImport: ServerImportOutputs;
  readonly StagingConfig: StagingConfigOutputs;
  readonly User: UserOutputs;
  readonly UserAttributes: UserAttributesOutputs;
  readonly UserGroups: NoOutputs;
  readonly UserServerAssignment: NoOutputs;
  readonly UserSet: UserSetOutputs;
}

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
 * its outputs; like {@link PolicyInputs}, any may be absent or an {@link UnknownPlaceholder}.
 */
export type PolicyProps<K extends KasmKind> = PolicyInputs<K> & {
  readonly [P in keyof KindOutputTypes[K]]?: KindOutputTypes[K][P] | UnknownPlaceholder;
};

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
