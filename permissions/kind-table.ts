/**
 * What an API key needs to manage each kind of Kasm resource: for every lifecycle step (create,
 * read, update, delete), the public operations that kind's provider calls, the circumstances of
 * each call (its {@link OperationContext}), and so the permissions each call needs.
 *
 * THE KINDS DECLARE THEIR CALLS ONCE. Each row of {@link KIND_ROWS} is the calls declaration that
 * lies beside the kind's provider (`provider/resources/<kind>.calls.ts`, or `calls.ts` in a kind's
 * folder; see `KindCalls` in `planned-calls.ts`), and the provider is built from the same
 * declaration: the client each step of it is handed refuses, before sending, an operation the
 * step does not list (`provider/resources/framework/connections.ts`, which names the exceptions
 * below). A provider that changes the operations it calls changes its declaration, or fails.
 * Whether it calls them when the declaration says (its conditions and circumstances) is held by
 * `test/policy/consistency.test.ts`, which runs the real providers against the emulator with
 * random keys and random stacks and fails when a row and its provider disagree; the policy packs
 * (`policy/permissions`) read nothing else. The declarations import only the catalogue, so that
 * the packs load them without the provider's runtime.
 *
 * What the rows leave out, on purpose (each an allowance of `UNLISTED_CALLS` in
 * `provider/resources/framework/connections.ts`, the one list of them, with its reason; a View
 * permission that the rows' other calls need in effect already):
 * - Lookups the API client makes only after a transient failure, to adopt what a failed create may
 *   have committed (`createOrAdopt`: get_user after create_user, get_staging_configs after
 *   create_staging_config, the egress reads after the egress creates). Each needs the View
 *   permission of the family whose Create the call needs, which dependency rule 1 already requires.
 * - `check`, which calls no operation but the reads before changes are planned (the installation
 *   check's one read, the lookups of the objects a preview names); it is no step of a row.
 * - get_users in the reads of User, GroupMembership, UserGroups and UserServerAssignment: a refresh
 *   that reads many users serves them from get_users pages instead of a get_user each. The spec
 *   gives get_users the permissions of get_user (Users View, and Servers View for
 *   `assigned_servers`) and the same record, so the get_user rows stand for both.
 * - A few reads of a kind's own records beside its writes: a CastConfig's (a released Kasm's
 *   get_cast_config(s)), a UserAttributes update's get_attributes, a UserSet's get_users before its
 *   destroy and get_groups before it adds an existing user to a group.
 * - Nothing: Images Modify Resources (special permission 3) is in the Workspace row, on an update
 *   that changes a compute-related field, which the native provider's preview names for the policies
 *   (`resourceFieldsChanging`, see `RESOURCE_FIELDS_CHANGING`), and on an adopting create that may
 *   (see {@link COMPUTE_SETTINGS_KINDS}).
 *
 * @example
 * ```ts
 * const needs = resourcePermissionNeeds("GroupMembership", { userId, groupId: administratorsId }, knowledgeFromFacts({ administratorsGroupId: administratorsId }));
 * needs.create.requirements; // [{ all: ["Groups Modify", "Groups Modify System"], oneOf: [], reasons: [...] }]
 * ```
 */
import { LIFECYCLE_STEPS, type KasmKind, type LifecycleStep } from "./kinds";
import type { KindCalls, PermissionKnowledge, ResourceNeeds, Rows, StepNeeds } from "./planned-calls";
import { userCalls } from "../provider/resources/user.calls";
import { userSetCalls } from "../provider/resources/user-set/calls";
import { userAttributesCalls } from "../provider/resources/user-attributes.calls";
import { groupMembershipCalls } from "../provider/resources/group-membership.calls";
import { userGroupsCalls } from "../provider/resources/user-groups.calls";
import { userServerAssignmentCalls } from "../provider/resources/user-server-assignment.calls";
import { stagingConfigCalls } from "../provider/resources/staging-config.calls";
import { castConfigCalls } from "../provider/resources/cast-config.calls";
import { serverDrainCalls } from "../provider/resources/server-drain.calls";
import { licenseActivationCalls } from "../provider/resources/license-activation.calls";
import { serverImportCalls } from "../provider/resources/server-import/calls";
import { groupCalls } from "../provider/resources/group.calls";
import { egressProviderCalls } from "../provider/resources/egress-provider.calls";
import { egressGatewayCalls } from "../provider/resources/egress-gateway.calls";
import { egressProviderMappingCalls } from "../provider/resources/egress-provider-mapping.calls";
import { egressCredentialCalls } from "../provider/resources/egress-credential.calls";
import { workspaceCalls } from "../provider/resources/workspace.calls";
import { groupWorkspaceCalls } from "../provider/resources/group-workspace.calls";
import { workspaceRegistryCalls } from "../provider/resources/workspace-registry.calls";

export { referenceKey, knowledgeFromFacts, type KnownFacts, type PermissionKnowledge } from "./planned-calls";
export type { PlannedCall, ResourceNeeds, StepNeeds, UndecidedFact, UserField } from "./planned-calls";
export * from "./key-judgement";

/**
 * Every kind's calls declaration, by kind: a kind without one, or one filed under another kind's
 * name, fails to compile.
 */
const KIND_CALLS: { readonly [K in KasmKind]: KindCalls<K> } = {
  User: userCalls,
  UserSet: userSetCalls,
  UserAttributes: userAttributesCalls,
  GroupMembership: groupMembershipCalls,
  UserGroups: userGroupsCalls,
  UserServerAssignment: userServerAssignmentCalls,
  StagingConfig: stagingConfigCalls,
  CastConfig: castConfigCalls,
  ServerDrain: serverDrainCalls,
  LicenseActivation: licenseActivationCalls,
  ServerImport: serverImportCalls,
  Group: groupCalls,
  EgressProvider: egressProviderCalls,
  EgressGateway: egressGatewayCalls,
  EgressProviderMapping: egressProviderMappingCalls,
  EgressCredential: egressCredentialCalls,
  Workspace: workspaceCalls,
  GroupWorkspace: groupWorkspaceCalls,
  WorkspaceRegistry: workspaceRegistryCalls,
};

/**
 * The rows: for each kind, what its provider's create, read, update and delete call, from the
 * kind's calls declaration beside its provider (see {@link KIND_CALLS}).
 */
export const KIND_ROWS: Rows<KasmKind> = Object.fromEntries(Object.values(KIND_CALLS).map((calls: KindCalls) => [calls.kind, calls.steps])) as Rows<KasmKind>;

/**
 * What each lifecycle step of a resource needs: the calls its provider makes, in order, with the
 * requirement of each (see {@link Requirement}).
 *
 * @param kind The resource's kind.
 * @param props Its properties (inputs, or the outputs that carry them); values may be unknown placeholders.
 * @param knowledge What the properties do not say (see {@link knowledgeFromFacts}).
 */
export function resourcePermissionNeeds(kind: KasmKind, props: Readonly<Record<string, unknown>>, knowledge: PermissionKnowledge): ResourceNeeds {
  const rows = KIND_ROWS[kind](props, knowledge);
  const needs = {} as Record<LifecycleStep, StepNeeds>;
  for (const step of LIFECYCLE_STEPS) {
    const calls = Object.freeze([...rows[step]]);
    needs[step] = Object.freeze({ step, calls, requirements: Object.freeze(calls.map((c) => c.requirement)) });
  }
  return Object.freeze(needs);
}
