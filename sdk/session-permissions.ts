/**
 * The session permissions that a {@link StagingConfig} and a {@link CastConfig} both set on the
 * sessions they start. On a CastConfig they apply with `enforceClientSettings: true`, which makes
 * them override the client settings of the user's groups.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CastConfig } from "./cast-config";
import type { StagingConfig } from "./staging-config";

/** Session permissions, each left to Kasm when not given. */
export interface SessionPermissionArgs {
  /** Allow audio in the sessions. */
  readonly allowWsAudio?: pulumi.Input<boolean>;
  /** Allow uploads into the sessions. */
  readonly allowWsUploads?: pulumi.Input<boolean>;
  /** Allow downloads out of the sessions. */
  readonly allowWsDownloads?: pulumi.Input<boolean>;
  /** Allow copying from a session to the local clipboard. */
  readonly allowWsClipboardDown?: pulumi.Input<boolean>;
  /** Allow pasting from the local clipboard into a session. */
  readonly allowWsClipboardUp?: pulumi.Input<boolean>;
  /** Allow the microphone. */
  readonly allowWsMicrophone?: pulumi.Input<boolean>;
}
