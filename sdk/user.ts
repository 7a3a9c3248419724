/**
 * `kasm.User`: a Kasm user account.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import { SECRET_INPUTS } from "../catalogue/kinds";
import type { ConnectionArgs } from "./connection";
import type { UserOutputs } from "../provider/resources/user";

/** The arguments of a {@link User}. Inputs left out are not managed: Kasm keeps whatever they are. */
export interface UserArgs extends ConnectionArgs {
  /** The login name. Kasm trims and lowercases it; changing it renames the user in place. */
  readonly username: pulumi.Input<string>;
  /** The password; always stored as a secret. Write-only: Kasm never returns it, so drift in it cannot be seen. */
  readonly password?: pulumi.Input<string>;
  /** At most 64 characters (Kasm cuts longer values). */
  readonly firstName?: pulumi.Input<string>;
  /** At most 64 characters. */
  readonly lastName?: pulumi.Input<string>;
  /** At most 64 characters. */
  readonly phone?: pulumi.Input<string>;
  /** At most 64 characters. */
  readonly organization?: pulumi.Input<string>;
  /** Lock the account. */
  readonly locked?: pulumi.Input<boolean>;
  /** Disable the account. */
  readonly disabled?: pulumi.Input<boolean>;
  /** On destroy, end the user's running sessions instead of failing. Default: false. */
  readonly forceDelete?: pulumi.Input<boolean>;
  /** Take over an existing user with this username (and bring it to the declared state) instead of failing. Default: false. */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * A Kasm user. Every field updates in place.
 *
 * @example
 * ```ts
 * const alice = new kasm.User("alice", { username: "alice", password: cfg.requireSecret("alicePassword"), firstName: "Alice" });
 * ```
 */
export class User extends KasmResource<UserArgs, UserOutputs> {
  protected static override readonly kind = "User";

  constructor(name: string, args: UserArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { userId: true, realm: true, created: true }, secrets: SECRET_INPUTS.User });
  }
}

/** The outputs of a {@link User}: computed ({@link UserOutputs}) and mirroring its arguments ({@link UserArgs}). */
export interface User extends ComputedOutputs<UserOutputs>, InputOutputs<UserArgs> {}
