/**
 * `Group`: a Kasm group (a released Kasm's operations: `kasm:apiNames` `product`).
 *
 * API: create_group, get_groups (the product has no read of one group: refresh finds the group in
 * the list by id), update_group, delete_group. The API documentation leaves these operations out;
 * their shapes come from a decompile of the 1.15.0 API server and a Terraform client tested
 * against 1.16.1. Every field updates in place, the name included. Names are unique in Kasm (the
 * product refuses a second group of a name): adoption by name (`adopt: true`).
 *
 * With `kasm:apiNames` `spec` (the default), `check` refuses the resource before any plan, naming
 * the setting: the documentation's vocabulary has no operation that manages groups.
 *
 * `priority` is required by the product's create, which keeps it between 1 and 4095; left out, the
 * provider sends 4095, the product's own default for a group. Kasm uses it to decide between the
 * settings of a user's groups. The product refuses to delete a group that still has members unless
 * told to force it (`forceDelete`), and never deletes All Users, Administrators or a group a
 * casting config names.
 */
import { z } from "zod";
import { groupShown, type GroupRecord, type GroupUpdate, type NewGroup } from "../api/schemas/groups";
import { KasmForceRequiredError } from "../api/errors/answers";
import { ADOPT, declared, inputNames, declareFields } from "./framework/fields";
import { KasmDeleteBlockedError } from "./framework/errors";
import { requiredText } from "./framework/check-wording";
import { unlessGone, defineKind, type KindOutputs } from "./framework/define-kind";
import type { KindTexts, Props, RefreshedInputs } from "./framework/types";
import { groupCalls } from "./group.calls";

// --- types ---------------------------------------------------------------------------------------

/** The product's bounds of a priority (1.15.0 decompile, create_group: `0 < priority < 4096`). */
const PRIORITY = { min: 1, max: 4095 } as const;

/** The priority sent when none is declared: the product's default for a new group. */
export const DEFAULT_GROUP_PRIORITY = PRIORITY.max;

/** Each input of a Group, declared once: its type, role, rule, doc and how it is sent. Nothing forces replacement. */
const GROUP_FIELDS = declareFields({
  name: {
    type: requiredText("name"),
    role: "sent",
    // A name declared with surrounding spaces is sent trimmed: the same name, no drift.
    send: (name: string) => name.trim(),
    doc: "The group's name, unique in Kasm. Changing it renames the group in place.",
  },
  priority: {
    type: z
      .number()
      .int("priority must be a whole number")
      .min(PRIORITY.min, `priority must be between ${PRIORITY.min} and ${PRIORITY.max} (Kasm refuses others)`)
      .max(PRIORITY.max, `priority must be between ${PRIORITY.min} and ${PRIORITY.max} (Kasm refuses others)`)
      .optional(),
    role: "sent",
    doc:
      "Which group's settings win when a user's groups disagree, from 1 to 4095 (Kasm refuses " +
      "others). Kasm requires one when the group is created: left out, the group gets 4095, Kasm's " +
      "default, and a later change made in Kasm is kept.",
  },
  description: { type: z.string().optional(), role: "sent", doc: "Free text shown in the Kasm UI." },
  adopt: {
    ...ADOPT,
    doc: "Take over an existing group with this name (and bring it to the declared state) instead of " + "failing. Default: false.",
  },
  forceDelete: {
    type: z.boolean().optional(),
    role: "provider",
    doc: "Delete the group even while it has members (they leave it); without it, destroying a group " + "with members fails. Default: false.",
  },
});

/** The inputs of a Group. */
export const GroupInputs = GROUP_FIELDS.schema;
export type GroupInputs = z.infer<typeof GroupInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const GroupOutputs = z.strictObject({
  groupId: z.string().describe("The group's id (32 hex digits)."),
});
export type GroupOutputs = z.infer<typeof GroupOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the Group kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "A Kasm group. The API documentation has no operation that manages groups; a released Kasm (1.15 " +
    "or later) does, so this kind needs `kasm:apiNames` `product`; with `spec` (the default) preview " +
    "refuses it, naming the setting. Every field updates in place. Kasm never deletes All Users, " +
    "Administrators or a group a casting config names. Needs Groups Create, Modify, Delete and View.",
  arguments: "The arguments of a Group. Inputs left out are not managed: Kasm keeps whatever they are.",
  example: [
    'const support = new kasm.Group("support", { name: "Support", priority: 50, description: "First-line support" });',
    'new kasm.GroupMembership("ada-support", { userId: ada.userId, groupId: support.groupId });',
  ].join("\n"),
  limits:
    "needs `kasm:apiNames product` (a released Kasm): the API documentation has no group operations, " +
    "and preview refuses it with `spec`; a group with members is deleted only with `forceDelete`; " +
    "All Users, Administrators and a group a casting config names are never deleted",
};

// --- helpers -------------------------------------------------------------------------------------

/** The `target_group` of an update: the declared fields only, so that Kasm keeps the others. */
function groupUpdate(id: string, inputs: GroupInputs): GroupUpdate {
  return { ...GROUP_FIELDS.body<Omit<GroupUpdate, "group_id">>(inputs), group_id: id };
}

/**
 * The `target_group` of a create: the declared fields, and the product's default priority. Only
 * the create fills it in (it requires one); an update leaves a priority the program does not
 * declare as Kasm has it, so it is no `storedDefault` of the declaration.
 */
function newGroup(inputs: GroupInputs): NewGroup {
  return { ...GROUP_FIELDS.body<NewGroup>(inputs), priority: inputs.priority ?? DEFAULT_GROUP_PRIORITY };
}

/** The error for a group Kasm keeps because it has members, with the way out. */
function stillHasMembers(id: string, name: unknown, cause: Error): KasmDeleteBlockedError {
  return new KasmDeleteBlockedError(
    `Group '${String(name ?? id)}' still has members, and Kasm refuses to delete a group with members (${cause.message}). ` +
      "Set `forceDelete: true` on the resource to delete it anyway (its members leave it), or remove the members first.",
    cause,
  );
}

/** The group's fields as inputs: what `read` reports and adoption compares. */
function currentInputs(props: RefreshedInputs<GroupInputs>, group: GroupRecord): RefreshedInputs<GroupInputs> {
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too); "" declared for what Kasm keeps as null.
  const shown = groupShown(group);
  const current: Props = { ...shown, description: shown.description ?? (props.description === "" ? "" : null) };
  // A name declared with surrounding spaces is sent trimmed: the same name, no drift.
  if (typeof props.name === "string" && props.name.trim() === shown.name) current.name = props.name;
  return current;
}

function outputs(inputs: RefreshedInputs<GroupInputs>, group: GroupRecord): KindOutputs<GroupInputs, GroupOutputs> {
  return { ...declared(inputs, inputNames(GroupInputs)), groupId: group.group_id };
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of Group; only `adopt` or `forceDelete` changing sends no request. */
export const groupProvider = defineKind<GroupInputs, GroupOutputs, GroupRecord>({
  fields: GROUP_FIELDS,
  outputs: GroupOutputs,
  docs: DOCS,
  // Refused before any plan with the spec's vocabulary, which has no such operations.
  productOnly: {
    kind: "Group",
    operations: "group operations (create_group, get_groups, update_group, delete_group)",
    otherwise: "manage the group in the Kasm UI and refer to it by id",
  },
  // The product has no read of one group: refresh finds it in the list by id.
  record: { id: (group) => group.group_id, fetch: (id, _state, context) => context.client().groups.findGroupById(id), asInputs: currentInputs, outputs },
  adoption: {
    kind: "Group",
    key: (inputs) => `'${newGroup(inputs).name}'`,
    find: (inputs, context) => context.client().groups.findGroup(newGroup(inputs).name),
    // The checks before N creates share one listing (`KeyLookups` in provider/api/client.ts): N lookups, one request.
    findBeforeCreate: (inputs, context) => context.client().keys.group(newGroup(inputs).name),
    // Looked up even without adopt (see Adoption.findFirst): after a server error the client's
    // recovery would take a group made outside Pulumi for its own create.
    findFirst: (existing) => `group ${existing.group_id}`,
  },
  calls: groupCalls,

  async create(inputs, context, createOrAdopt) {
    const client = context.client();
    const group = await createOrAdopt({
      // An adopted group keeps what the program does not declare (its priority included).
      update: (existing) => client.groups.updateGroup(groupUpdate(existing.group_id, inputs)),
      create: () => client.groups.createGroup(newGroup(inputs)),
    });
    return { id: group.group_id, outs: outputs(inputs, group) };
  },

  async update(id, _olds, news, _changedFields, context) {
    // Every declared field is sent, which also reverts drift; a field left out is kept by Kasm.
    const group = await context.client().groups.updateGroup(groupUpdate(id, news));
    return { outs: outputs(news, group) };
  },

  async delete(id, props, context) {
    try {
      // Deleting what is already gone is done.
      await unlessGone(() => context.client().groups.deleteGroup({ group_id: id, ...(props.forceDelete === true ? { force: true } : {}) }));
    } catch (error) {
      if (error instanceof KasmForceRequiredError) throw stillHasMembers(id, props.name, error);
      throw error;
    }
  },
});
