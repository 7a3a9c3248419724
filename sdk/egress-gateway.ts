/**
 * `kasm.EgressGateway`: a gateway (VPN endpoint) of an egress provider.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import { SECRET_INPUTS } from "../catalogue/kinds";
import type { ConnectionArgs } from "./connection";
import type { EgressGatewayOutputs } from "../provider/resources/egress-gateway";

/** The arguments of an {@link EgressGateway}. Inputs left out are not managed: Kasm keeps whatever they are. */
export interface EgressGatewayArgs extends ConnectionArgs {
  /** The egress provider (32 hex digits or a hyphenated UUID). Changing it moves the gateway in place. */
  readonly egressProviderId: pulumi.Input<string>;
  /** The gateway's name, unique within its provider. */
  readonly name: pulumi.Input<string>;
  /** Whether the gateway is in use. Kasm's default: true. */
  readonly enabled?: pulumi.Input<boolean>;
  /** Where the gateway is, as shown to users. */
  readonly country?: pulumi.Input<string>;
  /** Where the gateway is, as shown to users. */
  readonly city?: pulumi.Input<string>;
  /**
   * The connection configuration (for example a WireGuard or OpenVPN config file); always stored
   * as a secret. For a WireGuard gateway the `PrivateKey` line may be left out: the
   * {@link EgressCredential} of each user supplies it.
   */
  readonly config?: pulumi.Input<string>;
  /** Take over an existing gateway of the provider with this name (and bring it to the declared state) instead of failing. Default: false. */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * A gateway of an {@link EgressProvider}. Every field updates in place. Needs Egress Gateways
 * Create, Modify, Delete and View, and Egress Providers Modify.
 *
 * @example
 * ```ts
 * const fra = new kasm.EgressGateway("fra", {
 *   egressProviderId: vpn.egressProviderId,
 *   name: "Frankfurt",
 *   country: "DE",
 *   city: "Frankfurt",
 *   config: cfg.requireSecret("wgFrankfurt"),
 * });
 * ```
 */
export class EgressGateway extends KasmResource<EgressGatewayArgs, EgressGatewayOutputs> {
  protected static override readonly kind = "EgressGateway";

  constructor(name: string, args: EgressGatewayArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { egressGatewayId: true, activeConnections: true }, secrets: SECRET_INPUTS.EgressGateway });
  }
}

/** The outputs of an {@link EgressGateway}: computed ({@link EgressGatewayOutputs}) and mirroring its arguments ({@link EgressGatewayArgs}). */
export interface EgressGateway extends ComputedOutputs<EgressGatewayOutputs>, InputOutputs<EgressGatewayArgs> {}
