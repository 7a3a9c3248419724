/**
 * The Kasm API client: configuration, one transport, and every operation bound by area.
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
import * as egress from "./operations/egress";
import * as groups from "./operations/groups";
import * as images from "./operations/images";
import * as licenses from "./operations/licenses";
import * as login from "./operations/login";
import * as recordings from "./operations/recordings";
import * as servers from "./operations/servers";
import * as sessions from "./operations/sessions";
import * as staging from "./operations/staging";
import * as users from "./operations/users";
import * as zones from "./operations/zones";
import { KasmTransport, type KasmApi } from "./transport";
import { UserReads } from "./user-reads";
import { KeyLookups, UsernameLookups } from "./key-lookups";
import type { LenientReads } from "./records";
import type { AllowedCalls } from "./allowed-calls";

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
