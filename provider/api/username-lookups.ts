/**
 * Whether Kasm has a user with a given username, for the checks that run before many creates.
 *
 * Before a `User` is created, its `check` looks its username up (a create whose username Kasm has
 * already fails in the preview, and the create's recovery after a server error must not take a
 * stranger's user for its own: see `createOrAdopt` and `findFirst`). One `get_user` per username
 * made an `up` of N users cost 2N requests. Here the lookups of one deployment (one host process)
 * share one listing of the installation's users ({@link UserPages}, by lowercase username): an
 * installation of up to 1,000 users is one page that answers every lookup; in a larger one a
 * username not on the pages read is looked up with `get_user` until as many were missing as pages
 * are left, then the rest is read once. So N lookups cost at most min(N, pages) + 1 requests.
 *
 * A listing serves for {@link LISTING_MAX_AGE_MS}, then the next lookup starts a new one. It is not
 * ended by this process's own creates, unlike the refresh's snapshot (`user-reads.ts`): a create
 * adds the username of its own resource, which no other resource's check asks about unless two
 * resources declare one user, which Kasm refuses at the second create (and the hardening pack's
 * `conflicting-declarations` in the preview). A user made outside Pulumi after the listing was read
 * is not seen by the check; the create then fails on Kasm's "already exists", as it did when the
 * lookup and the create were a moment apart.
 *
 * Anonymous users (casting links) are not listed: no `User` can take a casting link's generated name.
 */
import { findUserByUsername } from "./operations/users";
import type { User } from "./schemas/users";
import type { KasmApi } from "./transport";
import { UserPages } from "./user-pages";

/** How long one listing answers lookups: as long as the check's finding stands for its create (`ABSENCE_STANDS_MS`). */
export const LISTING_MAX_AGE_MS = 30_000;

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

  /** When the listing held now was read, or undefined when none is (see `lookups.askedAt` in framework/installation-check.ts). */
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
