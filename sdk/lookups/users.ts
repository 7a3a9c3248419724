/** Lookups of users: one by id or username, or every user matching filters. */
import type * as pulumi from "@pulumi/pulumi";
import { named, outputOf, recordSecrets, withoutSecrets, withSecretOutputs } from "./common";
import type { Api, Camelized, InputArgs, LookupOptions, WithoutSecrets, WithSecretOutputs } from "./common";

/** The secret fields of a user record. */
export interface UserSecrets {
  /**
   * A hash `get_user` returns, derived from the user's credentials: nothing a program needs to
   * manage a user, and something an attacker could attack offline.
   */
  readonly hash?: string | null;
}

type UserRecord = Camelized<Awaited<ReturnType<Api["users"]["getUser"]>>>;

const USER_SECRETS = recordSecrets<UserRecord, UserSecrets>({ hash: true });

/** A user, as {@link getUser} and {@link getUsers} return it: without {@link UserSecrets}. */
export type User = WithoutSecrets<UserRecord, UserSecrets>;
/** A user, as {@link getUserOutput} and {@link getUsersOutput} return it: {@link UserSecrets} as secret Outputs. */
export type UserWithSecrets = WithSecretOutputs<UserRecord, UserSecrets>;

/** Arguments of {@link getUser}: a user id (hex or hyphenated) or a username. */
export type GetUserArgs = { userId: string; username?: undefined } | { username: string; userId?: undefined };

const fetchUser = named("getUser", async (args: GetUserArgs, client) => {
  const lookup = args.userId !== undefined ? { user_id: args.userId } : { username: args.username };
  return client.users.getUser(lookup as never);
});

/** One user, by id or username. Leaves out {@link UserSecrets} (`hash`); {@link getUserOutput} has them as secrets. */
export async function getUser(args: GetUserArgs, options?: LookupOptions): Promise<User> {
  return withoutSecrets(await fetchUser(args, options), USER_SECRETS);
}

/** {@link getUser} taking Inputs; {@link UserSecrets} (`hash`) come as secret Outputs. */
export const getUserOutput: (args: InputArgs<GetUserArgs>, options?: LookupOptions) => pulumi.Output<UserWithSecrets> = outputOf(fetchUser, (user) =>
  withSecretOutputs(user, USER_SECRETS),
);

/** Arguments of {@link getUsers}. */
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

const fetchUsers = named("getUsers", async (args: GetUsersArgs = {}, client) => {
  const filters: { id: "username" | "locked" | "disabled" | "exclude_group"; value: unknown }[] = [];
  if (args.usernameContains !== undefined) filters.push({ id: "username", value: args.usernameContains });
  if (args.locked !== undefined) filters.push({ id: "locked", value: args.locked });
  if (args.disabled !== undefined) filters.push({ id: "disabled", value: args.disabled });
  if (args.excludeGroupId !== undefined) filters.push({ id: "exclude_group", value: args.excludeGroupId });
  // Every page, read by the client's one reader of get_users pages.
  return client.users.getAllUsers({ filters, anonymous: args.includeAnonymous ?? false });
});

/** Every user matching the filters, across all pages. Leaves out {@link UserSecrets} (`hash`). */
export async function getUsers(args: GetUsersArgs = {}, options?: LookupOptions): Promise<User[]> {
  return (await fetchUsers(args, options)).map((u) => withoutSecrets(u, USER_SECRETS));
}

/** {@link getUsers} taking Inputs; {@link UserSecrets} (`hash`) come as secret Outputs. */
export function getUsersOutput(args: InputArgs<GetUsersArgs> = {}, options?: LookupOptions): pulumi.Output<UserWithSecrets[]> {
  return outputOf(fetchUsers, (users) => users.map((u) => withSecretOutputs(u, USER_SECRETS)))(args, options);
}
