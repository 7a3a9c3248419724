/**
 * `kasm.StagingConfig`: keep sessions of an image staged in a zone.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";
import type { StagingConfigOutputs } from "../provider/resources/staging-config";
import type { SessionPermissionArgs } from "./session-permissions";

/**
 * The arguments of a {@link StagingConfig}. Inputs left out are not managed: Kasm keeps whatever
 * they are. The session permissions of the staged sessions (`allowWsAudio`, ...) are those of
 * {@link SessionPermissionArgs}.
 */
export interface StagingConfigArgs extends SessionPermissionArgs, ConnectionArgs {
  /** The zone the sessions are staged in (32 hex digits or a hyphenated UUID). Changes in place. */
  readonly zoneId: pulumi.Input<string>;
  /** The image of the staged sessions (32 hex digits or a hyphenated UUID). Changes in place. */
  readonly imageId: pulumi.Input<string>;
  /** How many sessions Kasm keeps staged at all times: a whole number, 0 or more. */
  readonly numSessions: pulumi.Input<number>;
  /** Hours after which an unassigned staged session expires and is re-created: a whole number, 1 or more. */
  readonly expiration: pulumi.Input<number>;
  /**
   * Take over the existing staging config of this zone and image (Kasm allows one per pair) and
   * bring it to the declared state, instead of failing. Default: false.
   */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * A Kasm staging config: Kasm keeps `numSessions` sessions of an image started in a zone, so that
 * users get one at once. Every field updates in place. One staging config per zone and image.
 *
 * @example
 * ```ts
 * const staged = new kasm.StagingConfig("chrome", { zoneId: zone.zoneId, imageId: chrome.imageId, numSessions: 3, expiration: 4 });
 * ```
 */
export class StagingConfig extends KasmResource<StagingConfigArgs, StagingConfigOutputs> {
  protected static override readonly kind = "StagingConfig";

  constructor(name: string, args: StagingConfigArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { stagingConfigId: true, zoneName: true, imageFriendlyName: true, numCurrentSessions: true } });
  }
}

/** The outputs of a {@link StagingConfig}: computed ({@link StagingConfigOutputs}) and mirroring its arguments ({@link StagingConfigArgs}). */
export interface StagingConfig extends ComputedOutputs<StagingConfigOutputs>, InputOutputs<StagingConfigArgs> {}
