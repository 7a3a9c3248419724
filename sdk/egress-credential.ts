/**
 * `kasm.EgressCredential`: credentials a user, a group or an image uses on an egress provider's gateways.
 *
 * The Kasm API can create egress credentials but neither update nor delete them: every change
 * replaces the credential and needs a new `name` (preview refuses one that keeps it), and
 * destroying one leaves it in Kasm.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import { SECRET_INPUTS } from "../catalogue/kinds";
import type { ConnectionArgs } from "./connection";
import type { EgressCredentialOutputs } from "../provider/resources/egress-credential";
import type { EgressTargetArgs } from "./egress-target";

/**
 * The arguments of an {@link EgressCredential}: exactly one of `userId`, `groupId` and `imageId`,
 * the user, group or image that uses the credential, and its gateways (see {@link EgressTargetArgs}).
 * Inputs left out are not managed. A change of ANY input replaces the credential, and the new
 * one needs a new `name` (see {@link EgressCredential}).
 */
export interface EgressCredentialArgs extends EgressTargetArgs, ConnectionArgs {
  /** The egress provider (32 hex digits or a hyphenated UUID). */
  readonly egressProviderId: pulumi.Input<string>;
  /** The credential's name, unique within its provider. Change it whenever another input changes. */
  readonly name: pulumi.Input<string>;
  /** The user name on the provider's gateways (OpenVPN). */
  readonly username?: pulumi.Input<string>;
  /** The password on the provider's gateways; always stored as a secret. Kasm returns it masked, so drift in it cannot be seen. */
  readonly password?: pulumi.Input<string>;
  /** The WireGuard private key (the `PrivateKey` the gateway config leaves out); always stored as a secret. */
  readonly wireguardPrivateKey?: pulumi.Input<string>;
  /** The mesh key; always stored as a secret. */
  readonly meshKey?: pulumi.Input<string>;
  /** Whether the credential is in use. Kasm's default: true. */
  readonly enabled?: pulumi.Input<boolean>;
  /** Limit the connections made with the credential to `activeConnectionLimit`. */
  readonly limitActiveConnections?: pulumi.Input<boolean>;
  /** The most connections at once; must be positive when `limitActiveConnections` is true. */
  readonly activeConnectionLimit?: pulumi.Input<number>;
  /** Credential data for a provider of type `custom`; always stored as a secret. */
  readonly customCredential?: pulumi.Input<string>;
  /**
   * Take over the provider's existing credential with this `name` instead of failing. Kasm cannot
   * update a credential, so it must already be as declared: a difference in any input Kasm
   * returns fails the create and names the inputs (the password, which Kasm returns masked, cannot
   * be checked). Changing `adopt` later replaces nothing.
   */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * Credentials for the gateways of an {@link EgressProvider}, for one user, group or image.
 *
 * The Kasm API has no operation to update or delete an egress credential. Hence:
 * - **Every change replaces it.** Names are unique within a provider and the old credential
 *   cannot be deleted, so give the credential a new `name` together with any other change
 *   (for example put a version in it: `alice-wg-2`). A change that keeps the name (and the
 *   provider) fails in `pulumi preview`, naming `name` and the inputs that changed.
 * - **Destroying or replacing it leaves the old credential in Kasm.** The destroy succeeds with a
 *   warning in the engine's diagnostics. Kasm deletes a provider's credentials with the provider;
 *   otherwise remove them in the Kasm admin UI.
 * - **Refresh** shows drift in what Kasm returns. Kasm returns the password masked, so it stays as
 *   declared; so does any other secret Kasm returns masked or as null.
 *
 * Needs Egress Credentials Create and View, Egress Providers Modify, plus the Modify permission
 * of the target (Users Modify, Groups Modify or Images Modify).
 *
 * @example
 * ```ts
 * new kasm.EgressCredential("alice-wg", {
 *   egressProviderId: vpn.egressProviderId,
 *   name: "alice-wg-1",
 *   userId: alice.userId,
 *   wireguardPrivateKey: cfg.requireSecret("aliceWgKey"),
 *   allowAllGateways: true,
 * });
 * ```
 */
export class EgressCredential extends KasmResource<EgressCredentialArgs, EgressCredentialOutputs> {
  protected static override readonly kind = "EgressCredential";

  constructor(name: string, args: EgressCredentialArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { egressCredentialId: true, activeConnections: true }, secrets: SECRET_INPUTS.EgressCredential });
  }
}

/** The outputs of an {@link EgressCredential}: computed ({@link EgressCredentialOutputs}) and mirroring its arguments ({@link EgressCredentialArgs}). */
export interface EgressCredential extends ComputedOutputs<EgressCredentialOutputs>, InputOutputs<EgressCredentialArgs> {}
