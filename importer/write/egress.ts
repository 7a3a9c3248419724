/**
 * The program's egress areas, in one section: providers, their gateways, the mappings that route users, groups
 * and images through them, and the credentials used on them. Apart from the other areas because
 * it is the one that holds secrets (a gateway's WireGuard configuration, a credential's password
 * or keys): each becomes a `config.requireSecret(...)` input listed for the README, never a value.
 */
import {
  egressCredentialShown,
  egressGatewayShown,
  egressProviderMappingShown,
  egressProviderShown,
  type EgressCredential,
  type EgressGateway,
  type EgressProvider,
  type EgressProviderMapping,
} from "../../provider/api";
import { camel } from "../names";
import type { Area, Section } from "./area";
import { canonical, rawId, setValues, type ProgramWriter, type Value } from "./writer";

// --- helpers -------------------------------------------------------------------------------------

/** The section all four areas share. */
const EGRESS: Section = {
  title: "Egress",
  comment:
    "Egress (VPN) providers, their gateways, who is routed through them, and the credentials used on them.\n" +
    "Secrets Kasm holds (private keys, passwords) are read from the stack configuration: see README.md.",
};

/** A provider's name in Kasm, from the provider list. */
function providerName(w: ProgramWriter, id: string): string | undefined {
  return w.inventory.egressProviders?.find((provider) => canonical(provider.egress_provider_id) === canonical(id))?.name;
}

/** A provider's id in the program: its declaration's `egressProviderId` when declared, else the id with its name. */
function providerRef(w: ProgramWriter, id: string): Value {
  return w.link("EgressProvider", id) ?? rawId(id, providerName(w, id));
}

/** What the names of a provider's gateways, mappings and credentials start with: the provider's resource name, else its name in Kasm. */
function providerSlug(w: ProgramWriter, id: string): string {
  return w.nameOf("EgressProvider", id) ?? providerName(w, id) ?? id.slice(0, 8);
}

/** What a mapping or a credential says of its gateways, as the kinds' mapping shows it. */
interface GatewaySelection {
  readonly allowAllGateways: boolean | null;
  readonly selectedGateways: readonly string[] | null;
}

/**
 * The gateway selection as the kinds' mapping shows it (all allowed, or the gateways Kasm lists),
 * sorted and labelled by the names the record gives the gateways; undefined when Kasm's answer does
 * not list them.
 */
function gatewayList(
  w: ProgramWriter,
  shown: GatewaySelection,
  listed: readonly { egress_gateway_id: string; name: string }[] | null | undefined,
): Record<string, Value> | undefined {
  if (shown.allowAllGateways === true) return { allowAllGateways: true };
  const ids = shown.selectedGateways;
  if (!ids || ids.length === 0) return undefined;
  const names = new Map((listed ?? []).map((g) => [g.egress_gateway_id, g.name]));
  const name = (id: string) => names.get(id) ?? "";
  const sorted = [...ids].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  return { allowAllGateways: false, selectedGateways: sorted.map((id) => w.link("EgressGateway", id) ?? rawId(id, names.get(id))) };
}

/** Why a mapping or a credential is not declared: Kasm's answer does not list its gateways (see {@link gatewayList}). */
function unlessGatewaysListed(what: "mapping" | "credential", gateways: Record<string, Value> | undefined): string | undefined {
  return gateways ? undefined : `Kasm's answer does not list the ${what}'s gateways, so it cannot be declared as it is`;
}

/** A mapping's or a credential's target as inputs (a reference where the program declares it), and what names call it. */
function targetOf(w: ProgramWriter, shown: { userId?: string | null; groupId?: string | null; imageId?: string | null }): [Record<string, Value>, string] {
  if (shown.userId) return [{ userId: w.userRef(shown.userId) }, w.usernames.get(canonical(shown.userId)) ?? `user-${shown.userId.slice(0, 8)}`];
  if (shown.groupId) return [{ groupId: w.groupRef(shown.groupId) }, w.groupNames.get(canonical(shown.groupId)) ?? `group-${shown.groupId.slice(0, 8)}`];
  return [{ imageId: w.imageRef(shown.imageId ?? "") }, `image-${(shown.imageId ?? "").slice(0, 8)}`];
}

// --- the areas -----------------------------------------------------------------------------------

/** One EgressProvider per provider, taken over by name; each one's id becomes a reference. */
export const EGRESS_PROVIDERS: Area<EgressProvider> = {
  area: "egress-providers",
  kind: "EgressProvider",
  section: EGRESS,
  variablePrefix: "provider",
  records: (inventory) => inventory.egressProviders,
  name: (provider) => [provider.name, "egress-provider"],
  id: (provider) => provider.egress_provider_id,
  inputs: (provider) => ({ ...egressProviderShown(provider), adopt: true }),
};

/** One EgressGateway per gateway; its configuration is a secret input when it holds a private key. */
export const EGRESS_GATEWAYS: Area<EgressGateway> = {
  area: "egress-gateways",
  kind: "EgressGateway",
  section: EGRESS,
  variablePrefix: "gateway",
  records: (inventory) => inventory.egressGateways,
  name: (gateway, w) => [`${providerSlug(w, gateway.egress_provider_id)}-${gateway.name}`, "egress-gateway"],
  id: (gateway) => gateway.egress_gateway_id,
  inputs(gateway, w, name) {
    // The kind's own reading of the record; the provider becomes a reference (or its id with its name).
    const { egressProviderId: _providerId, config: shownConfig, ...values } = egressGatewayShown(gateway);
    // A WireGuard configuration with its PrivateKey line is a secret as a whole.
    const config =
      shownConfig && /^\s*PrivateKey\s*=/m.test(shownConfig)
        ? w.secret(`${camel(name)}Config`, `the whole configuration of egress gateway "${gateway.name}" (it holds a PrivateKey line)`)
        : (shownConfig ?? undefined);
    return { egressProviderId: providerRef(w, gateway.egress_provider_id), ...setValues(values), config, adopt: true };
  },
};

/** One EgressProviderMapping per mapping whose gateways Kasm's answer lists. */
export const EGRESS_MAPPINGS: Area<EgressProviderMapping> = {
  area: "egress-mappings",
  kind: "EgressProviderMapping",
  section: EGRESS,
  records: (inventory) => inventory.egressMappings,
  notDeclared: (mapping, w) => unlessGatewaysListed("mapping", gatewayList(w, egressProviderMappingShown(mapping), mapping.egress_gateways)),
  name(mapping, w) {
    const shown = egressProviderMappingShown(mapping);
    return [`${providerSlug(w, shown.egressProviderId)}-for-${targetOf(w, shown)[1]}`, "egress-mapping"];
  },
  id: (mapping) => mapping.egress_provider_mapping_id,
  inputs(mapping, w) {
    // The kind's own reading of the record; the provider, target and gateways become references.
    const shown = egressProviderMappingShown(mapping);
    return {
      egressProviderId: providerRef(w, shown.egressProviderId),
      ...targetOf(w, shown)[0],
      enabled: shown.enabled,
      ...gatewayList(w, shown, mapping.egress_gateways),
      adopt: true,
    };
  },
};

/** One EgressCredential per credential whose gateways Kasm's answer lists; what Kasm holds secret becomes a secret input. */
export const EGRESS_CREDENTIALS: Area<EgressCredential> = {
  area: "egress-credentials",
  kind: "EgressCredential",
  section: EGRESS,
  records: (inventory) => inventory.egressCredentials,
  notDeclared: (credential, w) => unlessGatewaysListed("credential", gatewayList(w, egressCredentialShown(credential), credential.egress_gateways)),
  name: (credential, w) => [`${providerSlug(w, egressCredentialShown(credential).egressProviderId)}-${credential.name}-credential`, "egress-credential"],
  id: (credential) => credential.egress_credential_id,
  inputs(credential, w, name) {
    const key = camel(name);
    const label = `egress credential "${credential.name}"`;
    // The kind's own reading of the record; the provider, target and gateways come as references.
    const shown = egressCredentialShown(credential);
    const secrets: Record<string, Value | undefined> = {
      // Kasm masks the password (the kind never reads it back): whether one is set shows, its value does not.
      password: credential.password ? w.secret(`${key}Password`, `the password of ${label} on the provider's gateways`) : undefined,
      wireguardPrivateKey: shown.wireguardPrivateKey ? w.secret(`${key}WireguardPrivateKey`, `the WireGuard private key of ${label}`) : undefined,
      meshKey: shown.meshKey ? w.secret(`${key}MeshKey`, `the mesh key of ${label}`) : undefined,
      customCredential:
        shown.customCredential !== undefined && shown.customCredential !== null && shown.customCredential !== ""
          ? w.secret(`${key}CustomCredential`, `the custom credential data of ${label}`)
          : undefined,
    };
    return {
      egressProviderId: providerRef(w, shown.egressProviderId),
      name: shown.name,
      ...targetOf(w, shown)[0],
      // An empty username is left out rather than declared "": the program leaves it unmanaged.
      ...setValues({ username: shown.username || undefined }),
      ...secrets,
      enabled: shown.enabled,
      ...gatewayList(w, shown, credential.egress_gateways),
      ...setValues({ limitActiveConnections: shown.limitActiveConnections, activeConnectionLimit: shown.activeConnectionLimit }),
      adopt: true,
    };
  },
};
