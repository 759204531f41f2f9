import type { Sha256 } from '../base/sha256.js';
import type { EventCodec, EventRow } from './event-codec.js';
import type { PayloadShape, StoredEvent } from './event-envelope.js';
import { createChainChecker, GENESIS_HASH } from './hash-chain.js';

/** What a session stream reads from: pages of rows in sequence order, and a stored hash. */
export type SessionPages = {
  /** Up to `limit` rows of the session with a sequence greater than `afterSequence`, in order. */
  page(
    sessionId: string,
    afterSequence: number,
    limit: number,
  ): Promise<readonly EventRow[]> | readonly EventRow[];
  /** The stored hash of the event at `sequence`, if there is one. */
  hashAt(sessionId: string, sequence: number): Promise<string | undefined> | string | undefined;
};

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * One pass over a session after a cursor, page by page, checking every link of the chain.
 * Hand-rolled rather than an async generator: those cost several promise turns per event, this
 * one resolved promise, and a page a store returns synchronously is read without waiting. While
 * a page (or the start hash) is being fetched, later calls wait for it, so calls never overlap.
 */
export class SessionStream<Payload extends PayloadShape> implements AsyncIterableIterator<
  StoredEvent<Payload>
> {
  #page: readonly EventRow[] = [];
  #index = 0;
  #after: number;
  #checker: ReturnType<typeof createChainChecker> | undefined;
  #lastPage = false;
  #loading: Promise<void> | undefined;

  constructor(
    private readonly source: SessionPages,
    private readonly codec: EventCodec<Payload>,
    private readonly sha256: Sha256,
    private readonly sessionId: string,
    private readonly pageSize: number,
    afterSequence: number,
  ) {
    this.#after = Math.max(0, afterSequence);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StoredEvent<Payload>>> {
    if (this.#loading) return this.#loading.then(() => this.next());
    try {
      if (!this.#checker) {
        const start =
          this.#after === 0 ? GENESIS_HASH : this.source.hashAt(this.sessionId, this.#after);
        const waiting = this.#whenReady(start, (hash) => {
          this.#checker = createChainChecker(this.sha256, {
            sequence: this.#after,
            hash: hash ?? GENESIS_HASH,
          });
        });
        if (waiting) return waiting;
      }
      while (this.#index === this.#page.length) {
        if (this.#lastPage) return Promise.resolve(DONE);
        const page = this.source.page(this.sessionId, this.#after, this.pageSize);
        const waiting = this.#whenReady(page, (rows) => this.#turnTo(rows));
        if (waiting) return waiting;
      }
      const row = this.#page[this.#index++]!;
      this.#checker!.check(row);
      return Promise.resolve({ done: false, value: this.codec.decodeVerifiedRow(row) });
    } catch (error) {
      this.#end();
      return Promise.reject(error);
    }
  }

  return(): Promise<IteratorResult<StoredEvent<Payload>>> {
    this.#end();
    return Promise.resolve(DONE);
  }

  /** Applies a value at once, or (for a promise) once it settles and then continues with next(). */
  #whenReady<T>(
    value: T | PromiseLike<T>,
    apply: (value: T) => void,
  ): Promise<IteratorResult<StoredEvent<Payload>>> | undefined {
    if (!isPromiseLike(value)) {
      apply(value);
      return undefined;
    }
    this.#loading = Promise.resolve(value).then(
      (settled) => {
        this.#loading = undefined;
        apply(settled);
      },
      (error: unknown) => {
        this.#loading = undefined;
        this.#end();
        throw error;
      },
    );
    return this.#loading.then(() => this.next());
  }

  #turnTo(rows: readonly EventRow[]): void {
    this.#page = rows;
    this.#index = 0;
    this.#lastPage = rows.length < this.pageSize;
    if (rows.length > 0) this.#after = rows[rows.length - 1]!.sequence;
  }

  #end(): void {
    this.#page = [];
    this.#index = 0;
    this.#lastPage = true;
  }
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
