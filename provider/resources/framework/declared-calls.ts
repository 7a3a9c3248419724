/**
 * The client a lifecycle step of a kind is handed refuses what the kind did not declare for it.
 *
 * A kind declares once, beside its provider, what each step calls (`provider/resources/<kind>.calls.ts`,
 * see `KindCalls` in permissions/planned-calls.ts), and the permission policies judge API keys by
 * that declaration (`KIND_ROWS`). So that a provider cannot call more than it declares,
 * {@link withDeclaredCalls} hands each step (create, read, update, delete) a context whose client
 * is a view (`KasmClient.allowingOnly`) that allows the operations the declaration, evaluated for
 * the resource's properties, lists for that step, and those {@link UNLISTED_CALLS} allows beside
 * them; any other is refused with a {@link KasmUndeclaredCallError} before a request is sent.
 * Whether a call is made under the circumstances the declaration gives is not checked here: the
 * consistency test of the policies does that (`test/policy/consistency.test.ts`).
 *
 * `check` and `diff` are no steps of a declaration: they keep the client as it is. `diff` calls
 * nothing; `check` calls nothing either, but for the reads made before changes are planned, which
 * no key's verdict depends on: the installation check's one read (`installation-check.ts`), and
 * the lookups that name an existing object in the preview (`take-over.ts`, and the natural-key
 * lookups before creates, whose listings the creates list).
 */
import type { KasmKind, LifecycleStep } from "../../../permissions/kinds";
import type { OperationName } from "../../../permissions/operations";
import { knowledgeFromFacts, type KindCalls } from "../../../permissions/planned-calls";
import type { AllowedCalls } from "../../api/allowed-calls";
import type { KasmClient } from "../../api/client";
import { KasmUndeclaredCallError } from "./errors";
import type { Kind, KindContext, Props } from "./types";

/**
 * An operation a step may call though its kind's declaration does not list it, on purpose: in
 * every step that lists `beside` (and of `kind` and `step` only, when they are given).
 */
interface UnlistedCall {
  readonly operation: OperationName;
  readonly beside?: OperationName;
  readonly kind?: KasmKind;
  readonly step?: LifecycleStep;
}

/**
 * Every call a step may make that its kind's declaration leaves out, and why (the same as "What
 * the rows leave out, on purpose" in permissions/kind-table.ts). Nothing else is allowed beside the
 * declarations.
 */
export const UNLISTED_CALLS: readonly UnlistedCall[] = [
  // The lookups the client makes only after a transient failure of a create, to adopt what the
  // failed attempt may have committed (`createOnce` in provider/api/recovery.ts). Each needs the
  // View permission of the family whose Create the create needs, which dependency rule 1 requires.
  { beside: "create_user", operation: "get_user" },
  { beside: "create_group", operation: "get_groups" },
  { beside: "add_images_group", operation: "get_images_group" },
  { beside: "create_image", operation: "get_images" },
  { beside: "create_registry", operation: "get_registries" },
  { beside: "create_staging_config", operation: "get_staging_configs" },
  { beside: "create_cast_config", operation: "get_cast_configs" },
  { beside: "create_egress_provider", operation: "get_egress_providers" },
  { beside: "create_egress_gateway", operation: "get_egress_gateways" },
  { beside: "create_egress_provider_mapping", operation: "get_egress_provider_mapping" },
  { beside: "create_egress_credential", operation: "get_egress_credentials" },
  // A user read serves from get_users pages, shared by the reads that arrive together, instead of
  // a get_user each (provider/api/user-reads.ts; and the username lookups before User creates,
  // key-lookups.ts). The spec gives get_users the permissions of get_user and the same
  // record: the get_user of a declaration stands for both. (The shared pages are read by the
  // installation's own client; such a read is refused, at its start, as its get_user would be.)
  { beside: "get_user", operation: "get_users" },
  // A released Kasm (kasm:apiNames product) reads casting configs: a CastConfig's refresh reads
  // its config, and its create looks the key up first, which the documentation's vocabulary
  // cannot. Both need Casting View, which every key the declaration lets create, update or delete
  // a config holds in effect (Casting Create, Modify and Delete each need it by the dependency rules).
  { kind: "CastConfig", step: "read", operation: "get_cast_config" },
  { kind: "CastConfig", step: "create", operation: "get_cast_configs" },
  // An update that changes autoLoginWs reads the record first, whose names show the vocabulary the
  // installation speaks, so that a mismatch fails before anything is written: Users View, which
  // update_user_attributes' Users Modify needs by the dependency rules.
  { kind: "UserAttributes", step: "update", operation: "get_attributes" },
  // A UserSet's destroy first learns which of its users are still in Kasm, from get_users pages:
  // Users View, which delete_user's Users Delete needs by the dependency rules.
  { kind: "UserSet", step: "delete", operation: "get_users" },
  // A released Kasm lists its groups for the ids of groups the rows name that no user shows, before
  // a UserSet adds an existing user to one: Groups View, which add_user_group's Groups Modify needs.
  { kind: "UserSet", beside: "add_user_group", operation: "get_groups" },
];

/** What the declarations are evaluated with: no fact known, so that each lists every call it may make. */
const KNOWING_NOTHING = knowledgeFromFacts({});

/**
 * The operations a step of a resource may call: those its kind's declaration lists for the step,
 * for these properties, and those {@link UNLISTED_CALLS} allows beside them.
 */
export function allowedOperations(calls: KindCalls, step: LifecycleStep, props: Props): ReadonlySet<OperationName> {
  const listed = new Set(calls.steps(props, KNOWING_NOTHING)[step].map((call) => call.operation));
  const allowed = new Set(listed);
  for (const unlisted of UNLISTED_CALLS) {
    const applies =
      (unlisted.beside === undefined || listed.has(unlisted.beside)) &&
      (unlisted.kind === undefined || unlisted.kind === calls.kind) &&
      (unlisted.step === undefined || unlisted.step === step);
    if (applies) allowed.add(unlisted.operation);
  }
  return allowed;
}

/** `context` for one step: its clients allow only `allowed`, refusing any other operation for `kind`'s `step`. */
function contextAllowing(context: KindContext, kind: KasmKind, step: LifecycleStep, allowed: ReadonlySet<OperationName>): KindContext {
  const calls: AllowedCalls = {
    allows: (operation) => allowed.has(operation),
    refusal: (operation) => new KasmUndeclaredCallError(kind, step, operation),
  };
  // One view per step, made when the step first asks for its client.
  let view: KasmClient | undefined;
  return {
    ...context,
    client: () => (view ??= context.client().allowingOnly(calls)),
    existingClient: () => {
      const client = context.existingClient();
      return client === undefined ? undefined : (view ??= client.allowingOnly(calls));
    },
  };
}

/**
 * The properties an update is judged by, as a policy sees them: the new inputs, and the outputs
 * the state holds (what is not an input).
 */
function updateProps(olds: Props, news: Props, inputNames: ReadonlySet<string>): Props {
  const outputs = Object.fromEntries(Object.entries(olds).filter(([name]) => !inputNames.has(name)));
  return { ...outputs, ...news };
}

/**
 * `kind` with each lifecycle step handed a client that allows only what its manifest's calls
 * declaration lists for it (see the module comment). `check`, `diff` and any other member are kept
 * as they are. `defineKind` applies it to every kind it builds; a bulk kind, which writes its
 * provider by hand, applies it itself.
 */
export function withDeclaredCalls<Inputs extends object, State extends object, Outputs extends object, K extends Kind<Inputs, State, Outputs>>(kind: K): K {
  const { calls, fields } = kind.manifest;
  const inputs = new Set(Object.keys(fields));
  const stepContext = (context: KindContext, step: LifecycleStep, props: object) =>
    contextAllowing(context, calls.kind, step, allowedOperations(calls, step, props as Props));
  return {
    ...kind,
    create: (news: Inputs, context: KindContext) => kind.create(news, stepContext(context, "create", news)),
    read: (id: string, props: State, context: KindContext) => kind.read(id, props, stepContext(context, "read", props)),
    update: (id: string, olds: State, news: Inputs, context: KindContext) =>
      kind.update(id, olds, news, stepContext(context, "update", updateProps(olds as Props, news as Props, inputs))),
    delete: (id: string, props: State, context: KindContext) => kind.delete(id, props, stepContext(context, "delete", props)),
  };
}
