/**
 * The program's egress section: providers, their gateways, the mappings that route users, groups
 * and images through them, and the credentials used on them. Apart from the other areas because
 * it is the one that holds secrets (a gateway's WireGuard configuration, a credential's password
 * or keys): each becomes a `config.requireSecret(...)` input listed for the README, never a value.
 */
import { egressCredentialShown, egressGatewayShown, egressProviderMappingShown, egressProviderShown, type EgressCredential, type EgressGateway } from "../../provider/api";
import { camel } from "../names";
import { canonical, rawId, setValues, type ProgramWriter, type Value } from "./writer";

// --- helpers -------------------------------------------------------------------------------------

/** An EgressGateway; its configuration is a secret input when it holds a private key. */
function gatewayDeclaration(w: ProgramWriter, gateway: EgressGateway, provider: Value, providerSlug: string): string {
  const name = w.names.resource(`${providerSlug}-${gateway.name}`, "egress-gateway");
  const variable = w.names.variable(name, "gateway");
  // The kind's own reading of the record; the provider becomes a reference (or its id with its name).
  const { egressProviderId: _providerId, config: shownConfig, ...values } = egressGatewayShown(gateway);
  // A WireGuard configuration with its PrivateKey line is a secret as a whole.
  const config =
    shownConfig && /^\s*PrivateKey\s*=/m.test(shownConfig)
      ? w.secret(`${camel(name)}Config`, `the whole configuration of egress gateway "${gateway.name}" (it holds a PrivateKey line)`)
      : (shownConfig ?? undefined);
  return w.declare(variable, "EgressGateway", name, gateway.egress_gateway_id, { egressProviderId: provider, ...setValues(values), config, adopt: true }, w.options());
}

/** An EgressCredential; what Kasm holds secret (password, keys, custom data) becomes a secret input. */
function credentialDeclaration(
  w: ProgramWriter,
  credential: EgressCredential,
  provider: Value,
  providerSlug: string,
  target: Record<string, Value>,
  gateways: Record<string, Value>,
): string {
  const name = w.names.resource(`${providerSlug}-${credential.name}-credential`, "egress-credential");
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
  return w.declare(
    undefined,
    "EgressCredential",
    name,
    credential.egress_credential_id,
    {
      egressProviderId: provider,
      name: shown.name,
      ...target,
      // An empty username is left out rather than declared "": the program leaves it unmanaged.
      ...setValues({ username: shown.username || undefined }),
      ...secrets,
      enabled: shown.enabled,
      ...gateways,
      ...setValues({ limitActiveConnections: shown.limitActiveConnections, activeConnectionLimit: shown.activeConnectionLimit }),
      adopt: true,
    },
    w.options(),
  );
}

// --- the section ---------------------------------------------------------------------------------

/** The egress section: providers, gateways, mappings and credentials, in that order. */
export function writeEgress(w: ProgramWriter): void {
  const lines: string[] = [];
  const providerNames = new Map<string, string>();
  const providerSlugs = new Map<string, string>();
  for (const provider of w.inventory.egressProviders ?? []) providerNames.set(canonical(provider.egress_provider_id), provider.name);
  const providerRef = (id: string): Value => w.link("EgressProvider", id) ?? rawId(id, providerNames.get(canonical(id)));
  const providerSlug = (id: string) => providerSlugs.get(canonical(id)) ?? providerNames.get(canonical(id)) ?? id.slice(0, 8);

  if (w.wants("egress-providers")) {
    const providers = w.inventory.egressProviders;
    for (const provider of providers ?? []) {
      const name = w.names.resource(provider.name, "egress-provider");
      const variable = w.names.variable(name, "provider");
      providerSlugs.set(canonical(provider.egress_provider_id), name);
      lines.push(
        w.declare(variable, "EgressProvider", name, provider.egress_provider_id, { ...egressProviderShown(provider), adopt: true }, w.options()),
      );
    }
    w.row("egress-providers", providers?.length, providers?.length ?? 0);
  }

  if (w.wants("egress-gateways")) {
    const gateways = w.inventory.egressGateways;
    for (const gateway of gateways ?? []) lines.push(gatewayDeclaration(w, gateway, providerRef(gateway.egress_provider_id), providerSlug(gateway.egress_provider_id)));
    w.row("egress-gateways", gateways?.length, gateways?.length ?? 0);
  }

  // The gateway selection as the kinds' mapping shows it (all allowed, or the gateways Kasm lists),
  // sorted and labelled by the names the record gives the gateways.
  const gatewayList = (
    shown: { allowAllGateways: boolean | null; selectedGateways: readonly string[] | null },
    listed: readonly { egress_gateway_id: string; name: string }[] | null | undefined,
  ): Record<string, Value> | undefined => {
    if (shown.allowAllGateways === true) return { allowAllGateways: true };
    const ids = shown.selectedGateways;
    if (!ids || ids.length === 0) return undefined;
    const names = new Map((listed ?? []).map((g) => [g.egress_gateway_id, g.name]));
    const name = (id: string) => names.get(id) ?? "";
    const sorted = [...ids].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
    return { allowAllGateways: false, selectedGateways: sorted.map((id) => w.link("EgressGateway", id) ?? rawId(id, names.get(id))) };
  };
  const targetOf = (shown: { userId?: string | null; groupId?: string | null; imageId?: string | null }): [Record<string, Value>, string] => {
    if (shown.userId) return [{ userId: w.userRef(shown.userId) }, w.usernames.get(canonical(shown.userId)) ?? `user-${shown.userId.slice(0, 8)}`];
    if (shown.groupId) return [{ groupId: w.groupRef(shown.groupId) }, w.groupNames.get(canonical(shown.groupId)) ?? `group-${shown.groupId.slice(0, 8)}`];
    return [{ imageId: w.imageRef(shown.imageId ?? "") }, `image-${(shown.imageId ?? "").slice(0, 8)}`];
  };

  if (w.wants("egress-mappings")) {
    const mappings = w.inventory.egressMappings;
    let unreadable = 0;
    for (const mapping of mappings ?? []) {
      // The kind's own reading of the record; the provider, target and gateways become references.
      const shown = egressProviderMappingShown(mapping);
      const gateways = gatewayList(shown, mapping.egress_gateways);
      if (!gateways) {
        unreadable++;
        continue;
      }
      const [target, targetName] = targetOf(shown);
      const name = w.names.resource(`${providerSlug(shown.egressProviderId)}-for-${targetName}`, "egress-mapping");
      lines.push(
        w.declare(undefined, "EgressProviderMapping", name, mapping.egress_provider_mapping_id, { egressProviderId: providerRef(shown.egressProviderId), ...target, enabled: shown.enabled, ...gateways, adopt: true }, w.options()),
      );
    }
    w.row("egress-mappings", mappings?.length, (mappings?.length ?? 0) - unreadable, unreadable > 0 ? [`${unreadable}: Kasm's answer does not list the mapping's gateways, so it cannot be declared as it is`] : []);
  }

  if (w.wants("egress-credentials")) {
    const credentials = w.inventory.egressCredentials;
    let unreadable = 0;
    for (const credential of credentials ?? []) {
      const shown = egressCredentialShown(credential);
      const gateways = gatewayList(shown, credential.egress_gateways);
      if (!gateways) {
        unreadable++;
        continue;
      }
      lines.push(credentialDeclaration(w, credential, providerRef(shown.egressProviderId), providerSlug(shown.egressProviderId), targetOf(shown)[0], gateways));
    }
    w.row(
      "egress-credentials",
      credentials?.length,
      (credentials?.length ?? 0) - unreadable,
      unreadable > 0 ? [`${unreadable}: Kasm's answer does not list the credential's gateways, so it cannot be declared as it is`] : [],
    );
  }
  if (lines.length > 0)
    w.section(
      "Egress",
      "Egress (VPN) providers, their gateways, who is routed through them, and the credentials used on them.\n" +
        "Secrets Kasm holds (private keys, passwords) are read from the stack configuration: see README.md.",
      `${lines.join("\n")}\n`,
    );
}
