/**
 * The pages of `get_users` (1,000 users a page, sorted by username), read as far as the lookups
 * that share them need: the first page at once; a key not on the pages read, while more pages
 * exist, is a miss the caller looks up another way, until as many keys missed as pages are left;
 * then the remaining pages are read once, and every later lookup is answered from them. So N
 * lookups cost at most min(N, pages) + 1 requests beside the caller's own.
 *
 * The refresh's snapshot of user records (`UserReads` in `client.ts`, by id) and the checks' listing of
 * usernames (`UsernameLookups`, there too) each keep one.
 */
import { userPages, type UserPageRead } from "./operations/users";
import { MAX_USERS_PAGE_SIZE, type User } from "./schemas/users";
import type { KasmApi } from "./transport";

/** The users of the pages read so far, by the key the lookups ask for. */
export class UserPages {
  readonly takenAt = Date.now();
  readonly #users = new Map<string, User>();
  /** The pages of get_users (see userPages), read as far as the lookups need. */
  readonly #pages: AsyncGenerator<UserPageRead, void, undefined>;
  readonly #first: Promise<void>;
  #pagesLeft = 0;
  #complete = false;
  #misses = 0;
  #rest?: Promise<void>;

  /**
   * @param api The client the pages are read through (a lenient view, for a refresh). Anonymous
   *   users (casting links) are left out: no resource manages one.
   * @param keyOf The key a lookup asks for: a user's canonical id, its lowercase username.
   */
  constructor(
    api: KasmApi,
    private readonly keyOf: (user: User) => string,
  ) {
    this.#pages = userPages(api);
    this.#first = this.#pages.next().then(({ value: page }) => {
      if (page) this.keep(page);
      this.#complete = page?.last ?? true;
      this.#pagesLeft = page?.total === undefined ? Infinity : Math.max(0, Math.ceil(page.total / MAX_USERS_PAGE_SIZE) - 1);
    });
  }

  /**
   * The user with this key from the pages: `null` when the pages hold every user and not this one,
   * `undefined` when they cannot tell yet (a miss: the caller looks it up another way).
   */
  async find(key: string): Promise<User | null | undefined> {
    await this.#first;
    const found = this.#users.get(key);
    if (found || this.#complete) return found ?? null;
    this.#misses += 1;
    if (this.#rest === undefined && this.#misses < this.#pagesLeft) return undefined;
    this.#rest ??= this.readRest();
    await this.#rest;
    return this.#users.get(key) ?? null;
  }

  private async readRest(): Promise<void> {
    for await (const page of this.#pages) this.keep(page);
    this.#complete = true;
  }

  private keep(page: UserPageRead): void {
    for (const user of page.users) this.#users.set(this.keyOf(user), user);
  }
}
