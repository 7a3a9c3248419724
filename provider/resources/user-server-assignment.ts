/**
 * `UserServerAssignment`: one user assigned to one server (a host reached over SSH or a remote
 * display protocol). Users and servers are many-to-many; this manages one pair.
 *
 * API: assign_user_server, unassign_user_server, and get_user (whose `assigned_servers` list
 * needs Servers View) to read. The id is `<userId>:<serverId>` (canonical ids). Both inputs
 * replace: an assignment cannot be moved. Kasm accepts assigning twice, so an existing assignment
 * is found by reading the user first: it is an error unless `adopt: true` takes it over. Refresh
 * drops the resource when the user is gone or no longer assigned; destroying an assignment that
 * is already gone succeeds. Needs Servers Modify and Users Modify (Users Modify Admin when the
 * user has Global Admin).
 */
import { z } from "zod";
import { KasmBadRequestError } from "../api";
import { kasmClient } from "../runtime";
import {
  alreadyExistsError,
  canonicalId,
  checkInputs,
  declared,
  diffInputs,
  GONE,
  isNotFound,
  KasmId,
  keepSpelling,
  same,
  type FieldRule,
  type KindProvider,
  type Props,
} from "./kit";
import { assignedServersOf, pairId } from "./user-links";

// --- types ---------------------------------------------------------------------------------------

/** The inputs of a UserServerAssignment. */
export const UserServerAssignmentInputs = z.strictObject({
  userId: KasmId,
  serverId: KasmId,
  /** Take over an existing assignment instead of failing. */
  adopt: z.boolean().optional(),
});
export type UserServerAssignmentInputs = z.infer<typeof UserServerAssignmentInputs>;

/** The assignment's key: both parts replace, as an assignment cannot be moved. */
const KEY_FIELDS: Readonly<Record<string, FieldRule>> = {
  userId: { equal: same.id, replaces: true },
  serverId: { equal: same.id, replaces: true },
};

/** Inputs that only steer the provider. */
const PROVIDER_FIELDS: Readonly<Record<string, FieldRule>> = { adopt: {} };

const INPUT_FIELDS = { ...KEY_FIELDS, ...PROVIDER_FIELDS };

// --- helpers -------------------------------------------------------------------------------------

/** `User (<u>) is not assigned to server (<s>)`. */
function isNotAssigned(error: unknown): boolean {
  return error instanceof KasmBadRequestError && /\bis not assigned\b/i.test(error.errorMessage ?? "");
}

function outputs(inputs: Props): Props {
  return declared(inputs, Object.keys(INPUT_FIELDS));
}

// --- provider ------------------------------------------------------------------------------------

export const userServerAssignmentProvider: KindProvider = {
  async check(_olds, news) {
    return checkInputs(UserServerAssignmentInputs, news);
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, INPUT_FIELDS);
  },

  async create(inputs) {
    const client = kasmClient();
    const user_id = canonicalId(inputs.userId);
    const server_id = canonicalId(inputs.serverId);
    const user = await client.users.findUser({ user_id });
    if (!user) throw new Error(`UserServerAssignment: Kasm has no user with id ${user_id}.`);
    const assigned = assignedServersOf(user).some((s) => same.id(s.server_id, server_id));
    if (assigned && !inputs.adopt) throw alreadyExistsError("UserServerAssignment", `of user ${user_id} to server ${server_id}`);
    // Adopted: the user is assigned, which is all this resource declares.
    if (!assigned) await client.users.assignUserServer({ user_id, server_id });
    return { id: pairId(user_id, server_id), outs: outputs(inputs) };
  },

  async read(id, props) {
    const [userId, serverId] = id.split(":");
    // From the refresh's get_users pages when many users are read together (see UserReads).
    const user = await kasmClient().userReads.read(userId, ["assigned_servers"]);
    if (!user) return GONE;
    const server = assignedServersOf(user).find((s) => same.id(s.server_id, serverId));
    if (!server) return GONE;
    const inputs: Props = { ...declared(props, Object.keys(INPUT_FIELDS)) };
    inputs.userId = keepSpelling(props.userId ?? userId, user.user_id);
    inputs.serverId = keepSpelling(props.serverId ?? serverId, server.server_id);
    return { id: pairId(user.user_id, server.server_id), props: outputs(inputs), inputs };
  },

  async update(_id, _olds, news) {
    // Only `adopt` can change in place, and it steers nothing after the create.
    return { outs: outputs(news) };
  },

  async delete(id) {
    const [user_id, server_id] = id.split(":");
    try {
      await kasmClient().users.unassignUserServer({ user_id, server_id });
    } catch (error) {
      // Not assigned any more, or the user or server is gone: the assignment is gone, as asked.
      if (isNotAssigned(error) || isNotFound(error)) return;
      throw error;
    }
  },
};
