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
export { Group, type GroupArgs } from "./group";
export { GroupMembership, type GroupMembershipArgs } from "./group-membership";
export { UserGroups, type UserGroupsArgs } from "./user-groups";
export { UserServerAssignment, type UserServerAssignmentArgs } from "./user-server-assignment";
export { StagingConfig, type StagingConfigArgs } from "./staging-config";
export { CastConfig, type CastConfigArgs } from "./cast-config";
export type { SessionPermissionArgs } from "./session-permissions";
export { ServerDrain, type ServerDrainArgs } from "./server-drain";
export { ServerImport, type ServerImportArgs, type ServerImportRow } from "./server-import";
export { LicenseActivation, type LicenseActivationArgs, type LicenseFeatures } from "./license-activation";
export { EgressProvider, type EgressProviderArgs, type EgressProviderType } from "./egress-provider";
export { EgressGateway, type EgressGatewayArgs } from "./egress-gateway";
export { EgressProviderMapping, type EgressProviderMappingArgs } from "./egress-provider-mapping";
export { EgressCredential, type EgressCredentialArgs } from "./egress-credential";
export type { EgressTargetArgs } from "./egress-target";
export { Workspace, type WorkspaceArgs } from "./workspace";
export { GroupWorkspace, type GroupWorkspaceArgs } from "./group-workspace";
export { UserSet, type UserSetArgs, type UserSetUser, type UserSetGroupsMode } from "./user-set";
export { Connection, type ConnectionArgs } from "./connection";
export { waitForHealthy, type WaitForHealthyArgs } from "./health";
export { typeToken } from "./provider";
export * from "./lookups";
