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
import type { KindProvider } from "./resources/kit";
import { acrossConnections } from "./resources/kit/connections";
import { refreshingLeniently } from "./resources/kit/lenient-refresh";

export { configure, CONFIG_KEYS, kasmClient, type ConfigureRequest } from "./runtime";
export type { KindProvider } from "./resources/kit";

/**
 * Every kind, by the name of its SDK class and type token (`pulumi-nodejs:dynamic/kasm:<Kind>`).
 * Each takes the `connection` input, the installation its object lives on (see `acrossConnections`),
 * and each refresh reads through a wire-vocabulary mismatch and warns (see `refreshingLeniently`).
 */
export const providers = acrossConnections(refreshingLeniently({
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
} satisfies Record<string, KindProvider>));

/** The name of a kind, such as `User`. */
export type KindName = keyof typeof providers;
