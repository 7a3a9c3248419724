/**
 * Lookups: read Kasm objects the program does not manage (images, zones, servers, users, ...).
 *
 * Each is a plain async function and has an `...Output` twin taking `pulumi.Input`s. They run in
 * the program's own process, configured like the resources: the `kasm:` stack configuration
 * (`kasm:baseUrl`, `kasm:apiKey`, `kasm:apiKeySecret`, ...), falling back to the `KASM_*`
 * environment variables. Results use camelCase field names, like the resources.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmClient, type EgressGatewayFilter, type EgressProviderFilter, type KasmClientOptions } from "../provider/api";
import { CONFIG_KEYS } from "../provider/runtime";

// --- results -------------------------------------------------------------------------------------

/** `first_name` -> `firstName`, at the type level. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** An API record with camelCase keys, all the way down. */
export type Camelized<T> = T extends readonly (infer E)[]
  ? Camelized<E>[]
  : T extends object
    ? // The API schemas keep unknown fields (an index signature); only the named fields are typed here.
      { [K in keyof T as string extends K ? never : K extends string ? CamelCase<K> : K]: Camelized<T[K]> }
    : T;

function camelize<T>(value: T): Camelized<T> {
  if (Array.isArray(value)) return value.map(camelize) as Camelized<T>;
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), camelize(v)]),
    ) as Camelized<T>;
  return value as Camelized<T>;
}

type Api = KasmClient;
export type User = Camelized<Awaited<ReturnType<Api["users"]["getUser"]>>>;
export type Image = Camelized<Awaited<ReturnType<Api["images"]["getImages"]>>[number]>;
export type Zone = Camelized<Awaited<ReturnType<Api["zones"]["getZones"]>>[number]>;
export type Server = Camelized<Awaited<ReturnType<Api["servers"]["getServers"]>>>;
export type StagingConfig = Camelized<Awaited<ReturnType<Api["staging"]["getStagingConfigs"]>>[number]>;
export type EgressProvider = Camelized<Awaited<ReturnType<Api["egress"]["getEgressProviders"]>>[number]>;
export type EgressGateway = Camelized<Awaited<ReturnType<Api["egress"]["getEgressGateways"]>>[number]>;

// --- the program's client ------------------------------------------------------------------------

let client: KasmClient | undefined;

/** The client of this program: the `kasm:` stack configuration, then the environment. */
function programClient(): KasmClient {
  if (client) return client;
  // runtime.getConfig reads secrets too, without the warning Config.get gives for them; the value
  // only goes to the client, never into an output.
  const get = (key: string) => pulumi.runtime.getConfig(key) || undefined;
  const numeric = (key: string) => (get(key) === undefined ? undefined : Number(get(key)));
  const options: KasmClientOptions = {
    baseUrl: get(CONFIG_KEYS.baseUrl),
    apiKey: get(CONFIG_KEYS.apiKey),
    apiKeySecret: get(CONFIG_KEYS.apiKeySecret),
    caCert: get(CONFIG_KEYS.caCert),
    insecureSkipVerify: get(CONFIG_KEYS.insecureSkipVerify) === "true",
    connectTimeoutMs: numeric(CONFIG_KEYS.connectTimeoutMs),
    requestTimeoutMs: numeric(CONFIG_KEYS.requestTimeoutMs),
    maxRetries: numeric(CONFIG_KEYS.maxRetries),
  };
  client = new KasmClient(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));
  // The program exits when Pulumi is done with it; an open keep-alive pool must not hold it up.
  process.once("beforeExit", () => void client?.close());
  return client;
}

/** Find the only element matching, or fail naming what was looked for. */
function single<T>(found: T[], what: string): T {
  if (found.length === 1) return found[0];
  throw new Error(found.length === 0 ? `Kasm has no ${what}` : `Kasm has ${found.length} matches for ${what}; be more specific`);
}

/** The arguments of a lookup with every field a `pulumi.Input`. */
export type InputArgs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** The Output twin of a lookup: the same arguments as Inputs, the result as an Output. */
function outputOf<A, R>(lookup: (args: A) => Promise<R>): (args: InputArgs<A>) => pulumi.Output<R> {
  return (args) => pulumi.output(args).apply((a) => lookup(a as A)) as pulumi.Output<R>;
}

// --- users ---------------------------------------------------------------------------------------

/** Arguments of {@link getUser}: a user id (hex or hyphenated) or a username. */
export type GetUserArgs = { userId: string; username?: undefined } | { username: string; userId?: undefined };

/** One user, by id or username. */
export async function getUser(args: GetUserArgs): Promise<User> {
  const lookup = args.userId !== undefined ? { user_id: args.userId } : { username: args.username };
  return camelize(await programClient().users.getUser(lookup as never));
}
export const getUserOutput = outputOf(getUser);

/** Arguments of {@link getUsers}. */
export interface GetUsersArgs {
  /** Case-insensitive part of the username. */
  readonly usernameContains?: string;
  readonly locked?: boolean;
  readonly disabled?: boolean;
  /** Leave out members of this group. */
  readonly excludeGroupId?: string;
  /** Include anonymous users (created by casting links). Default: false. */
  readonly includeAnonymous?: boolean;
}

/** Every user matching the filters, across all pages. */
export async function getUsers(args: GetUsersArgs = {}): Promise<User[]> {
  const filters: { id: "username" | "locked" | "disabled" | "exclude_group"; value: unknown }[] = [];
  if (args.usernameContains !== undefined) filters.push({ id: "username", value: args.usernameContains });
  if (args.locked !== undefined) filters.push({ id: "locked", value: args.locked });
  if (args.disabled !== undefined) filters.push({ id: "disabled", value: args.disabled });
  if (args.excludeGroupId !== undefined) filters.push({ id: "exclude_group", value: args.excludeGroupId });
  const users: User[] = [];
  const pageSize = 1000;
  for (let page = 0; ; page++) {
    const answer = await programClient().users.getUsers({
      page,
      page_size: pageSize,
      filters,
      anonymous: args.includeAnonymous ?? false,
      sort_by: "username",
      sort_direction: "asc",
    });
    users.push(...answer.users.map(camelize));
    if (answer.users.length < pageSize || (answer.total !== undefined && users.length >= answer.total)) return users;
  }
}
export const getUsersOutput = outputOf(getUsers);

// --- images, zones, servers ----------------------------------------------------------------------

/** Every image. */
export async function getImages(): Promise<Image[]> {
  return (await programClient().images.getImages()).map(camelize);
}
export const getImagesOutput = outputOf(getImages);

/** Arguments of {@link getImage}: the image name (`kasmweb/chrome:1.16.0`) or its friendly name (`Chrome`). */
export type GetImageArgs = { name: string; friendlyName?: undefined } | { friendlyName: string; name?: undefined };

/** One image, by name or friendly name. */
export async function getImage(args: GetImageArgs): Promise<Image> {
  const images = await getImages();
  const found = images.filter((i) => (args.name !== undefined ? i.name === args.name : i.friendlyName === args.friendlyName));
  return single(found, `image ${JSON.stringify(args.name ?? args.friendlyName)}`);
}
export const getImageOutput = outputOf(getImage);

/** Every deployment zone. */
export async function getZones(): Promise<Zone[]> {
  return (await programClient().zones.getZones({ brief: false })).map(camelize);
}
export const getZonesOutput = outputOf(getZones);

/** One zone, by name. */
export async function getZone(args: { name: string }): Promise<Zone> {
  return single(
    (await getZones()).filter((z) => z.zoneName === args.name),
    `zone ${JSON.stringify(args.name)}`,
  );
}
export const getZoneOutput = outputOf(getZone);

/** One server, by id. */
export async function getServer(args: { serverId: string }): Promise<Server> {
  return camelize(await programClient().servers.getServers({ server_id: args.serverId }));
}
export const getServerOutput = outputOf(getServer);

// --- staging and egress --------------------------------------------------------------------------

/** Every staging config. */
export async function getStagingConfigs(): Promise<StagingConfig[]> {
  return (await programClient().staging.getStagingConfigs()).map(camelize);
}
export const getStagingConfigsOutput = outputOf(getStagingConfigs);

/** Egress providers, optionally filtered (exact matches). */
export async function getEgressProviders(args: { name?: string; egressProviderType?: string; enabled?: boolean } = {}): Promise<EgressProvider[]> {
  const filter = { name: args.name, egress_provider_type: args.egressProviderType, enabled: args.enabled };
  return (await programClient().egress.getEgressProviders(definedOnly(filter) as EgressProviderFilter)).map(camelize);
}
export const getEgressProvidersOutput = outputOf(getEgressProviders);

/** Egress gateways, optionally filtered (exact matches). */
export async function getEgressGateways(
  args: { egressProviderId?: string; name?: string; country?: string; city?: string; enabled?: boolean } = {},
): Promise<EgressGateway[]> {
  const filter = {
    egress_provider_id: args.egressProviderId,
    name: args.name,
    country: args.country,
    city: args.city,
    enabled: args.enabled,
  };
  return (await programClient().egress.getEgressGateways(definedOnly(filter) as EgressGatewayFilter)).map(camelize);
}
export const getEgressGatewaysOutput = outputOf(getEgressGateways);

function definedOnly(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? Object.fromEntries(entries) : undefined;
}
