/**
 * `EgressCredential`: the credentials a user, a group or an image (exactly one) uses on the
 * gateways of an egress provider.
 *
 * API: create_egress_credential and get_egress_credentials (filtered by provider and name, found
 * by id). The API has NO operation to update or to delete a credential, so:
 * - every change of an input replaces the credential (a new one is created), and names are unique
 *   within a provider, so a replacement needs a new `name`: a create with the old name fails
 *   with an error saying so;
 * - destroying or replacing a credential leaves the old one in Kasm. Delete succeeds without a
 *   request, and warns (through the engine's log, see provider/engine-log.ts). Kasm deletes a
 *   provider's credentials with the provider; otherwise remove them in the Kasm admin UI.
 * `allowAllGateways` left out means false (Kasm's default), as for a mapping.
 * `password`, `wireguardPrivateKey`, `meshKey` and `customCredential` are secrets, never in
 * errors or logs. Kasm returns the password masked, so it stays as declared and drift in it
 * cannot be seen; drift in the other fields shows on refresh (and reverting it means a replacement).
 */
import { z } from "zod";
import { KasmApiError, type EgressCredential as KasmCredential, type NewEgressCredential } from "../api";
import { kasmClient } from "../runtime";
import { warn } from "../engine-log";
import { apiId, currentGateways, currentTarget, gatewayBody, refineTargetAndGateways, targetBody, TargetAndGatewayInputs, TARGET_PLACEHOLDERS, withGatewayDefault } from "./egress-shared";
import {
  checkInputs,
  declared,
  diffInputs,
  EVEN_WITH_OTHER_FAILURES,
  GONE,
  isAlreadyExists,
  keepSpelling,
  refreshedInputs,
  requiredId,
  requiredText,
  same,
  type FieldRule,
  type KindProvider,
  type Props,
} from "./kit";

// --- types ---------------------------------------------------------------------------------------

const Secret = z.string().min(1, "must not be empty");

/** The inputs of an EgressCredential. */
export const EgressCredentialInputs = z
  .strictObject({
    egressProviderId: requiredId("egressProviderId"),
    name: requiredText("name"),
    ...TargetAndGatewayInputs,
    username: z.string().optional(),
    password: Secret.optional(),
    wireguardPrivateKey: Secret.optional(),
    meshKey: Secret.optional(),
    enabled: z.boolean().optional(),
    limitActiveConnections: z.boolean().optional(),
    activeConnectionLimit: z.number().int("must be a whole number").nonnegative("must not be negative").optional(),
    customCredential: Secret.optional(),
  })
  .superRefine((value, ctx) => {
    refineTargetAndGateways(value, ctx);
    const limit: unknown = value.activeConnectionLimit;
    // A limit of the wrong type is reported by its own rule.
    if (value.limitActiveConnections === true && (limit === undefined || (typeof limit === "number" && limit <= 0)))
      ctx.addIssue({
        code: "custom",
        path: ["activeConnectionLimit"],
        message: "activeConnectionLimit must be a positive number when limitActiveConnections is true",
      });
  }, EVEN_WITH_OTHER_FAILURES);
export type EgressCredentialInputs = z.infer<typeof EgressCredentialInputs>;

/** What the provider adds to the inputs. */
export interface EgressCredentialOutputs {
  readonly egressCredentialId: string;
  /** Connections using the credential when last read; never causes a diff. */
  readonly activeConnections: number | null;
}

/** Kasm cannot change a credential: every field replaces it. */
const REPLACES: FieldRule = { replaces: true };
const ID_REPLACES: FieldRule = { equal: same.id, replaces: true };

/** Fields sent to Kasm, and how each compares. */
const API_FIELDS: Readonly<Record<string, FieldRule>> = {
  egressProviderId: ID_REPLACES,
  name: REPLACES,
  userId: ID_REPLACES,
  groupId: ID_REPLACES,
  imageId: ID_REPLACES,
  username: REPLACES,
  password: REPLACES,
  wireguardPrivateKey: REPLACES,
  meshKey: REPLACES,
  enabled: REPLACES,
  allowAllGateways: REPLACES,
  selectedGateways: { equal: same.idSet, replaces: true },
  limitActiveConnections: REPLACES,
  activeConnectionLimit: REPLACES,
  customCredential: REPLACES,
};

/** Placeholders for values unknown during preview (see `checkWithPlaceholders`). */
const PLACEHOLDERS: Readonly<Props> = { ...TARGET_PLACEHOLDERS, limitActiveConnections: false, activeConnectionLimit: 1 };

// --- helpers -------------------------------------------------------------------------------------

/** The `target_egress_credential` body: the whole declared state, ids as Kasm writes them. */
function targetCredential(inputs: Props): NewEgressCredential {
  const body: NewEgressCredential = {
    egress_provider_id: apiId(inputs.egressProviderId) as string,
    name: String(inputs.name),
    ...targetBody(inputs),
    ...gatewayBody(inputs),
  };
  const plain = {
    username: inputs.username,
    password: inputs.password,
    wireguard_private_key: inputs.wireguardPrivateKey,
    mesh_key: inputs.meshKey,
    enabled: inputs.enabled,
    limit_active_connections: inputs.limitActiveConnections,
    active_connection_limit: inputs.activeConnectionLimit,
    custom_credential: inputs.customCredential,
  };
  for (const [key, value] of Object.entries(plain)) if (value !== undefined) (body as Record<string, unknown>)[key] = value;
  return body;
}

function outputs(inputs: Props, id: string, activeConnections: unknown): Props {
  return { ...declared(inputs, Object.keys(API_FIELDS)), egressCredentialId: id, activeConnections: activeConnections ?? null };
}

/** A value Kasm masked (asterisks only), did not return, or returned in a form not declared (not text): the declared one is kept. */
function isHidden(value: unknown): boolean {
  if (value === null) return false;
  return typeof value !== "string" || /^\*+$/.test(value);
}

/** The error for a name that exists already: Kasm cannot change or delete the old credential. */
function nameTakenError(name: string, providerId: string, cause: unknown): Error {
  const detail = cause instanceof KasmApiError && cause.errorMessage ? ` (Kasm: ${cause.errorMessage})` : "";
  return new Error(
    `Egress credential '${name}' already exists for egress provider ${providerId}${detail}. The Kasm API can neither update nor ` +
      `delete egress credentials, so a changed credential is a new one and needs a new \`name\`: give it another name (the old ` +
      `credential stays in Kasm until it is removed in the Kasm admin UI or its egress provider is deleted), or remove the ` +
      `existing credential in the Kasm admin UI first.`,
  );
}

/**
 * The credential with this id: looked for by provider and name, then, in case it was renamed or
 * moved outside Pulumi, among all credentials. Undefined when Kasm has none.
 */
async function findCredential(id: string, props: Props): Promise<KasmCredential | undefined> {
  const client = kasmClient();
  const byId = (credentials: KasmCredential[]) => credentials.find((c) => same.id(c.egress_credential_id, id));
  const provider = apiId(props.egressProviderId);
  if (provider && typeof props.name === "string") {
    const found = byId(await client.egress.getEgressCredentials({ egress_provider_id: provider, name: props.name }));
    if (found) return found;
  }
  return byId(await client.egress.getEgressCredentials({}));
}

// --- provider ------------------------------------------------------------------------------------

export const egressCredentialProvider: KindProvider = {
  async check(_olds, news) {
    return checkInputs(EgressCredentialInputs, news, PLACEHOLDERS);
  },

  async diff(_id, olds, news) {
    return diffInputs(withGatewayDefault(olds), withGatewayDefault(news), API_FIELDS);
  },

  async create(inputs) {
    const body = targetCredential(inputs);
    try {
      const credential = await kasmClient().egress.createEgressCredential(body);
      return { id: credential.egress_credential_id, outs: outputs(inputs, credential.egress_credential_id, credential.active_connections) };
    } catch (error) {
      if (isAlreadyExists(error)) throw nameTakenError(body.name, body.egress_provider_id, error);
      throw error;
    }
  },

  async read(id, props) {
    const credential = await findCredential(id, props);
    if (!credential) return GONE;
    const current: Props = {
      egressProviderId: keepSpelling(props.egressProviderId, credential.egress_provider_id),
      name: credential.name,
      ...currentTarget(props, credential),
      username: credential.username ?? null,
      enabled: credential.enabled,
      allowAllGateways: credential.allow_all_gateways ?? null,
      selectedGateways: currentGateways(props.selectedGateways, props.allowAllGateways, credential.allow_all_gateways, credential.egress_gateways),
      limitActiveConnections: credential.limit_active_connections ?? null,
      activeConnectionLimit: credential.active_connection_limit ?? null,
    };
    // The password always comes back masked: it stays as declared. The other secrets are compared
    // when Kasm returns them in clear.
    const returned: Props = {
      wireguardPrivateKey: credential.wireguard_private_key,
      meshKey: credential.mesh_key,
      customCredential: credential.custom_credential,
    };
    for (const [key, value] of Object.entries(returned)) if (!isHidden(value)) current[key] = value;
    const inputs = refreshedInputs(props, Object.keys(API_FIELDS), current);
    return { id: credential.egress_credential_id, props: outputs(inputs, credential.egress_credential_id, credential.active_connections), inputs };
  },

  async update(id, olds, news) {
    // Every change of a field replaces the credential; an update only forgets inputs the program
    // stopped declaring, which needs no request.
    return { outs: outputs(news, id, olds.activeConnections) };
  },

  async delete(id, props) {
    // Kasm has no operation to delete an egress credential: the destroy succeeds and says so.
    await warn(
      `EgressCredential '${String(props.name)}' (${id}) was removed from the Pulumi state but stays in Kasm: the Kasm API ` +
        `cannot delete egress credentials. Kasm deletes it with its egress provider; otherwise remove it in the Kasm admin UI.`,
    );
  },
};
