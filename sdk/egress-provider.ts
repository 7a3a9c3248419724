/**
 * `kasm.EgressProvider`: an egress (VPN) provider.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";
import type { EgressProviderOutputs } from "../provider/resources/egress-provider";

/** The kinds of egress provider Kasm knows. */
export type EgressProviderType = "wireguard" | "openvpn" | "custom";

/** The arguments of an {@link EgressProvider}. Inputs left out are not managed: Kasm keeps whatever they are. */
export interface EgressProviderArgs extends ConnectionArgs {
  /** The provider's name, unique in Kasm. Changing it renames the provider in place. */
  readonly name: pulumi.Input<string>;
  /** `wireguard`, `openvpn` or `custom`. Changing it updates the provider in place. */
  readonly egressProviderType: pulumi.Input<EgressProviderType>;
  /** Whether the provider is in use. Kasm's default: true. */
  readonly enabled?: pulumi.Input<boolean>;
  /** Take over an existing provider with this name (and bring it to the declared state) instead of failing. Default: false. */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * An egress (VPN) provider: the parent of {@link EgressGateway}s, {@link EgressProviderMapping}s
 * and {@link EgressCredential}s. Every field updates in place. Destroying it makes Kasm delete
 * its gateways, mappings and credentials too. Needs Egress Providers Create, Modify, Delete and View.
 *
 * @example
 * ```ts
 * const vpn = new kasm.EgressProvider("vpn", { name: "Corporate VPN", egressProviderType: "wireguard" });
 * ```
 */
export class EgressProvider extends KasmResource<EgressProviderArgs, EgressProviderOutputs> {
  protected static override readonly kind = "EgressProvider";

  constructor(name: string, args: EgressProviderArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { egressProviderId: true, created: true } });
  }
}

/** The outputs of an {@link EgressProvider}: computed ({@link EgressProviderOutputs}) and mirroring its arguments ({@link EgressProviderArgs}). */
export interface EgressProvider extends ComputedOutputs<EgressProviderOutputs>, InputOutputs<EgressProviderArgs> {}
