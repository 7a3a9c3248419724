/** Schemas of the groups area: group records and membership changes. */
import { z } from "zod";
import { Id } from "./common";

/** A group as it appears in a user's `groups` list: its name and id. */
export const Group = z.object({
  group_id: Id,
  name: z.string(),
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
