/**
 * Groups: add a user to a group, remove a user from a group (the spec's); list, read the members
 * of, create, update and delete groups, and list, add and remove the images a group may launch
 * (the product's, served in product mode only).
 *
 * The product's group operations are inherited from its admin API and keep its habits (1.15
 * decompile, admin_api.py): a refused request answers HTTP 200 with an `error_message`, and
 * answers carry `group_mappings` (the emulator models no SSO group mappings: always `[]`).
 */
import { z } from "zod";
import type { OperationName } from "../../permissions";
import { PermissionRefused115, RefusedWith200, UnhandledException } from "../errors";
import { databaseId } from "../models/common";
import { PRODUCT_GROUP, PRODUCT_GROUP_ITEM, PRODUCT_GROUP_MEMBER } from "../fields";
import { PRODUCT_GROUP_IMAGE } from "../product-fields";
import type { GroupRecord } from "../store";
import { bool, id, int, parse, text, type Call, type Handler } from "./common";

const Membership = z.object({
  target_user: z.object({ user_id: id.optional() }).optional(),
  target_group: z.object({ group_id: id.optional() }).optional(),
});

/** Both operations take the same body and need Groups Modify System for a system group. */
function membershipHandler(operation: OperationName, change: "add" | "remove"): Handler {
  return ({ body, store, caller }) => {
    const { target_user, target_group } = parse(Membership, body, "");
    caller.require(operation, { targetGroupIsSystem: !!store.groups.group(target_group?.group_id)?.is_system });
    if (change === "add") store.users.addUserToGroup(target_user?.user_id, target_group?.group_id);
    else store.users.removeUserFromGroup(target_user?.user_id, target_group?.group_id);
    return {};
  };
}

// --- the product's group operations ---------------------------------------------------------------

const metadata = z.record(z.string(), z.unknown()).nullable();

const GroupFields = z.object({
  name: z.string().optional(),
  // As sent: 1.15 reads it with Python's int() on create, and hands it to its database (emulator/models/groups.ts).
  priority: z.unknown().optional(),
  description: text.optional(),
  group_metadata: metadata.optional(),
});

const UsersOfGroup = z.object({
  // Any value: the product hands it to its database, which fails on one that is no UUID.
  target_group: z.object({ group_id: z.unknown() }).optional(),
  page: int.nullable().optional(),
  page_size: int.nullable().optional(),
  sort_by: z.string().nullable().optional(),
  sort_direction: z.enum(["asc", "desc"]).optional(),
  filters: z.array(z.object({ id: z.string(), value: z.unknown() })).optional(),
});

/** A group's metadata as the product answers it: {} for a seeded group, null for one created without any. */
function metadataOf(g: GroupRecord): Record<string, unknown> | null {
  return g.group_metadata === undefined ? {} : g.group_metadata;
}

/** A group's data-model form, as create_group and update_group answer it. */
function groupJson(g: GroupRecord, observedFields: boolean) {
  return PRODUCT_GROUP.form({ ...g, program_data: {}, group_metadata: metadataOf(g) }, observedFields);
}

/**
 * The product lists a system group only to a key that may also view system groups (Groups View
 * System); the permission catalogue's Groups View is already checked.
 */
function visible({ caller }: Call, g: GroupRecord): boolean {
  return !g.is_system || caller.has("Groups View System");
}

const getGroups: Handler = (call) => ({
  groups: call.store.groups
    .all()
    .filter((g) => visible(call, g))
    .map((g) => PRODUCT_GROUP_ITEM.form({ ...g, group_metadata: metadataOf(g), group_mappings: [] }, call.observedFields)),
});

/**
 * get_users_group: the members of `target_group`, as {name, user_id}, with their total. The filter
 * `name` matches part of a username (a filter with an empty value is skipped); paging applies when
 * both page and page_size are given; sort_by sorts by username, `desc` unless told otherwise.
 */
const getUsersGroup: Handler = (call) => {
  const req = parse(UsersOfGroup, call.body, "");
  const groupId = req.target_group?.group_id;
  if (groupId === undefined) throw new RefusedWith200("Invalid Request: Missing required parameters");
  const group = call.store.groups.group(databaseId(groupId || null));
  if (!group) throw new RefusedWith200(`Invalid Group ID (${groupId})`);
  if (!visible(call, group)) throw call.caller.refusal();
  let members = call.store.users.membersOf(group.group_id);
  for (const filter of req.filters ?? []) {
    if (filter.id === "name" && typeof filter.value === "string" && filter.value !== "")
      members = members.filter((u) => u.username.includes(filter.value as string));
  }
  if (req.sort_by && (req.sort_direction ?? "desc") === "desc") members.reverse();
  const total = members.length;
  if (req.page !== undefined && req.page !== null && req.page_size) members = members.slice(req.page * req.page_size, (req.page + 1) * req.page_size);
  return {
    users: members.map((u) => PRODUCT_GROUP_MEMBER.form({ name: u.username, user_id: u.user_id }, call.observedFields)),
    total,
  };
};

const createGroup: Handler = ({ body, store, observedFields }) => {
  if (body.target_group === undefined) throw new RefusedWith200("Invalid Request. Missing required parameters");
  const fields = parse(GroupFields, body.target_group, "target_group");
  return { group_mappings: [], group: groupJson(store.groups.createGroup(fields), observedFields) };
};

/** update_group: a system group also needs Groups Modify System, checked once the group is known. */
const updateGroup: Handler = ({ body, store, caller, observedFields }) => {
  if (body.target_group === undefined) throw new RefusedWith200("Invalid Request. Missing required parameters");
  const { group_id, ...fields } = parse(GroupFields.extend({ group_id: id.nullable().optional() }), body.target_group, "target_group");
  const group = store.groups.productGroup(group_id);
  caller.require(
    "update_group",
    { targetGroupIsSystem: group.is_system },
    () => new PermissionRefused115(401, "User not authorized to modify the target group."),
  );
  return { group_mappings: [], group: groupJson(store.groups.updateGroup(group.group_id, fields), observedFields) };
};

const deleteGroup: Handler = ({ body, store }) => {
  if (body.force !== undefined && typeof body.force !== "boolean") throw new RefusedWith200("Invalid Request. 'force' option must be boolean");
  const req = parse(z.object({ target_group: z.object({ group_id: z.unknown() }).optional(), force: bool.optional() }), body, "");
  const groupId = req.target_group?.group_id;
  if (groupId === undefined) throw new RefusedWith200("Invalid Request: Missing required parameters");
  // Read as the product's database reads it: a value that is no UUID fails the call (1.15).
  if (groupId) databaseId(groupId);
  store.groups.deleteGroup(groupId, req.force ?? false);
  return {};
};

// --- the images a group may launch (the product's) ------------------------------------------------

const GroupImageRefs = z.object({
  target_group: z.record(z.string(), z.unknown()).optional(),
  target_image: z.record(z.string(), z.unknown()).optional(),
});

/** get_images_group: the authorisations of `target_group`, each with its image's and group's names. */
const getImagesGroup: Handler = (call) => {
  const { target_group } = parse(GroupImageRefs, call.body, "");
  if (!target_group || !("group_id" in target_group) || target_group.group_id === "") throw new RefusedWith200("Invalid Request: Missing group id");
  const group = call.store.groups.group(databaseId(target_group.group_id || null));
  if (!group) throw new RefusedWith200("Request group does not exist");
  if (!visible(call, group)) throw call.caller.refusal();
  return {
    images: call.store.groupImages.ofGroup(group.group_id).map((gi) => {
      const image = call.store.images.image(gi.image_id);
      return PRODUCT_GROUP_IMAGE.form(
        {
          group_image_id: gi.group_image_id,
          group_id: gi.group_id,
          image_id: gi.image_id,
          image_name: image?.name ?? null,
          group_name: group.name,
          image_friendly_name: image?.friendly_name ?? null,
          image_src: image?.image_src ?? null,
        },
        call.observedFields,
      );
    }),
  };
};

/**
 * add_images_group and remove_images_group: both ids are required, and read as the product's
 * database reads them (one that is no UUID fails the call). A system group also needs Groups Modify
 * System, checked once the group is found. Then 1.15's two differ: remove refuses a group or image
 * that does not exist (200 `Group or image does not exist`); add checks neither and fails on it
 * with a server error (its database layer reads the id of the object it did not find). Both answer `{}`.
 */
function groupImageHandler(operation: OperationName, change: "add" | "remove"): Handler {
  return ({ body, store, caller }) => {
    const { target_group, target_image } = parse(GroupImageRefs, body, "");
    if (!target_group || !target_image || !("group_id" in target_group) || !("image_id" in target_image))
      throw new RefusedWith200("Invalid request, missing group or image id");
    const group = store.groups.group(databaseId(target_group.group_id || null));
    const image = store.images.image(databaseId(target_image.image_id));
    if (change === "remove" && (!group || !image)) throw new RefusedWith200("Group or image does not exist");
    if (group) caller.require(operation, { targetGroupIsSystem: group.is_system });
    if (!group || !image) throw new UnhandledException();
    if (change === "add") store.groupImages.authorize(group.group_id, image.image_id);
    else store.groupImages.revoke(group.group_id, image.image_id);
    return {};
  };
}

/** The handlers of this area, by operation. */
export const groupHandlers = {
  add_user_group: membershipHandler("add_user_group", "add"),
  remove_user_group: membershipHandler("remove_user_group", "remove"),
  get_groups: getGroups,
  get_users_group: getUsersGroup,
  create_group: createGroup,
  update_group: updateGroup,
  delete_group: deleteGroup,
  get_images_group: getImagesGroup,
  add_images_group: groupImageHandler("add_images_group", "add"),
  remove_images_group: groupImageHandler("remove_images_group", "remove"),
} satisfies Record<string, Handler>;
