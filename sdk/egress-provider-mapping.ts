/**
 * `kasm.EgressProviderMapping`: routes a user, a group or an image through an egress provider.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";
import type { EgressProviderMappingOutputs } from "../provider/resources/egress-provider-mapping";
import type { EgressTargetArgs } from "./egress-target";

/**
 * The arguments of an {@link EgressProviderMapping}: exactly one of `userId`, `groupId` and
 * `imageId`, the user, group or image routed through the provider, and its gateways (see
 * {@link EgressTargetArgs}). Inputs left out are not managed: Kasm keeps whatever they are. Every
 * input, the target too, changes in place.
 */
export interface EgressProviderMappingArgs extends EgressTargetArgs, ConnectionArgs {
  /** The egress provider (32 hex digits or a hyphenated UUID). Changing it updates the mapping in place. */
  readonly egressProviderId: pulumi.Input<string>;
  /** Whether the mapping is in effect. Kasm's default: true. */
  readonly enabled?: pulumi.Input<boolean>;
  /** Take over the existing mapping of this provider and target (and bring it to the declared state) instead of failing. Default: false. */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * Routes the sessions of a user, a group or an image through an {@link EgressProvider}, with all
 * its gateways or a selection. Kasm keeps one mapping per provider and target. Every field
 * updates in place. Needs Egress Providers Modify and View, plus the Modify permission of the
 * target: Users Modify (Users Modify Admin for a Global Admin user), Groups Modify (Groups Modify
 * System for a system group) or Images Modify.
 *
 * @example
 * ```ts
 * new kasm.EgressProviderMapping("engineering-vpn", {
 *   egressProviderId: vpn.egressProviderId,
 *   groupId: engineeringGroupId,
 *   selectedGateways: [fra.egressGatewayId, ams.egressGatewayId],
 * });
 * ```
 */
export class EgressProviderMapping extends KasmResource<EgressProviderMappingArgs, EgressProviderMappingOutputs> {
  protected static override readonly kind = "EgressProviderMapping";

  constructor(name: string, args: EgressProviderMappingArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { egressProviderMappingId: true, created: true } });
  }
}

/**
 * The outputs of an {@link EgressProviderMapping}: computed ({@link EgressProviderMappingOutputs})
 * and mirroring its arguments ({@link EgressProviderMappingArgs}).
 */
export interface EgressProviderMapping extends ComputedOutputs<EgressProviderMappingOutputs>, InputOutputs<EgressProviderMappingArgs> {}
