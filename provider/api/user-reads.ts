/**
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
import { ALL_USERS_GROUP } from "../../permissions/names";
import { canonicalId } from "../../permissions/planned-calls";
import { findUser } from "./operations/users";
import type { User } from "./schemas/users";
import { UserPages } from "./user-pages";
import type { KasmApi } from "./transport";
import { noteMismatch, type LenientReads } from "./records";

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
