/**
 * Operations of the egress area: egress (VPN) providers, their gateways, provider mappings (which
 * route a user, group or image through a provider) and credentials.
 *
 * The five reads are GET requests with a JSON body, as the API defines them. Every create is
 * protected against creating twice: after a failure that leaves the outcome unknown, the object
 * is looked up by its natural key and adopted if the failed attempt created it.
 */
import { z } from "zod";
import type { OperationContext } from "../../../permissions/operations";
import { createOnce, deleteOnce } from "../retry";
import { sameId } from "../schemas/common";
import {
  EgressCredential,
  EgressGateway,
  EgressProvider,
  EgressProviderMapping,
  ImageEgressGateways,
  type EgressCredentialFilter,
  type EgressGatewayFilter,
  type EgressGatewayUpdate,
  type EgressProviderFilter,
  type EgressProviderMappingFilter,
  type EgressProviderMappingUpdate,
  type EgressProviderUpdate,
  type ImageEgressGatewaysParams,
  type NewEgressCredential,
  type NewEgressGateway,
  type NewEgressProvider,
  type NewEgressProviderMapping,
} from "../schemas/egress";
import type { KasmApi } from "../transport";

// --- providers ---------------------------------------------------------------------------------

const ProviderAnswer = z.object({ egress_provider: EgressProvider });

/** List egress providers, optionally filtered (`get_egress_providers`, GET; needs Egress Providers View). */
export async function getEgressProviders(api: KasmApi, filter?: EgressProviderFilter): Promise<EgressProvider[]> {
  const answer = await api.transport.call(
    "get_egress_providers",
    filter === undefined ? {} : { target_egress_provider: filter },
    z.object({ egress_providers: z.array(EgressProvider) }),
  );
  return answer.egress_providers;
}

/**
 * The egress provider with this name (names compare exactly), or `undefined` when there is none:
 * the natural-key lookup of a provider (`get_egress_providers` filtered by name).
 */
export async function findEgressProvider(api: KasmApi, key: { readonly name: string }): Promise<EgressProvider | undefined> {
  return (await getEgressProviders(api, { name: key.name })).find((p) => p.name === key.name);
}

/** Create an egress provider (`create_egress_provider`; needs Egress Providers Create). Natural key: its name. */
export async function createEgressProvider(api: KasmApi, provider: NewEgressProvider): Promise<EgressProvider> {
  const { transport } = api;
  return createOnce(
    transport,
    "create_egress_provider",
    async () => (await transport.call("create_egress_provider", { target_egress_provider: provider }, ProviderAnswer)).egress_provider,
    { find: () => findEgressProvider(api, provider) },
  );
}

/** Change an egress provider (`update_egress_provider`; needs Egress Providers Modify). */
export async function updateEgressProvider(api: KasmApi, update: EgressProviderUpdate): Promise<EgressProvider> {
  return (await api.transport.call("update_egress_provider", { target_egress_provider: update }, ProviderAnswer)).egress_provider;
}

/**
 * Delete an egress provider (`delete_egress_provider`; needs Egress Providers Delete). If a
 * retried attempt answers that it does not exist, an earlier attempt deleted it: done.
 */
export async function deleteEgressProvider(api: KasmApi, params: { egress_provider_id: string }): Promise<void> {
  await deleteOnce(api.transport, "delete_egress_provider", { target_egress_provider: { egress_provider_id: params.egress_provider_id } });
}

// --- gateways ----------------------------------------------------------------------------------

const GatewayAnswer = z.object({ egress_gateway: EgressGateway });

/**
 * The gateways a user may use with an image (`get_image_egress_gateways`, GET; needs Egress
 * Gateways View, Users View and Images View).
 */
export async function getImageEgressGateways(api: KasmApi, params: ImageEgressGatewaysParams): Promise<ImageEgressGateways> {
  return api.transport.call(
    "get_image_egress_gateways",
    { target_user: { user_id: params.user_id }, target_image: { image_id: params.image_id } },
    ImageEgressGateways,
  );
}

/** List egress gateways, optionally filtered (`get_egress_gateways`, GET; needs Egress Gateways View). */
export async function getEgressGateways(api: KasmApi, filter?: EgressGatewayFilter): Promise<EgressGateway[]> {
  const answer = await api.transport.call(
    "get_egress_gateways",
    filter === undefined ? {} : { target_egress_gateway: filter },
    z.object({ egress_gateways: z.array(EgressGateway) }),
  );
  return answer.egress_gateways;
}

/** The natural key of a gateway: its provider and its name. */
export interface EgressGatewayKey {
  readonly egress_provider_id: string;
  readonly name: string;
}

/**
 * The gateway of this provider with this name (ids in any spelling, names exactly), or
 * `undefined` when there is none: the natural-key lookup of a gateway (`get_egress_gateways`).
 */
export async function findEgressGateway(api: KasmApi, key: EgressGatewayKey): Promise<EgressGateway | undefined> {
  return (await getEgressGateways(api, { egress_provider_id: key.egress_provider_id, name: key.name })).find(
    (g) => sameId(g.egress_provider_id, key.egress_provider_id) && g.name === key.name,
  );
}

/**
 * Create a gateway of a provider (`create_egress_gateway`; needs Egress Gateways Create and Egress
 * Providers Modify). Natural key: provider and name.
 */
export async function createEgressGateway(api: KasmApi, gateway: NewEgressGateway): Promise<EgressGateway> {
  const { transport } = api;
  return createOnce(
    transport,
    "create_egress_gateway",
    async () => (await transport.call("create_egress_gateway", { target_egress_gateway: gateway }, GatewayAnswer)).egress_gateway,
    { find: () => findEgressGateway(api, gateway) },
  );
}

/** Change a gateway (`update_egress_gateway`; needs Egress Gateways Modify and Egress Providers Modify). */
export async function updateEgressGateway(api: KasmApi, update: EgressGatewayUpdate): Promise<EgressGateway> {
  return (await api.transport.call("update_egress_gateway", { target_egress_gateway: update }, GatewayAnswer)).egress_gateway;
}

/**
 * Delete a gateway (`delete_egress_gateway`; needs Egress Gateways Delete and Egress Providers
 * Modify). If a retried attempt answers that it does not exist, an earlier attempt deleted it: done.
 */
export async function deleteEgressGateway(api: KasmApi, params: { egress_gateway_id: string }): Promise<void> {
  await deleteOnce(api.transport, "delete_egress_gateway", { target_egress_gateway: { egress_gateway_id: params.egress_gateway_id } });
}

// --- provider mappings -------------------------------------------------------------------------

const MappingAnswer = z.object({ egress_provider_mapping: EgressProviderMapping });

/**
 * List provider mappings, filtered by provider, target or state (`get_egress_provider_mapping`,
 * GET; needs Egress Providers View).
 */
export async function getEgressProviderMapping(api: KasmApi, filter: EgressProviderMappingFilter = {}): Promise<EgressProviderMapping[]> {
  const answer = await api.transport.call(
    "get_egress_provider_mapping",
    { target_egress_provider_mapping: filter },
    z.object({ egress_provider_mappings: z.array(EgressProviderMapping) }),
  );
  return answer.egress_provider_mappings;
}

/** The natural key of a provider mapping: its provider and its target (a user, a group or an image). */
export interface EgressProviderMappingKey extends EgressTarget {
  readonly egress_provider_id: string;
}

/**
 * The mapping of this provider to this target (ids in any spelling; a target field left out
 * matches only a record without it), or `undefined` when there is none: the natural-key lookup
 * of a mapping (`get_egress_provider_mapping` filtered by provider and target).
 */
export async function findEgressProviderMapping(api: KasmApi, key: EgressProviderMappingKey): Promise<EgressProviderMapping | undefined> {
  return (await getEgressProviderMapping(api, { egress_provider_id: key.egress_provider_id, ...targetOf(key) })).find(
    (m) => sameId(m.egress_provider_id, key.egress_provider_id) && sameTarget(m, key),
  );
}

/**
 * Route a user, group or image (exactly one) through a provider
 * (`create_egress_provider_mapping`; needs Egress Providers Modify and the Modify permission of
 * the target). Natural key: provider and target.
 */
export async function createEgressProviderMapping(api: KasmApi, mapping: NewEgressProviderMapping): Promise<EgressProviderMapping> {
  const { transport } = api;
  return createOnce(
    transport,
    "create_egress_provider_mapping",
    async () =>
      (
        await transport.call("create_egress_provider_mapping", { target_egress_provider_mapping: mapping }, MappingAnswer, {
          context: targetContext(mapping),
        })
      ).egress_provider_mapping,
    { find: () => findEgressProviderMapping(api, mapping) },
  );
}

/** Change a provider mapping (`update_egress_provider_mapping`; same permissions as create). */
export async function updateEgressProviderMapping(api: KasmApi, update: EgressProviderMappingUpdate): Promise<EgressProviderMapping> {
  const answer = await api.transport.call("update_egress_provider_mapping", { target_egress_provider_mapping: update }, MappingAnswer, {
    context: targetContext(update),
  });
  return answer.egress_provider_mapping;
}

/**
 * Delete a provider mapping (`delete_egress_provider_mapping`; same permissions as create). If a
 * retried attempt answers that it does not exist, an earlier attempt deleted it: done.
 */
export async function deleteEgressProviderMapping(api: KasmApi, params: { egress_provider_mapping_id: string }): Promise<void> {
  await deleteOnce(api.transport, "delete_egress_provider_mapping", {
    target_egress_provider_mapping: { egress_provider_mapping_id: params.egress_provider_mapping_id },
  });
}

// --- credentials -------------------------------------------------------------------------------

/** List egress credentials, filtered (`get_egress_credentials`, GET; needs Egress Credentials View). */
export async function getEgressCredentials(api: KasmApi, filter: EgressCredentialFilter = {}): Promise<EgressCredential[]> {
  const answer = await api.transport.call(
    "get_egress_credentials",
    { target_egress_credential: filter },
    z.object({ egress_credentials: z.array(EgressCredential) }),
  );
  return answer.egress_credentials;
}

/**
 * The natural key of a credential: its provider and its name (unique within the provider), and,
 * optionally, its target.
 */
export interface EgressCredentialKey extends EgressTarget {
  readonly egress_provider_id: string;
  readonly name: string;
}

/**
 * The credential of this provider with this name (ids in any spelling, names exactly), or
 * `undefined` when there is none: the natural-key lookup of a credential (`get_egress_credentials`
 * filtered by provider and name). When the key names a target, a credential of another target
 * does not match; without one, the target is not compared.
 */
export async function findEgressCredential(api: KasmApi, key: EgressCredentialKey): Promise<EgressCredential | undefined> {
  const anyTarget = !key.user_id && !key.group_id && !key.image_id;
  return (await getEgressCredentials(api, { egress_provider_id: key.egress_provider_id, name: key.name })).find(
    (c) => sameId(c.egress_provider_id, key.egress_provider_id) && c.name === key.name && (anyTarget || sameTarget(c, key)),
  );
}

/**
 * Create credentials for a user, group or image (one is required) on a provider's gateways
 * (`create_egress_credential`; needs Egress Credentials Create, Egress Providers Modify and the
 * Modify permission of the target). Natural key: provider, name and target. The API has no
 * operation to change or delete a credential.
 */
export async function createEgressCredential(api: KasmApi, credential: NewEgressCredential): Promise<EgressCredential> {
  const { transport } = api;
  const answerSchema = z.object({ egress_credentials: z.array(EgressCredential).min(1) });
  return createOnce(
    transport,
    "create_egress_credential",
    async () =>
      (
        await transport.call("create_egress_credential", { target_egress_credential: credential }, answerSchema, {
          context: targetContext(credential),
        })
      ).egress_credentials[0],
    { find: () => findEgressCredential(api, credential) },
  );
}

// --- helpers -----------------------------------------------------------------------------------

/** What a mapping or a credential applies to: one of a user, a group or an image. */
export interface EgressTarget {
  readonly user_id?: string | null;
  readonly group_id?: string | null;
  readonly image_id?: string | null;
}

/** The target fields that are set, for a lookup filter. */
function targetOf(t: EgressTarget): EgressTarget {
  if (t.user_id) return { user_id: t.user_id };
  if (t.group_id) return { group_id: t.group_id };
  if (t.image_id) return { image_id: t.image_id };
  return {};
}

/** Whether a record targets what a request targets. */
function sameTarget(record: EgressTarget, request: EgressTarget): boolean {
  const same = (a: string | null | undefined, b: string | null | undefined) => (!a && !b) || sameId(a, b);
  return same(record.user_id, request.user_id) && same(record.group_id, request.group_id) && same(record.image_id, request.image_id);
}

/** What a 403 should mention: the target decides which Modify permission is needed. */
function targetContext(t: EgressTarget): OperationContext {
  return { targetIsUser: !!t.user_id, targetIsGroup: !!t.group_id, targetIsImage: !!t.image_id };
}
