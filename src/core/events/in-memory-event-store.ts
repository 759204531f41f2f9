import { sha256Hex, type Sha256 } from '../base/sha256.js';
import {
  checkDriverEpoch,
  checkExpectedSequence,
  normalizeBatch,
  sealBatch,
  settleRetry,
  toStoredEvent,
  type AppendOptions,
  type SealedEvent,
} from './append-batch.js';
import type { EventCatalog } from './event-catalog.js';
import { createEventCodec, type EventRow } from './event-codec.js';
import type { NewEvent, PayloadShape, StoredEvent } from './event-envelope.js';
import type {
  EventStore,
  ReadAllOptions,
  ReadOptions,
  SessionSummary,
  SubscribeOptions,
} from './event-store.js';
import { checkRowHash, GENESIS_HASH, type ChainVerification } from './hash-chain.js';
import { createAppendNotifier, liveFeed } from './live-feed.js';
import {
  collectEvents,
  pageFeed,
  streamSession,
  verifySession,
  type SessionRowSource,
} from './session-reads.js';
import { StoreClosedError } from './store-closed-error.js';

export type InMemoryEventStoreOptions<Payload extends PayloadShape> = {
  readonly catalog: EventCatalog<Payload>;
  /** Defaults to the pure SHA-256 in core/base. */
  readonly sha256?: Sha256;
};

type MemoryRow = SealedEvent & { readonly position: number };

/**
 * The reference EventStore: everything in memory, same rules and the same bytes as the durable
 * stores (rows are kept encoded and decoded on read, so it exercises the codec like they do).
 * For tests, simulations and short-lived embedding.
 */
export class InMemoryEventStore<Payload extends PayloadShape> implements EventStore<Payload> {
  readonly #codec;
  readonly #sha256: Sha256;
  readonly #rows: MemoryRow[] = [];
  readonly #bySession = new Map<string, MemoryRow[]>();
  readonly #byEventId = new Map<string, MemoryRow>();
  readonly #notifier = createAppendNotifier();
  readonly #epochs = new Map<string, number>();
  #closed = false;

  constructor(options: InMemoryEventStoreOptions<Payload>) {
    this.#codec = createEventCodec(options.catalog);
    this.#sha256 = options.sha256 ?? sha256Hex;
  }

  async append(event: NewEvent<Payload>, options?: AppendOptions): Promise<StoredEvent<Payload>> {
    const [stored] = await this.appendAll([event], options);
    return stored!;
  }

  async appendAll(
    events: readonly NewEvent<Payload>[],
    options?: AppendOptions,
  ): Promise<StoredEvent<Payload>[]> {
    this.#open();
    const batch = normalizeBatch(this.#codec, events);
    const existing = new Map<string, StoredEvent<Payload>>();
    for (const event of batch) {
      const row = this.#byEventId.get(event.eventId);
      if (row) existing.set(event.eventId, this.#codec.decodeRow(row));
    }
    const retried = settleRetry(this.#codec, batch, existing);
    if (retried) return retried;

    const sessionId = batch[0]!.sessionId;
    const sessionRows = this.#bySession.get(sessionId) ?? [];
    const last = sessionRows.at(-1);
    checkDriverEpoch(sessionId, options, this.#epochs.get(sessionId) ?? 0);
    checkExpectedSequence(sessionId, options, last?.sequence ?? 0);
    const sealed = sealBatch(this.#codec, this.#sha256, batch, {
      sequence: last?.sequence ?? 0,
      hash: last?.hash ?? GENESIS_HASH,
    });
    const rows = sealed.map((event, index): MemoryRow => ({
      ...event,
      position: this.#rows.length + index + 1,
    }));
    // Nothing above wrote anything, so a failure leaves no trace; from here on nothing can fail.
    this.#rows.push(...rows);
    sessionRows.push(...rows);
    this.#bySession.set(sessionId, sessionRows);
    for (const row of rows) this.#byEventId.set(row.eventId, row);
    this.#notifier.notify();
    return rows.map((row, index) => toStoredEvent(batch[index]!, row, row.position));
  }

  async takeDriverEpoch(sessionId: string): Promise<number> {
    this.#open();
    const epoch = (this.#epochs.get(sessionId) ?? 0) + 1;
    this.#epochs.set(sessionId, epoch);
    return epoch;
  }

  async driverEpoch(sessionId: string): Promise<number> {
    this.#open();
    return this.#epochs.get(sessionId) ?? 0;
  }

  async read(sessionId: string, options: ReadOptions = {}): Promise<StoredEvent<Payload>[]> {
    return collectEvents(this.stream(sessionId, options), options.limit);
  }

  stream(
    sessionId: string,
    options: Omit<ReadOptions, 'limit'> = {},
  ): AsyncIterable<StoredEvent<Payload>> {
    this.#open();
    return streamSession(
      this.#rowSource,
      this.#codec,
      this.#sha256,
      sessionId,
      options.afterSequence,
    );
  }

  async lastSequence(sessionId: string): Promise<number> {
    this.#open();
    return this.#bySession.get(sessionId)?.at(-1)?.sequence ?? 0;
  }

  async listSessions(): Promise<SessionSummary[]> {
    this.#open();
    return [...this.#bySession.entries()].map(([sessionId, rows]) => ({
      sessionId,
      lastSequence: rows.at(-1)!.sequence,
      firstTimestamp: rows[0]!.timestamp,
      lastTimestamp: rows.at(-1)!.timestamp,
    }));
  }

  readAll(options: ReadAllOptions = {}): AsyncIterable<StoredEvent<Payload>> {
    this.#open();
    return pageFeed((after, limit) => this.#page(after, limit), options);
  }

  subscribe(
    options: SubscribeOptions = {},
  ): AsyncIterable<
    { type: 'event'; event: StoredEvent<Payload> } | { type: 'caught_up'; position: number }
  > {
    this.#open();
    return liveFeed(
      {
        readPage: async (after, limit) => (this.#closed ? [] : this.#page(after, limit)),
        nextChange: () => this.#notifier.next(),
      },
      options,
    );
  }

  async verify(sessionId: string): Promise<ChainVerification> {
    this.#open();
    return verifySession(this.#rowSource, this.#codec, this.#sha256, sessionId);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#notifier.notify();
  }

  /** Test hook: overwrite a stored row in place, as an attacker with disk access could. */
  tamper(sessionId: string, sequence: number, change: (row: EventRow) => Partial<EventRow>): void {
    const rows = this.#bySession.get(sessionId) ?? [];
    const index = rows.findIndex((row) => row.sequence === sequence);
    if (index < 0) throw new RangeError(`no event ${sessionId}#${sequence}`);
    const original = rows[index]!;
    const replaced = { ...original, ...change(original) };
    rows[index] = replaced;
    this.#rows[this.#rows.indexOf(original)] = replaced;
    this.#byEventId.set(replaced.eventId, replaced);
  }

  #page(afterPosition: number, limit: number): StoredEvent<Payload>[] {
    // Positions are 1-based and dense here, so the start index is the cursor itself.
    return this.#rows.slice(afterPosition, afterPosition + limit).map((row) => {
      checkRowHash(this.#sha256, row);
      return this.#codec.decodeVerifiedRow(row, row.hash);
    });
  }

  /** Rows of one session, for the shared read paths. */
  readonly #rowSource: SessionRowSource = {
    // Sequences are dense from 1 within a session, so a sequence is its row's index plus one;
    // reading by index keeps a page O(limit) instead of a scan of the whole session.
    page: (sessionId, after, limit) =>
      (this.#bySession.get(sessionId) ?? []).slice(Math.max(0, after), Math.max(0, after) + limit),
    hashAt: (sessionId, sequence) =>
      sequence >= 1 ? this.#bySession.get(sessionId)?.[sequence - 1]?.hash : undefined,
    head: (sessionId) => {
      const last = this.#bySession.get(sessionId)?.at(-1);
      return last && { sequence: last.sequence, hash: last.hash };
    },
  };

  #open(): void {
    if (this.#closed) throw new StoreClosedError('in-memory event store');
  }
}

/** Creates an empty in-memory store for `catalog`. */
export function createInMemoryEventStore<Payload extends PayloadShape>(
  options: InMemoryEventStoreOptions<Payload>,
): InMemoryEventStore<Payload> {
  return new InMemoryEventStore(options);
}
