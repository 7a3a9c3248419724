/**
 * `kasm.GroupWorkspace`: the members of a group may launch a workspace.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";

/** The arguments of a {@link GroupWorkspace}. */
export interface GroupWorkspaceArgs extends ConnectionArgs {
  /** The group (32 hex digits or a hyphenated UUID). Changing it replaces the authorization. */
  readonly groupId: pulumi.Input<string>;
  /** The workspace's image (a {@link Workspace}'s `imageId`, or an id from `getImage`). Changing it replaces the authorization. */
  readonly imageId: pulumi.Input<string>;
  /** Take over an authorization that exists already instead of failing. Default: false. */
  readonly adopt?: pulumi.Input<boolean>;
}

/**
 * The members of a group may launch a workspace. Additive: the group's other workspaces are left
 * alone. Destroying it takes the workspace away from the group. Needs `kasm:apiNames` `product`
 * (a released Kasm's operations) and Groups Modify and View (Groups Modify System for All Users or
 * Administrators).
 *
 * @example
 * ```ts
 * new kasm.GroupWorkspace("support-chrome", { groupId: support.groupId, imageId: chrome.imageId });
 * ```
 */
export class GroupWorkspace extends KasmResource<GroupWorkspaceArgs> {
  protected static override readonly kind = "GroupWorkspace";

  constructor(name: string, args: GroupWorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}

/** The outputs of a {@link GroupWorkspace} that mirror its arguments (see {@link GroupWorkspaceArgs}). */
export interface GroupWorkspace extends InputOutputs<GroupWorkspaceArgs> {}
