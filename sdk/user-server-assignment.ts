/**
 * `kasm.UserServerAssignment`: one Kasm user assigned to one server.
 */
import * as pulumi from "@pulumi/pulumi";
import { isKind, kindProvider } from "./provider";

const provider = kindProvider("UserServerAssignment");

/** The arguments of a {@link UserServerAssignment}. */
export interface UserServerAssignmentArgs {
  /** The user (32 hex digits or a hyphenated UUID). Changing it replaces the assignment. */
  readonly userId: pulumi.Input<string>;
  /** The server (32 hex digits or a hyphenated UUID). Changing it replaces the assignment. */
  readonly serverId: pulumi.Input<string>;
  /** Take over an assignment that exists already instead of failing. Default: false. */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * One Kasm user assigned to one server (a host reached over SSH or a remote display protocol).
 * Users and servers are many-to-many: the user's other servers are left alone. Destroying it
 * unassigns the server. Needs Servers Modify and Users Modify, and Servers View to read.
 *
 * @example
 * ```ts
 * new kasm.UserServerAssignment("alice-ws1", { userId: alice.userId, serverId: ws1ServerId });
 * ```
 */
export class UserServerAssignment extends pulumi.dynamic.Resource {
  declare readonly userId: pulumi.Output<string>;
  declare readonly serverId: pulumi.Output<string>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  /** Whether `obj` is a UserServerAssignment (by type token). */
  static override isInstance(obj: unknown): obj is UserServerAssignment {
    return isKind(obj, "UserServerAssignment");
  }

  constructor(name: string, args: UserServerAssignmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...args }, opts, "kasm", "UserServerAssignment");
  }
}
