/**
 * Schemas of the egress area: egress (VPN) providers, their gateways, the mappings that route a
 * user, group or image through a provider, and the credentials used on its gateways.
 */
import { z } from "zod";
import { fromApiFields } from "../records";
import { Bool, Id, Int, NullableId, NullableString, Timestamp, nullable } from "./common";

/** Egress provider types seen: `wireguard`, `openvpn`, and `custom`. Other values are accepted. */
export const EgressProviderType = z.string();
/** An egress provider type. */
export type EgressProviderType = z.infer<typeof EgressProviderType>;

/** An egress provider. Its `name` is unique. */
export const EgressProvider = z.object({
  egress_provider_id: Id.describe("The provider's id (32 hex digits)."),
  name: z.string().describe("The provider's name, unique in Kasm."),
  egress_provider_type: EgressProviderType.describe("The provider's type, such as `wireguard`, `openvpn` or `custom`."),
  enabled: Bool.describe("Whether the provider is enabled."),
  created: nullable(Timestamp).optional().describe("When Kasm created the provider, as `YYYY-MM-DD HH:MM:SS.ffffff`."),
});
/** An egress provider. */
export type EgressProvider = z.infer<typeof EgressProvider>;

/**
 * An egress provider's settings by the names a program declares them (an EgressProvider's inputs),
 * as the record shows them. One mapping for the EgressProvider kind (refresh, take-over) and for
 * `kasm-import`, which writes it.
 */
export function egressProviderShown(provider: EgressProvider) {
  return fromApiFields(provider, ["name", "egressProviderType", "enabled"]);
}

/** `target_egress_provider` of `create_egress_provider`: name and type are required. */
export const NewEgressProvider = EgressProvider.pick({ name: true, egress_provider_type: true, enabled: true }).partial({ enabled: true });
/** `target_egress_provider` of `create_egress_provider`. */
export type NewEgressProvider = z.infer<typeof NewEgressProvider>;

/** `target_egress_provider` of `update_egress_provider`. */
export const EgressProviderUpdate = NewEgressProvider.partial().extend({ egress_provider_id: Id });
/** `target_egress_provider` of `update_egress_provider`. */
export type EgressProviderUpdate = z.infer<typeof EgressProviderUpdate>;

/** Filters of `get_egress_providers` (all optional). */
export const EgressProviderFilter = EgressProvider.pick({ egress_provider_id: true, name: true, egress_provider_type: true, enabled: true }).partial();
/** Filters of `get_egress_providers`. */
export type EgressProviderFilter = z.infer<typeof EgressProviderFilter>;

/** An egress gateway of a provider. Within a provider, gateway names are unique. */
export const EgressGateway = z.object({
  egress_gateway_id: Id.describe("The gateway's id (32 hex digits)."),
  egress_provider_id: Id.describe("The id of the gateway's egress provider (32 hex digits)."),
  name: z.string().describe("The gateway's name, unique within its provider."),
  enabled: Bool.describe("Whether the gateway is enabled."),
  country: NullableString.optional().describe("The gateway's country."),
  city: NullableString.optional().describe("The gateway's city."),
  /** A secret (it may hold a private key): the lookups describe it with the record's secrets (provider/lookups/secrets.ts). */
  config: NullableString.optional(),
  active_connections: nullable(Int).optional().describe("The number of active connections through the gateway."),
});
/** An egress gateway. */
export type EgressGateway = z.infer<typeof EgressGateway>;

/**
 * An egress gateway's settings by the names a program declares them (an EgressGateway's inputs), as
 * the record shows them, null where it shows none. `config` is there only when the answer holds
 * it: a release that leaves it out shows no drift in it. One mapping for the EgressGateway kind
 * (refresh, take-over) and for `kasm-import`, which writes it (a configuration with a private key
 * as a secret).
 */
export function egressGatewayShown(gateway: EgressGateway) {
  return {
    egressProviderId: gateway.egress_provider_id,
    name: gateway.name,
    enabled: gateway.enabled,
    country: gateway.country ?? null,
    city: gateway.city ?? null,
    ...(gateway.config !== undefined ? { config: gateway.config } : {}),
  };
}

/** `target_egress_gateway` of `create_egress_gateway`: the provider and a name are required. */
export const NewEgressGateway = EgressGateway.omit({ egress_gateway_id: true, active_connections: true })
  .partial()
  .required({ egress_provider_id: true, name: true });
/** `target_egress_gateway` of `create_egress_gateway`. */
export type NewEgressGateway = z.infer<typeof NewEgressGateway>;

/** `target_egress_gateway` of `update_egress_gateway`. */
export const EgressGatewayUpdate = NewEgressGateway.partial().extend({ egress_gateway_id: Id });
/** `target_egress_gateway` of `update_egress_gateway`. */
export type EgressGatewayUpdate = z.infer<typeof EgressGatewayUpdate>;

/** Filters of `get_egress_gateways` (all optional). */
export const EgressGatewayFilter = EgressGateway.pick({
  egress_gateway_id: true,
  egress_provider_id: true,
  enabled: true,
  name: true,
  country: true,
  city: true,
}).partial();
/** Filters of `get_egress_gateways`. */
export type EgressGatewayFilter = z.infer<typeof EgressGatewayFilter>;

/** A gateway a user may use with an image (`get_image_egress_gateways`). */
export const ImageEgressGateway = z.object({
  egress_gateway_id: Id,
  egress_gateway_name: z.string(),
  egress_credential_id: NullableId.optional(),
  city: NullableString.optional(),
  country: NullableString.optional(),
  egress_provider_name: NullableString.optional(),
});
/** A gateway a user may use with an image. */
export type ImageEgressGateway = z.infer<typeof ImageEgressGateway>;

/** The answer of `get_image_egress_gateways`. */
export const ImageEgressGateways = z.object({
  egress_gateways: z.array(ImageEgressGateway),
  image_id: NullableId.optional(),
});
/** The answer of `get_image_egress_gateways`. */
export type ImageEgressGateways = z.infer<typeof ImageEgressGateways>;

/** Parameters of `get_image_egress_gateways`: which user, with which image. */
export const ImageEgressGatewaysParams = z.object({ user_id: Id, image_id: Id });
/** Parameters of `get_image_egress_gateways`. */
export type ImageEgressGatewaysParams = z.infer<typeof ImageEgressGatewaysParams>;

/** A provider as embedded in mapping and credential records. */
export const EgressProviderRef = EgressProvider.pick({ egress_provider_id: true, name: true, egress_provider_type: true });
/** A provider as embedded in mapping and credential records. */
export type EgressProviderRef = z.infer<typeof EgressProviderRef>;

/** A gateway as embedded in mapping and credential records. */
export const EgressGatewayRef = EgressGateway.pick({ egress_gateway_id: true, name: true });
/** A gateway as embedded in mapping and credential records. */
export type EgressGatewayRef = z.infer<typeof EgressGatewayRef>;

/** The target of a mapping or credential: exactly one of a user, a group or an image. */
const EgressTarget = z.object({
  user_id: NullableId.optional(),
  group_id: NullableId.optional(),
  image_id: NullableId.optional(),
});

/** Routes a user, group or image (exactly one) through an egress provider. */
export const EgressProviderMapping = EgressTarget.extend({
  egress_provider_mapping_id: Id,
  egress_provider_id: Id,
  enabled: Bool,
  allow_all_gateways: Bool,
  created: nullable(Timestamp).optional(),
  egress_provider: EgressProviderRef.nullable().optional(),
  egress_gateways: z.array(EgressGatewayRef).nullable().optional(),
});
/** Routes a user, group or image through an egress provider. */
export type EgressProviderMapping = z.infer<typeof EgressProviderMapping>;

/**
 * The gateways a mapping or credential record lists (every gateway of the provider when all are
 * allowed), as the ids a `selectedGateways` input holds; null when the answer lists none.
 */
function listedGatewayIds(gateways: readonly EgressGatewayRef[] | null | undefined): string[] | null {
  return gateways ? gateways.map((gateway) => gateway.egress_gateway_id) : null;
}

/**
 * An egress provider mapping's settings by the names a program declares them (an
 * EgressProviderMapping's inputs), as the record shows them: ids as Kasm writes them, the target's
 * two unset ids as the record has them, `selectedGateways` the gateways Kasm lists. One mapping for
 * the EgressProviderMapping kind (refresh, take-over), which keeps a declared selection Kasm cannot
 * show, and for `kasm-import`, which writes it.
 */
export function egressProviderMappingShown(mapping: EgressProviderMapping) {
  return {
    egressProviderId: mapping.egress_provider_id,
    userId: mapping.user_id,
    groupId: mapping.group_id,
    imageId: mapping.image_id,
    enabled: mapping.enabled,
    allowAllGateways: mapping.allow_all_gateways,
    selectedGateways: listedGatewayIds(mapping.egress_gateways),
  };
}

/** `target_egress_provider_mapping` of `create_egress_provider_mapping`: the provider and exactly one of user_id, group_id, image_id. */
export const NewEgressProviderMapping = EgressProviderMapping.pick({
  egress_provider_id: true,
  enabled: true,
  allow_all_gateways: true,
  user_id: true,
  group_id: true,
  image_id: true,
})
  .partial()
  .required({ egress_provider_id: true })
  .extend({
    /** Gateway ids; required when `allow_all_gateways` is false. */
    selected_gateways: z.array(Id).optional(),
  });
/** `target_egress_provider_mapping` of `create_egress_provider_mapping`. */
export type NewEgressProviderMapping = z.infer<typeof NewEgressProviderMapping>;

/** `target_egress_provider_mapping` of `update_egress_provider_mapping`. */
export const EgressProviderMappingUpdate = NewEgressProviderMapping.partial().extend({ egress_provider_mapping_id: Id });
/** `target_egress_provider_mapping` of `update_egress_provider_mapping`. */
export type EgressProviderMappingUpdate = z.infer<typeof EgressProviderMappingUpdate>;

/** Filters of `get_egress_provider_mapping` (all optional). */
export const EgressProviderMappingFilter = NewEgressProviderMapping.pick({
  enabled: true,
  egress_provider_id: true,
  group_id: true,
  user_id: true,
  image_id: true,
}).partial();
/** Filters of `get_egress_provider_mapping`. */
export type EgressProviderMappingFilter = z.infer<typeof EgressProviderMappingFilter>;

/**
 * Credentials used on a provider's gateways by a user, group or image (exactly one).
 * `password` comes masked; `wireguard_private_key` and `mesh_key` are secrets.
 */
export const EgressCredential = EgressTarget.extend({
  egress_credential_id: Id,
  egress_provider_id: Id,
  name: z.string(),
  username: NullableString.optional(),
  password: NullableString.optional(),
  enabled: Bool,
  allow_all_gateways: nullable(Bool).optional(),
  wireguard_private_key: NullableString.optional(),
  mesh_key: NullableString.optional(),
  limit_active_connections: nullable(Bool).optional(),
  active_connection_limit: nullable(Int).optional(),
  active_connections: nullable(Int).optional(),
  custom_credential: z.unknown().optional(),
  egress_provider: EgressProviderRef.nullable().optional(),
  egress_gateways: z.array(EgressGatewayRef).nullable().optional(),
});
/** Credentials used on a provider's gateways. */
export type EgressCredential = z.infer<typeof EgressCredential>;

/**
 * An egress credential's settings by the names a program declares them (an EgressCredential's
 * inputs), as the record shows them, null where it shows none; the secrets as Kasm returns them
 * (hidden or left out by some releases), the password never (Kasm always masks it). One mapping for
 * the EgressCredential kind (refresh, take-over) and for `kasm-import`, which writes it (a secret
 * Kasm holds as a secret input).
 */
export function egressCredentialShown(credential: EgressCredential) {
  return {
    egressProviderId: credential.egress_provider_id,
    name: credential.name,
    userId: credential.user_id,
    groupId: credential.group_id,
    imageId: credential.image_id,
    username: credential.username ?? null,
    enabled: credential.enabled,
    allowAllGateways: credential.allow_all_gateways ?? null,
    selectedGateways: listedGatewayIds(credential.egress_gateways),
    limitActiveConnections: credential.limit_active_connections ?? null,
    activeConnectionLimit: credential.active_connection_limit ?? null,
    wireguardPrivateKey: credential.wireguard_private_key,
    meshKey: credential.mesh_key,
    customCredential: credential.custom_credential,
  };
}

/** `target_egress_credential` of `create_egress_credential`: one of user_id, group_id, image_id is required. */
export const NewEgressCredential = EgressCredential.pick({
  egress_provider_id: true,
  name: true,
  enabled: true,
  user_id: true,
  group_id: true,
  image_id: true,
  username: true,
  password: true,
  allow_all_gateways: true,
  limit_active_connections: true,
  active_connection_limit: true,
  wireguard_private_key: true,
  mesh_key: true,
  custom_credential: true,
})
  .partial()
  .required({ egress_provider_id: true, name: true })
  .extend({
    /** Gateway ids. */
    selected_gateways: z.array(Id).optional(),
  });
/** `target_egress_credential` of `create_egress_credential`. */
export type NewEgressCredential = z.infer<typeof NewEgressCredential>;

/** Filters of `get_egress_credentials` (all optional). */
export const EgressCredentialFilter = EgressCredential.pick({
  enabled: true,
  egress_provider_id: true,
  name: true,
  user_id: true,
  group_id: true,
  image_id: true,
}).partial();
/** Filters of `get_egress_credentials`. */
export type EgressCredentialFilter = z.infer<typeof EgressCredentialFilter>;
