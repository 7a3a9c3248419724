/**
 * Lookups: read Kasm objects the program does not manage (images, zones, servers, users, ...).
 *
 * Each is a plain async function and has an `...Output` twin taking `pulumi.Input`s. They run in
 * the program's own process, configured like the resources: the `kasm:` stack configuration
 * (`kasm:baseUrl`, `kasm:apiKey`, `kasm:apiKeySecret`, ...), read by the same function as the
 * provider's, falling back to the `KASM_*` environment variables. Results use camelCase field
 * names, like the resources.
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
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { KasmClient, isSecretFieldName, type EgressGatewayFilter, type EgressProviderFilter } from "../provider/api";
import { optionsFromConfig } from "../provider/api/config";

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

/** `ctrToken` -> `ctr_token`: the API's name of a result field. */
function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A record as the plain lookups return it: the secret fields `S` are left out (typed `never`, so
 * that a program reading one finds out when it compiles rather than by getting `undefined`).
 */
export type WithoutSecrets<T, S> = Omit<T, keyof S> & { readonly [K in keyof S]?: never };

/**
 * A record as the `...Output` twins return it: each secret field of `S` is a secret Output. Read
 * it as `result.connectionPassword` or `result.apply((r) => r.connectionPassword)`: both give a
 * secret `Output<string>`.
 */
export type WithSecretOutputs<T, S> = Omit<T, keyof S> & { readonly [K in keyof S]-?: pulumi.Output<S[K]> };

/** The secret fields of a user record. */
export interface UserSecrets {
  /**
   * A hash `get_user` returns, derived from the user's credentials: nothing a program needs to
   * manage a user, and something an attacker could attack offline.
   */
  readonly hash?: string | null;
}

/** The secret fields of an image record. */
export interface ImageSecrets {
  /** The password or token of the image's container registry (`ctrUser`, its username, is kept). */
  readonly ctrToken?: string | null;
}

/** The secret fields of a zone record. */
export interface ZoneSecrets {
  /**
   * The secret access key of an auto-scaling zone's cloud account. Kasm documents it as masked;
   * a release that sends it must not have it written to the state.
   */
  readonly cloudSecretAccessKey?: string | null;
}

/** The secret fields of a server record. */
export interface ServerSecrets {
  /** The password Kasm uses for the server's connection (SSH, RDP, ...). */
  readonly connectionPassword?: string | null;
  /** The private key Kasm uses for the server's connection. */
  readonly connectionPrivateKey?: string | null;
  /** The passphrase of that private key. */
  readonly connectionPassphrase?: string | null;
  /** Free-form connection settings (such as RDP options), which may carry credentials. */
  readonly connectionInfo?: unknown;
  /** The token an agent registers itself with. */
  readonly registrationJwt?: string | null;
}

/** The secret fields of an egress gateway record. */
export interface EgressGatewaySecrets {
  /** The gateway's VPN configuration, which may hold a private key (a WireGuard `PrivateKey` line, OpenVPN keys). */
  readonly config?: string | null;
}

/** Which fields of a record type `T` are the secrets `S`: the names, checked against `S` by the compiler. */
interface RecordSecrets<T, S> {
  readonly fields: readonly string[];
  /** Carries the types only. */
  readonly types?: { record: T; secrets: S };
}

/** A {@link RecordSecrets}: `fields` must name every field of `S`, and nothing else. */
function recordSecrets<T, S>(fields: { readonly [K in keyof S]-?: true }): RecordSecrets<T, S> {
  return { fields: Object.keys(fields) };
}

type Api = KasmClient;
type UserRecord = Camelized<Awaited<ReturnType<Api["users"]["getUser"]>>>;
type ImageRecord = Camelized<Awaited<ReturnType<Api["images"]["getImages"]>>[number]>;
type ZoneRecord = Camelized<Awaited<ReturnType<Api["zones"]["getZones"]>>[number]>;
type ServerRecord = Camelized<Awaited<ReturnType<Api["servers"]["getServers"]>>>;
type EgressGatewayRecord = Camelized<Awaited<ReturnType<Api["egress"]["getEgressGateways"]>>[number]>;

const USER_SECRETS = recordSecrets<UserRecord, UserSecrets>({ hash: true });
const IMAGE_SECRETS = recordSecrets<ImageRecord, ImageSecrets>({ ctrToken: true });
const ZONE_SECRETS = recordSecrets<ZoneRecord, ZoneSecrets>({ cloudSecretAccessKey: true });
const SERVER_SECRETS = recordSecrets<ServerRecord, ServerSecrets>({
  connectionPassword: true,
  connectionPrivateKey: true,
  connectionPassphrase: true,
  connectionInfo: true,
  registrationJwt: true,
});
const EGRESS_GATEWAY_SECRETS = recordSecrets<EgressGatewayRecord, EgressGatewaySecrets>({ config: true });

/** A user, as {@link getUser} and {@link getUsers} return it: without {@link UserSecrets}. */
export type User = WithoutSecrets<UserRecord, UserSecrets>;
/** A user, as {@link getUserOutput} and {@link getUsersOutput} return it: {@link UserSecrets} as secret Outputs. */
export type UserWithSecrets = WithSecretOutputs<UserRecord, UserSecrets>;
/** An image, as {@link getImage} and {@link getImages} return it: without {@link ImageSecrets}. */
export type Image = WithoutSecrets<ImageRecord, ImageSecrets>;
/** An image, as {@link getImageOutput} and {@link getImagesOutput} return it: {@link ImageSecrets} as secret Outputs. */
export type ImageWithSecrets = WithSecretOutputs<ImageRecord, ImageSecrets>;
/** A zone, as {@link getZone} and {@link getZones} return it: without {@link ZoneSecrets}. */
export type Zone = WithoutSecrets<ZoneRecord, ZoneSecrets>;
/** A zone, as {@link getZoneOutput} and {@link getZonesOutput} return it: {@link ZoneSecrets} as secret Outputs. */
export type ZoneWithSecrets = WithSecretOutputs<ZoneRecord, ZoneSecrets>;
/** A server, as {@link getServer} returns it: without {@link ServerSecrets}. */
export type Server = WithoutSecrets<ServerRecord, ServerSecrets>;
/** A server, as {@link getServerOutput} returns it: {@link ServerSecrets} as secret Outputs. */
export type ServerWithSecrets = WithSecretOutputs<ServerRecord, ServerSecrets>;
/** A staging config (it has no secret fields). */
export type StagingConfig = Camelized<Awaited<ReturnType<Api["staging"]["getStagingConfigs"]>>[number]>;
/** An egress provider (it has no secret fields). */
export type EgressProvider = Camelized<Awaited<ReturnType<Api["egress"]["getEgressProviders"]>>[number]>;
/** An egress gateway, as {@link getEgressGateways} returns it: without {@link EgressGatewaySecrets}. */
export type EgressGateway = WithoutSecrets<EgressGatewayRecord, EgressGatewaySecrets>;
/** An egress gateway, as {@link getEgressGatewaysOutput} returns it: {@link EgressGatewaySecrets} as secret Outputs. */
export type EgressGatewayWithSecrets = WithSecretOutputs<EgressGatewayRecord, EgressGatewaySecrets>;

/** A copy without the fields named like a secret, at any depth (see the module's TSDoc). */
function withoutSecretNamed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretNamed);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !isSecretFieldName(k))
        .map(([k, v]) => [k, withoutSecretNamed(v)]),
    );
  return value;
}

/** A record with no secret fields of its own, from the API's form: only the fields named like a secret are left out. */
function scrubbed<R>(record: R): Camelized<R> {
  return camelize(withoutSecretNamed(record) as R);
}

/** The record, from the API's form, without its secret fields. */
function withoutSecrets<T, S>(record: object, secrets: RecordSecrets<T, S>): WithoutSecrets<T, S> {
  const left = secrets.fields.map(snakeCase);
  return scrubbed(Object.fromEntries(Object.entries(record).filter(([k]) => !left.includes(k)))) as WithoutSecrets<T, S>;
}

/** The record, from the API's form, with each secret field as a secret Output. */
function withSecretOutputs<T, S>(record: object, secrets: RecordSecrets<T, S>): WithSecretOutputs<T, S> {
  const values = record as Record<string, unknown>;
  const wrapped = secrets.fields.map((field) => [field, pulumi.secret(camelize(values[snakeCase(field)]))]);
  return { ...withoutSecrets(record, secrets), ...Object.fromEntries(wrapped) } as WithSecretOutputs<T, S>;
}

// --- the program's client ------------------------------------------------------------------------

let current: { client: KasmClient; settings: string } | undefined;

/** The client of this program: the `kasm:` stack configuration, then the environment. */
function programClient(): KasmClient {
  // runtime.getConfig reads secrets too, without the warning Config.get gives for them; the value
  // only goes to the client, never into an output. The reading is the provider's own.
  const options = optionsFromConfig((key) => pulumi.runtime.getConfig(key));
  // A program's configuration does not change while it runs, so this is one client per program;
  // a process that changes it (a test) gets a client that follows. Compared by digest, so that
  // the secret is not kept here a second time.
  const settings = createHash("sha256").update(JSON.stringify(options)).digest("hex");
  if (current?.settings === settings) return current.client;
  const client = new KasmClient(options);
  if (current) void current.client.close();
  // The program exits when Pulumi is done with it; an open keep-alive pool must not hold it up.
  else process.once("beforeExit", () => void current?.client.close());
  current = { client, settings };
  return client;
}

/**
 * What a lookup fails with: its name, then the message of what failed (the client's error, such as
 * `get_zones: the server refused the call (HTTP 403 ...)`, or `Kasm has no zone "x"`), which stays
 * reachable as `cause` (a `KasmApiError` from `pulumi-kasm/api`, whose `kind` and `status` say what
 * went wrong, with its stack).
 *
 * It has no stack of its own, and it is a `pulumi.RunError`, so that Pulumi's runtime reports the
 * message alone, at once. The runtime formats an uncaught error that has a stack (a RunError too,
 * for its tracing) with `util.inspect(err, { colors: true })`, and on Node 20 and 22 that call
 * loops over the stack frames that ts-node maps to `node_modules/@pulumi/<file>.ts` (any error
 * raised inside an `apply` has them, and so does its `cause`) for one to three minutes, growing
 * the program to about 4 GB, before it gives up and prints the error plainly. The README's "When
 * a program fails" has the figures.
 */
export class KasmLookupError extends pulumi.RunError {
  override readonly name = "KasmLookupError";

  constructor(
    /** The lookup that failed, such as `getZone`. */
    readonly lookup: string,
    cause: unknown,
  ) {
    super(`${lookup}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    // Without a stack the runtime prints the message and never calls util.inspect (see above).
    this.stack = undefined;
  }
}

/**
 * `fetch`, failing with a {@link KasmLookupError} named after the lookup. One raised by a lookup it
 * calls (`getZone` reads through `getZones`) is renamed, so that the message names what the
 * program called.
 */
function named<A extends unknown[], R>(lookup: string, fetch: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fetch(...args);
    } catch (error) {
      throw new KasmLookupError(lookup, error instanceof KasmLookupError ? error.cause : error);
    }
  };
}

/** Find the only element matching, or fail naming what was looked for. */
function single<T>(found: T[], what: string): T {
  if (found.length === 1) return found[0];
  throw new Error(found.length === 0 ? `Kasm has no ${what}` : `Kasm has ${found.length} matches for ${what}; be more specific`);
}

/** The arguments of a lookup with every field a `pulumi.Input`. */
export type InputArgs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** An Output twin: fetch the API's records for the resolved arguments, then present them. */
function outputOf<A, R, P>(fetch: (args: A) => Promise<R>, present: (records: R) => P): (args: InputArgs<A>) => pulumi.Output<P> {
  return (args) => pulumi.output(args).apply(async (a) => present(await fetch(a as A))) as pulumi.Output<P>;
}

// --- users ---------------------------------------------------------------------------------------

/** Arguments of {@link getUser}: a user id (hex or hyphenated) or a username. */
export type GetUserArgs = { userId: string; username?: undefined } | { username: string; userId?: undefined };

const fetchUser = named("getUser", async (args: GetUserArgs) => {
  const lookup = args.userId !== undefined ? { user_id: args.userId } : { username: args.username };
  return programClient().users.getUser(lookup as never);
});

/** One user, by id or username. Leaves out {@link UserSecrets} (`hash`); {@link getUserOutput} has them as secrets. */
export async function getUser(args: GetUserArgs): Promise<User> {
  return withoutSecrets(await fetchUser(args), USER_SECRETS);
}

/** {@link getUser} taking Inputs; {@link UserSecrets} (`hash`) come as secret Outputs. */
export const getUserOutput: (args: InputArgs<GetUserArgs>) => pulumi.Output<UserWithSecrets> = outputOf(fetchUser, (user) =>
  withSecretOutputs(user, USER_SECRETS),
);

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

const fetchUsers = named("getUsers", async (args: GetUsersArgs = {}) => {
  const filters: { id: "username" | "locked" | "disabled" | "exclude_group"; value: unknown }[] = [];
  if (args.usernameContains !== undefined) filters.push({ id: "username", value: args.usernameContains });
  if (args.locked !== undefined) filters.push({ id: "locked", value: args.locked });
  if (args.disabled !== undefined) filters.push({ id: "disabled", value: args.disabled });
  if (args.excludeGroupId !== undefined) filters.push({ id: "exclude_group", value: args.excludeGroupId });
  const users: Awaited<ReturnType<Api["users"]["getUsers"]>>["users"] = [];
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
    users.push(...answer.users);
    if (answer.users.length < pageSize || (answer.total !== undefined && users.length >= answer.total)) return users;
  }
});

/** Every user matching the filters, across all pages. Leaves out {@link UserSecrets} (`hash`). */
export async function getUsers(args: GetUsersArgs = {}): Promise<User[]> {
  return (await fetchUsers(args)).map((u) => withoutSecrets(u, USER_SECRETS));
}

/** {@link getUsers} taking Inputs; {@link UserSecrets} (`hash`) come as secret Outputs. */
export function getUsersOutput(args: InputArgs<GetUsersArgs> = {}): pulumi.Output<UserWithSecrets[]> {
  return outputOf(fetchUsers, (users) => users.map((u) => withSecretOutputs(u, USER_SECRETS)))(args);
}

// --- images, zones, servers ----------------------------------------------------------------------

const fetchImages = named("getImages", async () => {
  return programClient().images.getImages();
});

/** Every image. Leaves out {@link ImageSecrets} (`ctrToken`); {@link getImagesOutput} has them as secrets. */
export async function getImages(): Promise<Image[]> {
  return (await fetchImages()).map((i) => withoutSecrets(i, IMAGE_SECRETS));
}

/** {@link getImages} as an Output; {@link ImageSecrets} (`ctrToken`) come as secret Outputs. */
export function getImagesOutput(): pulumi.Output<ImageWithSecrets[]> {
  return outputOf(fetchImages, (images) => images.map((i) => withSecretOutputs(i, IMAGE_SECRETS)))({});
}

/** Arguments of {@link getImage}: the image name (`kasmweb/chrome:1.16.0`) or its friendly name (`Chrome`). */
export type GetImageArgs = { name: string; friendlyName?: undefined } | { friendlyName: string; name?: undefined };

const fetchImage = named("getImage", async (args: GetImageArgs) => {
  const images = await fetchImages();
  const found = images.filter((i) => (args.name !== undefined ? i.name === args.name : i.friendly_name === args.friendlyName));
  return single(found, `image ${JSON.stringify(args.name ?? args.friendlyName)}`);
});

/** One image, by name or friendly name. Leaves out {@link ImageSecrets} (`ctrToken`). */
export async function getImage(args: GetImageArgs): Promise<Image> {
  return withoutSecrets(await fetchImage(args), IMAGE_SECRETS);
}

/** {@link getImage} taking Inputs; {@link ImageSecrets} (`ctrToken`) come as secret Outputs. */
export const getImageOutput: (args: InputArgs<GetImageArgs>) => pulumi.Output<ImageWithSecrets> = outputOf(fetchImage, (image) =>
  withSecretOutputs(image, IMAGE_SECRETS),
);

const fetchZones = named("getZones", async () => {
  return programClient().zones.getZones({ brief: false });
});

/** Every deployment zone. Leaves out {@link ZoneSecrets} (`cloudSecretAccessKey`). */
export async function getZones(): Promise<Zone[]> {
  return (await fetchZones()).map((z) => withoutSecrets(z, ZONE_SECRETS));
}

/** {@link getZones} as an Output; {@link ZoneSecrets} (`cloudSecretAccessKey`) come as secret Outputs. */
export function getZonesOutput(): pulumi.Output<ZoneWithSecrets[]> {
  return outputOf(fetchZones, (zones) => zones.map((z) => withSecretOutputs(z, ZONE_SECRETS)))({});
}

const fetchZone = named("getZone", async (args: { name: string }) => {
  return single(
    (await fetchZones()).filter((z) => z.zone_name === args.name),
    `zone ${JSON.stringify(args.name)}`,
  );
});

/** One zone, by name. Leaves out {@link ZoneSecrets} (`cloudSecretAccessKey`). */
export async function getZone(args: { name: string }): Promise<Zone> {
  return withoutSecrets(await fetchZone(args), ZONE_SECRETS);
}

/** {@link getZone} taking Inputs; {@link ZoneSecrets} (`cloudSecretAccessKey`) come as secret Outputs. */
export const getZoneOutput: (args: InputArgs<{ name: string }>) => pulumi.Output<ZoneWithSecrets> = outputOf(fetchZone, (zone) =>
  withSecretOutputs(zone, ZONE_SECRETS),
);

const fetchServer = named("getServer", async (args: { serverId: string }) => {
  return programClient().servers.getServers({ server_id: args.serverId });
});

/**
 * One server, by id. Leaves out {@link ServerSecrets} (`connectionPassword`,
 * `connectionPrivateKey`, `connectionPassphrase`, `connectionInfo`, `registrationJwt`);
 * {@link getServerOutput} has them as secrets.
 */
export async function getServer(args: { serverId: string }): Promise<Server> {
  return withoutSecrets(await fetchServer(args), SERVER_SECRETS);
}

/** {@link getServer} taking Inputs; {@link ServerSecrets} come as secret Outputs. */
export const getServerOutput: (args: InputArgs<{ serverId: string }>) => pulumi.Output<ServerWithSecrets> = outputOf(
  fetchServer,
  (server) => withSecretOutputs(server, SERVER_SECRETS),
);

// --- staging and egress --------------------------------------------------------------------------

const fetchStagingConfigs = named("getStagingConfigs", async () => {
  return programClient().staging.getStagingConfigs();
});

/** Every staging config. */
export async function getStagingConfigs(): Promise<StagingConfig[]> {
  return (await fetchStagingConfigs()).map((c) => scrubbed(c));
}

/** {@link getStagingConfigs} as an Output. */
export function getStagingConfigsOutput(): pulumi.Output<StagingConfig[]> {
  return outputOf(fetchStagingConfigs, (configs) => configs.map((c) => scrubbed(c)))({});
}

/** Arguments of {@link getEgressProviders}: exact matches, all optional. */
export interface GetEgressProvidersArgs {
  readonly name?: string;
  readonly egressProviderType?: string;
  readonly enabled?: boolean;
}

const fetchEgressProviders = named("getEgressProviders", async (args: GetEgressProvidersArgs = {}) => {
  const filter = { name: args.name, egress_provider_type: args.egressProviderType, enabled: args.enabled };
  return programClient().egress.getEgressProviders(definedOnly(filter) as EgressProviderFilter);
});

/** Egress providers, optionally filtered (exact matches). */
export async function getEgressProviders(args: GetEgressProvidersArgs = {}): Promise<EgressProvider[]> {
  return (await fetchEgressProviders(args)).map((p) => scrubbed(p));
}

/** {@link getEgressProviders} taking Inputs. */
export function getEgressProvidersOutput(args: InputArgs<GetEgressProvidersArgs> = {}): pulumi.Output<EgressProvider[]> {
  return outputOf(fetchEgressProviders, (providers) => providers.map((p) => scrubbed(p)))(args);
}

/** Arguments of {@link getEgressGateways}: exact matches, all optional. */
export interface GetEgressGatewaysArgs {
  readonly egressProviderId?: string;
  readonly name?: string;
  readonly country?: string;
  readonly city?: string;
  readonly enabled?: boolean;
}

const fetchEgressGateways = named("getEgressGateways", async (args: GetEgressGatewaysArgs = {}) => {
  const filter = {
    egress_provider_id: args.egressProviderId,
    name: args.name,
    country: args.country,
    city: args.city,
    enabled: args.enabled,
  };
  return programClient().egress.getEgressGateways(definedOnly(filter) as EgressGatewayFilter);
});

/**
 * Egress gateways, optionally filtered (exact matches). Leaves out {@link EgressGatewaySecrets}
 * (`config`); {@link getEgressGatewaysOutput} has it as a secret.
 */
export async function getEgressGateways(args: GetEgressGatewaysArgs = {}): Promise<EgressGateway[]> {
  return (await fetchEgressGateways(args)).map((g) => withoutSecrets(g, EGRESS_GATEWAY_SECRETS));
}

/** {@link getEgressGateways} taking Inputs; {@link EgressGatewaySecrets} (`config`) come as secret Outputs. */
export function getEgressGatewaysOutput(args: InputArgs<GetEgressGatewaysArgs> = {}): pulumi.Output<EgressGatewayWithSecrets[]> {
  return outputOf(fetchEgressGateways, (gateways) => gateways.map((g) => withSecretOutputs(g, EGRESS_GATEWAY_SECRETS)))(args);
}

function definedOnly(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? Object.fromEntries(entries) : undefined;
}
