import type { Sha256 } from '../base/sha256.js';
import type { CorruptEventError } from './corrupt-event-error.js';
import type { EventCodec, EventRow } from './event-codec.js';
import type { PayloadShape, StoredEvent } from './event-envelope.js';
import { checkChainRun, GENESIS_HASH, type SparseHashRow } from './hash-chain.js';

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
  /**
   * Lighter pages for streaming, where a store can offer them: rows may leave their stored hash
   * out (reading it is a string per row), and the stream checks the chain at the rows that carry
   * one and at each page's last row. Synchronous, as an embedded store's reads are.
   */
  readonly sparse?: {
    page(sessionId: string, afterSequence: number, limit: number): readonly SparseHashRow[];
    hashAt(sessionId: string, sequence: number): string | undefined;
  };
};

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * One pass over a session after a cursor, page by page, checking every link of the chain before
 * it returns an event. Hand-rolled rather than an async generator: those cost several promise
 * turns per event, this one resolved promise, and a page a store returns synchronously is read
 * without waiting. While a page (or the start hash) is being fetched, later calls wait for it,
 * so calls never overlap.
 */
export class SessionStream<Payload extends PayloadShape> implements AsyncIterableIterator<
  StoredEvent<Payload>
> {
  #page: readonly SparseHashRow[] = [];
  /** The hashes computed for the rows of the page, as far as they are checked. */
  #hashes: string[] = [];
  #index = 0;
  /** Rows before this index of the page are checked; `#failure` is where the chain broke. */
  #checkedEnd = 0;
  #failure: CorruptEventError | undefined;
  /** The last checked row (or the cursor): where the chain continues. */
  #link: { sequence: number; hash: string } | undefined;
  #after: number;
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
      if (!this.#link) {
        const after = this.#after;
        const start = after === 0 ? GENESIS_HASH : this.source.hashAt(this.sessionId, after);
        const waiting = this.#whenReady(start, (hash) => {
          this.#link = { sequence: after, hash: hash ?? GENESIS_HASH };
        });
        if (waiting) return waiting;
      }
      for (;;) {
        if (this.#index < this.#checkedEnd) {
          const index = this.#index++;
          return Promise.resolve({ done: false, value: this.#decode(index) });
        }
        if (this.#failure) throw this.#failure;
        if (this.#index < this.#page.length) {
          this.#checkRun();
          continue;
        }
        if (this.#lastPage) return Promise.resolve(DONE);
        const sparse = this.source.sparse;
        if (sparse) {
          this.#turnTo(sparse.page(this.sessionId, this.#after, this.pageSize));
          continue;
        }
        const page = this.source.page(this.sessionId, this.#after, this.pageSize);
        const waiting = this.#whenReady(page, (rows) => this.#turnTo(rows));
        if (waiting) return waiting;
      }
    } catch (error) {
      this.#end();
      return Promise.reject(error);
    }
  }

  return(): Promise<IteratorResult<StoredEvent<Payload>>> {
    this.#end();
    return Promise.resolve(DONE);
  }

  /** Checks the next run of rows (up to one with a stored hash); see checkChainRun. */
  #checkRun(): void {
    const sparse = this.source.sparse;
    const run = checkChainRun(
      this.sha256,
      this.#page,
      this.#index,
      this.#link!,
      this.#hashes,
      // Only sparse rows lack a stored hash, so only they are ever looked up.
      (sequence) => sparse?.hashAt(this.sessionId, sequence),
    );
    if (run.end > this.#index) {
      this.#link = {
        sequence: this.#page[run.end - 1]!.sequence,
        hash: this.#hashes[run.end - 1]!,
      };
    }
    this.#checkedEnd = run.end;
    this.#failure = run.failure;
  }

  #decode(index: number): StoredEvent<Payload> {
    return this.codec.decodeVerifiedRow(this.#page[index]!, this.#hashes[index]!);
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

  #turnTo(rows: readonly SparseHashRow[]): void {
    this.#page = rows;
    this.#hashes = new Array<string>(rows.length);
    this.#index = 0;
    this.#checkedEnd = 0;
    this.#lastPage = rows.length < this.pageSize;
    if (rows.length > 0) this.#after = rows[rows.length - 1]!.sequence;
  }

  #end(): void {
    this.#page = [];
    this.#index = 0;
    this.#checkedEnd = 0;
    this.#failure = undefined;
    this.#lastPage = true;
  }
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
