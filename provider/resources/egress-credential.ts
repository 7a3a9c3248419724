/**
 * `EgressCredential`: the credentials a user, a group or an image (exactly one) uses on the
 * gateways of an egress provider.
 *
 * API: create_egress_credential and get_egress_credentials (filtered by provider and name, found
 * by id). The API has NO operation to update or to delete a credential, so:
 * - every change of an input replaces the credential (a new one is created), and names are unique
 *   within a provider, so a replacement needs a new `name`. `check` refuses a replacing change
 *   that keeps the name (and the provider), so that `pulumi preview` fails rather than `up`; a
 *   create that still meets the old name fails with an error saying so;
 * - destroying or replacing a credential leaves the old one in Kasm. Delete succeeds without a
 *   request, and warns (through the engine's log, see provider/engine-log.ts). Kasm deletes a
 *   provider's credentials with the provider; otherwise remove them in the Kasm admin UI;
 * - `adopt: true` takes over the credential of the provider with the same name (found with
 *   get_egress_credentials). Since it cannot be updated, it must already be as declared: a
 *   difference in a field Kasm returns fails the create, naming the fields (never their values).
 * `allowAllGateways` left out means false (Kasm's default), as for a mapping.
 * `password`, `wireguardPrivateKey`, `meshKey` and `customCredential` are secrets, never in
 * errors or logs. Kasm returns the password masked: it stays as declared and drift in it cannot
 * be seen. The other secrets are compared when Kasm returns them in clear; returned as null or
 * masked (asterisks), they stay as declared too. Drift in the other fields shows on refresh (and
 * reverting it means a replacement).
 */
import { z } from "zod";
import { egressCredentialShown, type EgressCredential as KasmCredential, type NewEgressCredential } from "../api/schemas/egress";
import { KasmApiError } from "../api/errors/base";
import type { KasmClient } from "../api/client";
import { warn } from "../engine-log";
import {
  apiId,
  EGRESS_PROVIDER_REFERENCE,
  findUnderProvider,
  currentGateways,
  currentTarget,
  refineTargetAndGateways,
  targetAndGatewayFields,
  withGatewayDefault,
} from "./egress-shared";
import { ADOPT, declared, inputNames, keepSpelling, refreshedInputs, same, declareFields } from "./framework/fields";
import { EVEN_WITH_OTHER_FAILURES, isUnknown, requiredText } from "./framework/check-wording";
import { GONE, isAlreadyExists, defineKind, type KindOutputs } from "./framework/define-kind";
import { KasmNotAdoptedError } from "./framework/errors";
import type { KindTexts, Props, RefreshedInputs } from "./framework/types";
import { egressCredentialCalls } from "./egress-credential.calls";

// --- types ---------------------------------------------------------------------------------------

const Secret = z.string().min(1, "must not be empty");

/**
 * Each input of an EgressCredential, declared once: its type, role, rule, doc and how it is sent.
 * Kasm cannot change a credential: every field replaces it (`adopt` replaces nothing and is never sent).
 */
const EGRESS_CREDENTIAL_FIELDS = declareFields(
  {
    egressProviderId: {
      ...EGRESS_PROVIDER_REFERENCE,
      replaces: true,
      doc: "The egress provider (32 hex digits or a hyphenated UUID).",
    },
    name: {
      type: requiredText("name"),
      role: "sent",
      replaces: true,
      doc: "The credential's name, unique within its provider. Change it whenever another input changes.",
    },
    ...targetAndGatewayFields(true),
    username: { type: z.string().optional(), role: "sent", replaces: true, doc: "The user name on the provider's gateways (OpenVPN)." },
    password: {
      type: Secret.optional(),
      role: "sent",
      replaces: true,
      secret: true,
      doc: "The password on the provider's gateways; always stored as a secret. Kasm returns it masked, " + "so drift in it cannot be seen.",
    },
    wireguardPrivateKey: {
      type: Secret.optional(),
      role: "sent",
      replaces: true,
      secret: true,
      doc: "The WireGuard private key (the `PrivateKey` the gateway config leaves out); always stored as " + "a secret.",
    },
    meshKey: { type: Secret.optional(), role: "sent", replaces: true, secret: true, doc: "The mesh key; always stored as a secret." },
    enabled: { type: z.boolean().optional(), role: "sent", replaces: true, doc: "Whether the credential is in use. Kasm's default: true." },
    // Their rule spans both (a limit only with limiting on): a stand-in each while unknown.
    limitActiveConnections: {
      type: z.boolean().optional(),
      role: "sent",
      replaces: true,
      placeholder: false,
      doc: "Limit the connections made with the credential to `activeConnectionLimit`.",
    },
    activeConnectionLimit: {
      type: z.number().int("must be a whole number").nonnegative("must not be negative").optional(),
      role: "sent",
      replaces: true,
      placeholder: 1,
      doc: "The most connections at once; must be positive when `limitActiveConnections` is true.",
    },
    customCredential: {
      type: Secret.optional(),
      role: "sent",
      replaces: true,
      secret: true,
      doc: "Credential data for a provider of type `custom`; always stored as a secret.",
    },
    adopt: {
      ...ADOPT,
      doc:
        "Take over the provider's existing credential with this `name` instead of failing. Kasm cannot " +
        "update a credential, so it must already be as declared: a difference in any input Kasm " +
        "returns fails the create and names the inputs (the password, which Kasm returns masked, " +
        "cannot be checked). Changing `adopt` later replaces nothing.",
    },
  },
  (value, ctx) => {
    refineTargetAndGateways(value, ctx);
    const limit: unknown = value.activeConnectionLimit;
    // A limit of the wrong type is reported by its own rule.
    if (value.limitActiveConnections === true && (limit === undefined || (typeof limit === "number" && limit <= 0)))
      ctx.addIssue({
        code: "custom",
        path: ["activeConnectionLimit"],
        message: "activeConnectionLimit must be a positive number when limitActiveConnections is true",
      });
  },
  EVEN_WITH_OTHER_FAILURES,
);

/** The inputs of an EgressCredential. */
export const EgressCredentialInputs = EGRESS_CREDENTIAL_FIELDS.schema;
export type EgressCredentialInputs = z.infer<typeof EgressCredentialInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const EgressCredentialOutputs = z.strictObject({
  egressCredentialId: z.string().describe("The credential's id (32 hex digits)."),
  activeConnections: z
    .number()
    .int()
    .nullable()
    .describe("Connections using the credential when last read (refreshed by `pulumi refresh`; never causes a diff)."),
});
export type EgressCredentialOutputs = z.infer<typeof EgressCredentialOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the EgressCredential kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "Credentials for the gateways of an EgressProvider, for one user, group or image.\n\nThe Kasm API " +
    "has no operation to update or delete an egress credential. Hence:\n- **Every change replaces " +
    "it.** Names are unique within a provider and the old credential cannot be deleted, so give the " +
    "credential a new `name` together with any other change (for example put a version in it: " +
    "`alice-wg-2`). A change that keeps the name (and the provider) fails in `pulumi preview`, " +
    "naming `name` and the inputs that changed.\n- **Destroying or replacing it leaves the old " +
    "credential in Kasm.** The destroy succeeds with a warning in the engine's diagnostics. Kasm " +
    "deletes a provider's credentials with the provider; otherwise remove them in the Kasm admin UI.\n" +
    "- **Refresh** shows drift in what Kasm returns. Kasm returns the password masked, so it stays " +
    "as declared; so does any other secret Kasm returns masked or as null.\n\nNeeds Egress Credentials " +
    "Create and View, Egress Providers Modify, plus the Modify permission of the target (Users " +
    "Modify, Groups Modify or Images Modify).",
  arguments:
    "The arguments of an EgressCredential: exactly one of `userId`, `groupId` and `imageId`, the " +
    "user, group or image that uses the credential, and its gateways (see EgressTargetArgs). Inputs " +
    "left out are not managed. A change of ANY input replaces the credential, and the new one needs " +
    "a new `name` (see EgressCredential).",
  example: [
    'new kasm.EgressCredential("alice-wg", {',
    "  egressProviderId: vpn.egressProviderId,",
    '  name: "alice-wg-1",',
    "  userId: alice.userId,",
    '  wireguardPrivateKey: cfg.requireSecret("aliceWgKey"),',
    "  allowAllGateways: true,",
    "});",
  ].join("\n"),
  limits:
    "no update and no delete: a change creates a new credential and needs a new `name` (preview " +
    "refuses one that keeps it), and destroy or replacement leaves the old one in Kasm, with a " +
    "warning; `adopt` takes over a credential only as it is; the password comes back masked, so " +
    "drift in it (and in any secret Kasm returns masked or null) cannot be seen; create reads the " +
    "provider's credentials first, to refuse a name that exists",
};

// --- helpers -------------------------------------------------------------------------------------

/** The `target_egress_credential` body: the whole declared state, ids as Kasm writes them. */
function targetCredential(inputs: EgressCredentialInputs): NewEgressCredential {
  return EGRESS_CREDENTIAL_FIELDS.body<NewEgressCredential>(inputs);
}

function outputs(
  inputs: RefreshedInputs<EgressCredentialInputs>,
  id: string,
  activeConnections: number | null | undefined,
): KindOutputs<EgressCredentialInputs, EgressCredentialOutputs> {
  return { ...declared(inputs, inputNames(EgressCredentialInputs)), egressCredentialId: id, activeConnections: activeConnections ?? null };
}

/**
 * A secret Kasm did not show: masked (asterisks only), null or absent, or in a form not declared
 * (not text). The declared value is kept: Kasm cannot change a credential, so this is no drift.
 */
function isHidden(value: unknown): boolean {
  return typeof value !== "string" || /^\*+$/.test(value);
}

/**
 * The current values of the declared inputs, from Kasm's record: what `read` returns and what
 * adoption compares. Secrets Kasm hides stay as declared.
 */
function currentInputs(props: RefreshedInputs<EgressCredentialInputs>, credential: KasmCredential): RefreshedInputs<EgressCredentialInputs> {
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too).
  const { wireguardPrivateKey, meshKey, customCredential, ...shown } = egressCredentialShown(credential);
  const current: Props = {
    ...shown,
    egressProviderId: keepSpelling(props.egressProviderId, shown.egressProviderId),
    ...currentTarget(props, shown),
    selectedGateways: currentGateways(props.selectedGateways, props.allowAllGateways, shown.allowAllGateways, shown.selectedGateways),
  };
  // The password always comes back masked (the mapping leaves it out): it stays as declared.
  const returned: Props = { wireguardPrivateKey, meshKey, customCredential };
  for (const [key, value] of Object.entries(returned)) if (!isHidden(value)) current[key] = value;
  return refreshedInputs(props, inputNames(EgressCredentialInputs), current);
}

/**
 * The inputs whose change replaces the credential between `olds` and `news`: those the program
 * declares with a known value that differs (one it stops declaring replaces nothing). A value not
 * known yet is left out: it may turn out the same, and `check` runs again once it is known.
 */
function replacingChanges(olds: Props, news: Props): string[] {
  const before = withGatewayDefault(olds);
  const after = withGatewayDefault(news);
  return inMessageOrder(
    Object.entries(EGRESS_CREDENTIAL_FIELDS.apiFields)
      .filter(([key, rule]) => {
        const value = after[key];
        if (!rule.replaces || value === undefined || isUnknown(value)) return false;
        return before[key] === undefined || !(rule.equal ?? same.value)(before[key], value);
      })
      .map(([key]) => key),
  );
}

/** The gateway inputs, which the messages name after `enabled`, as they did before the inputs were declared in one place. */
const GATEWAY_INPUTS: readonly string[] = ["allowAllGateways", "selectedGateways"] satisfies (keyof EgressCredentialInputs)[];

/**
 * Input names in the order the messages name them: as declared (the schema's order, which keeps
 * the target and gateway inputs together), but the gateways after `enabled`, among the
 * credential's own settings, where a reader of the refusal looks for them.
 */
function inMessageOrder(names: readonly string[]): string[] {
  const gateways = names.filter((name) => GATEWAY_INPUTS.includes(name));
  const others = names.filter((name) => !GATEWAY_INPUTS.includes(name));
  const declared = Object.keys(EGRESS_CREDENTIAL_FIELDS.declarations);
  const at = others.findIndex((name) => declared.indexOf(name) > declared.indexOf("enabled"));
  return at === -1 ? [...others, ...gateways] : [...others.slice(0, at), ...gateways, ...others.slice(at)];
}

/**
 * The error for a name that exists already: Kasm cannot change or delete the old credential.
 * `cause` is Kasm's refusal of the create, or the words that name the credential found before it.
 */
function nameTakenError(name: string, providerId: string, cause: unknown, adopting: boolean): KasmNotAdoptedError {
  const detail = typeof cause === "string" ? ` (${cause})` : cause instanceof KasmApiError && cause.errorMessage ? ` (Kasm: ${cause.errorMessage})` : "";
  const adopt = adopting ? "" : " To take the existing credential over instead (it must already be as declared), set `adopt: true`.";
  return new KasmNotAdoptedError(
    `Egress credential '${name}' already exists for egress provider ${providerId}${detail}. The Kasm API can neither update nor ` +
      `delete egress credentials, so a changed credential is a new one and needs a new \`name\`: give it another name (the old ` +
      `credential stays in Kasm until it is removed in the Kasm admin UI or its egress provider is deleted), or remove the ` +
      `existing credential in the Kasm admin UI first.${adopt}`,
    typeof cause === "string" ? undefined : cause,
  );
}

/** The error for an existing credential that `adopt` cannot take over: it differs from the program. */
function differsError(name: string, providerId: string, fields: readonly string[]): KasmNotAdoptedError {
  return new KasmNotAdoptedError(
    `Egress credential '${name}' of egress provider ${providerId} exists, but differs from the program in ${fields.join(", ")}. ` +
      `\`adopt: true\` cannot bring it to the declared state, because the Kasm API can neither update nor delete egress ` +
      `credentials. Declare those inputs as they are in Kasm, or give the credential a new \`name\` to create a new one ` +
      `(the existing credential stays in Kasm until it is removed in the Kasm admin UI or its egress provider is deleted).`,
  );
}

/**
 * The credential with this id: looked for by provider and name, then, in case it was renamed or
 * moved outside Pulumi, among all credentials. Undefined when Kasm has none.
 */
async function findCredential(client: KasmClient, id: string, props: Props): Promise<KasmCredential | undefined> {
  const provider = apiId(props.egressProviderId);
  const name = props.name;
  return findUnderProvider(
    provider && typeof name === "string" ? () => client.egress.getEgressCredentials({ egress_provider_id: provider, name }) : undefined,
    () => client.egress.getEgressCredentials({}),
    (c) => same.id(c.egress_credential_id, id),
  );
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of EgressCredential: every change of a field replaces the credential. */
export const egressCredentialProvider = defineKind<EgressCredentialInputs, EgressCredentialOutputs>({
  fields: EGRESS_CREDENTIAL_FIELDS,
  outputs: EgressCredentialOutputs,
  docs: DOCS,
  // An update sends nothing anyway: it only forgets inputs (see `update`).
  sendsNothingWhen: "never",

  extraCheck(result, news, olds) {
    // A replacing change that keeps the name (and the provider) cannot succeed: the new credential
    // would clash with the old one, which Kasm cannot delete. Refuse it here, so that preview
    // fails instead of `up`. `olds` are the inputs in the state; empty for a new resource.
    const name = news.name;
    if (olds.name === undefined || typeof name !== "string" || isUnknown(name) || name !== olds.name) return result;
    if (news.egressProviderId === undefined || isUnknown(news.egressProviderId) || !same.id(olds.egressProviderId, news.egressProviderId)) return result;
    const changed = replacingChanges(olds, news);
    if (changed.length === 0) return result;
    const failure = {
      property: "name",
      reason:
        `must change: ${changed.join(", ")} changed, and the Kasm API can neither update nor delete an egress credential, so ` +
        `the change creates a new credential, which would clash with the existing one named '${name}' (names are unique ` +
        `within an egress provider). Give the credential a new name (for example with a version: '${name}-2'); the old ` +
        `one stays in Kasm until it is removed in the Kasm admin UI or its egress provider is deleted.`,
    };
    return { ...result, failures: [...(result.failures ?? []), failure] };
  },
  calls: egressCredentialCalls,

  async create(inputs, context) {
    const body = targetCredential(inputs);
    const client = context.client();
    // Names are unique within a provider: the one with this name is the one to take over. Looked up
    // even without adopt (see Adoption.findFirst in framework/define-kind.ts): no source says how Kasm answers a duplicate.
    // Without adopt, from the listing of the provider's credentials that the creates of a deployment
    // share (`KeyLookups` in provider/api/client.ts): N creates, one lookup; adopt reads the credential afresh.
    const key = { egress_provider_id: body.egress_provider_id, name: body.name };
    const existing = await (inputs.adopt === true ? client.egress.findEgressCredential(key) : client.keys.egressCredential(key));
    if (existing && inputs.adopt !== true)
      throw nameTakenError(body.name, body.egress_provider_id, `egress credential ${existing.egress_credential_id}`, false);
    if (existing) {
      // `allowAllGateways` left out means false: compare it too.
      const differs = replacingChanges(currentInputs(withGatewayDefault(inputs), existing), inputs);
      if (differs.length > 0) throw differsError(body.name, body.egress_provider_id, differs);
      return { id: existing.egress_credential_id, outs: outputs(inputs, existing.egress_credential_id, existing.active_connections) };
    }
    try {
      const credential = await client.egress.createEgressCredential(body);
      return { id: credential.egress_credential_id, outs: outputs(inputs, credential.egress_credential_id, credential.active_connections) };
    } catch (error) {
      if (isAlreadyExists(error)) throw nameTakenError(body.name, body.egress_provider_id, error, inputs.adopt === true);
      throw error;
    }
  },

  async read(id, props, context) {
    const credential = await findCredential(context.client(), id, props);
    if (!credential) return GONE;
    const inputs = currentInputs(props, credential);
    return { id: credential.egress_credential_id, props: outputs(inputs, credential.egress_credential_id, credential.active_connections), inputs };
  },

  async update(id, olds, news, _changedFields, _context) {
    // Every change of a field replaces the credential; an update only forgets inputs the program
    // stopped declaring, which needs no request.
    return { outs: outputs(news, id, olds.activeConnections) };
  },

  async delete(id, props, _context) {
    // Kasm has no operation to delete an egress credential: the destroy succeeds and says so.
    await warn(
      `EgressCredential '${String(props.name)}' (${id}) was removed from the Pulumi state but stays in Kasm: the Kasm API ` +
        `cannot delete egress credentials. Kasm deletes it with its egress provider; otherwise remove it in the Kasm admin UI.`,
    );
  },
});
