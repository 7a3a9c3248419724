/**
 * Lookups: read Kasm objects the program does not manage (images, zones, servers, users, ...).
 *
 * Each is a plain async function and has an `...Output` twin taking `pulumi.Input`s. They run in
 * the program's own process, configured like the resources: the `kasm:` stack configuration
 * (`kasm:baseUrl`, `kasm:apiKey`, `kasm:apiKeySecret`, ...), read by the same function as the
 * provider's, falling back to the `KASM_*` environment variables; or, with `{ connection }` as
 * their last argument, a {@link Connection}'s own `kasm-<name>:` settings. Results use camelCase
 * field names, like the resources.
 *
 * Secrets: a lookup's result often ends up in the state (exported, or passed to a resource), and
 * the state keeps plain values in plain text. So the fields of a record that hold a secret
 * ({@link UserSecrets}, {@link ImageSecrets}, {@link ZoneSecrets}, {@link ServerSecrets},
 * {@link EgressGatewaySecrets}) are left out of the plain functions' results, and the `...Output`
 * twins return each of them as a secret Output (`pulumi.secret`), which Pulumi encrypts in the
 * state and masks in its display. The rest of the record stays plain, so that an id or a name
 * read from it does not become secret. Any other field named like a secret (`password`, `token`,
 * `private_key`, ...: the client's list of secret field names), which a release of Kasm may add
 * beyond the documented fields, is left out of both.
 *
 * This index exports them all; each area's lookups are in the files beside it (`users.ts`,
 * `images-zones.ts`, `egress.ts`, `groups-licenses.ts`, `registries.ts`), and what they share in `common.ts`. They
 * wrap provider/lookups/, which finds and shapes the records (and says which fields are secret)
 * for them and for the native provider's functions (`kasm:index:getZone`, ...).
 */
export { KasmLookupError, type Camelized, type InputArgs, type LookupOptions, type WithoutSecrets, type WithSecretOutputs } from "./common";
export {
  getUser,
  getUserOutput,
  getUsers,
  getUsersOutput,
  type GetUserArgs,
  type GetUsersArgs,
  type UserSecrets,
  type UserWithSecrets,
} from "./users";
export {
  getImage,
  getImageOutput,
  getImages,
  getImagesOutput,
  getServer,
  getServerOutput,
  getZone,
  getZoneOutput,
  getZones,
  getZonesOutput,
  type GetImageArgs,
  type Image,
  type ImageSecrets,
  type ImageWithSecrets,
  type Server,
  type ServerSecrets,
  type ServerWithSecrets,
  type Zone,
  type ZoneSecrets,
  type ZoneWithSecrets,
} from "./images-zones";
export {
  getEgressGateways,
  getEgressGatewaysOutput,
  getEgressProviders,
  getEgressProvidersOutput,
  getStagingConfigs,
  getStagingConfigsOutput,
  type EgressGatewaySecrets,
  type EgressGatewayWithSecrets,
  type GetEgressGatewaysArgs,
  type GetEgressProvidersArgs,
} from "./egress";
export {
  getGroup,
  getGroupOutput,
  getGroups,
  getGroupsOutput,
  getLicenses,
  getLicensesOutput,
  type GetGroupArgs,
  type License,
} from "./groups-licenses";
export {
  getRegistries,
  getRegistriesOutput,
  getRegistryWorkspaces,
  getRegistryWorkspacesOutput,
  type GetRegistryWorkspacesArgs,
  type Registry,
  type RegistryWorkspace,
} from "./registries";
