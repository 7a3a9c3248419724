/**
 * Schemas of the groups area: group records and membership changes.
 *
 * The group record beyond its name and id, and the operations that list, create, change and
 * delete groups, are the released product's (the API documentation leaves them out): their shapes
 * were read in a decompile of the 1.15.0 API server (admin_api.py, and the group model's JSON
 * fields in data/model.py) and in the group types of a Terraform client tested against 1.16.1.
 */
import { z } from "zod";
import { AnyObject, Bool, Id, Int, NullableString, nullable } from "./common";

/** A group as it appears in a user's `groups` list: its name and id. */
export const Group = z.object({
  group_id: Id.describe("The group's id (32 hex digits)."),
  name: z.string().describe("The group's name."),
});
/** A group as it appears in a user's `groups` list: its name and id. */
export type Group = z.infer<typeof Group>;

/** Parameters of `add_user_group` and `remove_user_group`: which user joins or leaves which group. */
export const GroupMembership = z.object({
  user_id: Id,
  group_id: Id,
});
/** Parameters of `add_user_group` and `remove_user_group`: which user joins or leaves which group. */
export type GroupMembership = z.infer<typeof GroupMembership>;

/** A group record as the product's `get_groups`, `create_group` and `update_group` answer it. */
export const GroupRecord = Group.extend({
  description: NullableString.optional().describe("The group's description."),
  /** The product's default is 4095. */
  priority: nullable(Int).optional().describe("The group's priority, from 1 to 4095: when a user's groups have conflicting settings, the lowest number wins."),
  is_system: nullable(Bool)
    .optional()
    .describe("Whether the group is one of Kasm's built-in groups (All Users, Administrators), which Kasm refuses to delete."),
});
/** A group record. */
export type GroupRecord = z.infer<typeof GroupRecord>;

/**
 * A group's settings by the names a program declares them (a Group's inputs), as the record shows
 * them, null where it shows none. One mapping for the Group kind (refresh, take-over) and for
 * `kasm-import`, which writes it.
 */
export function groupShown(group: GroupRecord) {
  return { name: group.name, priority: group.priority ?? null, description: group.description ?? null };
}

/** `target_group` of `create_group`: the product requires a name and a priority. */
export const NewGroup = z.object({
  name: z.string(),
  priority: z.number().int(),
  description: z.string().nullable().optional(),
  /** The product's free-form metadata (see `createGroup`). */
  group_metadata: AnyObject.optional(),
});
/** `target_group` of `create_group`. */
export type NewGroup = z.infer<typeof NewGroup>;

/** `target_group` of `update_group`: the id and the fields to change. */
export const GroupUpdate = NewGroup.partial().extend({ group_id: Id });
/** `target_group` of `update_group`. */
export type GroupUpdate = z.infer<typeof GroupUpdate>;
