/**
 * Compile-time check that every kind's SDK arguments (`sdk/<kind>.ts`, values wrapped in
 * `pulumi.Input`) and the provider's zod inputs (`provider/resources/<kind>.ts`) describe the same
 * inputs: the same keys, the same optionality, and values a program can give that the schema's
 * types accept. Nothing here runs: the file fails to compile when the two drift apart, and
 * `test/types/sdk-args.test.ts` turns that into a failing test.
 *
 * A mismatch shows as `Type '{ onlyInArgs: "newField"; ... }' does not satisfy the constraint
 * 'true'`, naming the keys that disagree.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type * as sdk from "../../sdk";
import type { CastConfigInputs, CastConfigOutputs } from "../../provider/resources/cast-config";
import type { EgressCredentialInputs, EgressCredentialOutputs } from "../../provider/resources/egress-credential";
import type { EgressGatewayInputs, EgressGatewayOutputs } from "../../provider/resources/egress-gateway";
import type { EgressProviderInputs, EgressProviderOutputs } from "../../provider/resources/egress-provider";
import type { EgressProviderMappingInputs, EgressProviderMappingOutputs } from "../../provider/resources/egress-provider-mapping";
import type { GroupInputs, GroupOutputs } from "../../provider/resources/group";
import type { GroupMembershipInputs } from "../../provider/resources/group-membership";
import type { LicenseActivationInputs, LicenseActivationOutputs } from "../../provider/resources/license-activation";
import type { ServerDrainInputs, ServerDrainOutputs } from "../../provider/resources/server-drain";
import type { ServerImportInputs, ServerImportOutputs, ServerRow } from "../../provider/resources/server-import";
import type { StagingConfigInputs, StagingConfigOutputs } from "../../provider/resources/staging-config";
import type { UserInputs, UserOutputs } from "../../provider/resources/user";
import type { UserAttributesInputs, UserAttributesOutputs } from "../../provider/resources/user-attributes";
import type { UserGroupsInputs } from "../../provider/resources/user-groups";
import type { UserServerAssignmentInputs } from "../../provider/resources/user-server-assignment";
import type { UserRow, UserSetInputs, UserSetOutputs } from "../../provider/resources/user-set";
import type { WorkspaceInputs, WorkspaceOutputs } from "../../provider/resources/workspace";
import type { GroupWorkspaceInputs } from "../../provider/resources/group-workspace";
import type { WorkspaceRegistryInputs, WorkspaceRegistryOutputs } from "../../provider/resources/workspace-registry";

/** A value as the provider receives it: every `pulumi.Input` (promise, output) resolved, deeply. */
type Resolved<T> =
  T extends pulumi.OutputInstance<infer U>
    ? Resolved<U>
    : T extends Promise<infer U>
      ? Resolved<U>
      : T extends readonly (infer E)[]
        ? Resolved<E>[]
        : T extends object
          ? { -readonly [K in keyof T]: Resolved<T[K]> }
          : T;

/** The keys of `T` that may be left out. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** The keys whose resolved SDK value the schema's input type does not accept. */
type UnacceptedKeys<Args, Inputs> = {
  [K in keyof Args & keyof Inputs]-?: [Exclude<Resolved<Args[K]>, undefined>] extends [Exclude<Inputs[K], undefined>] ? never : K;
}[keyof Args & keyof Inputs];

/** Symmetric difference of two key sets, and of their optional subsets. */
type Disagreements<Args, Inputs> = {
  onlyInArgs: Exclude<keyof Args, keyof Inputs>;
  onlyInInputs: Exclude<keyof Inputs, keyof Args>;
  optionalOnlyInArgs: Exclude<OptionalKeys<Args> & keyof Inputs, OptionalKeys<Inputs>>;
  optionalOnlyInInputs: Exclude<OptionalKeys<Inputs> & keyof Args, OptionalKeys<Args>>;
  valueNotAccepted: UnacceptedKeys<Args, Inputs>;
};

/** The disagreements that are not empty, spelled out so that the compiler's message names them. */
type NonEmpty<D> = D extends infer O ? { [K in keyof O as [O[K]] extends [never] ? never : K]: O[K] } : never;

/** `true` when every disagreement is empty; otherwise the ones that are not, for the compiler's message. */
type Agree<Args, Inputs> = keyof NonEmpty<Disagreements<Args, Inputs>> extends never ? true : NonEmpty<Disagreements<Args, Inputs>>;

/** Compiles only when `T` is `true`. */
type Expect<T extends true> = T;

/** The input type a zod schema accepts (what a program writes, before transforms). */
type ZodInputs<Schema extends z.ZodType> = z.input<Schema>;

/**
 * The arguments a kind's own schema checks: all but `connection`, which every kind takes and the
 * provider's connection wrapper (provider/resources/framework/connections.ts) checks before the kind.
 */
type KindArgs<Args> = Omit<Args, keyof sdk.ConnectionArgs>;

// ServerImport's inputs are the provider's declared `ServerImportInputs` (`csv` or `servers`, rows
// of `ServerRow`, the type of its row schema). UserSet's rows are its row schema's (`UserRow`).

export type SdkArgsMatchZodInputs = [
  Expect<Agree<KindArgs<sdk.UserArgs>, ZodInputs<typeof UserInputs>>>,
  Expect<Agree<KindArgs<sdk.UserAttributesArgs>, ZodInputs<typeof UserAttributesInputs>>>,
  Expect<Agree<KindArgs<sdk.GroupArgs>, ZodInputs<typeof GroupInputs>>>,
  Expect<Agree<KindArgs<sdk.GroupMembershipArgs>, ZodInputs<typeof GroupMembershipInputs>>>,
  Expect<Agree<KindArgs<sdk.UserGroupsArgs>, ZodInputs<typeof UserGroupsInputs>>>,
  Expect<Agree<KindArgs<sdk.UserServerAssignmentArgs>, ZodInputs<typeof UserServerAssignmentInputs>>>,
  Expect<Agree<KindArgs<sdk.StagingConfigArgs>, ZodInputs<typeof StagingConfigInputs>>>,
  Expect<Agree<KindArgs<sdk.CastConfigArgs>, ZodInputs<typeof CastConfigInputs>>>,
  Expect<Agree<KindArgs<sdk.ServerDrainArgs>, ZodInputs<typeof ServerDrainInputs>>>,
  Expect<Agree<KindArgs<sdk.ServerImportArgs>, ServerImportInputs>>,
  Expect<Agree<sdk.ServerImportRow, ServerRow>>,
  Expect<Agree<KindArgs<sdk.LicenseActivationArgs>, ZodInputs<typeof LicenseActivationInputs>>>,
  Expect<Agree<KindArgs<sdk.EgressProviderArgs>, ZodInputs<typeof EgressProviderInputs>>>,
  Expect<Agree<KindArgs<sdk.EgressGatewayArgs>, ZodInputs<typeof EgressGatewayInputs>>>,
  Expect<Agree<KindArgs<sdk.EgressProviderMappingArgs>, ZodInputs<typeof EgressProviderMappingInputs>>>,
  Expect<Agree<KindArgs<sdk.EgressCredentialArgs>, ZodInputs<typeof EgressCredentialInputs>>>,
  Expect<Agree<KindArgs<sdk.UserSetArgs>, ZodInputs<typeof UserSetInputs>>>,
  Expect<Agree<KindArgs<sdk.WorkspaceArgs>, ZodInputs<typeof WorkspaceInputs>>>,
  Expect<Agree<KindArgs<sdk.GroupWorkspaceArgs>, ZodInputs<typeof GroupWorkspaceInputs>>>,
  Expect<Agree<KindArgs<sdk.WorkspaceRegistryArgs>, ZodInputs<typeof WorkspaceRegistryInputs>>>,
  Expect<Agree<Resolved<sdk.UserSetUser>, UserRow>>,
];

/** Every kind takes `connection`, as ConnectionArgs declares it. */
type TakesConnection<Args> =
  sdk.ConnectionArgs extends Pick<Args, keyof sdk.ConnectionArgs & keyof Args> ? ("connection" extends keyof Args ? true : false) : false;
export type EveryKindTakesConnection = [
  Expect<TakesConnection<sdk.UserArgs>>,
  Expect<TakesConnection<sdk.UserAttributesArgs>>,
  Expect<TakesConnection<sdk.GroupArgs>>,
  Expect<TakesConnection<sdk.GroupMembershipArgs>>,
  Expect<TakesConnection<sdk.UserGroupsArgs>>,
  Expect<TakesConnection<sdk.UserServerAssignmentArgs>>,
  Expect<TakesConnection<sdk.StagingConfigArgs>>,
  Expect<TakesConnection<sdk.CastConfigArgs>>,
  Expect<TakesConnection<sdk.ServerDrainArgs>>,
  Expect<TakesConnection<sdk.ServerImportArgs>>,
  Expect<TakesConnection<sdk.LicenseActivationArgs>>,
  Expect<TakesConnection<sdk.EgressProviderArgs>>,
  Expect<TakesConnection<sdk.EgressGatewayArgs>>,
  Expect<TakesConnection<sdk.EgressProviderMappingArgs>>,
  Expect<TakesConnection<sdk.EgressCredentialArgs>>,
  Expect<TakesConnection<sdk.UserSetArgs>>,
  Expect<TakesConnection<sdk.WorkspaceArgs>>,
  Expect<TakesConnection<sdk.GroupWorkspaceArgs>>,
  Expect<TakesConnection<sdk.WorkspaceRegistryArgs>>,
];

/** The bulk kinds take their rows one way: as a list or as CSV text, never both and never neither. */
type UserSetTakes<A> = A extends ConstructorParameters<typeof sdk.UserSet>[1] ? true : false;
type ServerImportTakes<A> = A extends ConstructorParameters<typeof sdk.ServerImport>[1] ? true : false;
export type BulkKindsTakeOneForm = [
  Expect<UserSetTakes<{ csv: string }>>,
  Expect<UserSetTakes<{ users: { username: string }[] }>>,
  Expect<UserSetTakes<{ csv: string; users: { username: string }[] }> extends false ? true : false>,
  Expect<UserSetTakes<{ adopt: true }> extends false ? true : false>,
  Expect<ServerImportTakes<{ csv: string }>>,
  Expect<ServerImportTakes<{ csv: string; servers: [] }> extends false ? true : false>,
];

/** Whether two types are the same (each assignable to the other, without distributing unions). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * The outputs of a kind's `Outputs` type that its SDK class does not declare as
 * `pulumi.Output<T>` of the same `T`: missing, misspelt, or of another type.
 */
type UndeclaredOutputs<Resource, Outputs> = {
  [K in keyof Outputs]-?: K extends keyof Resource ? (Resource[K] extends pulumi.Output<infer T> ? (Same<T, Outputs[K]> extends true ? never : K) : K) : K;
}[keyof Outputs];

/**
 * The `pulumi.Output`s a kind's SDK class declares that are neither an input (its `Args`) nor one
 * of the kind's `Outputs`, nor Pulumi's own (`id`, `urn`): a name the provider never sets.
 */
type ExtraOutputs<Resource, Args, Outputs> = {
  [K in keyof Resource]-?: Resource[K] extends pulumi.Output<unknown>
    ? K extends keyof Args | keyof Outputs | keyof pulumi.CustomResource
      ? never
      : K
    : never;
}[keyof Resource];

/** `true` when the class declares every output alike and no other; otherwise the names that differ, for the compiler's message. */
type DeclaresOutputs<Resource, Args, Outputs> = [UndeclaredOutputs<Resource, Outputs> | ExtraOutputs<Resource, Args, Outputs>] extends [never]
  ? true
  : NonEmpty<{ outputsNotDeclaredAlike: UndeclaredOutputs<Resource, Outputs>; declaredButNoOutput: ExtraOutputs<Resource, Args, Outputs> }>;

/** A kind whose provider adds nothing to its inputs. */
type NoOutputs = Record<never, never>;

/**
 * Every kind's SDK class declares each output of the kind's `Outputs` (the type the provider's
 * create, read and update return) with its type. The class's `computed` list is tied to the same
 * type in the SDK itself (`KasmResourceOutputs`): a missing or misspelt name there fails to compile.
 * No class declares an output its kind does not have: the kinds without outputs of their own
 * (GroupMembership, UserGroups, UserServerAssignment, ServerDrain) declare none.
 */
export type SdkOutputsMatchProviderOutputs = [
  Expect<DeclaresOutputs<sdk.User, sdk.UserArgs, UserOutputs>>,
  Expect<DeclaresOutputs<sdk.UserAttributes, sdk.UserAttributesArgs, UserAttributesOutputs>>,
  Expect<DeclaresOutputs<sdk.Group, sdk.GroupArgs, GroupOutputs>>,
  Expect<DeclaresOutputs<sdk.GroupMembership, sdk.GroupMembershipArgs, NoOutputs>>,
  Expect<DeclaresOutputs<sdk.UserGroups, sdk.UserGroupsArgs, NoOutputs>>,
  Expect<DeclaresOutputs<sdk.UserServerAssignment, sdk.UserServerAssignmentArgs, NoOutputs>>,
  Expect<DeclaresOutputs<sdk.StagingConfig, sdk.StagingConfigArgs, StagingConfigOutputs>>,
  Expect<DeclaresOutputs<sdk.CastConfig, sdk.CastConfigArgs, CastConfigOutputs>>,
  Expect<DeclaresOutputs<sdk.ServerDrain, sdk.ServerDrainArgs, ServerDrainOutputs>>,
  Expect<DeclaresOutputs<sdk.ServerImport, sdk.ServerImportArgs, ServerImportOutputs>>,
  Expect<DeclaresOutputs<sdk.LicenseActivation, sdk.LicenseActivationArgs, LicenseActivationOutputs>>,
  Expect<DeclaresOutputs<sdk.EgressProvider, sdk.EgressProviderArgs, EgressProviderOutputs>>,
  Expect<DeclaresOutputs<sdk.EgressGateway, sdk.EgressGatewayArgs, EgressGatewayOutputs>>,
  Expect<DeclaresOutputs<sdk.EgressProviderMapping, sdk.EgressProviderMappingArgs, EgressProviderMappingOutputs>>,
  Expect<DeclaresOutputs<sdk.EgressCredential, sdk.EgressCredentialArgs, EgressCredentialOutputs>>,
  Expect<DeclaresOutputs<sdk.UserSet, sdk.UserSetArgs, UserSetOutputs>>,
  Expect<DeclaresOutputs<sdk.Workspace, sdk.WorkspaceArgs, WorkspaceOutputs>>,
  Expect<DeclaresOutputs<sdk.GroupWorkspace, sdk.GroupWorkspaceArgs, NoOutputs>>,
  Expect<DeclaresOutputs<sdk.WorkspaceRegistry, sdk.WorkspaceRegistryArgs, WorkspaceRegistryOutputs>>,
];
