/** Lookups of users: one by id or username, or every user matching filters. */
import type * as pulumi from "@pulumi/pulumi";
import type { GetUserArgs, GetUsersArgs } from "../../provider/lookups/users";
import { USER_SECRETS, type UserRecord, type UserSecrets } from "../../provider/lookups/secrets";
import { named, outputOf, withoutSecrets, withSecretOutputs } from "./common";
import type { InputArgs, LookupOptions, WithoutSecrets, WithSecretOutputs } from "./common";

export type { GetUserArgs, GetUsersArgs, UserSecrets };

/** A user, as {@link getUser} and {@link getUsers} return it: without {@link UserSecrets}. */
export type User = WithoutSecrets<UserRecord, UserSecrets>;
/** A user, as {@link getUserOutput} and {@link getUsersOutput} return it: {@link UserSecrets} as secret Outputs. */
export type UserWithSecrets = WithSecretOutputs<UserRecord, UserSecrets>;

const fetchUser = named("getUser");

/** One user, by id or username. Leaves out {@link UserSecrets} (`hash`); {@link getUserOutput} has them as secrets. */
export async function getUser(args: GetUserArgs, options?: LookupOptions): Promise<User> {
  return withoutSecrets(await fetchUser(args, options), USER_SECRETS);
}

/** {@link getUser} taking Inputs; {@link UserSecrets} (`hash`) come as secret Outputs. */
export const getUserOutput: (args: InputArgs<GetUserArgs>, options?: LookupOptions) => pulumi.Output<UserWithSecrets> = outputOf(fetchUser, (user) =>
  withSecretOutputs(user, USER_SECRETS),
);

const fetchUsers = named("getUsers");

/** Every user matching the filters, across all pages. Leaves out {@link UserSecrets} (`hash`). */
export async function getUsers(args: GetUsersArgs = {}, options?: LookupOptions): Promise<User[]> {
  return (await fetchUsers(args, options)).map((u) => withoutSecrets(u, USER_SECRETS));
}

/** {@link getUsers} taking Inputs; {@link UserSecrets} (`hash`) come as secret Outputs. */
export function getUsersOutput(args: InputArgs<GetUsersArgs> = {}, options?: LookupOptions): pulumi.Output<UserWithSecrets[]> {
  return outputOf(fetchUsers, (users) => users.map((u) => withSecretOutputs(u, USER_SECRETS)))(args, options);
}
