/**
 * What an API key needs to manage each kind of Kasm resource: for every lifecycle step (create,
 * read, update, delete), the public operations that kind's provider calls, the circumstances of
 * each call (its {@link OperationContext}), and so the permissions each call needs.
 *
 * THE PROVIDERS ARE THE TRUTH. Each row of {@link KIND_ROWS} restates what
 * `provider/resources/<kind>.ts` calls in that method, in the order it calls them. When a provider
 * changes the operations it calls, or when it calls them, its row here must change in the same
 * commit. `test/policy/consistency.test.ts` runs the real providers against the emulator with
 * random keys and random stacks and fails when a row and its provider disagree; the policy packs
 * (`policy/permissions`) read nothing else.
 *
 * What the rows leave out, on purpose:
 * - Lookups the API client makes only after a transient failure, to adopt what a failed create may
 *   have committed (`createOrAdopt`: get_user after create_user, get_staging_configs after
 *   create_staging_config, the egress reads after the egress creates). Each needs the View
 *   permission of the family whose Create the call needs, which dependency rule 1 already requires.
 * - `check`, which calls no operation.
 * - get_users in the reads of User, GroupMembership, UserGroups and UserServerAssignment: a refresh
 *   that reads many users serves them from get_users pages instead of a get_user each. The spec
 *   gives get_users the permissions of get_user (Users View, and Servers View for
 *   `assigned_servers`) and the same record, so the get_user rows stand for both.
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
import type { PermissionKnowledge } from "./permission-knowledge";
import type { ResourceNeeds, Rows, StepNeeds } from "./kind-rows/plan";
import { USER_ROWS } from "./kind-rows/users";
import { INFRASTRUCTURE_ROWS } from "./kind-rows/infrastructure";
import { EGRESS_ROWS } from "./kind-rows/egress";
import { WORKSPACE_ROWS } from "./kind-rows/workspaces";

export { referenceKey, knowledgeFromFacts, type KnownFacts, type PermissionKnowledge } from "./permission-knowledge";
export type { PlannedCall, ResourceNeeds, StepNeeds, UndecidedFact, UserField } from "./kind-rows/plan";
export * from "./key-judgement";

/**
 * The rows: for each kind, what its provider's create, read, update and delete call. Read each
 * next to `provider/resources/<kind>.ts`; they live in `catalogue/kind-rows/`, one file per family.
 */
export const KIND_ROWS: Rows<KasmKind> = { ...USER_ROWS, ...INFRASTRUCTURE_ROWS, ...EGRESS_ROWS, ...WORKSPACE_ROWS };

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
