/**
 * pulumi-kasm: Pulumi resources for Kasm Workspaces.
 *
 * ```ts
 * import * as kasm from "pulumi-kasm";
 * const alice = new kasm.User("alice", { username: "alice" });
 * ```
 */
// Every kind's class and its `<Kind>Args`, generated from the kinds (scripts/sdk/typescript.ts).
export * from "./kinds";
export type { EgressProviderType, EgressTargetArgs, LicenseFeatures, SessionPermissionArgs, UserSetGroupsMode } from "./types";
export { Connection, type ConnectionArgs } from "./connection";
export { waitForHealthy, type WaitForHealthyArgs } from "./health";
export { typeToken } from "./provider";
export * from "./lookups";
