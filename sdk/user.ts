/**
 * `kasm.User`: a Kasm user account.
 */
import * as pulumi from "@pulumi/pulumi";
import { isKind, kindProvider } from "./provider";

const provider = kindProvider("User");

/** The arguments of a {@link User}. Inputs left out are not managed: Kasm keeps whatever they are. */
export interface UserArgs {
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
export class User extends pulumi.dynamic.Resource {
  /** The user's id (32 hex digits). */
  declare readonly userId: pulumi.Output<string>;
  declare readonly username: pulumi.Output<string>;
  declare readonly password: pulumi.Output<string | undefined>;
  declare readonly firstName: pulumi.Output<string | undefined>;
  declare readonly lastName: pulumi.Output<string | undefined>;
  declare readonly phone: pulumi.Output<string | undefined>;
  declare readonly organization: pulumi.Output<string | undefined>;
  declare readonly locked: pulumi.Output<boolean | undefined>;
  declare readonly disabled: pulumi.Output<boolean | undefined>;
  /** `local`, `ldap`, `oidc` or `saml`. */
  declare readonly realm: pulumi.Output<string>;
  /** When Kasm created the user. */
  declare readonly created: pulumi.Output<string>;

  /** Whether `obj` is a User (by type token). */
  static override isInstance(obj: unknown): obj is User {
    return isKind(obj, "User");
  }

  constructor(name: string, args: UserArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...args,
      password: args.password === undefined ? undefined : pulumi.secret(args.password),
      userId: undefined,
      realm: undefined,
      created: undefined,
    };
    super(provider, name, props, pulumi.mergeOptions(opts, { additionalSecretOutputs: ["password"] }), "kasm", "User");
  }
}
