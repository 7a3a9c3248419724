/**
 * `kasm.Group`: a Kasm group, managed through a released Kasm's group operations.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";
import type { GroupOutputs } from "../provider/resources/group";

/** The arguments of a {@link Group}. Inputs left out are not managed: Kasm keeps whatever they are. */
export interface GroupArgs extends ConnectionArgs {
  /** The group's name, unique in Kasm. Changing it renames the group in place. */
  readonly name: pulumi.Input<string>;
  /**
   * Which group's settings win when a user's groups disagree, from 1 to 4095 (Kasm refuses
   * others). Kasm requires one when the group is created: left out, the group gets 4095, Kasm's
   * default, and a later change made in Kasm is kept.
   */
  readonly priority?: pulumi.Input<number>;
  /** Free text shown in the Kasm UI. */
  readonly description?: pulumi.Input<string>;
  /** Take over an existing group with this name (and bring it to the declared state) instead of failing. Default: false. */
  readonly adopt?: pulumi.Input<boolean>;
  /** Delete the group even while it has members (they leave it); without it, destroying a group with members fails. Default: false. */
  readonly forceDelete?: pulumi.Input<boolean>;
}

/**
 * A Kasm group. The API documentation has no operation that manages groups; a released Kasm (1.15
 * or later) does, so this kind needs `kasm:apiNames` `product`; with `spec` (the default) preview
 * refuses it, naming the setting. Every field updates in place. Kasm never deletes All Users,
 * Administrators or a group a casting config names. Needs Groups Create, Modify, Delete and View.
 *
 * @example
 * ```ts
 * const support = new kasm.Group("support", { name: "Support", priority: 50, description: "First-line support" });
 * new kasm.GroupMembership("ada-support", { userId: ada.userId, groupId: support.groupId });
 * ```
 */
export class Group extends KasmResource<GroupArgs, GroupOutputs> {
  protected static override readonly kind = "Group";

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { groupId: true } });
  }
}

/** The outputs of a {@link Group}: computed ({@link GroupOutputs}) and mirroring its arguments ({@link GroupArgs}). */
export interface Group extends ComputedOutputs<GroupOutputs>, InputOutputs<GroupArgs> {}
