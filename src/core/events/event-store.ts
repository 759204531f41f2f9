import type { AppendOptions } from './append-batch.js';
import type { NewEvent, PayloadShape, StoredEvent } from './event-envelope.js';
import type { ChainVerification } from './hash-chain.js';

export type { AppendOptions } from './append-batch.js';

export type ReadOptions = {
  /** Exclusive cursor: return events with a sequence greater than this (default 0). */
  readonly afterSequence?: number;
  /** At most this many events. */
  readonly limit?: number;
};

export type ReadAllOptions = {
  /** Exclusive cursor into the global feed: events with a position greater than this (default 0). */
  readonly afterPosition?: number;
  /** At most this many events. */
  readonly limit?: number;
};

export type SubscribeOptions = {
  /** Exclusive cursor into the global feed. */
  readonly afterPosition?: number;
  /** Ends the subscription (the iterator then finishes). */
  readonly signal?: AbortSignal;
};

/** What a live subscription yields: events, and once, a marker that the backlog is delivered. */
export type SubscriptionMessage<Payload extends PayloadShape = PayloadShape> =
  | { readonly type: 'event'; readonly event: StoredEvent<Payload> }
  | { readonly type: 'caught_up'; readonly position: number };

export type SessionSummary = {
  readonly sessionId: string;
  readonly lastSequence: number;
  readonly firstTimestamp: string;
  readonly lastTimestamp: string;
};

/**
 * The append-only event log: correx's only source of truth. Every implementation runs the
 * shared contract suite (`test/contracts/event-store.contract.ts`). All methods are async so
 * that embedded and server-backed stores share one contract.
 */
export interface EventStore<Payload extends PayloadShape = PayloadShape> {
  /** Appends one event; see `appendAll`. */
  append(event: NewEvent<Payload>, options?: AppendOptions): Promise<StoredEvent<Payload>>;
  /**
   * Appends events of one session atomically: all are stored or none. The store assigns
   * gapless sequences. Re-appending a batch that is already stored returns the stored events.
   */
  appendAll(
    events: readonly NewEvent<Payload>[],
    options?: AppendOptions,
  ): Promise<StoredEvent<Payload>[]>;
  /** Reads a session's events in sequence order, verifying the hash chain. */
  read(sessionId: string, options?: ReadOptions): Promise<StoredEvent<Payload>[]>;
  /** Streams a session's events page by page, never holding the whole log in memory. */
  stream(
    sessionId: string,
    options?: Omit<ReadOptions, 'limit'>,
  ): AsyncIterable<StoredEvent<Payload>>;
  /** The last sequence of a session; 0 when it has no events. */
  lastSequence(sessionId: string): Promise<number>;
  /** Every session with at least one event, in order of first appearance. */
  listSessions(): Promise<SessionSummary[]>;
  /** The global feed across sessions in position order, page by page. */
  readAll(options?: ReadAllOptions): AsyncIterable<StoredEvent<Payload>>;
  /** The global feed, then live: every event after the cursor exactly once, in order. */
  subscribe(options?: SubscribeOptions): AsyncIterable<SubscriptionMessage<Payload>>;
  /** Recomputes a session's hash chain and reports the first broken link. */
  verify(sessionId: string): Promise<ChainVerification>;
  /**
   * Takes a session for a new driver: moves its driver epoch on by one and returns it (a session
   * never taken, or recorded before epochs existed, is at epoch 0). From then on an append that
   * carries an older `driverEpoch` is refused (the fencing token of docs/postgres.md).
   */
  takeDriverEpoch(sessionId: string): Promise<number>;
  /** The session's driver epoch now (0: never taken). */
  driverEpoch(sessionId: string): Promise<number>;
  /** Releases resources; later calls fail. */
  close(): Promise<void>;
}
