/**
 * What to do with each create a killed run left pending in the state: record the object it made,
 * drop it (the next `up` creates the object, or records what it finds), or leave it and say why.
 *
 * The proof that an object is the one the create made is the kind's own (see
 * `provider/resources/framework/interrupted-create.ts`): the pending create in this stack's state, an
 * object with its natural key, and every declared field Kasm shows equal. Each create is asked of
 * the installation its resource lives on: a native resource's provider (the default one or an
 * explicit one, whose settings the state holds), a dynamic resource's `connection` (the stack's
 * configuration, and the `KASM_*` environment, as the provider reads them).
 */
import { kindAndFormOfTypeToken, type KasmKind, type KasmResourceForm } from "../permissions/kinds";
import { kinds } from "../provider";
import { settingsReader } from "../provider/native/configuration";
import type { InterruptedCreate } from "../provider/resources/framework/interrupted-create";
import type { KindContext, Props } from "../provider/resources/framework/types";
import { ConnectionRegistry, contextIn } from "../provider/runtime";
import { revealed, type ExportedStack, type PendingOperation, type StateResource } from "./pulumi";

/** What recovery does with one pending create. */
export type Decision =
  /** Kasm holds the object the create made: it goes into the state with this id. */
  | { readonly action: "record"; readonly urn: string; readonly id: string; readonly state?: Props; readonly says: string }
  /** The pending create is dropped: the next `up` creates the object, or records the one it finds. */
  | { readonly action: "drop"; readonly urn: string; readonly says: string }
  /** Left pending: recovery cannot prove the object is the create's; `says` names the way out. */
  | { readonly action: "keep"; readonly urn: string; readonly says: string };

/**
 * Kinds without a natural-key lookup whose create, sent again, ends in the declared state
 * whatever the interrupted one did: dropping their pending create is all they need.
 */
const CREATE_AGAIN_CONVERGES: Partial<Record<KasmKind, string>> = {
  GroupMembership: "a membership that exists is recorded as it is",
  UserServerAssignment: "an assignment that exists is recorded as it is",
  GroupWorkspace: "an authorization that exists is recorded as it is",
  EgressProviderMapping: "a mapping that exists is taken over as it is",
  UserGroups: "it sets the user's groups from what Kasm holds",
  UserAttributes: "it sets the attributes of the existing user again",
  ServerDrain: "a server drained already is left as it is",
};

/** The way out for kinds recovery cannot prove, by kind. */
const KEPT_BECAUSE: Partial<Record<KasmKind, string>> = {
  ServerImport:
    "a server import may have made its servers: look for them in the Kasm admin UI (Infrastructure, Servers) and delete them before the next `up`, then run `pulumi refresh --yes --clear-pending-creates`",
};

/** The resource's name: the last part of its URN. */
function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** The inputs as the kind knows them: without the dynamic form's serialized provider, name and connection. */
function kindInputs(inputs: Props): Props {
  const { __provider: _provider, __resourceName: _name, connection: _connection, ...rest } = inputs;
  return rest;
}

/** Where recovery reads each resource's installation settings: the stack's configuration, and the state's providers. */
export interface Installations {
  /** The stack's configuration (`kasm:baseUrl`, `kasm-prod:apiKey`, ...), secrets in plain text. */
  readonly config: ReadonlyMap<string, string>;
  /** The state with its secrets in plain text (the native providers' settings, the declared inputs). */
  readonly revealedState: ExportedStack;
  /** The environment the settings fall back to (`KASM_BASE_URL`, ...). */
  readonly env: NodeJS.ProcessEnv;
  /** Where the kinds' warnings go. */
  warn(message: string): void;
}

/** The registries built, one per native provider (by its URN) and one for the stack's configuration (""). */
type Registries = Map<string, ConnectionRegistry>;

/** The context a kind is handed for `resource` of `form`. */
function contextOf(resource: StateResource, form: KasmResourceForm, installations: Installations, registries: Registries): KindContext {
  const diagnostics = {
    warn: async (message: string) => installations.warn(message),
    note: async () => undefined,
  };
  const name = nameOf(resource.urn);
  if (form === "native" && resource.provider) {
    const providerUrn = resource.provider.slice(0, resource.provider.lastIndexOf("::"));
    let registry = registries.get(providerUrn);
    if (registry === undefined) {
      const provider = installations.revealedState.deployment.resources?.find((r) => r.urn === providerUrn);
      const settings = (revealed(provider?.inputs ?? {}) ?? {}) as Props;
      registry = new ConnectionRegistry(settingsReader(settings), installations.env);
      registries.set(providerUrn, registry);
    }
    return contextIn(registry, undefined, name, diagnostics);
  }
  let registry = registries.get("");
  if (registry === undefined) {
    registry = new ConnectionRegistry((key) => installations.config.get(key), installations.env);
    registries.set("", registry);
  }
  const connection = typeof resource.inputs?.connection === "string" ? resource.inputs.connection : undefined;
  return contextIn(registry, connection, name, diagnostics);
}

/** The words for what Kasm holds, per outcome. */
function decisionOf(urn: string, kind: KasmKind, answer: InterruptedCreate): Decision {
  const subject = `${kind} ${nameOf(urn)}`;
  switch (answer.outcome) {
    case "made":
      return {
        action: "record",
        urn,
        id: answer.id,
        state: answer.state,
        says: `${subject}: recorded as the object its interrupted create made (id ${answer.id})`,
      };
    case "not-made":
      return { action: "drop", urn, says: `${subject}: Kasm has no such object; the pending create is dropped, and the next \`pulumi up\` creates it` };
    case "unknown":
      return { action: "keep", urn, says: `${subject}: left pending; ${answer.why}` };
    case "differs":
      return {
        action: "keep",
        urn,
        says:
          `${subject}: Kasm holds an object with its key (id ${answer.id}) that differs from the program in ${answer.fields.join(", ")}, so it is not ` +
          `taken as the interrupted create's. Make the program match Kasm, or delete the object in Kasm, and run kasm-recover again; ` +
          `or take it over with \`adopt: true\``,
      };
  }
}

/**
 * Decide what to do with each pending create of the state (the other pending operations need
 * nothing: the next `up` sends an update or a delete again, which ends in the declared state).
 */
export async function decidePendingCreates(pending: readonly PendingOperation[], installations: Installations): Promise<Decision[]> {
  const registries: Registries = new Map();
  const revealedOps = new Map((installations.revealedState.deployment.pending_operations ?? []).map((op) => [op.resource.urn, op]));
  try {
    return await Promise.all(
      pending
        .filter((op) => op.type === "creating")
        .map(async (op): Promise<Decision> => {
          const urn = op.resource.urn;
          const found = kindAndFormOfTypeToken(op.resource.type);
          if (found === undefined) return { action: "keep", urn, says: `${urn}: not a Kasm resource; left to \`pulumi refresh\`` };
          const converges = CREATE_AGAIN_CONVERGES[found.kind];
          if (converges !== undefined)
            return {
              action: "drop",
              urn,
              says: `${found.kind} ${nameOf(urn)}: the pending create is dropped; the next \`pulumi up\` creates it again (${converges})`,
            };
          const kind = kinds[found.kind] as { interruptedCreate?: (inputs: Props, context: KindContext) => Promise<InterruptedCreate> };
          if (kind.interruptedCreate === undefined) {
            const why =
              KEPT_BECAUSE[found.kind] ??
              "recovery cannot tell whether its create committed: look in Kasm, then run `pulumi refresh --yes --clear-pending-creates`";
            return { action: "keep", urn, says: `${found.kind} ${nameOf(urn)}: left pending; ${why}` };
          }
          const resource = (revealedOps.get(urn)?.resource ?? op.resource) as StateResource;
          const inputs = kindInputs(revealed(resource.inputs ?? {}) as Props);
          const answer = await kind.interruptedCreate(inputs, contextOf(resource, found.form, installations, registries));
          return decisionOf(urn, found.kind, answer);
        }),
    );
  } finally {
    await Promise.all([...registries.values()].map((registry) => registry.close()));
  }
}

/**
 * The state with the decisions applied: each recorded object a resource of the state (the pending
 * create's resource, encrypted as it is, with the id; its outputs its inputs until the refresh
 * that follows reads them), each recorded or dropped create no longer pending.
 */
export function applyDecisions(state: ExportedStack, decisions: readonly Decision[]): ExportedStack {
  const byUrn = new Map(decisions.map((decision) => [decision.urn, decision]));
  const pending = state.deployment.pending_operations ?? [];
  const recorded = pending.flatMap((op) => {
    const decision = op.type === "creating" ? byUrn.get(op.resource.urn) : undefined;
    return decision?.action === "record" ? [{ ...op.resource, id: decision.id, outputs: { ...(op.resource.inputs ?? {}), ...(decision.state ?? {}) } }] : [];
  });
  const left = pending.filter((op) => op.type !== "creating" || byUrn.get(op.resource.urn)?.action === "keep" || !byUrn.has(op.resource.urn));
  return { ...state, deployment: { ...state.deployment, resources: [...(state.deployment.resources ?? []), ...recorded], pending_operations: left } };
}
