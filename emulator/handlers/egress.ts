/**
 * Egress (VPN): providers, gateways, provider mappings and credentials.
 *
 * The five reads are GET with a JSON body; every filter they take is optional and exact.
 * Mappings and credentials need the Modify permission of what they target, checked once the
 * target is known.
 */
import { z } from "zod";
import type { OperationName } from "../../permissions";
import {
  EGRESS_CREDENTIAL,
  EGRESS_GATEWAY,
  EGRESS_GATEWAY_REF,
  EGRESS_MAPPING,
  EGRESS_MAPPING_BRIEF,
  EGRESS_PROVIDER,
  EGRESS_PROVIDER_REF,
  IMAGE_EGRESS_GATEWAY,
} from "../fields";
import {
  canonicalId,
  MASK,
  type EgressCredentialRecord,
  type EgressGatewayRecord,
  type EgressMappingRecord,
  type EgressProviderRecord,
  type EgressTarget,
  type Store,
} from "../store";
import type { Caller } from "../auth";
import { bool, id, int, parse, text, type Handler } from "./common";

// --- wire shapes ---------------------------------------------------------------------------------

const ProviderFields = z.object({
  egress_provider_id: id.optional(),
  name: z.string().optional(),
  egress_provider_type: z.enum(["wireguard", "openvpn", "custom"]).optional(),
  enabled: bool.optional(),
});

const GatewayFields = z.object({
  egress_gateway_id: id.optional(),
  egress_provider_id: id.optional(),
  name: z.string().optional(),
  enabled: bool.optional(),
  country: text.optional(),
  city: text.optional(),
  config: text.optional(),
});

const TargetFields = {
  user_id: id.nullable().optional(),
  group_id: id.nullable().optional(),
  image_id: id.nullable().optional(),
};

const MappingFields = z.object({
  egress_provider_mapping_id: id.optional(),
  egress_provider_id: id.optional(),
  enabled: bool.optional(),
  allow_all_gateways: bool.optional(),
  selected_gateways: z.array(id).optional(),
  ...TargetFields,
});

const CredentialFields = z.object({
  egress_provider_id: id.optional(),
  name: z.string().optional(),
  username: text.optional(),
  password: text.optional(),
  enabled: bool.optional(),
  allow_all_gateways: bool.optional(),
  selected_gateways: z.array(id).optional(),
  wireguard_private_key: text.optional(),
  mesh_key: text.optional(),
  limit_active_connections: bool.optional(),
  active_connection_limit: int.nullable().optional(),
  custom_credential: text.optional(),
  ...TargetFields,
});

// --- serialisers ---------------------------------------------------------------------------------

function providerJson(p: EgressProviderRecord, observedFields: boolean) {
  return EGRESS_PROVIDER.form(p, observedFields);
}

function gatewayJson(g: EgressGatewayRecord, observedFields: boolean) {
  return EGRESS_GATEWAY.form(g, observedFields);
}

function providerRef(p: EgressProviderRecord | undefined, observedFields: boolean) {
  return p ? EGRESS_PROVIDER_REF.form(p, observedFields) : null;
}

/** The gateways a mapping or credential gives access to, as {name, egress_gateway_id}. */
function gatewayRefs(store: Store, holder: EgressMappingRecord | EgressCredentialRecord, observedFields: boolean) {
  return store.egress
    .gateways()
    .filter((g) => g.egress_provider_id === holder.egress_provider_id && (holder.allow_all_gateways || holder.selected_gateways.includes(g.egress_gateway_id)))
    .map((g) => EGRESS_GATEWAY_REF.form({ name: g.name, egress_gateway_id: g.egress_gateway_id }, observedFields));
}

/** The fields a mapping has on its own (the answer of create and update). */
function mappingOwnFields(m: EgressMappingRecord) {
  return {
    egress_provider_mapping_id: m.egress_provider_mapping_id,
    enabled: m.enabled,
    created: m.created,
    user_id: m.user_id,
    group_id: m.group_id,
    image_id: m.image_id,
    egress_provider_id: m.egress_provider_id,
    allow_all_gateways: m.allow_all_gateways,
  };
}

/** A mapping as create and update answer it: without its provider and gateways. */
function mappingBrief(m: EgressMappingRecord, observedFields: boolean) {
  return EGRESS_MAPPING_BRIEF.form(mappingOwnFields(m), observedFields);
}

/** A mapping as get_egress_provider_mapping lists it: with its provider and gateways. */
function mappingJson(store: Store, m: EgressMappingRecord, observedFields: boolean) {
  return EGRESS_MAPPING.form(
    {
      ...mappingOwnFields(m),
      egress_provider: providerRef(store.egress.provider(m.egress_provider_id), observedFields),
      egress_gateways: gatewayRefs(store, m, observedFields),
    },
    observedFields,
  );
}

function credentialJson(store: Store, c: EgressCredentialRecord, observedFields: boolean) {
  return EGRESS_CREDENTIAL.form(
    {
      egress_credential_id: c.egress_credential_id,
      name: c.name,
      username: c.username,
      // The spec shows the password masked; the other fields are returned as stored.
      password: c.password === null ? null : MASK,
      enabled: c.enabled,
      user_id: c.user_id,
      group_id: c.group_id,
      image_id: c.image_id,
      egress_provider_id: c.egress_provider_id,
      allow_all_gateways: c.allow_all_gateways,
      wireguard_private_key: c.wireguard_private_key,
      mesh_key: c.mesh_key,
      limit_active_connections: c.limit_active_connections,
      active_connection_limit: c.active_connection_limit,
      active_connections: c.active_connections,
      custom_credential: c.custom_credential,
      egress_provider: providerRef(store.egress.provider(c.egress_provider_id), observedFields),
      egress_gateways: gatewayRefs(store, c, observedFields),
    },
    observedFields,
  );
}

// --- filters -------------------------------------------------------------------------------------

/** Keep the records whose fields equal every filter sent (ids compared in canonical form). */
function filterBy<T extends object>(records: T[], filters: Record<string, unknown>): T[] {
  const active = Object.entries(filters).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return records.filter((r) =>
    active.every(([k, v]) => {
      const actual = (r as Record<string, unknown>)[k];
      if (k.endsWith("_id")) return actual !== null && canonicalId(actual) === canonicalId(v);
      return actual === v;
    }),
  );
}

// --- permission context --------------------------------------------------------------------------

/** Check the target-dependent permissions of a mapping or credential call. */
function requireForTarget(store: Store, caller: Caller, operation: OperationName, target: Partial<EgressTarget>): void {
  caller.require(operation, store.egress.egressTargetContext(target));
}

/** The target a mapping call acts on: what is sent, or else what the mapping has. */
function mappingTarget(store: Store, fields: Partial<EgressTarget> & { egress_provider_mapping_id?: string }) {
  const sent = fields.user_id || fields.group_id || fields.image_id;
  if (sent || !fields.egress_provider_mapping_id) return fields;
  const current = store.egress.mapping(fields.egress_provider_mapping_id);
  return current ?? fields;
}

// --- handlers ------------------------------------------------------------------------------------

const providerHandlers = {
  get_egress_providers: ({ body, store, observedFields }) => {
    const f = parse(ProviderFields, body.target_egress_provider, "target_egress_provider");
    return { egress_providers: filterBy(store.egress.providers(), f).map((p) => providerJson(p, observedFields)) };
  },
  create_egress_provider: ({ body, store, observedFields }) => {
    const { egress_provider_id: _ignored, ...f } = parse(ProviderFields, body.target_egress_provider, "target_egress_provider");
    return { egress_provider: providerJson(store.egress.createEgressProvider(f), observedFields) };
  },
  update_egress_provider: ({ body, store, observedFields }) => {
    const { egress_provider_id, ...f } = parse(ProviderFields, body.target_egress_provider, "target_egress_provider");
    return { egress_provider: providerJson(store.egress.updateEgressProvider(egress_provider_id, f), observedFields) };
  },
  delete_egress_provider: ({ body, store }) => {
    const f = parse(ProviderFields, body.target_egress_provider, "target_egress_provider");
    store.egress.deleteEgressProvider(f.egress_provider_id);
    return {};
  },
} satisfies Record<string, Handler>;

const gatewayHandlers = {
  get_image_egress_gateways: ({ body, store, observedFields }) => {
    const req = parse(
      z.object({
        target_user: z.object({ user_id: id.optional() }).optional(),
        target_image: z.object({ image_id: id.optional() }).optional(),
      }),
      body,
      "",
    );
    const { image, gateways } = store.egress.gatewaysForUserImage(req.target_user?.user_id, req.target_image?.image_id);
    return {
      egress_gateways: gateways.map(({ gateway, provider, credential }) =>
        IMAGE_EGRESS_GATEWAY.form(
          {
            egress_gateway_id: gateway.egress_gateway_id,
            egress_gateway_name: gateway.name,
            egress_credential_id: credential?.egress_credential_id ?? null,
            city: gateway.city,
            country: gateway.country,
            egress_provider_name: provider.name,
          },
          observedFields,
        ),
      ),
      image_id: image.image_id,
    };
  },
  get_egress_gateways: ({ body, store, observedFields }) => {
    const f = parse(GatewayFields, body.target_egress_gateway, "target_egress_gateway");
    return { egress_gateways: filterBy(store.egress.gateways(), f).map((g) => gatewayJson(g, observedFields)) };
  },
  create_egress_gateway: ({ body, store, observedFields }) => {
    const { egress_gateway_id: _ignored, ...f } = parse(GatewayFields, body.target_egress_gateway, "target_egress_gateway");
    return { egress_gateway: gatewayJson(store.egress.createEgressGateway(f), observedFields) };
  },
  update_egress_gateway: ({ body, store, observedFields }) => {
    const { egress_gateway_id, ...f } = parse(GatewayFields, body.target_egress_gateway, "target_egress_gateway");
    return { egress_gateway: gatewayJson(store.egress.updateEgressGateway(egress_gateway_id, f), observedFields) };
  },
  delete_egress_gateway: ({ body, store }) => {
    const f = parse(GatewayFields, body.target_egress_gateway, "target_egress_gateway");
    store.egress.deleteEgressGateway(f.egress_gateway_id);
    return {};
  },
} satisfies Record<string, Handler>;

const mappingHandlers = {
  get_egress_provider_mapping: ({ body, store, observedFields }) => {
    const { selected_gateways: _s, allow_all_gateways: _a, ...f } = parse(MappingFields, body.target_egress_provider_mapping, "target_egress_provider_mapping");
    return {
      egress_provider_mappings: filterBy(store.egress.mappings(), f).map((m) => mappingJson(store, m, observedFields)),
    };
  },
  create_egress_provider_mapping: ({ body, store, caller, observedFields }) => {
    const { egress_provider_mapping_id: _ignored, ...f } = parse(MappingFields, body.target_egress_provider_mapping, "target_egress_provider_mapping");
    requireForTarget(store, caller, "create_egress_provider_mapping", f);
    return { egress_provider_mapping: mappingBrief(store.egress.createEgressMapping(f), observedFields) };
  },
  update_egress_provider_mapping: ({ body, store, caller, observedFields }) => {
    const { egress_provider_mapping_id, ...f } = parse(MappingFields, body.target_egress_provider_mapping, "target_egress_provider_mapping");
    // Moving a mapping changes both targets: it needs the permissions of where it was and of where it goes.
    requireForTarget(store, caller, "update_egress_provider_mapping", mappingTarget(store, { ...f, egress_provider_mapping_id }));
    requireForTarget(store, caller, "update_egress_provider_mapping", mappingTarget(store, { egress_provider_mapping_id }));
    return { egress_provider_mapping: mappingBrief(store.egress.updateEgressMapping(egress_provider_mapping_id, f), observedFields) };
  },
  delete_egress_provider_mapping: ({ body, store, caller }) => {
    const f = parse(MappingFields, body.target_egress_provider_mapping, "target_egress_provider_mapping");
    requireForTarget(store, caller, "delete_egress_provider_mapping", mappingTarget(store, { egress_provider_mapping_id: f.egress_provider_mapping_id }));
    store.egress.deleteEgressMapping(f.egress_provider_mapping_id);
    return {};
  },
} satisfies Record<string, Handler>;

const credentialHandlers = {
  get_egress_credentials: ({ body, store, observedFields }) => {
    const f = parse(
      CredentialFields.pick({ enabled: true, egress_provider_id: true, name: true, user_id: true, group_id: true, image_id: true }),
      body.target_egress_credential,
      "target_egress_credential",
    );
    return { egress_credentials: filterBy(store.egress.credentials(), f).map((c) => credentialJson(store, c, observedFields)) };
  },
  create_egress_credential: ({ body, store, caller, observedFields }) => {
    const f = parse(CredentialFields, body.target_egress_credential, "target_egress_credential");
    requireForTarget(store, caller, "create_egress_credential", f);
    const credential = store.egress.createEgressCredential({ ...f, active_connection_limit: f.active_connection_limit ?? undefined });
    return { egress_credentials: [credentialJson(store, credential, observedFields)] };
  },
} satisfies Record<string, Handler>;

/** The handlers of this area, by operation. */
export const egressHandlers = {
  ...providerHandlers,
  ...gatewayHandlers,
  ...mappingHandlers,
  ...credentialHandlers,
} satisfies Record<string, Handler>;
