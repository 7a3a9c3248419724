/**
 * Operations of the users area: create, read, list, update and delete users, log them out,
 * read and change their attributes, assign them to servers, and import them from a CSV file.
 */
import { z } from "zod";
import { KasmAlreadyExistsError, KasmNotAssignedError, KasmNotFoundError } from "../errors";
import { callCountingAsDone, createOnce, deleteOnce } from "../retry";
import { Empty, normaliseId } from "../schemas/common";
import { usersCsv } from "../batch-csv";
import type { BatchView } from "../schemas/batch";
import { ADMINISTRATORS_GROUP, ALL_USERS_GROUP } from "../../../permissions/names";
import type { OperationContext } from "../../../permissions/operations";
import {
  BatchUsersResult,
  MAX_USERS_PAGE_SIZE,
  User,
  UserAttributes,
  UserPage,
  UserServerAssignment,
  type BatchUserRow,
  type DeleteUserParams,
  type GetUsersParams,
  type NewUser,
  type UserAttributesUpdate,
  type UserLookup,
  type UserUpdate,
} from "../schemas/users";
import type { KasmApi } from "../transport";

const UserAnswer = z.object({ user: User });

/**
 * Create a user (`create_user`; needs Users Create). The new user is in All Users.
 *
 * Never creates the user twice: after a failure that leaves the outcome unknown, the user is
 * looked up by username and adopted if the failed attempt created it.
 *
 * @throws {@link KasmAlreadyExistsError} `Error creating user (<username>): (User already exists)` when the name is taken.
 * @example
 * ```ts
 * const user = await createUser(client, { username: "alice", first_name: "Alice" });
 * ```
 */
export async function createUser(api: KasmApi, user: NewUser): Promise<User> {
  const { transport } = api;
  return createOnce(transport, "create_user", async () => (await transport.call("create_user", { target_user: user }, UserAnswer)).user, {
    find: () => findUserByUsername(api, user.username),
  });
}

/**
 * Import users from a CSV file (`batch_create_user`, multipart; needs Users Create, and Groups
 * Modify when `group_N` columns are used). Answers with the created users (`view` `api`, the
 * default here), the validation report (`table`) or both (`all`).
 *
 * Not repeated after a failure that may have reached the server: a repeated import could create
 * users twice or fail half way; check what exists before importing again. `context` (what the
 * rows do, for the advice of a 403) defaults to what the header shows.
 *
 * @throws {@link KasmBadRequestError} `Invalid file format: ...` or `Failed to import CSV file data`.
 */
export async function batchCreateUser(
  api: KasmApi,
  params: { csv: string; view?: BatchView; filename?: string; context?: OperationContext },
): Promise<BatchUsersResult> {
  const header = params.csv.split(/\r?\n/, 1)[0] ?? "";
  return api.transport.callMultipart("batch_create_user", { csv: params.csv, filename: params.filename }, { view: params.view ?? "api" }, BatchUsersResult, {
    context: params.context ?? { assignsGroups: /(^|,)\s*"?group_\d+/i.test(header) },
  });
}

/**
 * Import users given as rows (`batch_create_user` with the CSV written by {@link usersCsv}). One
 * request for all of them; Kasm validates every row first and creates nothing when one is
 * invalid. A 403 names Groups Modify (System) when the rows put users into (system) groups.
 *
 * @throws {@link KasmBadRequestError} `Failed to import CSV file data`, whose `validationErrors`
 * list every problem as `row N: ...` or `row N, <column>: ...` (N counts the rows from 1, as given).
 * @example
 * ```ts
 * const { resources } = await importUsers(client, [{ username: "alice", email: "alice@example.com", groups: ["Engineering"] }]);
 * ```
 */
export async function importUsers(api: KasmApi, rows: readonly BatchUserRow[], options: { view?: BatchView } = {}): Promise<BatchUsersResult> {
  const groups = rows.flatMap((row) => row.groups ?? []);
  return batchCreateUser(api, {
    csv: usersCsv(rows),
    view: options.view,
    context: { assignsGroups: groups.length > 0, targetGroupIsSystem: groups.some((g) => g === ALL_USERS_GROUP || g === ADMINISTRATORS_GROUP) },
  });
}

/**
 * Read one user by id or by username (`get_user`; needs Users View, and Servers View for
 * `assigned_servers`).
 *
 * @throws {@link KasmNotFoundError} when no user has that id or name.
 */
export async function getUser(api: KasmApi, lookup: UserLookup): Promise<User> {
  return (await api.transport.call("get_user", { target_user: lookup }, UserAnswer)).user;
}

/** Like {@link getUser}, but `undefined` instead of {@link KasmNotFoundError}. */
export async function findUser(api: KasmApi, lookup: UserLookup): Promise<User | undefined> {
  try {
    return await getUser(api, lookup);
  } catch (error) {
    if (error instanceof KasmNotFoundError) return undefined;
    throw error;
  }
}

/**
 * The user with this username, or `undefined` when there is none (`get_user` by username): the
 * natural-key lookup of a user. The name is trimmed and lowercased first, as Kasm stores it.
 */
export async function findUserByUsername(api: KasmApi, username: string): Promise<User | undefined> {
  return findUser(api, { username: username.trim().toLowerCase() });
}

/**
 * List users, one page at a time (`get_users`; needs Users View). Page size defaults to 100, at
 * most 1000; anonymous users are left out unless asked for.
 */
export async function getUsers(api: KasmApi, params: GetUsersParams = {}): Promise<UserPage> {
  return api.transport.call("get_users", params, UserPage);
}

/** One page of {@link userPages}: the answer, and whether it is the last page. */
export interface UserPageRead extends UserPage {
  /** Whether no page follows: this one is short, or the pages read so far hold `total` users. */
  readonly last: boolean;
}

/**
 * The pages of `get_users`, read one at a time as the caller asks for them: the one place that
 * reads users page by page. Sorted by username, so that pages do not overlap; anonymous users are
 * left out unless asked for. A caller that has what it needs stops asking, and no further page is
 * read.
 *
 * @example
 * ```ts
 * for await (const page of userPages(client, { filters: [{ id: "locked", value: true }] })) console.log(page.users.length);
 * ```
 */
export async function* userPages(
  api: KasmApi,
  params: Pick<GetUsersParams, "filters" | "anonymous" | "anonymous_only" | "page_size"> = {},
): AsyncGenerator<UserPageRead, void, undefined> {
  const pageSize = params.page_size ?? MAX_USERS_PAGE_SIZE;
  let read = 0;
  for (let page = 0; ; page++) {
    const answer = await getUsers(api, { ...params, page, page_size: pageSize, sort_by: "username", sort_direction: "asc" });
    read += answer.users.length;
    const last = answer.users.length < pageSize || (answer.total !== undefined && read >= answer.total);
    yield { ...answer, last };
    if (last) return;
  }
}

/**
 * Every user, across all pages of `get_users` (see {@link userPages}). Anonymous users are left
 * out unless asked for.
 */
export async function getAllUsers(api: KasmApi, params: Pick<GetUsersParams, "filters" | "anonymous" | "anonymous_only" | "page_size"> = {}): Promise<User[]> {
  const users: User[] = [];
  for await (const page of userPages(api, params)) users.push(...page.users);
  return users;
}

/** What {@link getUsersNamed} read. */
export interface NamedUsers {
  /** Every user read: the named ones that exist, and others read on the way. */
  readonly users: readonly User[];
  /** Whether `users` holds every (non-anonymous) user of Kasm, or only pages and the named ones. */
  readonly complete: boolean;
}

/**
 * The users with these usernames (any case), in as few `get_users` calls as the page size allows:
 * the first page (1,000 users, with the total); then, when fewer usernames are still missing than
 * pages are left, one `username`-filtered call per missing name (the filter is a partial match, so
 * matches are kept only when exact), and otherwise the remaining pages.
 */
export async function getUsersNamed(api: KasmApi, usernames: Iterable<string>, options: { pageSize?: number } = {}): Promise<NamedUsers> {
  const pageSize = options.pageSize ?? MAX_USERS_PAGE_SIZE;
  const pages = userPages(api, { page_size: pageSize });
  const first = (await pages.next()).value;
  if (!first) return { users: [], complete: true };
  const users = [...first.users];
  if (first.last) return { users, complete: true };
  const seen = new Set(users.map((u) => u.username.toLowerCase()));
  const missing = [...new Set([...usernames].map((u) => u.trim().toLowerCase()))].filter((u) => !seen.has(u));
  const pagesLeft = first.total === undefined ? Infinity : Math.ceil(first.total / pageSize) - 1;
  if (missing.length >= pagesLeft) {
    for await (const page of pages) users.push(...page.users);
    return { users, complete: true };
  }
  await pages.return();
  for (const username of missing) {
    const matches = await getAllUsers(api, { page_size: pageSize, filters: [{ id: "username", value: username }] });
    users.push(...matches.filter((u) => u.username.toLowerCase() === username));
  }
  return { users, complete: false };
}

/**
 * Change a user's fields (`update_user`; needs Users Modify, and Users Modify Admin when the user
 * has Global Admin). Send `username` too: some releases refuse an update without it.
 *
 * @throws {@link KasmNotFoundError} `Unknown User`.
 */
export async function updateUser(api: KasmApi, update: UserUpdate): Promise<User> {
  return (await api.transport.call("update_user", { target_user: update }, UserAnswer)).user;
}

/**
 * Delete a user (`delete_user`; needs Users Delete and Users Modify, Sessions Delete when the
 * user has sessions). Without `force` it fails while the user has sessions.
 *
 * If a retried attempt answers that the user is unknown, an earlier attempt deleted it: done.
 */
export async function deleteUser(api: KasmApi, params: DeleteUserParams): Promise<void> {
  const { user_id, force } = params;
  await deleteOnce(api.transport, "delete_user", { target_user: { user_id }, force: force ?? false });
}

/** End every session of a user (`logout_user`; needs Users Auth Session). */
export async function logoutUser(api: KasmApi, params: { user_id: string }): Promise<void> {
  await api.transport.call("logout_user", { target_user: { user_id: params.user_id } }, Empty);
}

/** Read a user's attributes (`get_attributes`; needs Users View). */
export async function getAttributes(api: KasmApi, params: { user_id: string }): Promise<UserAttributes> {
  const answer = await api.transport.call("get_attributes", { target_user: { user_id: params.user_id } }, z.object({ user_attributes: UserAttributes }));
  return answer.user_attributes;
}

/** Change a user's attributes (`update_user_attributes`; needs Users Modify). */
export async function updateUserAttributes(api: KasmApi, update: UserAttributesUpdate): Promise<void> {
  await api.transport.call("update_user_attributes", { target_user_attributes: update }, Empty);
}

/**
 * Assign a server to a user (`assign_user_server`; needs Servers Modify and Users Modify).
 * Assigning twice leaves one assignment; should a release refuse the repeat of a retried
 * attempt as "already assigned", the earlier attempt did it: done.
 */
export async function assignUserServer(api: KasmApi, params: UserServerAssignment): Promise<UserServerAssignment> {
  const answer = await callCountingAsDone(
    api.transport,
    "assign_user_server",
    { target_user: { user_id: params.user_id }, target_server: { server_id: params.server_id } },
    z.object({ user_server_assignment: UserServerAssignment }),
    (error) => error instanceof KasmAlreadyExistsError,
  );
  return answer?.user_server_assignment ?? { user_id: normaliseId(params.user_id), server_id: normaliseId(params.server_id) };
}

/**
 * Remove a server from a user (`unassign_user_server`; same permissions; answers 204).
 * If a retried attempt answers that the user is not assigned, an earlier attempt did it: done.
 */
export async function unassignUserServer(api: KasmApi, params: UserServerAssignment): Promise<void> {
  await callCountingAsDone(
    api.transport,
    "unassign_user_server",
    { target_user: { user_id: params.user_id }, target_server: { server_id: params.server_id } },
    Empty,
    (error) => error instanceof KasmNotAssignedError,
  );
}
