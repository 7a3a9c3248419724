/**
 * `UserServerAssignment`: one user assigned to one server (a host reached over SSH or a remote
 * display protocol). Users and servers are many-to-many; this manages one pair.
 *
 * API: assign_user_server, unassign_user_server, and get_user (whose `assigned_servers` list
 * needs Servers View) to read. The id is `<userId>:<serverId>` (canonical ids). Both inputs
 * replace: an assignment cannot be moved. Kasm accepts assigning twice, so an existing assignment
 * is found by reading the user first, and recorded as it is without a write, whoever made it (an
 * assignment of an earlier `up` whose answer was lost, or the Kasm UI); `adopt` has no effect. Refresh
 * drops the resource when the user is gone or no longer assigned; destroying an assignment that
 * is already gone succeeds. Needs Servers Modify and Users Modify (Users Modify Admin when the
 * user has Global Admin).
 */
import { z } from "zod";
import { KasmNotAssignedError } from "../api/errors/answers";
import { assignedServersOf, defineUserLink, userLinkFields, type UserLinkDocs } from "./user-links";
import { userServerAssignmentCalls } from "./user-server-assignment.calls";

// --- types ---------------------------------------------------------------------------------------

/** Each input of a UserServerAssignment, declared once (see {@link userLinkFields}): the user, the server, and `adopt`. */
const USER_SERVER_ASSIGNMENT_FIELDS = userLinkFields({ otherField: "serverId", nouns: { aLink: "an assignment", other: "server" } });

/** The inputs of a UserServerAssignment. */
export const UserServerAssignmentInputs = USER_SERVER_ASSIGNMENT_FIELDS.schema;
export type UserServerAssignmentInputs = z.infer<typeof UserServerAssignmentInputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the UserServerAssignment kind, besides what every link says (see {@link defineUserLink}). */
const DOCS: UserLinkDocs = {
  description:
    "One Kasm user assigned to one server (a host reached over SSH or a remote display protocol). " +
    "Users and servers are many-to-many: the user's other servers are left alone. Destroying it " +
    "unassigns the server. Needs Servers Modify and Users Modify, and Servers View to read.",
  example: ['new kasm.UserServerAssignment("alice-ws1", { userId: alice.userId, serverId: ws1ServerId });'].join("\n"),
  limits: "",
};

// --- helpers -------------------------------------------------------------------------------------

/** `User (<u>) is not assigned to server (<s>)`. */
function isNotAssigned(error: unknown): boolean {
  return error instanceof KasmNotAssignedError;
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of UserServerAssignment: a link between a user and a server (see {@link defineUserLink}). */
export const userServerAssignmentProvider = defineUserLink({
  kind: "UserServerAssignment",
  fields: USER_SERVER_ASSIGNMENT_FIELDS,
  docs: DOCS,
  otherField: "serverId",
  userList: "assigned_servers",
  calls: userServerAssignmentCalls,
  linkedIds: (user) => assignedServersOf(user).map((server) => server.server_id),

  // Kasm accepts assigning twice: the user's record (which needs Servers View) says whether it exists.
  async add(client, user_id, server_id) {
    await client.users.assignUserServer({ user_id, server_id });
  },

  async unlink(client, user_id, server_id) {
    await client.users.unassignUserServer({ user_id, server_id });
  },

  // Not assigned any more (the user or server being gone is Kasm's not-found, which the link handles too).
  isUnlinked: isNotAssigned,
});
