/**
 * pulumi-kasm: Pulumi resources for Kasm Workspaces.
 *
 * ```ts
 * import * as kasm from "pulumi-kasm";
 * const alice = new kasm.User("alice", { username: "alice" });
 * ```
 */
export { User, type UserArgs } from "./user";
export { UserAttributes, type UserAttributesArgs } from "./user-attributes";
export { GroupMembership, type GroupMembershipArgs } from "./group-membership";
export { UserGroups, type UserGroupsArgs } from "./user-groups";
export { UserServerAssignment, type UserServerAssignmentArgs } from "./user-server-assignment";
export { typeToken } from "./provider";
export * from "./lookups";
