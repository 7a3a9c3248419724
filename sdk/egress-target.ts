/**
 * The arguments that an {@link EgressProviderMapping} and an {@link EgressCredential} both take:
 * the user, group or image it applies to, and the gateways of the provider it may use. The
 * provider checks and sends them alike for both (`provider/resources/egress-shared.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { EgressCredential } from "./egress-credential";
import type { EgressGateway } from "./egress-gateway";
import type { EgressProviderMapping } from "./egress-provider-mapping";

/** What a mapping or credential applies to (exactly one of `userId`, `groupId` and `imageId`), and the gateways it may use. */
export interface EgressTargetArgs {
  /** The user it applies to. Set exactly one of `userId`, `groupId`, `imageId`. */
  readonly userId?: pulumi.Input<string>;
  /** The group it applies to (needs Groups Modify, and Groups Modify System for a system group: All Users or Administrators). */
  readonly groupId?: pulumi.Input<string>;
  /** The image it applies to (needs Images Modify). */
  readonly imageId?: pulumi.Input<string>;
  /**
   * Every gateway of the provider may be used. Default: false, and unlike other inputs, leaving it
   * out sets it to false in Kasm (the selection only counts then). When false, `selectedGateways`
   * is required.
   */
  readonly allowAllGateways?: pulumi.Input<boolean>;
  /**
   * The gateways that may be used (ids of {@link EgressGateway}s of the provider), compared as a
   * set: order and id spelling do not matter. Required, and not empty, unless `allowAllGateways`
   * is true; Kasm ignores it when that is true.
   */
  readonly selectedGateways?: pulumi.Input<pulumi.Input<string>[]>;
}
