/**
 * Operations of the groups area: add a user to a group, remove a user from a group; and, on a
 * released Kasm (`apiNames` `product`), list, create, change and delete groups, and say which
 * workspaces (images) a group may launch.
 */
import { z } from "zod";
import { KasmAlreadyMemberError, KasmNotFoundError, KasmNotMemberError } from "../errors";
import { callCountingAsDone, createOnce, deleteOnce } from "../retry";
import { Empty, Id, Int, sameId } from "../schemas/common";
import { GroupImage } from "../schemas/images";
import { GroupRecord, type GroupMembership, type GroupUpdate, type NewGroup } from "../schemas/groups";
import type { KasmApi } from "../transport";

const GroupAnswer = z.object({ group: GroupRecord });

/**
 * Add a user to a group (`add_user_group`; needs Groups Modify, and Groups Modify System for All
 * Users or Administrators).
 *
 * If a retried attempt answers that the user is already a member, an earlier attempt added it: done.
 *
 * @throws {@link KasmAlreadyMemberError} `User (<u>) is already a member of group (<g>)` on a first attempt.
 * @throws {@link KasmNotFoundError} `Invalid User ID (...)` or `Invalid Group ID (...)`.
 */
export async function addUserGroup(api: KasmApi, membership: GroupMembership): Promise<void> {
  await callCountingAsDone(api.transport, "add_user_group", membershipBody(membership), Empty, (error) => error instanceof KasmAlreadyMemberError);
}

/**
 * Remove a user from a group (`remove_user_group`; same permissions).
 *
 * If a retried attempt answers that the user is not a member, an earlier attempt removed it: done.
 */
export async function removeUserGroup(api: KasmApi, membership: GroupMembership): Promise<void> {
  await callCountingAsDone(api.transport, "remove_user_group", membershipBody(membership), Empty, (error) => error instanceof KasmNotMemberError);
}

function membershipBody(membership: GroupMembership) {
  return { target_user: { user_id: membership.user_id }, target_group: { group_id: membership.group_id } };
}

/**
 * Every group the key may view (`get_groups`; a product operation, needs Groups View). A released
 * Kasm answers `{}` when it lists none.
 *
 * @throws {@link KasmUnsupportedOperationError} with `apiNames` `spec`, before sending anything.
 */
export async function getGroups(api: KasmApi): Promise<GroupRecord[]> {
  return (await api.transport.call("get_groups", {}, z.object({ groups: z.array(GroupRecord).default([]) }))).groups;
}

/** One member of a group, as `get_users_group` lists it (the product writes the username as `name`). */
const GroupMember = z.object({ user_id: Id, name: z.string() });

/**
 * The members of a group, one page at a time (`get_users_group`; a product operation, needs
 * Groups View). Sorted by username.
 */
export async function getUsersGroup(
  api: KasmApi,
  params: { group_id: string; page?: number; page_size?: number },
): Promise<{ users: { user_id: string; name: string }[]; total?: number }> {
  const { group_id, ...paging } = params;
  return api.transport.call(
    "get_users_group",
    { target_group: { group_id }, sort_by: "username", sort_direction: "asc", ...paging },
    z.object({ users: z.array(GroupMember).default([]), total: Int.optional() }),
  );
}

/** The group of this name (exact, as the product compares names when it refuses a duplicate), or `undefined`. */
export async function findGroup(api: KasmApi, name: string): Promise<GroupRecord | undefined> {
  return (await getGroups(api)).find((g) => g.name === name);
}

/** The group with this id (any spelling), or `undefined`: the product has no operation that reads one group. */
export async function findGroupById(api: KasmApi, groupId: string): Promise<GroupRecord | undefined> {
  return (await getGroups(api)).find((g) => sameId(g.group_id, groupId));
}

/**
 * Create a group (`create_group`; a product operation, needs Groups Create). The product refuses
 * a name in use (`Group (<name>) already exists`, with HTTP 200 in 1.15) and a priority outside
 * 1 to 4095. Never creates it twice: after a failure that leaves the outcome unknown, the group of
 * that name is looked up and adopted if the failed attempt created it.
 *
 * The group's `group_metadata` is sent as `{}` unless given: 1.15's create_group stores what it is
 * sent, null when none, where its own admin UI always sends `{}` and its code reads the field as
 * an object.
 */
export async function createGroup(api: KasmApi, group: NewGroup): Promise<GroupRecord> {
  const { transport } = api;
  const body: NewGroup = { group_metadata: {}, ...group };
  return createOnce(transport, "create_group", async () => (await transport.call("create_group", { target_group: body }, GroupAnswer)).group, {
    find: () => findGroup(api, group.name),
  });
}

/** Change a group's name, priority or description (`update_group`; a product operation, needs Groups Modify). */
export async function updateGroup(api: KasmApi, update: GroupUpdate): Promise<GroupRecord> {
  return (await api.transport.call("update_group", { target_group: update }, GroupAnswer)).group;
}

/**
 * Delete a group (`delete_group`; a product operation, needs Groups Delete). Without `force` the
 * product refuses a group that still has members; it always refuses a system group and a group a
 * cast config names. If a retried attempt answers that the group does not exist, done.
 */
export async function deleteGroup(api: KasmApi, params: { group_id: string; force?: boolean }): Promise<void> {
  const body = { target_group: { group_id: params.group_id }, ...(params.force === undefined ? {} : { force: params.force }) };
  await deleteOnce(api.transport, "delete_group", body);
}

/** The images a group may launch (`get_images_group`; a product operation, needs Groups View). */
export async function getImagesGroup(api: KasmApi, params: { group_id: string }): Promise<GroupImage[]> {
  const answer = await api.transport.call(
    "get_images_group",
    { target_group: { group_id: params.group_id } },
    z.object({ images: z.array(GroupImage).default([]) }),
  );
  return answer.images;
}

/** Whether the group may launch the image (read through {@link getImagesGroup}). */
export async function groupHasImage(api: KasmApi, params: { group_id: string; image_id: string }): Promise<boolean> {
  return (await getImagesGroup(api, params)).some((image) => sameId(image.image_id, params.image_id));
}

/**
 * Let a group launch an image (`add_images_group`; a product operation, needs Groups Modify).
 * Never sent twice blindly: a second add of the pair adds a second authorisation (1.15), which
 * one remove would leave behind. After a failure that left the outcome unknown (a 5xx, a 429, a
 * broken connection, a timeout), the group's images say whether the add committed (see
 * {@link createOnce}).
 */
export async function addImagesGroup(api: KasmApi, params: { group_id: string; image_id: string }): Promise<void> {
  const { transport } = api;
  const add = async (): Promise<true> => {
    await transport.call("add_images_group", groupImageBody(params), Empty);
    return true;
  };
  await createOnce(transport, "add_images_group", add, { find: async () => ((await groupHasImage(api, params)) ? true : undefined) });
}

/**
 * Stop a group launching an image (`remove_images_group`; same permission). If a retried attempt
 * answers that the group or the image does not exist, done.
 */
export async function removeImagesGroup(api: KasmApi, params: { group_id: string; image_id: string }): Promise<void> {
  await callCountingAsDone(api.transport, "remove_images_group", groupImageBody(params), Empty, (error) => error instanceof KasmNotFoundError);
}

function groupImageBody(params: { group_id: string; image_id: string }) {
  return { target_group: { group_id: params.group_id }, target_image: { image_id: params.image_id } };
}
