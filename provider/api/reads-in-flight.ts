/**
 * The reads in flight of one connection to an installation, and its write generation.
 *
 * Reads of the same object that overlap in time share one request: a read arrives while an
 * identical one is waiting for its answer, and gets a copy of that answer. Nothing is kept once
 * the answer is in, and a read issued after a write started never joins one issued before it
 * (the write generation is part of every key): this only saves duplicate requests, it never
 * serves an old answer.
 *
 * One per connection pool, shared by a transport and its lenient views (see
 * `KasmTransport.readingLeniently`): a refresh's read and another caller's read of the same object
 * still send one request, and each caller decides for itself what the answer means to it.
 */

/** A read waiting for its answer, and how many other callers share it. */
interface SharedRead {
  readonly answer: Promise<unknown>;
  joined: number;
}

/** The reads in flight of one connection and its write generation (see the module comment). */
export class ReadsInFlight {
  /** Reads in flight, by write generation and the caller's key. */
  readonly #reads = new Map<string, SharedRead>();
  #generation = 0;

  /**
   * A number that changes whenever a write starts or ends. What was read while it kept one value
   * is as current as this connection's own writes can make it.
   */
  get writeGeneration(): number {
    return this.#generation;
  }

  /** Run `write`, the generation changing before and after it: a read that overlaps it in any way sees the change. */
  async whileWriting<T>(write: () => Promise<T>): Promise<T> {
    this.#generation += 1;
    try {
      return await write();
    } finally {
      this.#generation += 1;
    }
  }

  /**
   * The outcome of `read`, or of the identical read (same `key`, no write started since) that is
   * still waiting for its answer. Each caller gets its own `copy`, so that one may change what it
   * got without the others seeing it; the caller that started the read gets the outcome itself
   * when nobody joined.
   *
   * @param key What makes two reads identical: the operation and its parameters, in one form.
   */
  async share<T>(key: string, read: () => Promise<T>, copy: (outcome: T) => T): Promise<T> {
    const generationKey = `${this.#generation} ${key}`;
    const shared = this.#reads.get(generationKey);
    if (shared) {
      shared.joined += 1;
      return copy((await shared.answer) as T);
    }
    const started: SharedRead = { answer: read(), joined: 0 };
    this.#reads.set(generationKey, started);
    try {
      const outcome = (await started.answer) as T;
      return started.joined > 0 ? copy(outcome) : outcome;
    } finally {
      if (this.#reads.get(generationKey) === started) this.#reads.delete(generationKey);
    }
  }
}
