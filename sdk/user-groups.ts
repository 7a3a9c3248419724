/**
 * `kasm.UserGroups`: the exact set of groups of one Kasm user, besides All Users.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";

/** The arguments of a {@link UserGroups}. */
export interface UserGroupsArgs extends ConnectionArgs {
  /** The user (32 hex digits or a hyphenated UUID). Changing it replaces the resource. */
  readonly userId: pulumi.Input<string>;
  /**
   * Every group the user belongs to besides All Users; `[]` for none. Order and id form (hex or
   * hyphenated) do not matter; each group once. All Users is implicit and refused here.
   */
  readonly groupIds: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * The exact set of groups of one Kasm user, besides All Users (which every user is in, and which
 * this resource never adds or removes). Authoritative: groups not listed are removed from the user,
 * and refresh shows a group added or removed in the Kasm UI as drift that the next update reverts.
 * Destroying it removes the listed groups from the user. Changing Administrators needs the API key
 * to hold Groups Modify System.
 *
 * Never mix it with {@link GroupMembership} for the same user: the two would undo each other's
 * changes on every update.
 *
 * @example
 * ```ts
 * new kasm.UserGroups("alice", { userId: alice.userId, groupIds: [engineeringGroupId, oncallGroupId] });
 * ```
 */
export class UserGroups extends KasmResource<UserGroupsArgs> {
  protected static override readonly kind = "UserGroups";

  constructor(name: string, args: UserGroupsArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}

/** The outputs of a {@link UserGroups} that mirror its arguments (see {@link UserGroupsArgs}). */
export interface UserGroups extends InputOutputs<UserGroupsArgs> {}
