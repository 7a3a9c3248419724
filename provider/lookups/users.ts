/** Lookups of users: one by id or username, or every user matching filters. */
import { z } from "zod";
import { User } from "../api/schemas/users";
import { noneFound, oneRecord, recordList } from "./common";
import { eitherKey } from "./arguments";
import { USER_SECRETS } from "./secrets";

const USER = { schema: User, name: "User", secrets: USER_SECRETS };

/** Arguments of the getUser lookup: a user id (hex or hyphenated) or a username. */
export type GetUserArgs = { userId: string; username?: undefined } | { username: string; userId?: undefined };

/** Arguments of the getUsers lookup. */
export interface GetUsersArgs {
  /** Case-insensitive part of the username. */
  readonly usernameContains?: string;
  readonly locked?: boolean;
  readonly disabled?: boolean;
  /** Leave out members of this group. */
  readonly excludeGroupId?: string;
  /** Include anonymous users (created by casting links). Default: false. */
  readonly includeAnonymous?: boolean;
}

/** The lookups of users. */
export const USER_LOOKUPS = {
  getUser: oneRecord({
    description: "One user, by id or username.",
    args: eitherKey({
      userId: z.string().optional().describe("The user's id: 32 hex digits, or a hyphenated UUID."),
      username: z.string().optional().describe("The user's login name."),
    }),
    record: USER,
    async fetch(client, args: GetUserArgs) {
      const what = args.userId !== undefined ? `user with id ${args.userId}` : `user ${JSON.stringify(args.username)}`;
      return noneFound(client.users.getUser(args.userId !== undefined ? { user_id: args.userId } : { username: args.username }), what);
    },
  }),

  getUsers: recordList({
    description: "Every user matching the filters, across all pages.",
    args: z.strictObject({
      usernameContains: z.string().optional().describe("Case-insensitive part of the username."),
      locked: z.boolean().optional().describe("Only locked (true) or unlocked (false) users."),
      disabled: z.boolean().optional().describe("Only disabled (true) or enabled (false) users."),
      excludeGroupId: z.string().optional().describe("Leave out members of this group."),
      includeAnonymous: z.boolean().optional().describe("Include anonymous users (created by casting links). Default: false."),
    }),
    record: USER,
    list: "users",
    async fetch(client, args: GetUsersArgs = {}) {
      const filters: { id: "username" | "locked" | "disabled" | "exclude_group"; value: unknown }[] = [];
      if (args.usernameContains !== undefined) filters.push({ id: "username", value: args.usernameContains });
      if (args.locked !== undefined) filters.push({ id: "locked", value: args.locked });
      if (args.disabled !== undefined) filters.push({ id: "disabled", value: args.disabled });
      if (args.excludeGroupId !== undefined) filters.push({ id: "exclude_group", value: args.excludeGroupId });
      // Every page, read by the client's one reader of get_users pages.
      return client.users.getAllUsers({ filters, anonymous: args.includeAnonymous ?? false });
    },
  }),
};
