/**
 * Whether Kasm has a user with a given username, for the checks that run before many creates.
 *
 * Before a `User` is created, its `check` looks its username up (a create whose username Kasm has
 * already fails in the preview, and the create's recovery after a server error must not take a
 * stranger's user for its own: see `createOrAdopt` and `findFirst`). One `get_user` per username
 * made an `up` of N users cost 2N requests. Here the lookups of one deployment (one host process)
 * share one listing of the installation's users, `get_users` sorted by username, 1,000 a page:
 *
 * - the first lookup reads the first page; a username on it, or any username when it is the only
 *   page (an installation of up to 1,000 users), is answered from the pages read;
 * - a username not on the pages read, while more pages exist, is looked up with `get_user`, until
 *   as many usernames were missing as pages are left; then the remaining pages are read once, and
 *   every later lookup is answered from them. So N lookups cost at most min(N, pages) + 1 requests.
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
import { findUserByUsername, userPages, type UserPageRead } from "./operations/users";
import { MAX_USERS_PAGE_SIZE, type User } from "./schemas/users";
import type { KasmApi } from "./transport";

/** How long one listing answers lookups: as long as the check's finding stands for its create (`ABSENCE_STANDS_MS`). */
export const LISTING_MAX_AGE_MS = 30_000;

/** One listing of users by username: the pages read so far, and whether they are all of them. */
class Listing {
  readonly takenAt = Date.now();
  readonly #users = new Map<string, User>();
  readonly #pages: AsyncGenerator<UserPageRead, void, undefined>;
  readonly #first: Promise<void>;
  #pagesLeft = 0;
  #complete = false;
  #misses = 0;
  #rest?: Promise<void>;

  constructor(api: KasmApi) {
    this.#pages = userPages(api);
    this.#first = this.#pages.next().then(({ value: page }) => {
      if (page) this.keep(page);
      this.#complete = page?.last ?? true;
      this.#pagesLeft = page?.total === undefined ? Infinity : Math.max(0, Math.ceil(page.total / MAX_USERS_PAGE_SIZE) - 1);
    });
  }

  /**
   * The user with this (lowercase) username from the pages: `null` when the pages say Kasm has
   * none, `undefined` when they cannot tell yet (the caller asks `get_user`).
   */
  async find(username: string): Promise<User | null | undefined> {
    await this.#first;
    const found = this.#users.get(username);
    if (found || this.#complete) return found ?? null;
    this.#misses += 1;
    if (this.#rest === undefined && this.#misses < this.#pagesLeft) return undefined;
    this.#rest ??= this.readRest();
    await this.#rest;
    return this.#users.get(username) ?? null;
  }

  private async readRest(): Promise<void> {
    for await (const page of this.#pages) this.keep(page);
    this.#complete = true;
  }

  private keep(page: UserPageRead): void {
    for (const user of page.users) this.#users.set(user.username.trim().toLowerCase(), user);
  }
}

/** The username lookups of one client: see the module comment. */
export class UsernameLookups {
  #listing?: Listing;

  /** @param api The client whose listing and `get_user` calls these are. */
  constructor(private readonly api: KasmApi) {}

  /** The user with this username (any case, trimmed), or undefined when Kasm has none. */
  async find(username: string): Promise<User | undefined> {
    const name = username.trim().toLowerCase();
    const listing = this.current();
    try {
      const found = await listing.find(name);
      if (found !== undefined) return found ?? undefined;
    } catch {
      // A page failed: this lookup asks get_user, which reports the failure if it is not passing; the next starts a new listing.
      if (this.#listing === listing) this.#listing = undefined;
    }
    return findUserByUsername(this.api, name);
  }

  /** The listing that answers lookups now, started anew once it is older than {@link LISTING_MAX_AGE_MS}. */
  private current(): Listing {
    if (this.#listing === undefined || Date.now() - this.#listing.takenAt >= LISTING_MAX_AGE_MS) this.#listing = new Listing(this.api);
    return this.#listing;
  }
}
