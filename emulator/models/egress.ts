/**
 * Egress: providers, their gateways, and the mappings and credentials that give users, groups or
 * images the use of them. Mappings and credentials target a user, a group or an image, whose
 * models are passed in.
 */
import { AlreadyExists, InvalidRequest, MissingParameters } from "../errors";
import { AreaModel, byId, definedOnly, newId, timestamp, orUnknown, type Table } from "./common";
import type { GroupsModel } from "./groups";
import type { ImagesModel } from "./images";
import type { UsersModel } from "./users";

/** The kinds of egress provider the product knows. */
export type EgressProviderType = "wireguard" | "openvpn" | "custom";

/** An egress provider (a VPN or proxy service) as stored. */
export interface EgressProviderRecord {
  egress_provider_id: string;
  created: string;
  name: string;
  egress_provider_type: EgressProviderType;
  enabled: boolean;
}

/** An egress gateway: one endpoint of a provider. */
export interface EgressGatewayRecord {
  egress_gateway_id: string;
  egress_provider_id: string;
  name: string;
  enabled: boolean;
  country: string | null;
  city: string | null;
  config: string | null;
  active_connections: number;
}

/** The one object an egress mapping or credential applies to. */
export interface EgressTarget {
  user_id: string | null;
  group_id: string | null;
  image_id: string | null;
}

/** An egress provider mapping: which gateways of a provider a user, group or image may use. */
export interface EgressMappingRecord extends EgressTarget {
  egress_provider_mapping_id: string;
  egress_provider_id: string;
  enabled: boolean;
  created: string;
  allow_all_gateways: boolean;
  selected_gateways: string[];
}

/** An egress credential: how a user, group or image signs in to a provider's gateways. */
export interface EgressCredentialRecord extends EgressTarget {
  egress_credential_id: string;
  egress_provider_id: string;
  name: string;
  username: string | null;
  password: string | null;
  enabled: boolean;
  allow_all_gateways: boolean;
  selected_gateways: string[];
  wireguard_private_key: string | null;
  mesh_key: string | null;
  limit_active_connections: boolean;
  active_connection_limit: number;
  active_connections: number;
  custom_credential: string | null;
}

/** The part of the state this model owns. */
export interface EgressTables {
  egressProviders: Table<EgressProviderRecord>;
  egressGateways: Table<EgressGatewayRecord>;
  egressMappings: Table<EgressMappingRecord>;
  egressCredentials: Table<EgressCredentialRecord>;
}

/** The fields of an egress provider a client may send. */
export type EgressProviderInput = Partial<Omit<EgressProviderRecord, "egress_provider_id" | "created">>;
/** The fields of an egress gateway a client may send. */
export type EgressGatewayInput = Partial<Omit<EgressGatewayRecord, "egress_gateway_id" | "active_connections">>;
/** The fields of an egress provider mapping a client may send. */
export type EgressMappingInput = Partial<Omit<EgressMappingRecord, "egress_provider_mapping_id" | "created">>;
/** The fields of an egress credential a client may send. */
export type EgressCredentialInput = Partial<Omit<EgressCredentialRecord, "egress_credential_id" | "active_connections">>;

/** The models egress mappings and credentials refer to. */
export interface EgressDependencies {
  users: UsersModel;
  groups: GroupsModel;
  images: ImagesModel;
}

/** A gateway a user may use with an image, with its provider and the credential that applies. */
export interface UsableGateway {
  gateway: EgressGatewayRecord;
  provider: EgressProviderRecord;
  credential: EgressCredentialRecord | undefined;
}

/** The egress providers, gateways, mappings and credentials, and the rules that change them. */
export class EgressModel extends AreaModel<EgressTables, EgressDependencies> {
  // --- lookups --------------------------------------------------------------------------------

  /** Every egress provider. */
  providers(): EgressProviderRecord[] {
    return Object.values(this.tables.egressProviders);
  }

  /** Every egress gateway. */
  gateways(): EgressGatewayRecord[] {
    return Object.values(this.tables.egressGateways);
  }

  /** Every egress provider mapping. */
  mappings(): EgressMappingRecord[] {
    return Object.values(this.tables.egressMappings);
  }

  /** Every egress credential. */
  credentials(): EgressCredentialRecord[] {
    return Object.values(this.tables.egressCredentials);
  }

  /** An egress provider by id in either form; undefined when the id is malformed or unknown. */
  provider(id: unknown): EgressProviderRecord | undefined {
    return byId(this.tables.egressProviders, id);
  }

  /** An egress provider mapping by id in either form; undefined when the id is malformed or unknown. */
  mapping(id: unknown): EgressMappingRecord | undefined {
    return byId(this.tables.egressMappings, id);
  }

  /** An egress provider an operation refers to, with the product's wording when it is unknown. */
  requireEgressProvider(id: unknown): EgressProviderRecord {
    return orUnknown(this.provider(id), id, (given) => `Egress provider (${given}) does not exist`);
  }

  /** An egress gateway an operation refers to, with the product's wording when it is unknown. */
  requireEgressGateway(id: unknown): EgressGatewayRecord {
    return orUnknown(byId(this.tables.egressGateways, id), id, (given) => `Egress gateway (${given}) does not exist`);
  }

  /** An egress provider mapping an operation refers to, with the product's wording when it is unknown. */
  requireEgressMapping(id: unknown): EgressMappingRecord {
    return orUnknown(this.mapping(id), id, (given) => `Egress provider mapping (${given}) does not exist`);
  }

  // --- providers ------------------------------------------------------------------------------

  /** create_egress_provider: name and type are required; names are unique. The id is a new one, or the one a seed pins (canonical form). */
  createEgressProvider(input: EgressProviderInput, id: string = newId()): EgressProviderRecord {
    if (!input.name || !input.egress_provider_type) throw new MissingParameters();
    this.checkEgressProviderName(input.name, undefined);
    const provider: EgressProviderRecord = {
      egress_provider_id: id,
      created: timestamp(),
      name: input.name,
      egress_provider_type: input.egress_provider_type,
      enabled: input.enabled ?? true,
    };
    this.tables.egressProviders[provider.egress_provider_id] = provider;
    return provider;
  }

  private checkEgressProviderName(name: string, selfId: string | undefined): void {
    const clash = this.providers().find((p) => p.name === name && p.egress_provider_id !== selfId);
    if (clash) throw new AlreadyExists(`An egress provider named (${name}) already exists`);
  }

  /** update_egress_provider: the fields sent change; the name stays unique. */
  updateEgressProvider(id: unknown, input: EgressProviderInput): EgressProviderRecord {
    const provider = this.requireEgressProvider(id);
    if (input.name !== undefined) {
      if (!input.name) throw new InvalidRequest("Invalid Request: name must not be empty");
      this.checkEgressProviderName(input.name, provider.egress_provider_id);
    }
    Object.assign(provider, definedOnly(input));
    return provider;
  }

  /** delete_egress_provider: its gateways, mappings and credentials go with it. */
  deleteEgressProvider(id: unknown): void {
    const providerId = this.requireEgressProvider(id).egress_provider_id;
    const { egressGateways, egressMappings, egressCredentials } = this.tables;
    for (const g of this.gateways()) if (g.egress_provider_id === providerId) delete egressGateways[g.egress_gateway_id];
    for (const m of this.mappings()) if (m.egress_provider_id === providerId) delete egressMappings[m.egress_provider_mapping_id];
    for (const c of this.credentials()) if (c.egress_provider_id === providerId) delete egressCredentials[c.egress_credential_id];
    delete this.tables.egressProviders[providerId];
  }

  // --- gateways -------------------------------------------------------------------------------

  /** create_egress_gateway: the provider must exist; names are unique within a provider. The id is a new one, or the one a seed pins (canonical form). */
  createEgressGateway(input: EgressGatewayInput, id: string = newId()): EgressGatewayRecord {
    if (!input.egress_provider_id || !input.name) throw new MissingParameters();
    const provider = this.requireEgressProvider(input.egress_provider_id);
    this.checkGatewayName(provider.egress_provider_id, input.name, undefined);
    const gateway: EgressGatewayRecord = {
      egress_gateway_id: id,
      egress_provider_id: provider.egress_provider_id,
      name: input.name,
      enabled: input.enabled ?? true,
      country: input.country ?? null,
      city: input.city ?? null,
      config: input.config ?? null,
      active_connections: 0,
    };
    this.tables.egressGateways[gateway.egress_gateway_id] = gateway;
    return gateway;
  }

  private checkGatewayName(providerId: string, name: string, selfId: string | undefined): void {
    const clash = this.gateways().find((g) => g.egress_provider_id === providerId && g.name === name && g.egress_gateway_id !== selfId);
    if (clash) throw new AlreadyExists(`An egress gateway named (${name}) already exists for this egress provider`);
  }

  /** update_egress_gateway: the fields sent change; a gateway moved to another provider leaves the selections of the old one. */
  updateEgressGateway(id: unknown, input: EgressGatewayInput): EgressGatewayRecord {
    const gateway = this.requireEgressGateway(id);
    const providerId =
      input.egress_provider_id !== undefined ? this.requireEgressProvider(input.egress_provider_id).egress_provider_id : gateway.egress_provider_id;
    const name = input.name ?? gateway.name;
    if (!name) throw new InvalidRequest("Invalid Request: name must not be empty");
    this.checkGatewayName(providerId, name, gateway.egress_gateway_id);
    if (providerId !== gateway.egress_provider_id) this.unselectGateway(gateway.egress_gateway_id);
    Object.assign(gateway, definedOnly(input), { egress_provider_id: providerId, name });
    return gateway;
  }

  /** delete_egress_gateway: it is also taken out of the mappings and credentials that selected it. */
  deleteEgressGateway(id: unknown): void {
    const gateway = this.requireEgressGateway(id);
    this.unselectGateway(gateway.egress_gateway_id);
    delete this.tables.egressGateways[gateway.egress_gateway_id];
  }

  /** Take a gateway out of the mappings and credentials that selected it (it left their provider). */
  private unselectGateway(gatewayId: string): void {
    for (const holder of [...this.mappings(), ...this.credentials()]) holder.selected_gateways = holder.selected_gateways.filter((g) => g !== gatewayId);
  }

  // --- mappings and credentials ---------------------------------------------------------------

  /**
   * The provider, target and gateways of a mapping or credential, checked: exactly one target
   * that exists, and gateways of that provider when not all gateways are allowed.
   */
  private egressBinding(input: EgressMappingInput | EgressCredentialInput, current?: EgressMappingRecord | EgressCredentialRecord) {
    const providerId = input.egress_provider_id ?? current?.egress_provider_id;
    if (!providerId) throw new MissingParameters();
    const provider = this.requireEgressProvider(providerId);
    const targetGiven = input.user_id !== undefined || input.group_id !== undefined || input.image_id !== undefined;
    const raw: EgressTarget = targetGiven
      ? { user_id: input.user_id ?? null, group_id: input.group_id ?? null, image_id: input.image_id ?? null }
      : { user_id: current?.user_id ?? null, group_id: current?.group_id ?? null, image_id: current?.image_id ?? null };
    const set = (["user_id", "group_id", "image_id"] as const).filter((k) => raw[k] !== null && raw[k] !== "");
    if (set.length !== 1) throw new InvalidRequest("Invalid Request: exactly one of user_id, group_id and image_id must be set");
    const target: EgressTarget = { user_id: null, group_id: null, image_id: null };
    if (set[0] === "user_id") target.user_id = this.deps.users.requireUser(raw.user_id, "Invalid User ID").user_id;
    if (set[0] === "group_id") target.group_id = this.deps.groups.requireGroup(raw.group_id).group_id;
    if (set[0] === "image_id") target.image_id = this.deps.images.requireImage(raw.image_id).image_id;
    const allowAll = input.allow_all_gateways ?? current?.allow_all_gateways ?? false;
    const selectedRaw = input.selected_gateways ?? (allowAll ? [] : (current?.selected_gateways ?? []));
    const selected: string[] = [];
    if (!allowAll) {
      if (selectedRaw.length === 0) throw new InvalidRequest("Invalid Request: selected_gateways is required when allow_all_gateways is false");
      for (const id of selectedRaw) {
        const gateway = this.requireEgressGateway(id);
        if (gateway.egress_provider_id !== provider.egress_provider_id)
          throw new InvalidRequest(`Invalid Request: egress gateway (${gateway.egress_gateway_id}) belongs to another egress provider`);
        if (!selected.includes(gateway.egress_gateway_id)) selected.push(gateway.egress_gateway_id);
      }
    }
    return { provider, target, allowAll, selected };
  }

  /** create_egress_provider_mapping: one mapping per provider and target. The id is a new one, or the one a seed pins (canonical form). */
  createEgressMapping(input: EgressMappingInput, id: string = newId()): EgressMappingRecord {
    const { provider, target, allowAll, selected } = this.egressBinding(input);
    this.checkMappingUnique(provider.egress_provider_id, target, undefined);
    const mapping: EgressMappingRecord = {
      egress_provider_mapping_id: id,
      egress_provider_id: provider.egress_provider_id,
      enabled: input.enabled ?? true,
      created: timestamp(),
      ...target,
      allow_all_gateways: allowAll,
      selected_gateways: selected,
    };
    this.tables.egressMappings[mapping.egress_provider_mapping_id] = mapping;
    return mapping;
  }

  private checkMappingUnique(providerId: string, target: EgressTarget, selfId: string | undefined): void {
    const clash = this.mappings().find(
      (m) =>
        m.egress_provider_mapping_id !== selfId &&
        m.egress_provider_id === providerId &&
        m.user_id === target.user_id &&
        m.group_id === target.group_id &&
        m.image_id === target.image_id,
    );
    if (clash) throw new AlreadyExists(`An egress provider mapping for this provider and target already exists (${clash.egress_provider_mapping_id})`);
  }

  /** update_egress_provider_mapping: the fields sent change; one mapping per provider and target. */
  updateEgressMapping(id: unknown, input: EgressMappingInput): EgressMappingRecord {
    const mapping = this.requireEgressMapping(id);
    const { provider, target, allowAll, selected } = this.egressBinding(input, mapping);
    this.checkMappingUnique(provider.egress_provider_id, target, mapping.egress_provider_mapping_id);
    Object.assign(mapping, {
      egress_provider_id: provider.egress_provider_id,
      enabled: input.enabled ?? mapping.enabled,
      ...target,
      allow_all_gateways: allowAll,
      selected_gateways: selected,
    });
    return mapping;
  }

  /** delete_egress_provider_mapping: by id. */
  deleteEgressMapping(id: unknown): void {
    const mapping = this.requireEgressMapping(id);
    delete this.tables.egressMappings[mapping.egress_provider_mapping_id];
  }

  /**
   * create_egress_credential: a name unique within the provider, one target, and a positive limit
   * when limited. The id is a new one, or the one a seed pins (canonical form).
   */
  createEgressCredential(input: EgressCredentialInput, id: string = newId()): EgressCredentialRecord {
    if (!input.name) throw new MissingParameters();
    const { provider, target, allowAll, selected } = this.egressBinding(input);
    const clash = this.credentials().find((c) => c.egress_provider_id === provider.egress_provider_id && c.name === input.name);
    if (clash) throw new AlreadyExists(`An egress credential named (${input.name}) already exists for this egress provider`);
    const limit = input.limit_active_connections ?? false;
    if (limit && !(input.active_connection_limit && input.active_connection_limit > 0))
      throw new InvalidRequest("Invalid Request: active_connection_limit must be positive when limit_active_connections is true");
    const credential: EgressCredentialRecord = {
      egress_credential_id: id,
      egress_provider_id: provider.egress_provider_id,
      name: input.name,
      username: input.username ?? null,
      password: input.password ?? null,
      enabled: input.enabled ?? true,
      ...target,
      allow_all_gateways: allowAll,
      selected_gateways: selected,
      wireguard_private_key: input.wireguard_private_key ?? null,
      mesh_key: input.mesh_key ?? null,
      limit_active_connections: limit,
      active_connection_limit: input.active_connection_limit ?? 0,
      active_connections: 0,
      custom_credential: input.custom_credential ?? null,
    };
    this.tables.egressCredentials[credential.egress_credential_id] = credential;
    return credential;
  }

  /** Drop the mappings and credentials of a deleted user, as the product's foreign keys cascade. */
  forgetUser(userId: string): void {
    this.forgetTarget("user_id", userId);
  }

  /** Drop the mappings and credentials of a deleted group (product mode's delete_group), likewise. */
  forgetGroup(groupId: string): void {
    this.forgetTarget("group_id", groupId);
  }

  /** Drop the mappings and credentials of a deleted image (product mode's delete_image), likewise. */
  forgetImage(imageId: string): void {
    this.forgetTarget("image_id", imageId);
  }

  private forgetTarget(field: "user_id" | "group_id" | "image_id", id: string): void {
    const { egressMappings, egressCredentials } = this.tables;
    for (const m of this.mappings()) if (m[field] === id) delete egressMappings[m.egress_provider_mapping_id];
    for (const c of this.credentials()) if (c[field] === id) delete egressCredentials[c.egress_credential_id];
  }

  // --- what applies ---------------------------------------------------------------------------

  /** The target of an egress mapping or credential request, resolved for the permission check. */
  egressTargetContext(target: Partial<EgressTarget>): {
    targetIsUser: boolean;
    targetIsGroup: boolean;
    targetIsImage: boolean;
    targetUserIsGlobalAdmin: boolean;
    targetGroupIsSystem: boolean;
  } {
    const user = target.user_id ? this.deps.users.user(target.user_id) : undefined;
    const group = target.group_id ? this.deps.groups.group(target.group_id) : undefined;
    return {
      targetIsUser: !!target.user_id,
      targetIsGroup: !!target.group_id,
      targetIsImage: !!target.image_id,
      targetUserIsGlobalAdmin: !!user && this.deps.users.isGlobalAdmin(user),
      targetGroupIsSystem: !!group?.is_system,
    };
  }

  /**
   * get_image_egress_gateways: the gateways a user may use with an image, through the enabled
   * mappings of the user, of the user's groups, and of the image.
   */
  gatewaysForUserImage(userId: unknown, imageId: unknown) {
    const user = this.deps.users.requireUser(userId, "Invalid User ID");
    const image = this.deps.images.requireImage(imageId);
    const applies = (t: EgressTarget) =>
      t.user_id === user.user_id || (t.group_id !== null && user.group_ids.includes(t.group_id)) || t.image_id === image.image_id;
    const result: UsableGateway[] = [];
    for (const mapping of this.mappings()) {
      if (!mapping.enabled || !applies(mapping)) continue;
      const provider = this.tables.egressProviders[mapping.egress_provider_id];
      if (!provider?.enabled) continue;
      const gateways = this.gateways().filter(
        (g) =>
          g.enabled &&
          g.egress_provider_id === provider.egress_provider_id &&
          (mapping.allow_all_gateways || mapping.selected_gateways.includes(g.egress_gateway_id)),
      );
      for (const gateway of gateways) {
        if (result.some((r) => r.gateway.egress_gateway_id === gateway.egress_gateway_id)) continue;
        const credential = this.credentials().find(
          (c) =>
            c.enabled &&
            c.egress_provider_id === provider.egress_provider_id &&
            applies(c) &&
            (c.allow_all_gateways || c.selected_gateways.includes(gateway.egress_gateway_id)),
        );
        result.push({ gateway, provider, credential });
      }
    }
    return { image, gateways: result };
  }
}
