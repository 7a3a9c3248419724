/**
 * Group membership: add a user to a group, remove a user from a group.
 */
import { z } from "zod";
import type { OperationName } from "../../catalogue";
import { id, parse, type Handler } from "./common";

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

/** The handlers of this area, by operation. */
export const groupHandlers = {
  add_user_group: membershipHandler("add_user_group", "add"),
  remove_user_group: membershipHandler("remove_user_group", "remove"),
} satisfies Record<string, Handler>;
