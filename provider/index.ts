/**
 * The provider side of pulumi-kasm, loaded by name (`require("pulumi-kasm/provider")`) inside
 * Pulumi's dynamic-provider host: the registry of every kind's provider, and `configure`.
 */
import { userProvider } from "./resources/user";
import { userAttributesProvider } from "./resources/user-attributes";
import { groupProvider } from "./resources/group";
import { groupMembershipProvider } from "./resources/group-membership";
import { userGroupsProvider } from "./resources/user-groups";
import { userServerAssignmentProvider } from "./resources/user-server-assignment";
import { egressProviderProvider } from "./resources/egress-provider";
import { egressGatewayProvider } from "./resources/egress-gateway";
import { egressProviderMappingProvider } from "./resources/egress-provider-mapping";
import { egressCredentialProvider } from "./resources/egress-credential";
import { stagingConfigProvider } from "./resources/staging-config";
import { castConfigProvider } from "./resources/cast-config";
import { serverDrainProvider } from "./resources/server-drain";
import { licenseActivationProvider } from "./resources/license-activation";
import { userSetProvider } from "./resources/user-set";
import { serverImportProvider } from "./resources/server-import";
import { workspaceProvider } from "./resources/workspace";
import { groupWorkspaceProvider } from "./resources/group-workspace";
import { workspaceRegistryProvider } from "./resources/workspace-registry";
import type { Kind } from "./resources/framework/types";
import { acrossConnections } from "./resources/framework/connections";
import { refreshingLeniently } from "./resources/framework/lenient-refresh";

export { configure, CONFIG_KEYS, kasmClient, type ConfigureRequest } from "./runtime";
export type { InputsOfKind, Kind, KindManifest, KindProvider, OutputsOfKind } from "./resources/framework/types";

/**
 * Every kind, by the name of its SDK class and type token (`pulumi-nodejs:dynamic/kasm:<Kind>`):
 * its provider's methods and its manifest (its input schema and each input's role), which what
 * derives from a kind reads (the policy packs' property types, the registry test).
 */
export const kinds = {
  User: userProvider,
  UserAttributes: userAttributesProvider,
  Group: groupProvider,
  GroupMembership: groupMembershipProvider,
  UserGroups: userGroupsProvider,
  UserServerAssignment: userServerAssignmentProvider,
  EgressProvider: egressProviderProvider,
  EgressGateway: egressGatewayProvider,
  EgressProviderMapping: egressProviderMappingProvider,
  EgressCredential: egressCredentialProvider,
  StagingConfig: stagingConfigProvider,
  CastConfig: castConfigProvider,
  ServerDrain: serverDrainProvider,
  LicenseActivation: licenseActivationProvider,
  UserSet: userSetProvider,
  ServerImport: serverImportProvider,
  Workspace: workspaceProvider,
  GroupWorkspace: groupWorkspaceProvider,
  WorkspaceRegistry: workspaceRegistryProvider,
} satisfies Record<string, Kind>;

/** The name of a kind, such as `User`. */
export type KindName = keyof typeof kinds;

/**
 * Every kind's provider as the dynamic-provider host calls it. Each takes the `connection` input,
 * the installation its object lives on (see `acrossConnections`), and each refresh reads through
 * a wire-vocabulary mismatch and warns (see `refreshingLeniently`).
 */
export const providers = acrossConnections(refreshingLeniently(kinds));
