/**
 * Egress (VPN): providers, gateways, provider mappings and credentials.
 *
 * The five reads are GET with a JSON body; every filter they take is optional and exact.
 * Mappings and credentials need the Modify permission of what they target, checked once the
 * target is known.
 */
import { z } from "zod";
import type { OperationName } from "../../provider/permissions";
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

function providerRef(p: EgressProviderRecord | undefined) {
  return p ? { egress_provider_id: p.egress_provider_id, name: p.name, egress_provider_type: p.egress_provider_type } : null;
}

/** The gateways a mapping or credential gives access to, as {name, egress_gateway_id}. */
function gatewayRefs(store: Store, holder: EgressMappingRecord | EgressCredentialRecord) {
  return Object.values(store.state.egressGateways)
    .filter(
      (g) =>
        g.egress_provider_id === holder.egress_provider_id &&
        (holder.allow_all_gateways || holder.selected_gateways.includes(g.egress_gateway_id)),
    )
    .map((g) => ({ name: g.name, egress_gateway_id: g.egress_gateway_id }));
}

function mappingBrief(m: EgressMappingRecord) {
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

function credentialJson(store: Store, c: EgressCredentialRecord) {
  const { selected_gateways: _selected, ...fields } = c;
  return {
    ...fields,
    // The spec shows the password masked; the other fields are returned as stored.
    password: c.password === null ? null : MASK,
    egress_provider: providerRef(store.state.egressProviders[c.egress_provider_id]),
    egress_gateways: gatewayRefs(store, c),
  };
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
  caller.require(operation, store.egressTargetContext(target));
}

/** The target a mapping call acts on: what is sent, or else what the mapping has. */
function mappingTarget(store: Store, fields: Partial<EgressTarget> & { egress_provider_mapping_id?: string }) {
  const sent = fields.user_id || fields.group_id || fields.image_id;
  if (sent || !fields.egress_provider_mapping_id) return fields;
  const current = store.state.egressMappings[canonicalId(fields.egress_provider_mapping_id) ?? ""];
  return current ?? fields;
}

// --- handlers ------------------------------------------------------------------------------------

const providerHandlers = {
  get_egress_providers: ({ body, store }) => {
    const f = parse(ProviderFields, body.target_egress_provider, "target_egress_provider");
    return { egress_providers: filterBy(Object.values(store.state.egressProviders), f).map((p) => ({ ...p })) };
  },
  create_egress_provider: ({ body, store }) => {
    const { egress_provider_id: _ignored, ...f } = parse(ProviderFields, body.target_egress_provider, "target_egress_provider");
    return { egress_provider: { ...store.createEgressProvider(f) } };
  },
  update_egress_provider: ({ body, store }) => {
    const { egress_provider_id, ...f } = parse(ProviderFields, body.target_egress_provider, "target_egress_provider");
    return { egress_provider: { ...store.updateEgressProvider(egress_provider_id, f) } };
  },
  delete_egress_provider: ({ body, store }) => {
    const f = parse(ProviderFields, body.target_egress_provider, "target_egress_provider");
    store.deleteEgressProvider(f.egress_provider_id);
    return {};
  },
} satisfies Record<string, Handler>;

const gatewayHandlers = {
  get_image_egress_gateways: ({ body, store }) => {
    const req = parse(
      z.object({
        target_user: z.object({ user_id: id.optional() }).optional(),
        target_image: z.object({ image_id: id.optional() }).optional(),
      }),
      body,
      "",
    );
    const { image, gateways } = store.gatewaysForUserImage(req.target_user?.user_id, req.target_image?.image_id);
    return {
      egress_gateways: gateways.map(({ gateway, provider, credential }) => ({
        egress_gateway_id: gateway.egress_gateway_id,
        egress_gateway_name: gateway.name,
        egress_credential_id: credential?.egress_credential_id ?? null,
        city: gateway.city,
        country: gateway.country,
        egress_provider_name: provider.name,
      })),
      image_id: image.image_id,
    };
  },
  get_egress_gateways: ({ body, store }) => {
    const f = parse(GatewayFields, body.target_egress_gateway, "target_egress_gateway");
    return { egress_gateways: filterBy(Object.values(store.state.egressGateways), f).map((g: EgressGatewayRecord) => ({ ...g })) };
  },
  create_egress_gateway: ({ body, store }) => {
    const { egress_gateway_id: _ignored, ...f } = parse(GatewayFields, body.target_egress_gateway, "target_egress_gateway");
    return { egress_gateway: { ...store.createEgressGateway(f) } };
  },
  update_egress_gateway: ({ body, store }) => {
    const { egress_gateway_id, ...f } = parse(GatewayFields, body.target_egress_gateway, "target_egress_gateway");
    return { egress_gateway: { ...store.updateEgressGateway(egress_gateway_id, f) } };
  },
  delete_egress_gateway: ({ body, store }) => {
    const f = parse(GatewayFields, body.target_egress_gateway, "target_egress_gateway");
    store.deleteEgressGateway(f.egress_gateway_id);
    return {};
  },
} satisfies Record<string, Handler>;

const mappingHandlers = {
  get_egress_provider_mapping: ({ body, store }) => {
    const { selected_gateways: _s, allow_all_gateways: _a, ...f } = parse(
      MappingFields,
      body.target_egress_provider_mapping,
      "target_egress_provider_mapping",
    );
    return {
      egress_provider_mappings: filterBy(Object.values(store.state.egressMappings), f).map((m) => ({
        ...mappingBrief(m),
        egress_provider: providerRef(store.state.egressProviders[m.egress_provider_id]),
        egress_gateways: gatewayRefs(store, m),
      })),
    };
  },
  create_egress_provider_mapping: ({ body, store, caller }) => {
    const { egress_provider_mapping_id: _ignored, ...f } = parse(
      MappingFields,
      body.target_egress_provider_mapping,
      "target_egress_provider_mapping",
    );
    requireForTarget(store, caller, "create_egress_provider_mapping", f);
    return { egress_provider_mapping: mappingBrief(store.createEgressMapping(f)) };
  },
  update_egress_provider_mapping: ({ body, store, caller }) => {
    const { egress_provider_mapping_id, ...f } = parse(
      MappingFields,
      body.target_egress_provider_mapping,
      "target_egress_provider_mapping",
    );
    // Moving a mapping changes both targets: it needs the permissions of where it was and of where it goes.
    requireForTarget(store, caller, "update_egress_provider_mapping", mappingTarget(store, { ...f, egress_provider_mapping_id }));
    requireForTarget(store, caller, "update_egress_provider_mapping", mappingTarget(store, { egress_provider_mapping_id }));
    return { egress_provider_mapping: mappingBrief(store.updateEgressMapping(egress_provider_mapping_id, f)) };
  },
  delete_egress_provider_mapping: ({ body, store, caller }) => {
    const f = parse(MappingFields, body.target_egress_provider_mapping, "target_egress_provider_mapping");
    requireForTarget(
      store,
      caller,
      "delete_egress_provider_mapping",
      mappingTarget(store, { egress_provider_mapping_id: f.egress_provider_mapping_id }),
    );
    store.deleteEgressMapping(f.egress_provider_mapping_id);
    return {};
  },
} satisfies Record<string, Handler>;

const credentialHandlers = {
  get_egress_credentials: ({ body, store }) => {
    const f = parse(
      CredentialFields.pick({ enabled: true, egress_provider_id: true, name: true, user_id: true, group_id: true, image_id: true }),
      body.target_egress_credential,
      "target_egress_credential",
    );
    return { egress_credentials: filterBy(Object.values(store.state.egressCredentials), f).map((c) => credentialJson(store, c)) };
  },
  create_egress_credential: ({ body, store, caller }) => {
    const f = parse(CredentialFields, body.target_egress_credential, "target_egress_credential");
    requireForTarget(store, caller, "create_egress_credential", f);
    const credential = store.createEgressCredential({ ...f, active_connection_limit: f.active_connection_limit ?? undefined });
    return { egress_credentials: [credentialJson(store, credential)] };
  },
} satisfies Record<string, Handler>;

/** The handlers of this area, by operation. */
export const egressHandlers = {
  ...providerHandlers,
  ...gatewayHandlers,
  ...mappingHandlers,
  ...credentialHandlers,
} satisfies Record<string, Handler>;
