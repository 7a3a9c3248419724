/**
 * `kasm.UserServerAssignment`: one Kasm user assigned to one server.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";

/** The arguments of a {@link UserServerAssignment}. */
export interface UserServerAssignmentArgs extends ConnectionArgs {
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
export class UserServerAssignment extends KasmResource<UserServerAssignmentArgs> {
  protected static override readonly kind = "UserServerAssignment";

  constructor(name: string, args: UserServerAssignmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}

/** The outputs of a {@link UserServerAssignment} that mirror its arguments (see {@link UserServerAssignmentArgs}). */
export interface UserServerAssignment extends InputOutputs<UserServerAssignmentArgs> {}
