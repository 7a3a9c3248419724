/**
 * `kasm.UserAttributes`: the attributes of one Kasm user.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";
import type { UserAttributesOutputs } from "../provider/resources/user-attributes";

/** The arguments of a {@link UserAttributes}. Attributes left out are not managed: Kasm keeps whatever they are. */
export interface UserAttributesArgs extends ConnectionArgs {
  /** The user whose attributes these are (32 hex digits or a hyphenated UUID). Changing it replaces the resource. */
  readonly userId: pulumi.Input<string>;
  /**
   * The user's SSH public key: one OpenSSH line such as `ssh-ed25519 AAAA... comment` (surrounding white space,
   * such as a `.pub` file's newline, is ignored), or `""` for none. A private key is refused.
   */
  readonly sshPublicKey?: pulumi.Input<string>;
  /** The id of the image launched by default (an existing image; hex or hyphenated), or `""` for none. */
  readonly defaultImage?: pulumi.Input<string>;
  /** Show the tips dialogue when a session starts. */
  readonly showTips?: pulumi.Input<boolean>;
  /** Show the control panel in sessions. */
  readonly toggleControlPanel?: pulumi.Input<boolean>;
  /** Launch the default image automatically at login. */
  readonly autoLoginWs?: pulumi.Input<boolean>;
}

/**
 * The attributes of one Kasm user. Kasm keeps exactly one attributes record per user, created and
 * deleted with the user: creating this resource sets the declared attributes of that record, and
 * destroying it only forgets them (Kasm keeps their values; nothing is restored). Declare at most
 * one per user. Every attribute updates in place; refresh drops the resource when the user is gone.
 *
 * @example
 * ```ts
 * const attrs = new kasm.UserAttributes("alice", {
 *   userId: alice.userId,
 *   defaultImage: chromeImageId,
 *   sshPublicKey: fs.readFileSync("alice.pub", "utf8"),
 *   showTips: false,
 * });
 * ```
 */
export class UserAttributes extends KasmResource<UserAttributesArgs, UserAttributesOutputs> {
  protected static override readonly kind = "UserAttributes";

  constructor(name: string, args: UserAttributesArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { userAttributesId: true } });
  }
}

/** The outputs of a {@link UserAttributes}: computed ({@link UserAttributesOutputs}) and mirroring its arguments ({@link UserAttributesArgs}). */
export interface UserAttributes extends ComputedOutputs<UserAttributesOutputs>, InputOutputs<UserAttributesArgs> {}
