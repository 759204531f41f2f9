import type Database from 'better-sqlite3';
import type { Sha256 } from '../../core/base/sha256.js';
import {
  checkExpectedSequence,
  normalizeBatch,
  sealBatch,
  settleRetry,
  toStoredEvent,
  type AppendOptions,
} from '../../core/events/append-batch.js';
import { ConcurrencyError } from '../../core/events/concurrency-error.js';
import type { EventCatalog } from '../../core/events/event-catalog.js';
import {
  createEventCodec,
  type EventCodec,
  type ChainedEventRow,
  type EventRow,
  type NormalizedEvent,
} from '../../core/events/event-codec.js';
import type { NewEvent, PayloadShape, StoredEvent } from '../../core/events/event-envelope.js';
import type {
  EventStore,
  ReadAllOptions,
  ReadOptions,
  SessionSummary,
  SubscribeOptions,
  SubscriptionMessage,
} from '../../core/events/event-store.js';
import {
  checkRowHash,
  GENESIS_HASH,
  type ChainVerification,
} from '../../core/events/hash-chain.js';
import { createAppendNotifier, liveFeed } from '../../core/events/live-feed.js';
import {
  collectEvents,
  pageFeed,
  streamSession,
  verifySession,
  type SessionRowSource,
} from '../../core/events/session-reads.js';
import { StoreClosedError } from '../../core/events/store-closed-error.js';
import { nodeSha256 } from '../system/node-sha256.js';
import { writeWithRetry } from './sqlite-errors.js';
import { openSqliteDatabase, type SqliteOptions } from './sqlite-database.js';

export type SqliteEventStoreOptions<Payload extends PayloadShape> = SqliteOptions & {
  readonly catalog: EventCatalog<Payload>;
  /** How often a live subscription looks for appends made by other processes (default 200 ms). */
  readonly pollIntervalMs?: number;
  readonly sha256?: Sha256;
};

type RawRow = {
  position: number;
  session_id: string;
  sequence: number;
  event_id: string;
  bytes: string;
  hash: string;
  previous_hash: string;
};

/** The same columns as RawRow, as an array: raw statements skip building an object per row. */
type RawTuple = [number, string, number, string, string, string, string];

type SessionTuple = [number, number, string, string, string];

function sessionTupleToEventRow(sessionId: string, raw: SessionTuple): EventRow {
  return {
    position: raw[0],
    sessionId,
    sequence: raw[1],
    eventId: raw[2],
    bytes: raw[3],
    hash: raw[4],
  };
}

function tupleToEventRow(raw: RawTuple): ChainedEventRow {
  return {
    position: raw[0],
    sessionId: raw[1],
    sequence: raw[2],
    eventId: raw[3],
    bytes: raw[4],
    hash: raw[5],
    previousHash: raw[6],
  };
}

const ROW_COLUMNS = 'position, session_id, sequence, event_id, bytes, hash, previous_hash';

function toEventRow(raw: RawRow): ChainedEventRow {
  return {
    position: raw.position,
    sessionId: raw.session_id,
    sequence: raw.sequence,
    eventId: raw.event_id,
    bytes: raw.bytes,
    hash: raw.hash,
    previousHash: raw.previous_hash,
  };
}

/**
 * The embedded event store: one SQLite file in WAL mode, one long-lived connection. The
 * expected-sequence check and the insert run in one IMMEDIATE transaction, so concurrent
 * writers (threads or processes) serialize on the file lock and the loser sees a conflict.
 * Nothing is acknowledged before commit.
 */
export class SqliteEventStore<Payload extends PayloadShape> implements EventStore<Payload> {
  readonly #db: Database.Database;
  readonly #codec: EventCodec<Payload>;
  readonly #sha256: Sha256;
  readonly #pollIntervalMs: number;
  readonly #notifier = createAppendNotifier();
  readonly #statements;
  readonly #appendTransaction;
  #closed = false;

  constructor(
    readonly path: string,
    options: SqliteEventStoreOptions<Payload>,
  ) {
    this.#db = openSqliteDatabase(path, options);
    this.#codec = createEventCodec(options.catalog);
    this.#sha256 = options.sha256 ?? nodeSha256;
    this.#pollIntervalMs = options.pollIntervalMs ?? 200;
    const db = this.#db;
    this.#statements = {
      byEventIds: db.prepare<[string], RawRow>(
        `SELECT ${ROW_COLUMNS} FROM events WHERE event_id IN (SELECT value FROM json_each(?))`,
      ),
      head: db.prepare<[string], { last_sequence: number; last_hash: string }>(
        'SELECT last_sequence, last_hash FROM sessions WHERE session_id = ?',
      ),
      insert: db.prepare<[string, number, string, string, string, string, string, string]>(
        `INSERT INTO events (session_id, sequence, event_id, type, timestamp, bytes, hash, previous_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      upsertSession: db.prepare(
        `INSERT INTO sessions (session_id, last_sequence, last_hash, first_position, first_timestamp, last_timestamp)
         VALUES (@sessionId, @lastSequence, @lastHash, @firstPosition, @firstTimestamp, @lastTimestamp)
         ON CONFLICT (session_id) DO UPDATE SET
           last_sequence = excluded.last_sequence, last_hash = excluded.last_hash, last_timestamp = excluded.last_timestamp`,
      ),
      // Session reads check each hash against the previous row they read, so they skip the
      // columns they already know (session id, previous hash): fewer strings per row.
      sessionPage: db
        .prepare<[string, number, number], SessionTuple>(
          'SELECT position, sequence, event_id, bytes, hash FROM events WHERE session_id = ? AND sequence > ? ORDER BY sequence LIMIT ?',
        )
        .raw(true),
      hashAt: db.prepare<[string, number], { hash: string }>(
        'SELECT hash FROM events WHERE session_id = ? AND sequence = ?',
      ),
      feedPage: db
        .prepare<[number, number], RawTuple>(
          `SELECT ${ROW_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
        )
        .raw(true),
      sessions: db.prepare<
        [],
        {
          session_id: string;
          last_sequence: number;
          first_timestamp: string;
          last_timestamp: string;
        }
      >(
        'SELECT session_id, last_sequence, first_timestamp, last_timestamp FROM sessions ORDER BY first_position',
      ),
    };
    // The fast path assumes the batch is new: no lookup of its ids. A retry or a duplicate shows up
    // as a conflict (unique event_id, or a stale expected sequence) and is settled in #settle.
    this.#appendTransaction = db.transaction(
      (
        batch: readonly NormalizedEvent<Payload>[],
        options: AppendOptions | undefined,
      ): StoredEvent<Payload>[] => {
        const sessionId = batch[0]!.sessionId;
        const head = this.#statements.head.get(sessionId);
        checkExpectedSequence(sessionId, options, head?.last_sequence ?? 0);
        const sealed = sealBatch(this.#codec, this.#sha256, batch, {
          sequence: head?.last_sequence ?? 0,
          hash: head?.last_hash ?? GENESIS_HASH,
        });
        const stored = sealed.map((row, index) => {
          const { lastInsertRowid } = this.#statements.insert.run(
            row.sessionId,
            row.sequence,
            row.eventId,
            row.type,
            row.timestamp,
            row.bytes,
            row.hash,
            row.previousHash,
          );
          const position = Number(lastInsertRowid);
          return toStoredEvent(batch[index]!, row, position);
        });
        const last = sealed.at(-1)!;
        this.#statements.upsertSession.run({
          sessionId,
          lastSequence: last.sequence,
          lastHash: last.hash,
          firstPosition: stored[0]!.position,
          firstTimestamp: sealed[0]!.timestamp,
          lastTimestamp: last.timestamp,
        });
        return stored;
      },
    );
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
    let stored: StoredEvent<Payload>[];
    try {
      // The transaction was rolled back on any failure; a batch that did commit before a retry
      // comes back as stored through its event ids.
      stored = await writeWithRetry(
        this.path,
        () => this.#appendTransaction.immediate(batch, options),
        () => this.#open(),
      );
    } catch (error) {
      if (error instanceof ConcurrencyError || isUniqueEventIdViolation(error))
        return this.#settle(batch, error);
      throw error;
    }
    this.#notifier.notify();
    return stored;
  }

  /** A conflicting batch is either a retry of stored events (returned as stored) or a real conflict. */
  #settle(batch: readonly NormalizedEvent<Payload>[], conflict: unknown): StoredEvent<Payload>[] {
    const existing = new Map<string, StoredEvent<Payload>>();
    for (const raw of this.#statements.byEventIds.all(
      JSON.stringify(batch.map((event) => event.eventId)),
    )) {
      existing.set(raw.event_id, this.#codec.decodeRow(toEventRow(raw)));
    }
    const retried = settleRetry(this.#codec, batch, existing);
    if (retried) return retried;
    throw conflict;
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
    return this.#statements.head.get(sessionId)?.last_sequence ?? 0;
  }

  async listSessions(): Promise<SessionSummary[]> {
    this.#open();
    return this.#statements.sessions.all().map((row) => ({
      sessionId: row.session_id,
      lastSequence: row.last_sequence,
      firstTimestamp: row.first_timestamp,
      lastTimestamp: row.last_timestamp,
    }));
  }

  readAll(options: ReadAllOptions = {}): AsyncIterable<StoredEvent<Payload>> {
    this.#open();
    return pageFeed((after, limit) => this.#feedPage(after, limit), options);
  }

  subscribe(options: SubscribeOptions = {}): AsyncIterable<SubscriptionMessage<Payload>> {
    this.#open();
    return liveFeed(
      {
        readPage: async (after, limit) => (this.#closed ? [] : this.#feedPage(after, limit)),
        // Appends from this process wake the feed at once; other processes' appends are found by polling.
        nextChange: () => Promise.race([this.#notifier.next(), delay(this.#pollIntervalMs)]),
      },
      options,
    );
  }

  async verify(sessionId: string): Promise<ChainVerification> {
    this.#open();
    return verifySession(this.#rowSource, this.#codec, this.#sha256, sessionId);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#notifier.notify();
    this.#db.close();
  }

  /** Rows of one session, for the shared read paths; `.all()` materializes each page, so no statement stays open. */
  readonly #rowSource: SessionRowSource = {
    page: (sessionId, after, limit) => {
      this.#open();
      return this.#statements.sessionPage
        .all(sessionId, after, limit)
        .map((raw) => sessionTupleToEventRow(sessionId, raw));
    },
    hashAt: (sessionId, sequence) => this.#statements.hashAt.get(sessionId, sequence)?.hash,
    head: (sessionId) => {
      const head = this.#statements.head.get(sessionId);
      return head && { sequence: head.last_sequence, hash: head.last_hash };
    },
  };

  #feedPage(afterPosition: number, limit: number): StoredEvent<Payload>[] {
    this.#open();
    return this.#statements.feedPage.all(afterPosition, limit).map((raw) => {
      const row = tupleToEventRow(raw);
      checkRowHash(this.#sha256, row);
      return this.#codec.decodeVerifiedRow(row);
    });
  }

  #open(): void {
    if (this.#closed) throw new StoreClosedError(`SQLite event store ${this.path}`);
  }
}

function isUniqueEventIdViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error.message.includes('events.event_id')
  );
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Opens (creating if needed) a SQLite event store at `path`. */
export function openSqliteEventStore<Payload extends PayloadShape>(
  path: string,
  options: SqliteEventStoreOptions<Payload>,
): SqliteEventStore<Payload> {
  return new SqliteEventStore(path, options);
}
