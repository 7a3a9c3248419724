/**
 * `kasm.CastConfig`: a casting config, session access through `{base_url}/#/cast/<key>`.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";
import type { CastConfigOutputs } from "../provider/resources/cast-config";
import type { SessionPermissionArgs } from "./session-permissions";

/**
 * The arguments of a {@link CastConfig}. Inputs left out are not managed: Kasm keeps whatever they
 * are. The session permissions (`allowWsAudio`, ...) are those of {@link SessionPermissionArgs};
 * they apply with `enforceClientSettings`.
 */
export interface CastConfigArgs extends SessionPermissionArgs, ConnectionArgs {
  /** The config's name; unique in Kasm. */
  readonly castingConfigName: pulumi.Input<string>;
  /** The image the link launches (32 hex digits or a hyphenated UUID). */
  readonly imageId: pulumi.Input<string>;
  /** The casting URL's key, unique in Kasm: letters, digits, `-`, `_`, `.` and `~` only. */
  readonly key: pulumi.Input<string>;
  /** Domains allowed to refer to the link, such as `app.example.com` (order does not matter). */
  readonly allowedReferrers?: pulumi.Input<pulumi.Input<string>[]>;
  /** Limit the number of sessions the link may still start (see `sessionRemaining`). */
  readonly limitSessions?: pulumi.Input<boolean>;
  /**
   * Sessions the link may still start (0 or more); required when `limitSessions` is true. Kasm
   * counts it down as the link starts sessions; setting it resets the count. It is sent when the
   * config is created and when this value changes; an update of other fields leaves the count alone.
   */
  readonly sessionRemaining?: pulumi.Input<number>;
  /** Limit sessions per source IP: `ipRequestLimit` per `ipRequestSeconds`, both then required and positive. */
  readonly limitIps?: pulumi.Input<boolean>;
  /** Sessions allowed per source IP in `ipRequestSeconds`. */
  readonly ipRequestLimit?: pulumi.Input<number>;
  /** The window of `ipRequestLimit`, in seconds. */
  readonly ipRequestSeconds?: pulumi.Input<number>;
  /** Where to send the user on error (such as an IP rate limit); an http(s) URL, or "" for Kasm's own error page. */
  readonly errorUrl?: pulumi.Input<string>;
  /** Activate sharing automatically. */
  readonly enableSharing?: pulumi.Input<boolean>;
  /** Hide the control panel. */
  readonly disableControlPanel?: pulumi.Input<boolean>;
  /** Hide the tips dialogue. */
  readonly disableTips?: pulumi.Input<boolean>;
  /** Allow dynamic resolution in sharing mode. */
  readonly disableFixedRes?: pulumi.Input<boolean>;
  /** Let the link work without authentication, creating an anonymous user per request. */
  readonly allowAnonymous?: pulumi.Input<boolean>;
  /** An extra group for anonymous users (who are also put in All Users). */
  readonly groupId?: pulumi.Input<string>;
  /** Require a captcha for anonymous requests (needs captcha keys in the server settings). */
  readonly requireRecaptcha?: pulumi.Input<boolean>;
  /** Becomes the WS_URL environment variable of the sessions; an absolute URL, or "" for none. */
  readonly wsUrl?: pulumi.Input<string>;
  /** Allow a `ws_url` query argument on the casting URL. */
  readonly dynamicWsUrl?: pulumi.Input<boolean>;
  /** Allow a `ctr_network` query argument (the image must allow network selection). */
  readonly dynamicCtrNetwork?: pulumi.Input<boolean>;
  /** An authenticated user with a running session resumes it instead of getting a new one. */
  readonly allowResume?: pulumi.Input<boolean>;
  /** The `allowWs*` flags below override the client settings of the user's groups. */
  readonly enforceClientSettings?: pulumi.Input<boolean>;
  /** Allow sharing (with `enforceClientSettings`). */
  readonly allowWsSharing?: pulumi.Input<boolean>;
  /** Start with audio on; false starts muted. */
  readonly wsAudioDefaultOn?: pulumi.Input<boolean>;
  /** IME mode on by default when the user has no local preference. */
  readonly wsImeModeDefaultOn?: pulumi.Input<boolean>;
  /** After this UTC time, written `YYYY-MM-DD HH:MM:SS`, the link answers with an error. */
  readonly validUntil?: pulumi.Input<string>;
  /**
   * Not supported: Kasm cannot read casting configs, so an existing one cannot be taken over.
   * With `adopt: true`, a clash with an existing key or name fails with an explanation.
   */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * A Kasm casting config. Every field updates in place, and each update sends every declared field
 * except `sessionRemaining`, a counter that Kasm counts down as the link starts sessions: it is
 * sent only when its declared value changes, since setting it resets the count.
 *
 * Kasm has no operation to read casting configs. So refresh keeps the last known state (changes
 * and deletions made in the Kasm UI are not seen), and an existing casting config cannot be
 * adopted: a clash with an existing key or name is an error.
 *
 * @example
 * ```ts
 * const demo = new kasm.CastConfig("demo", {
 *   castingConfigName: "Public demo", imageId: chrome.imageId, key: "demo",
 *   allowAnonymous: true, limitIps: true, ipRequestLimit: 5, ipRequestSeconds: 3600,
 *   allowedReferrers: ["www.example.com"], validUntil: "2030-01-01 00:00:00",
 * });
 * ```
 */
export class CastConfig extends KasmResource<CastConfigArgs, CastConfigOutputs> {
  protected static override readonly kind = "CastConfig";

  constructor(name: string, args: CastConfigArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { castConfigId: true, imageFriendlyName: true, groupName: true } });
  }
}

/** The outputs of a {@link CastConfig}: computed ({@link CastConfigOutputs}) and mirroring its arguments ({@link CastConfigArgs}). */
export interface CastConfig extends ComputedOutputs<CastConfigOutputs>, InputOutputs<CastConfigArgs> {}
