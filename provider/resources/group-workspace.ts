/**
 * `GroupWorkspace`: the members of a group may launch a workspace (a released Kasm's operations:
 * `kasm:apiNames` `product`).
 *
 * API: add_images_group, get_images_group, remove_images_group (`target_group` with
 * `target_image`), read in two public clients and a decompile of the 1.15.0 API server. Both ids
 * replace: an authorization cannot be moved. An authorization that exists already is recorded as
 * it is, without a write, whoever made it (an add of an earlier `up` whose answer was lost, or the
 * Kasm UI): it has nothing but its two ends; `adopt` has no effect. Refresh finds the image in the group's list and drops
 * the resource when the group is gone or no longer lists it; removing an authorization that is
 * already gone succeeds. After the add, the group's list is read again: an add Kasm answered
 * without listing the image is an error, never a success.
 */
import type { z } from "zod";
import { settingRef } from "../api/config";
import { ADOPT, declareFields, same } from "./framework/fields";
import { GONE, unlessGone, defineKind, type KindOutputs } from "./framework/define-kind";
import { KasmId } from "./framework/check-wording";
import { KasmValueNotTakenError } from "./framework/errors";
import { type KindTexts, NO_OUTPUTS, type RefreshedInputs } from "./framework/types";
import { groupWorkspaceCalls } from "./group-workspace.calls";
import { pairId, canonicalId } from "../../permissions/planned-calls";

// --- types ---------------------------------------------------------------------------------------

/**
 * Each input of a GroupWorkspace, declared once: its type, role, rule, doc and how it is sent. Both
 * ids name the authorization: a change to either replaces it.
 */
const GROUP_WORKSPACE_FIELDS = declareFields({
  groupId: {
    type: KasmId,
    role: "key",
    equal: same.id,
    replaces: true,
    refersTo: "Group",
    doc: "The group (32 hex digits or a hyphenated UUID). Changing it replaces the authorization.",
  },
  imageId: {
    type: KasmId,
    role: "key",
    equal: same.id,
    replaces: true,
    refersTo: "Workspace",
    doc: "The workspace's image (a Workspace's `imageId`, or an id from `getImage`). Changing it " + "replaces the authorization.",
  },
  adopt: {
    ...ADOPT,
    doc:
      "No effect: an authorization that exists already in Kasm is the declared one (it has nothing " +
      "but its two ends), so the create records it without a write, with adopt or without. Kept so " +
      "that programs that set it keep working. Two declarations of one authorization are refused by " +
      "the hardening policy pack's conflicting-declarations policy.",
  },
});

/** The inputs of a GroupWorkspace. */
export const GroupWorkspaceInputs = GROUP_WORKSPACE_FIELDS.schema;
export type GroupWorkspaceInputs = z.infer<typeof GroupWorkspaceInputs>;

/** What `outputs()` builds: the declared inputs (the kind adds no output). */
type GroupWorkspaceState = KindOutputs<GroupWorkspaceInputs, Record<never, never>>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the GroupWorkspace kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "The members of a group may launch a workspace. Additive: the group's other workspaces are left " +
    "alone. Destroying it takes the workspace away from the group. Needs `kasm:apiNames` `product` " +
    "(a released Kasm's operations) and Groups Modify and View (Groups Modify System for All Users " +
    "or Administrators).",
  arguments: "The arguments of a GroupWorkspace.",
  example: ['new kasm.GroupWorkspace("support-chrome", { groupId: support.groupId, imageId: chrome.imageId });'].join("\n"),
  limits: "needs `kasm:apiNames product`; additive: the group's other workspaces are left alone",
};

// --- helpers -------------------------------------------------------------------------------------

function outputs(inputs: RefreshedInputs<GroupWorkspaceInputs>): GroupWorkspaceState {
  const state: RefreshedInputs<GroupWorkspaceInputs> = { groupId: inputs.groupId, imageId: inputs.imageId };
  if (inputs.adopt !== undefined) state.adopt = inputs.adopt;
  return state as GroupWorkspaceState;
}

/** How messages name an authorization. */
function label(groupId: unknown, imageId: unknown): string {
  return `of group ${String(groupId)} for image ${String(imageId)}`;
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of GroupWorkspace: a change of either id replaces it; only `adopt` can change in place, and it steers nothing after the create. */
export const groupWorkspaceProvider = defineKind<GroupWorkspaceInputs>({
  fields: GROUP_WORKSPACE_FIELDS,
  outputs: NO_OUTPUTS,
  docs: DOCS,
  // Refused before any plan with the spec's vocabulary, which has no such operations.
  productOnly: {
    kind: "GroupWorkspace",
    operations: "operations on a group's images (add_images_group, get_images_group, remove_images_group)",
    otherwise: "authorize the workspace for the group in the Kasm UI",
  },
  sendsNothingWhen: "never",
  calls: groupWorkspaceCalls,

  async create(inputs, context) {
    const client = context.client();
    const ids = { group_id: canonicalId(inputs.groupId), image_id: canonicalId(inputs.imageId) };
    // An authorization that exists is the declared state, whoever made it: nothing to write.
    if (!(await client.groups.groupHasImage(ids))) {
      await client.groups.addImagesGroup(ids);
      if (!(await client.groups.groupHasImage(ids)))
        throw new KasmValueNotTakenError(
          `GroupWorkspace ${label(inputs.groupId, inputs.imageId)}: Kasm answered the add but the group does not list the image, so ` +
            `the authorization was not made. Check that ${settingRef(context.settingNames, "apiNames")} matches the installation and that the image exists.`,
          ["imageId"],
        );
    }
    return { id: pairId(ids.group_id, ids.image_id), outs: outputs(inputs) };
  },

  async read(id, state, context) {
    const [groupId, imageId] = id.split(":");
    const images = await unlessGone(() => context.client().groups.getImagesGroup({ group_id: groupId }));
    if (!images?.some((image) => same.id(image.image_id, imageId))) return GONE;
    // The declared spelling of the ids is kept: the same objects, no drift.
    const inputs = {
      ...outputs(state),
      groupId: same.id(state.groupId, groupId) ? state.groupId : groupId,
      imageId: same.id(state.imageId, imageId) ? state.imageId : imageId,
    };
    return { id, props: inputs, inputs };
  },

  async update(_id, _olds, news) {
    return { outs: outputs(news) };
  },

  async delete(id, _state, context) {
    const [groupId, imageId] = id.split(":");
    // Removing what is already gone (the group, the image or the authorization) is done.
    await unlessGone(() => context.client().groups.removeImagesGroup({ group_id: groupId, image_id: imageId }));
  },
});
