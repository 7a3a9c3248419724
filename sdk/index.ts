/**
 * pulumi-kasm: Pulumi resources for Kasm Workspaces.
 *
 * ```ts
 * import * as kasm from "pulumi-kasm";
 * const alice = new kasm.User("alice", { username: "alice" });
 * ```
 */
export { User, type UserArgs } from "./user";
export { typeToken } from "./provider";
export * from "./lookups";
