/** A session's last sequence and the hash of its last event. */
export type SessionHead = { readonly sequence: number; readonly hash: string };

/**
 * The head this process last wrote (or read) for each recent session, so an append can skip
 * reading it. Each store says when it may trust an entry: PostgreSQL checks it under the head
 * row's lock (a wrong one costs one wasted round trip, never a wrong write); SQLite forgets all
 * of them once another connection has written to the file. Bounded: the oldest are forgotten.
 */
export class SessionHeadCache {
  readonly #heads = new Map<string, SessionHead>();

  constructor(readonly limit = 4096) {}

  get(sessionId: string): SessionHead | undefined {
    return this.#heads.get(sessionId);
  }

  set(sessionId: string, head: SessionHead): void {
    // Re-inserted so Map order is recency order and the first key is the one to forget.
    this.#heads.delete(sessionId);
    this.#heads.set(sessionId, head);
    if (this.#heads.size > this.limit) this.#heads.delete(this.#heads.keys().next().value!);
  }

  forget(sessionId: string): void {
    this.#heads.delete(sessionId);
  }

  clear(): void {
    this.#heads.clear();
  }
}
