/**
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
 * (`user-reads.ts`): a create adds the username of its own resource, which no other resource's
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
import type { OperationName } from "../../permissions/operations";
import { normaliseId, sameId } from "./schemas/common";
import type { GroupRecord } from "./schemas/groups";
import type { StagingConfig } from "./schemas/staging";
import type { EgressCredential, EgressGateway, EgressProvider, EgressProviderMapping } from "./schemas/egress";
import { registryUrl, type Registry } from "./schemas/images";
import type { CastConfig } from "./schemas/casting";
import type { KasmApi } from "./transport";
import { getGroups } from "./operations/groups";
import { getStagingConfigs, type StagingConfigKey } from "./operations/staging";
import {
  getEgressCredentials,
  getEgressGateways,
  getEgressProviderMapping,
  getEgressProviders,
  type EgressCredentialKey,
  type EgressGatewayKey,
  type EgressProviderMappingKey,
} from "./operations/egress";
import { getRegistries } from "./operations/images";
import { getCastConfigs } from "./operations/casting";
import { findUserByUsername } from "./operations/users";
import type { User } from "./schemas/users";
import { UserPages } from "./user-pages";

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
