/**
 * Egress VPN: the sessions of a group leave through a WireGuard VPN, via one of two gateways.
 *
 * Configuration: kasm:baseUrl, kasm:apiKey, kasm:apiKeySecret (secret); contractorsGroupId;
 * wireguardPrivateKey (secret): the key of the credential the group's sessions connect with.
 */
import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();
const contractorsGroupId = config.get("contractorsGroupId") ?? "e9e9e9e9e9e94e9e9e9e9e9e9e9e0001";

const vpn = new kasm.EgressProvider("corporate-vpn", { name: "Corporate VPN", egressProviderType: "wireguard", enabled: true });

/** A WireGuard peer configuration; the PrivateKey comes from the credential, so it is left out here. */
function peer(endpoint: string, publicKey: string): string {
  return [
    "[Interface]",
    "Address = 10.64.0.2/32",
    "DNS = 10.64.0.1",
    "",
    "[Peer]",
    `PublicKey = ${publicKey}`,
    "AllowedIPs = 0.0.0.0/0",
    `Endpoint = ${endpoint}:51820`,
  ].join("\n");
}

const frankfurt = new kasm.EgressGateway("frankfurt", {
  egressProviderId: vpn.egressProviderId,
  name: "Frankfurt",
  country: "DE",
  city: "Frankfurt",
  config: peer("vpn-fra.example.org", "x4bZ0uG9n5xPp8wq1Zc3Y7m2L6kV0aR1sT9eD4hJ2fI="),
});
const amsterdam = new kasm.EgressGateway("amsterdam", {
  egressProviderId: vpn.egressProviderId,
  name: "Amsterdam",
  country: "NL",
  city: "Amsterdam",
  config: peer("vpn-ams.example.org", "b7Qk2mV9cT4yR1uE6wZ3nH8jL5pX0sA2dF7gK1oI9qM="),
});

new kasm.EgressProviderMapping("contractors-vpn", {
  egressProviderId: vpn.egressProviderId,
  groupId: contractorsGroupId,
  allowAllGateways: false,
  selectedGateways: [frankfurt.egressGatewayId, amsterdam.egressGatewayId],
});

new kasm.EgressCredential("contractors-credential", {
  egressProviderId: vpn.egressProviderId,
  name: "contractors",
  groupId: contractorsGroupId,
  allowAllGateways: true,
  wireguardPrivateKey: config.requireSecret("wireguardPrivateKey"),
  limitActiveConnections: true,
  activeConnectionLimit: 25,
});

export const providerId = vpn.egressProviderId;
export const gateways = [frankfurt.name, amsterdam.name];
