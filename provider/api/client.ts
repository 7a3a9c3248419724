/**
 * The Kasm API client: configuration, one transport, and every operation bound by area; and the
 * reads a client shares with its views instead of sending a request each: a refresh's user records
 * from `get_users` pages ({@link UserReads}), and the listings the checks before creates share
 * ({@link UsernameLookups}, {@link KeyLookups}). Those live with the client because it builds them,
 * hands its views (a refresh's lenient one, a lifecycle step's allowing-only one) the same ones,
 * and is what they read through and learn from: its answers teach them, its writes end them.
 *
 * @example
 * ```ts
 * import { createKasmClient } from "./provider/api";
 *
 * const client = createKasmClient({ baseUrl: "https://kasm.example.com" }); // key and secret from KASM_API_KEY / KASM_API_KEY_SECRET
 * try {
 *   const user = await client.users.createUser({ username: "alice" });
 *   await client.groups.addUserGroup({ user_id: user.user_id, group_id });
 * } finally {
 *   await client.close();
 * }
 * ```
 */
import { inspect } from "node:util";
import { ALL_USERS_GROUP } from "../../permissions/names";
import type { OperationName } from "../../permissions/operations";
import { canonicalId } from "../../permissions/planned-calls";
import type { AllowedCalls } from "./allowed-calls";
import {
  DEFAULT_SETTING_NAMES,
  resolveConfig,
  waitForHealthy,
  type HealthyResult,
  type KasmClientOptions,
  type SettingNames,
  type WaitForHealthyOptions,
} from "./config";
import * as casting from "./operations/casting";
import { getCastConfigs } from "./operations/casting";
import * as egress from "./operations/egress";
import {
  getEgressCredentials,
  getEgressGateways,
  getEgressProviderMapping,
  getEgressProviders,
  type EgressCredentialKey,
  type EgressGatewayKey,
  type EgressProviderMappingKey,
} from "./operations/egress";
import * as groups from "./operations/groups";
import { getGroups } from "./operations/groups";
import * as images from "./operations/images";
import { getRegistries } from "./operations/images";
import * as licenses from "./operations/licenses";
import * as login from "./operations/login";
import * as recordings from "./operations/recordings";
import * as servers from "./operations/servers";
import * as sessions from "./operations/sessions";
import * as staging from "./operations/staging";
import { getStagingConfigs, type StagingConfigKey } from "./operations/staging";
import * as users from "./operations/users";
import { findUser, findUserByUsername } from "./operations/users";
import * as zones from "./operations/zones";
import { noteMismatch, type LenientReads } from "./records";
import type { CastConfig } from "./schemas/casting";
import { normaliseId, sameId } from "./schemas/common";
import type { EgressCredential, EgressGateway, EgressProvider, EgressProviderMapping } from "./schemas/egress";
import type { GroupRecord } from "./schemas/groups";
import { registryUrl, type Registry } from "./schemas/images";
import type { StagingConfig } from "./schemas/staging";
import type { User } from "./schemas/users";
import { KasmTransport, type KasmApi } from "./transport";
import { UserPages } from "./user-pages";

/**
 * The functions of an operations module with their first argument (the client) already supplied:
 * `createUser(client, user)` becomes `client.users.createUser(user)`.
 */
export type BoundOperations<M> = {
  readonly [K in keyof M]: M[K] extends (api: KasmApi, ...args: infer A) => infer R ? (...args: A) => R : never;
};

function bind<M extends object>(api: KasmApi, module: M): BoundOperations<M> {
  const bound: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === "function") bound[name] = (...args: unknown[]) => value(api, ...args);
  }
  return Object.freeze(bound) as BoundOperations<M>;
}

/**
 * The operation modules by area, as the client binds them (`client.users.createUser(...)`); each
 * area's comment is what an editor shows on `client.<area>`.
 */
const AREAS = {
  /** Users: create, read, list, update, delete, attributes, server assignments, CSV import. */
  users,
  /** Group membership. */
  groups,
  /** Workspace sessions: request, status, delete, statistics, screenshots, commands. */
  sessions,
  /** Workspace images. */
  images,
  /** Session recordings. */
  recordings,
  /** Login links. */
  login,
  /** License activation. */
  licenses,
  /** Staging configs. */
  staging,
  /** Deployment zones. */
  zones,
  /** Servers: read, drain, CSV import. */
  servers,
  /** Casting configs. */
  casting,
  /** Egress providers, gateways, mappings and credentials. */
  egress,
};

/** The client's areas, each module's operations bound to the client (see {@link BoundOperations}). */
export type KasmAreas = { readonly [A in keyof typeof AREAS]: BoundOperations<(typeof AREAS)[A]> };

/**
 * A client of the Kasm Workspaces Developer API for one installation.
 *
 * It holds one keep-alive connection pool to the base URL: create one client per installation,
 * reuse it, and {@link KasmClient.close | close} it when done. Printing or serialising a client
 * shows its base URL and API key, never the secret.
 *
 * A read whose answer shows the other wire vocabulary than `apiNames` fails, as a write does; a
 * refresh reads through a lenient view instead ({@link KasmClient.readingLeniently}).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface below types the area operations the constructor binds (Object.assign), which the class cannot declare one by one.
export class KasmClient implements KasmApi {
  /**
   * User records for the reads of a refresh, from `get_users` pages shared by the reads that
   * arrive together (see {@link UserReads}), and the id of All Users once seen.
   */
  readonly userReads: UserReads;
  /**
   * Whether Kasm has a user by a username, for the checks before creates: one listing shared by
   * the lookups of a deployment (see {@link UsernameLookups}).
   */
  readonly usernames: UsernameLookups;
  /**
   * Whether Kasm has an object by its natural key, for the lookups before creates of the other
   * kinds that look first: one listing per list operation shared by a deployment (see {@link KeyLookups}).
   */
  readonly keys: KeyLookups;
  readonly #transport: KasmTransport;
  /** The client this one is a view of (see {@link KasmClient.readingLeniently}, {@link KasmClient.allowingOnly}); undefined for a client of its own. */
  readonly #viewOf: KasmClient | undefined;
  #closed = false;

  /**
   * @param options Settings; each falls back to its environment variable (see {@link KasmClientOptions}).
   * @param env Where to read the environment variables. Default: `process.env`.
   * @param settingNames Whose settings these are: the environment variables read and the keys
   *   messages name (a named connection's `kasm-prod:` keys and `KASM_PROD_*` variables). Default:
   *   `kasm:` and `KASM_*`.
   * @throws {@link KasmConfigurationError} naming every missing or invalid setting.
   */
  constructor(options?: KasmClientOptions, env?: NodeJS.ProcessEnv, settingNames?: SettingNames);
  /**
   * A view of `client` through a view of its transport (`view` makes it from the client's): the
   * ways to make one are {@link KasmClient.readingLeniently} and {@link KasmClient.allowingOnly}.
   */
  constructor(client: KasmClient, view: (transport: KasmTransport) => KasmTransport);
  constructor(
    from: KasmClientOptions | KasmClient = {},
    envOrView: NodeJS.ProcessEnv | ((transport: KasmTransport) => KasmTransport) = process.env,
    settingNames: SettingNames = DEFAULT_SETTING_NAMES,
  ) {
    if (from instanceof KasmClient) {
      this.#viewOf = from;
      this.#transport = (envOrView as (transport: KasmTransport) => KasmTransport)(from.#transport);
    } else {
      this.#viewOf = undefined;
      this.#transport = new KasmTransport(resolveConfig(from, envOrView as NodeJS.ProcessEnv, settingNames));
    }
    // Each area's operations, bound to this client (typed by the KasmClient interface below).
    Object.assign(this, Object.fromEntries(Object.entries(AREAS).map(([area, module]) => [area, bind(this, module)])));
    // A view shares what its client's lookups hold, and checks each lookup against its own transport's allowed calls.
    this.userReads = new UserReads(this, this.#viewOf?.userReads);
    this.usernames = new UsernameLookups(this, this.#viewOf?.usernames);
    this.keys = new KeyLookups(this, this.#viewOf?.keys);
  }

  /**
   * A view of this client for a refresh: the same connection pool, reads in flight, snapshot of
   * user pages and settings, but a read whose answer shows the other wire vocabulary notes it in
   * `notes` (once per message) and goes on with what it read (answers are understood in both),
   * where this client fails it. Writes through the view fail all the same. A read shared with a
   * caller of this client (or of another view) is taken each caller's own way.
   *
   * @example
   * ```ts
   * const notes: LenientReads = { mismatches: [] };
   * const config = await client.readingLeniently(notes).staging.getStagingConfig({ staging_config_id });
   * for (const message of notes.mismatches) console.warn(message);
   * ```
   */
  readingLeniently(notes: LenientReads): KasmClient {
    return new KasmClient(this, (transport) => transport.readingLeniently(notes));
  }

  /**
   * A view of this client for one lifecycle step of a resource: the same connection pool, reads
   * in flight, lookups and settings (and the lenient reading of a refresh's view), but an
   * operation `allowed` does not allow is refused, with its error, before anything is sent, also
   * when a shared lookup would answer it from a listing (see `allowed-calls.ts`).
   */
  allowingOnly(allowed: AllowedCalls): KasmClient {
    return new KasmClient(this, (transport) => transport.allowingOnly(allowed));
  }

  /** The base URL requests go to, without a trailing slash. */
  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  /** The API key (an identifier; the secret is never exposed). */
  get apiKey(): string {
    return this.#transport.apiKey;
  }

  /** The transport the operation functions send requests through. */
  get transport(): KasmTransport {
    return this.#transport;
  }

  /**
   * Poll `GET {baseUrl}/api/__healthcheck` until it answers `{ok: true}` (see {@link waitForHealthy}).
   */
  waitForHealthy(options?: WaitForHealthyOptions): Promise<HealthyResult> {
    return waitForHealthy(this, options);
  }

  /** Close the connection pool (of the client a view is of, too). Requests in flight finish first; later calls fail. */
  close(): Promise<void> {
    if (this.#viewOf !== undefined) return this.#viewOf.close();
    this.#closed = true;
    return this.#transport.close();
  }

  /** Whether {@link KasmClient.close} was called (on the client a view is of, too): the client sends nothing more. */
  get closed(): boolean {
    return this.#viewOf?.closed ?? this.#closed;
  }

  /** What `JSON.stringify` shows: the base URL and the API key, never the secret. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, apiKey: this.apiKey };
  }

  /** What `console.log` and `util.inspect` show: the same as {@link KasmClient.toJSON}. */
  [inspect.custom](): string {
    return `KasmClient ${inspect(this.toJSON())}`;
  }
}

/** The areas of a {@link KasmClient} (`client.users`, `client.egress`, ...): the constructor assigns them from the table above. */
export interface KasmClient extends KasmAreas {}

/**
 * Create a {@link KasmClient}: the same as `new KasmClient(options)`.
 *
 * @throws {@link KasmConfigurationError} naming every missing or invalid setting.
 */
export function createKasmClient(options: KasmClientOptions = {}, env: NodeJS.ProcessEnv = process.env): KasmClient {
  return new KasmClient(options, env);
}

// --- a refresh's user records -----------------------------------------------------------------------

/*
 * User records for the reads of a refresh, served from `get_users` pages instead of one `get_user`
 * per resource, and what never changes in an installation (the id of All Users), learned from the
 * user records that pass through the client.
 *
 * Why pages: a refresh reads every resource, and the kinds that hang off a user (`User`,
 * `GroupMembership`, `UserGroups`, `UserServerAssignment`) each read the whole user record. The
 * spec's `get_users` answers with the same User record as `get_user` (groups with Groups View,
 * assigned servers with Servers View), minus `two_factor`, `program_id` and `hash`, which no read
 * uses; a page holds up to 1,000 users. So 1,000 users and their memberships cost a couple of
 * pages instead of 2,000 requests.
 *
 * How long a snapshot serves: from its first page until this client writes anything (any write
 * operation, started or finished) or {@link SNAPSHOT_MAX_AGE_MS} pass, whichever comes first. A
 * refresh is a sequence of reads with no writes, so one refresh shares one snapshot; an `up` that
 * follows reads again after its first write. Changes made outside this process during those
 * seconds are seen by the next refresh, as with reads that happen to run a few seconds apart.
 *
 * What the pages lack falls back to `get_user`: a user not in them (created after the snapshot,
 * moved between pages, or gone: `get_user` says which) and a record without a list the read needs.
 * The first reads of a window go straight to `get_user`, so a refresh of a stack with a user or
 * two never pays for a page of 1,000; the rest of a page beyond the first is read only once as
 * many users were missing from the pages read as pages are left (until then, `get_user` each).
 *
 * A client and its lenient views (a refresh's, see `KasmClient.readingLeniently`) share one
 * snapshot: the pages are read leniently, whoever asked first, and each read served from them
 * takes a vocabulary mismatch they showed as its own request would have (see {@link UserReads.read}).
 */

/** How long a snapshot may serve reads at most, even without a write in between. */
export const SNAPSHOT_MAX_AGE_MS = 30_000;

/** Reads that go straight to `get_user` before a snapshot is taken, within {@link READ_WINDOW_MS} of each other. */
export const DIRECT_READS = 2;

/** Reads closer together than this count as one burst (one refresh); after a pause, the count starts again. */
export const READ_WINDOW_MS = 2_000;

/** The lists of a user record that a read may need (each needs a View permission to be shown). */
export type UserList = "groups" | "assigned_servers";

/** One `get_users` snapshot: its pages (see {@link UserPages}), read leniently, and when it was taken. */
class Snapshot {
  /** The vocabulary mismatches the pages read so far showed: each read served from them decides what they mean to it. */
  readonly notes: LenientReads = { mismatches: [] };
  readonly #pages: UserPages;

  constructor(
    api: KasmApi,
    readonly generation: number,
  ) {
    // Read leniently, as the pages serve strict and lenient readers alike.
    this.#pages = new UserPages({ transport: api.transport.readingLeniently(this.notes) }, (user) => canonicalId(user.user_id));
  }

  /** When the snapshot's first page was asked for. */
  get takenAt(): number {
    return this.#pages.takenAt;
  }

  /** The user with this (canonical) id from the pages; undefined when they do not have it (the read asks get_user). */
  async find(id: string): Promise<User | undefined> {
    return (await this.#pages.find(id)) ?? undefined;
  }
}

/**
 * What the user reads of one client share with those of its lenient views: the snapshot, the
 * burst of reads that decides when to take one, and the id of All Users once seen.
 */
class SharedUserReads {
  #allUsersGroupId?: string;
  #snapshot?: Snapshot;
  #recentReads = 0;
  #lastReadAt = 0;
  #failedAt = -Infinity;

  /** @param api The client whose answers teach the id of All Users and whose writes end a snapshot. */
  constructor(private readonly api: KasmApi) {
    api.transport.onAnswer((_operation, answer) => this.learn(answer));
  }

  /** See {@link UserReads.allUsersGroupId}. */
  get allUsersGroupId(): string | undefined {
    return this.#allUsersGroupId;
  }

  /** A page of `snapshot` failed: no snapshot for a while (its reads fall back to get_user). */
  failed(snapshot: Snapshot): void {
    if (this.#snapshot === snapshot) this.#snapshot = undefined;
    this.#failedAt = Date.now();
  }

  /** The snapshot that may serve a read now, taking one when the burst of reads is long enough. */
  current(): Snapshot | undefined {
    const now = Date.now();
    this.#recentReads = now - this.#lastReadAt <= READ_WINDOW_MS ? this.#recentReads + 1 : 1;
    this.#lastReadAt = now;
    const generation = this.api.transport.writeGeneration;
    const snapshot = this.#snapshot;
    if (snapshot && snapshot.generation === generation && now - snapshot.takenAt < SNAPSHOT_MAX_AGE_MS) return snapshot;
    this.#snapshot = undefined;
    if (this.#recentReads <= DIRECT_READS || now - this.#failedAt < SNAPSHOT_MAX_AGE_MS) return undefined;
    // An odd generation is a write in flight: what a page says now may change before it ends.
    if (generation % 2 !== 0) return undefined;
    this.#snapshot = new Snapshot(this.api, generation);
    return this.#snapshot;
  }

  /** Note the id of All Users from any user record in an answer. */
  private learn(answer: unknown): void {
    if (this.#allUsersGroupId !== undefined || answer === null || typeof answer !== "object") return;
    const { user, users } = answer as { user?: User; users?: User[] };
    for (const record of user ? [user] : Array.isArray(users) ? users : []) {
      const group = record.groups?.find((g) => g.name === ALL_USERS_GROUP);
      if (group) {
        this.#allUsersGroupId = canonicalId(group.group_id);
        return;
      }
    }
  }
}

/**
 * User records for the reads of one client (one per dynamic-provider host), or of a lenient view
 * of it: see the module comment. Also knows the id of All Users once any user record that lists it
 * passed through the client, so that `check` can refuse it without a request.
 */
export class UserReads {
  readonly #api: KasmApi;
  readonly #shared: SharedUserReads;

  /**
   * @param api The client whose reads these are: `get_user` goes through it, and its leniency
   *   decides what a vocabulary mismatch of the pages means.
   * @param sharesWith The reads of the client that `api` is a lenient view of: one snapshot for
   *   both. Default: none, a client of its own.
   */
  constructor(api: KasmApi, sharesWith?: UserReads) {
    this.#api = api;
    this.#shared = sharesWith === undefined ? new SharedUserReads(api) : sharesWith.#shared;
  }

  /**
   * The id of All Users in this installation (canonical), when a user record seen by this client
   * listed it; undefined before that. It never changes in an installation.
   */
  get allUsersGroupId(): string | undefined {
    return this.#shared.allUsersGroupId;
  }

  /**
   * The user with this id as a refresh reads it, or undefined when Kasm has no such user. `needs`
   * names the lists the caller reads: a record without one of them is read again with `get_user`
   * (which, when the key lacks the View permission, lacks it too, and the caller says what to grant).
   */
  async read(userId: string, needs: readonly UserList[] = []): Promise<User | undefined> {
    // A read served from the shared pages stands for the get_user it sends otherwise: refused as that would be.
    this.#api.transport.requireAllowed("get_user");
    const id = canonicalId(userId);
    const snapshot = this.#shared.current();
    let record: User | undefined;
    if (snapshot) {
      try {
        record = await snapshot.find(id);
      } catch {
        // A page failed: this read falls back to get_user, which reports the failure if it is not passing.
        this.#shared.failed(snapshot);
      }
    }
    if (record && needs.every((list) => record[list] !== undefined) && this.accepts(snapshot)) return record;
    return findUser(this.#api, { user_id: id });
  }

  /**
   * Whether this reader goes on with a record of `snapshot`, as its own request would have with the
   * pages' answers: yes when they matched the vocabulary; else a lenient reader notes the mismatch
   * and does, and a strict one does not (get_user then fails on the mismatch, as a page would have).
   */
  private accepts(snapshot: Snapshot | undefined): boolean {
    const mismatches = snapshot?.notes.mismatches ?? [];
    if (mismatches.length === 0) return true;
    const notes = this.#api.transport.lenientReads;
    if (notes === undefined) return false;
    for (const message of mismatches) noteMismatch(notes, message);
    return true;
  }
}

// --- lookups by natural key -------------------------------------------------------------------------

/*
 * Whether Kasm has an object with a given natural key, for the checks that run before many creates:
 * the listings that the lookups of one deployment (one host process) share. {@link UsernameLookups}
 * answers for users, by username; {@link KeyLookups} for the other kinds that look their key up
 * first (groups, staging configs, egress providers, gateways, mappings and credentials, workspace
 * registries, casting configs).
 *
 * Before such an object is created, its `check` (or, for a kind that looks in its create, the
 * create) looks the key up: a key Kasm has already fails in the preview, and the create's recovery
 * after a server error must not take a stranger's object for its own (see `createOrAdopt` and
 * `findFirst` in framework/define-kind.ts). One lookup per create made an `up` of N objects cost 2N
 * requests. A listing serves for {@link LISTING_MAX_AGE_MS}, then the next lookup reads a new one.
 *
 * Usernames share one listing of the installation's users ({@link UserPages}, by lowercase
 * username): an installation of up to 1,000 users is one page that answers every lookup; in a
 * larger one a username not on the pages read is looked up with `get_user` until as many were
 * missing as pages are left, then the rest is read once. So N lookups cost at most min(N, pages) + 1
 * requests. The listing is not ended by this process's own creates, unlike the refresh's snapshot
 * (`UserReads` above): a create adds the username of its own resource, which no other resource's
 * check asks about unless two resources declare one user, which Kasm refuses at the second create
 * (and the hardening pack's `conflicting-declarations` in the preview). A user made outside Pulumi
 * after the listing was read is not seen by the check; the create then fails on Kasm's "already
 * exists", as it did when the lookup and the create were a moment apart. Anonymous users (casting
 * links) are not listed: no `User` can take a casting link's generated name.
 *
 * The other kinds' keys share one listing per list operation (and per egress provider, for the
 * kinds that hang off one): N lookups cost one request. The recovery itself still looks the key up
 * afresh (`createOnce`), never from a listing. A finding counts from when its listing was read
 * (`lookups.askedAt` in framework/connections.ts): the create that follows a check skips its
 * own lookup only while an absence read by a lookup of its own would still stand, so an object made
 * outside Pulumi is no likelier to be missed than before. This process's own creates are added to
 * the listings they belong in (from the create's answer): a second resource declaring the same
 * object is refused before its create is sent, as a lookup of its own would have it, instead of
 * meeting Kasm's duplicate (which a released Kasm answers with a server error for a staging config,
 * after which the recovery would take the first resource's object for its own). Any other write
 * this process makes to an object of the listing's kind (an update or a delete: a rename, or a
 * replacement that deletes first, changes which keys exist) ends the listing, so it never says that
 * a key this process freed is taken. A listing that fails is forgotten, and its lookups fail as a
 * lookup of their own would.
 */

/** How long one listing answers lookups: as long as the check's finding stands for its create (`ABSENCE_STANDS_MS`). */
export const LISTING_MAX_AGE_MS = 30_000;

// --- the other kinds' natural keys -------------------------------------------------------------------

/** One listing: when it was read, the noun of the write operations that end it (or add to it), what it lists, and what this process created since. */
interface Listing {
  readonly takenAt: number;
  readonly noun: string;
  readonly items: Promise<readonly unknown[]>;
  readonly created: unknown[];
}

/** The object a create's answer holds, by the noun of its operation (`create_egress_credential` answers a list of one). */
function createdObject(noun: string, answer: unknown): unknown {
  if (typeof answer !== "object" || answer === null) return undefined;
  const record = answer as Record<string, unknown>;
  if (noun === "registr") return record.registry;
  return record[noun] ?? (Array.isArray(record[`${noun}s`]) ? (record[`${noun}s`] as unknown[])[0] : undefined);
}

/** The natural-key lookups of one client: see the module comment. */
export class KeyLookups {
  readonly #listings: Map<string, Listing>;
  /** The client that reads the listings: the installation's own, for a view's lookups too. */
  readonly #lister: KasmApi;

  /**
   * @param api The client that asks: a lookup is refused as its own call of the listing's operation
   *   would be (see `KasmTransport.requireAllowed`).
   * @param sharesWith The lookups of the client `api` is a view of: the listings are theirs. Without
   *   it, `api`'s own, which its writes end (see the module comment).
   */
  constructor(
    private readonly api: KasmApi,
    sharesWith?: KeyLookups,
  ) {
    if (sharesWith !== undefined) {
      this.#listings = sharesWith.#listings;
      this.#lister = sharesWith.#lister;
    } else {
      this.#listings = new Map();
      this.#lister = api;
      api.transport.onAnswer((operation, answer) => this.wrote(operation, answer));
    }
  }

  /** When the oldest listing held now was read, or undefined when none is (see `lookups.askedAt` in framework/connections.ts). */
  listedSince(): number | undefined {
    let oldest: number | undefined;
    for (const listing of this.#listings.values()) oldest = Math.min(oldest ?? Infinity, listing.takenAt);
    return oldest;
  }

  /** The group of this name (exact, as `findGroup` compares), or undefined. */
  async group(name: string): Promise<GroupRecord | undefined> {
    return (await this.groups()).find((group) => group.name === name);
  }

  /** The installation's groups, from the listing the group lookups share (the installation's one read, with the product's names, is this listing too). */
  groups(): Promise<readonly GroupRecord[]> {
    const listing = this.listing("get_groups", "group", () => getGroups(this.#lister));
    return listing.items.then((items) => [...(items as readonly GroupRecord[]), ...(listing.created as GroupRecord[])]);
  }

  /** The staging config of this zone and image, or undefined. */
  stagingConfig(key: StagingConfigKey): Promise<StagingConfig | undefined> {
    return this.find(
      "get_staging_configs",
      "staging_config",
      () => getStagingConfigs(this.#lister),
      (config) => sameId(config.zone_id, key.zone_id) && sameId(config.image_id, key.image_id),
    );
  }

  /** The egress provider with this name (exactly), or undefined. */
  egressProvider(key: { readonly name: string }): Promise<EgressProvider | undefined> {
    return this.find(
      "get_egress_providers",
      "egress_provider",
      () => getEgressProviders(this.#lister),
      (provider) => provider.name === key.name,
    );
  }

  /** The gateway of this provider with this name, or undefined: one listing per provider. */
  egressGateway(key: EgressGatewayKey): Promise<EgressGateway | undefined> {
    const provider = key.egress_provider_id;
    return this.find(
      `get_egress_gateways ${normaliseId(provider)}`,
      "egress_gateway",
      () => getEgressGateways(this.#lister, { egress_provider_id: provider }),
      (gateway) => sameId(gateway.egress_provider_id, provider) && gateway.name === key.name,
    );
  }

  /** The mapping of this provider to this target, or undefined: one listing per provider. */
  egressProviderMapping(key: EgressProviderMappingKey): Promise<EgressProviderMapping | undefined> {
    const provider = key.egress_provider_id;
    return this.find(
      `get_egress_provider_mapping ${normaliseId(provider)}`,
      "egress_provider_mapping",
      () => getEgressProviderMapping(this.#lister, { egress_provider_id: provider }),
      (mapping) => sameId(mapping.egress_provider_id, provider) && sameTarget(mapping, key),
    );
  }

  /** The credential of this provider with this name (and this target, when the key names one), or undefined: one listing per provider. */
  egressCredential(key: EgressCredentialKey): Promise<EgressCredential | undefined> {
    const provider = key.egress_provider_id;
    const anyTarget = !key.user_id && !key.group_id && !key.image_id;
    return this.find(
      `get_egress_credentials ${normaliseId(provider)}`,
      "egress_credential",
      () => getEgressCredentials(this.#lister, { egress_provider_id: provider }),
      (credential) => sameId(credential.egress_provider_id, provider) && credential.name === key.name && (anyTarget || sameTarget(credential, key)),
    );
  }

  /** The workspace registry at this URL (compared with a slash at its end), or undefined. */
  registry(url: string): Promise<Registry | undefined> {
    const wanted = registryUrl(url);
    return this.find(
      "get_registries",
      "registr",
      () => getRegistries(this.#lister),
      (registry) => registryUrl(registry.registry_url) === wanted,
    );
  }

  /** The casting config with this key, or undefined. */
  castConfig(key: { readonly key: string }): Promise<CastConfig | undefined> {
    return this.find(
      "get_cast_configs",
      "cast_config",
      () => getCastConfigs(this.#lister),
      (config) => config.key === key.key,
    );
  }

  /** The first item of the listing `name` that `matches`, reading the listing unless a current one is held. */
  private async find<T>(name: string, noun: string, list: () => Promise<readonly T[]>, matches: (item: T) => boolean): Promise<T | undefined> {
    const listing = this.listing(name, noun, list);
    return ((await listing.items) as readonly T[]).find(matches) ?? (listing.created as T[]).find(matches);
  }

  /** The listing `name` (its operation, and the provider for the egress listings), read unless a current one is held. */
  private listing<T>(name: string, noun: string, list: () => Promise<readonly T[]>): Listing {
    // Asked as the asker's own call of the listing's operation, whoever reads the listing.
    this.api.transport.requireAllowed(name.split(" ")[0] as OperationName);
    let listing = this.#listings.get(name);
    if (listing === undefined || Date.now() - listing.takenAt >= LISTING_MAX_AGE_MS) {
      const read: Listing = { takenAt: Date.now(), noun, items: list(), created: [] };
      this.#listings.set(name, read);
      // A failed listing answers no later lookup: the next one reads again.
      read.items.catch(() => this.#listings.get(name) === read && this.#listings.delete(name));
      listing = read;
    }
    return listing;
  }

  /** A create of an object a listing lists adds it; any other write of one ends the listing (see the module comment). */
  private wrote(operation: OperationName, answer: unknown): void {
    if (operation.startsWith("get_")) return;
    for (const [name, listing] of this.#listings) {
      if (!operation.includes(listing.noun)) continue;
      const created = operation.startsWith("create_") ? createdObject(listing.noun, answer) : undefined;
      if (created !== undefined) listing.created.push(created);
      else this.#listings.delete(name);
    }
  }
}

/** Whether a record targets what a key targets (ids in any spelling; a target left out matches only a record without it). */
function sameTarget(
  record: { readonly user_id?: string | null; readonly group_id?: string | null; readonly image_id?: string | null },
  key: { readonly user_id?: string | null; readonly group_id?: string | null; readonly image_id?: string | null },
): boolean {
  const same = (a: string | null | undefined, b: string | null | undefined) => (!a && !b) || sameId(a, b);
  return same(record.user_id, key.user_id) && same(record.group_id, key.group_id) && same(record.image_id, key.image_id);
}

// --- usernames ---------------------------------------------------------------------------------------

/** The username lookups of one client: see the module comment. */
export class UsernameLookups {
  /** What the lookups of a client and of its views share: the listing, and the client that reads it. */
  readonly #shared: { listing?: UserPages; readonly lister: KasmApi };

  /**
   * @param api The client that asks: a lookup is refused as its own `get_user` would be (see
   *   `KasmTransport.requireAllowed`).
   * @param sharesWith The lookups of the client `api` is a view of: the listing is theirs, read by
   *   their client. Without it, `api`'s own.
   */
  constructor(
    private readonly api: KasmApi,
    sharesWith?: UsernameLookups,
  ) {
    this.#shared = sharesWith === undefined ? { lister: api } : sharesWith.#shared;
  }

  /** The user with this username (any case, trimmed), or undefined when Kasm has none. */
  async find(username: string): Promise<User | undefined> {
    // The listing's pages stand for the get_user by username the lookup sends otherwise.
    this.api.transport.requireAllowed("get_user");
    const name = username.trim().toLowerCase();
    const listing = this.current();
    try {
      const found = await listing.find(name);
      if (found !== undefined) return found ?? undefined;
    } catch {
      // A page failed: this lookup asks get_user, which reports the failure if it is not passing; the next starts a new listing.
      if (this.#shared.listing === listing) this.#shared.listing = undefined;
    }
    return findUserByUsername(this.#shared.lister, name);
  }

  /** When the listing held now was read, or undefined when none is (see `lookups.askedAt` in framework/connections.ts). */
  listedSince(): number | undefined {
    return this.#shared.listing?.takenAt;
  }

  /** The listing that answers lookups now, started anew once it is older than {@link LISTING_MAX_AGE_MS}. */
  private current(): UserPages {
    if (this.#shared.listing === undefined || Date.now() - this.#shared.listing.takenAt >= LISTING_MAX_AGE_MS)
      this.#shared.listing = new UserPages(this.#shared.lister, (user) => user.username.trim().toLowerCase());
    return this.#shared.listing;
  }
}
