/**
 * `kasm.GroupMembership`: one user in one Kasm group.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";

/** The arguments of a {@link GroupMembership}. */
export interface GroupMembershipArgs extends ConnectionArgs {
  /** The user (32 hex digits or a hyphenated UUID). Changing it replaces the membership. */
  readonly userId: pulumi.Input<string>;
  /** The group (32 hex digits or a hyphenated UUID). Changing it replaces the membership. */
  readonly groupId: pulumi.Input<string>;
  /** Take over a membership that exists already instead of failing. Default: false. */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * One user in one Kasm group. Additive: the user's other groups are left alone. Destroying it
 * removes the user from the group. Adding to or removing from All Users or Administrators needs
 * the API key to hold Groups Modify System.
 *
 * Do not use it for a user whose groups a {@link UserGroups} manages: UserGroups is authoritative
 * and the two would undo each other's changes on every update.
 *
 * @example
 * ```ts
 * new kasm.GroupMembership("alice-engineering", { userId: alice.userId, groupId: engineeringGroupId });
 * ```
 */
export class GroupMembership extends KasmResource<GroupMembershipArgs> {
  protected static override readonly kind = "GroupMembership";

  constructor(name: string, args: GroupMembershipArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}

/** The outputs of a {@link GroupMembership} that mirror its arguments (see {@link GroupMembershipArgs}). */
export interface GroupMembership extends InputOutputs<GroupMembershipArgs> {}
