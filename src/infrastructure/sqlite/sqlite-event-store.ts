import type Database from 'better-sqlite3';
import type { Sha256 } from '../../core/base/sha256.js';
import {
  checkDriverEpoch,
  checkExpectedSequence,
  normalizeBatch,
  sealBatch,
  settleRetry,
  toStoredEvent,
  type AppendOptions,
  type SealedEvent,
} from '../../core/events/append-batch.js';
import { ConcurrencyError } from '../../core/events/concurrency-error.js';
import { CorruptEventError } from '../../core/events/corrupt-event-error.js';
import { StaleDriverError } from '../../core/events/stale-driver-error.js';
import type { EventCatalog } from '../../core/events/event-catalog.js';
import {
  createEventCodec,
  type EventCodec,
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
  type SparseHashRow,
} from '../../core/events/hash-chain.js';
import { envelopeBytes } from '../../core/events/envelope-bytes.js';
import { createAppendNotifier, liveFeed } from '../../core/events/live-feed.js';
import {
  collectEvents,
  pageFeed,
  streamSession,
  verifySession,
  type SessionRowSource,
} from '../../core/events/session-reads.js';
import { StoreClosedError } from '../../core/events/store-closed-error.js';
import { SessionHeadCache, type SessionHead } from '../session-head-cache.js';
import { nodeSha256 } from '../system/node-sha256.js';
import { writeWithRetry } from './sqlite-errors.js';
import { openSqliteDatabase, type SqliteOptions } from './sqlite-database.js';

export type SqliteEventStoreOptions<Payload extends PayloadShape> = SqliteOptions & {
  readonly catalog: EventCatalog<Payload>;
  /** How often a live subscription looks for appends made by other processes (default 200 ms). */
  readonly pollIntervalMs?: number;
  readonly sha256?: Sha256;
};

/** A hash as stored: 32 bytes (schema 4), or whatever a hand edit put there. */
type StoredHash = Buffer | string;

/**
 * The hash column as reads select it: a 32-byte hash as its hex text, made by SQLite, which costs
 * reads far less than a Buffer per row turned into hex here; anything else (a hand edit) as
 * stored, which hashText passes on as before.
 */
const HASH_TEXT = "CASE WHEN typeof(hash) = 'blob' THEN lower(hex(hash)) ELSE hash END";

/** The stored hash as the hex text the chain compares. */
function hashText(stored: StoredHash): string {
  return Buffer.isBuffer(stored) ? stored.toString('hex') : String(stored);
}

/**
 * The envelope columns of a row (schema 6), selected after its bytes by every read: its
 * causation and correlation ids, its timestamp and its payload version, which
 * is NULL in a row written before schema 6, whose bytes are the whole event.
 */
const ENVELOPE_COLUMNS = 'causation_id, correlation_id, timestamp, version';

type EnvelopeTuple = [
  causationId: string | null,
  correlationId: string | null,
  timestamp: unknown,
  version: unknown,
];

type RawRow = {
  position: number;
  session_id: string;
  sequence: number;
  event_id: string;
  bytes: string;
  hash: StoredHash;
  causation_id: string | null;
  correlation_id: string | null;
  timestamp: unknown;
  version: unknown;
};

/** A row of the global feed, as an array: raw statements skip building an object per row. */
type FeedTuple = [
  position: number,
  sessionId: string,
  sequence: number,
  eventId: string,
  bytes: string,
  hash: StoredHash,
  ...EnvelopeTuple,
];

type SessionTuple = [
  position: number,
  sequence: number,
  eventId: string,
  bytes: string,
  hash: StoredHash,
  ...EnvelopeTuple,
];

type HeadTuple = [sequence: number, hash: StoredHash];

type SparseSessionTuple = [
  position: number,
  sequence: number,
  eventId: string,
  bytes: string,
  hash: StoredHash | null,
  ...EnvelopeTuple,
];

/** Every how many sequences a streamed page carries a stored hash (see sparseSessionPage). */
const HASH_CHECKPOINT = 64;

/**
 * A row as the shared read paths take it. Its bytes are as stored before schema 6 (no version),
 * else rebuilt from the envelope columns around the payload text, and the row carries how it was
 * split. Whatever a hand edit put in a column ends up in the rebuilt bytes, so the hash check
 * reports it. Built in one literal per row: this is every read's hot path.
 */
function eventRowOf<Hash extends string | undefined>(
  position: number,
  sessionId: string,
  sequence: number,
  eventId: string,
  stored: string,
  hash: Hash,
  causationId: string | null,
  correlationId: string | null,
  timestamp: unknown,
  version: unknown,
): Omit<EventRow, 'hash'> & { readonly hash: Hash } {
  if (version === null) return { position, sessionId, sequence, eventId, bytes: stored, hash };
  const envelope = {
    causationId,
    correlationId,
    eventId,
    sessionId,
    timestamp: String(timestamp),
    version: version as number,
  };
  return {
    position,
    sessionId,
    sequence,
    eventId,
    bytes: envelopeBytes(envelope, sequence, stored),
    split: { payloadText: stored, envelope },
    hash,
  };
}

/** A row of a session page (every stored hash, or only the checkpoints' on a sparse page). */
function sessionTupleToRow<Hash extends string | undefined>(
  sessionId: string,
  raw: SessionTuple | SparseSessionTuple,
  hash: Hash,
): Omit<EventRow, 'hash'> & { readonly hash: Hash } {
  return eventRowOf(
    raw[0],
    sessionId,
    raw[1],
    raw[2],
    raw[3],
    hash,
    raw[5],
    raw[6],
    raw[7],
    raw[8],
  );
}

function sparseTupleToRow(sessionId: string, raw: SparseSessionTuple): SparseHashRow {
  return sessionTupleToRow(sessionId, raw, raw[4] === null ? undefined : hashText(raw[4]));
}

/** Rows per INSERT statement: one statement call per row costs more than SQLite's work on it. */
const INSERT_CHUNK = 32;

function sessionTupleToEventRow(sessionId: string, raw: SessionTuple): EventRow {
  return sessionTupleToRow(sessionId, raw, hashText(raw[4]));
}

function toEventRow(raw: RawRow): EventRow {
  return eventRowOf(
    raw.position,
    raw.session_id,
    raw.sequence,
    raw.event_id,
    raw.bytes,
    hashText(raw.hash),
    raw.causation_id,
    raw.correlation_id,
    raw.timestamp,
    raw.version,
  );
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
  readonly #takeEpoch;
  /** Multi-row INSERTs by row count, prepared on first use. */
  readonly #inserts = new Map<number, Database.Statement<unknown[]>>();
  /** Heads this connection wrote, trusted while `#dataVersion` says no other connection wrote. */
  readonly #heads = new SessionHeadCache();
  #dataVersion = -1;
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
        `SELECT position, session_id, sequence, event_id, bytes, ${HASH_TEXT} AS hash, ${ENVELOPE_COLUMNS}
         FROM events WHERE event_id IN (SELECT value FROM json_each(?))`,
      ),
      // Changes exactly when another connection (any process) has committed to the file.
      dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
      // The head is the session's last row: one seek down the (session_id, sequence) index.
      head: db
        .prepare<[string], HeadTuple>(
          `SELECT sequence, ${HASH_TEXT} FROM events WHERE session_id = ? ORDER BY sequence DESC LIMIT 1`,
        )
        .raw(true),
      driverEpoch: db
        .prepare<[string], number>('SELECT epoch FROM session_drivers WHERE session_id = ?')
        .pluck(),
      takeDriverEpoch: db
        .prepare<[string], number>(
          `INSERT INTO session_drivers (session_id, epoch) VALUES (?, 1)
           ON CONFLICT (session_id) DO UPDATE SET epoch = epoch + 1 RETURNING epoch`,
        )
        .pluck(),
      startSession: db.prepare<[string, number, string]>(
        'INSERT OR IGNORE INTO sessions (session_id, first_position, first_timestamp) VALUES (?, ?, ?)',
      ),
      // Session reads check each hash against the previous row they read, so they skip the
      // columns that would only repeat what they know (session id, previous hash): each column
      // read costs a value per row.
      sessionPage: db
        .prepare<[string, number, number], SessionTuple>(
          `SELECT position, sequence, event_id, bytes, ${HASH_TEXT}, ${ENVELOPE_COLUMNS}
           FROM events WHERE session_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`,
        )
        .raw(true),
      // Streams read a stored hash only every HASH_CHECKPOINT rows (and look up a page's last
      // one): the chain of computed hashes between two checked ones vouches for every row.
      sparseSessionPage: db
        .prepare<[string, number, number], SparseSessionTuple>(
          `SELECT position, sequence, event_id, bytes,
             CASE WHEN sequence % ${HASH_CHECKPOINT} = 0 THEN ${HASH_TEXT} END, ${ENVELOPE_COLUMNS}
           FROM events WHERE session_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`,
        )
        .raw(true),
      hashAt: db
        .prepare<[string, number], StoredHash>(
          `SELECT ${HASH_TEXT} FROM events WHERE session_id = ? AND sequence = ?`,
        )
        .pluck(),
      feedPage: db
        .prepare<[number, number], FeedTuple>(
          `SELECT position, session_id, sequence, event_id, bytes, ${HASH_TEXT}, ${ENVELOPE_COLUMNS}
           FROM events WHERE position > ? ORDER BY position LIMIT ?`,
        )
        .raw(true),
      // The last timestamp is the head row's column, or in a row from before schema 6 read from
      // its bytes; a row whose bytes are unreadable (tampered) still lists, with the first
      // timestamp, and `verify` reports it.
      sessions: db.prepare<
        [],
        {
          session_id: string;
          last_sequence: number;
          first_timestamp: string;
          last_timestamp: unknown;
        }
      >(
        `SELECT s.session_id, h.sequence AS last_sequence, s.first_timestamp,
           CASE WHEN h.version IS NOT NULL THEN h.timestamp
             WHEN json_valid(h.bytes) THEN json_extract(h.bytes, '$.timestamp') END AS last_timestamp
         FROM sessions s JOIN events h ON h.session_id = s.session_id
           AND h.sequence = (SELECT max(sequence) FROM events WHERE session_id = s.session_id)
         ORDER BY s.first_position`,
      ),
    };
    this.#takeEpoch = db.transaction((sessionId: string): number =>
      this.#statements.takeDriverEpoch.get(sessionId)!,
    );
    // The fast path assumes the batch is new: no lookup of its ids. A retry or a duplicate shows up
    // as a conflict (unique event_id, or a stale expected sequence) and is settled in #settle.
    this.#appendTransaction = db.transaction(
      (
        batch: readonly NormalizedEvent<Payload>[],
        options: AppendOptions | undefined,
      ): StoredEvent<Payload>[] => {
        const sessionId = batch[0]!.sessionId;
        // The fence: read under the write lock this transaction holds, so no driver can take
        // the session between this check and the commit.
        if (options?.driverEpoch !== undefined)
          checkDriverEpoch(sessionId, options, this.#statements.driverEpoch.get(sessionId) ?? 0);
        const head = this.#head(sessionId);
        const lastSequence = head?.sequence ?? 0;
        checkExpectedSequence(sessionId, options, lastSequence);
        const sealed = sealBatch(this.#codec, this.#sha256, batch, {
          sequence: lastSequence,
          hash: head?.hash ?? GENESIS_HASH,
        });
        const firstPosition = this.#insertRows(sealed);
        if (!head) this.#statements.startSession.run(sessionId, firstPosition, batch[0]!.timestamp);
        return sealed.map((row, index) => toStoredEvent(batch[index]!, row, firstPosition + index));
      },
    );
  }

  /**
   * The session's head, for an append (inside its write transaction) or `lastSequence`. The one
   * this connection last wrote is still the head unless another connection has committed since,
   * which `data_version` (a read of the file header, no index seek) tells; then every
   * remembered head is dropped and the head is read from the index.
   */
  #head(sessionId: string): SessionHead | undefined {
    const version = this.#statements.dataVersion.get()!;
    if (version !== this.#dataVersion) {
      this.#heads.clear();
      this.#dataVersion = version;
    }
    const cached = this.#heads.get(sessionId);
    if (cached !== undefined) return cached;
    const row = this.#statements.head.get(sessionId);
    return row && { sequence: row[0], hash: hashText(row[1]) };
  }

  /**
   * Inserts rows in chunks of a power of two (few statements to prepare) and returns the first
   * one's position. SQLite gives each row the largest position plus one, and the write lock is
   * held, so the positions are consecutive and the first is read back from the first chunk.
   */
  #insertRows(rows: readonly SealedEvent[]): number {
    let offset = 0;
    let firstPosition = 0;
    while (offset < rows.length) {
      const size = Math.min(INSERT_CHUNK, 2 ** Math.floor(Math.log2(rows.length - offset)));
      const values: (string | number | null)[] = [];
      for (let index = offset; index < offset + size; index++) {
        const row = rows[index]!;
        values.push(
          row.sessionId,
          row.sequence,
          row.eventId,
          row.payloadBytes,
          row.hash,
          row.causationId,
          row.correlationId,
          row.timestamp,
          row.version,
        );
      }
      const { lastInsertRowid } = this.#insertStatement(size).run(values);
      if (offset === 0) firstPosition = Number(lastInsertRowid) - size + 1;
      offset += size;
    }
    return firstPosition;
  }

  #insertStatement(rows: number): Database.Statement<unknown[]> {
    let statement = this.#inserts.get(rows);
    if (!statement) {
      statement = this.#db.prepare(
        // The hash goes in as hex and is stored as its 32 bytes by SQLite's unhex: cheaper than a
        // Buffer made per row.
        `INSERT INTO events (session_id, sequence, event_id, bytes, hash, ${ENVELOPE_COLUMNS})
         VALUES ${Array(rows).fill('(?, ?, ?, ?, unhex(?), ?, ?, ?, ?)').join(', ')}`,
      );
      this.#inserts.set(rows, statement);
    }
    return statement;
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
      if (
        error instanceof ConcurrencyError ||
        error instanceof StaleDriverError ||
        isUniqueEventIdViolation(error)
      )
        return this.#settle(batch, error);
      throw error;
    }
    // Committed: the next append to this session need not read its head.
    const last = stored.at(-1)!;
    this.#heads.set(last.sessionId, { sequence: last.sequence, hash: last.hash });
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

  async takeDriverEpoch(sessionId: string): Promise<number> {
    this.#open();
    // IMMEDIATE: the write lock first, so the bump waits for (and then fences) any append in
    // flight from another process.
    return writeWithRetry(
      this.path,
      () => this.#takeEpoch.immediate(sessionId),
      () => this.#open(),
    );
  }

  async driverEpoch(sessionId: string): Promise<number> {
    this.#open();
    return this.#statements.driverEpoch.get(sessionId) ?? 0;
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
    return this.#head(sessionId)?.sequence ?? 0;
  }

  async listSessions(): Promise<SessionSummary[]> {
    this.#open();
    return this.#statements.sessions.all().map((row) => ({
      sessionId: row.session_id,
      lastSequence: row.last_sequence,
      firstTimestamp: row.first_timestamp,
      lastTimestamp:
        typeof row.last_timestamp === 'string' ? row.last_timestamp : row.first_timestamp,
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
    hashAt: (sessionId, sequence) => storedHashAt(this.#statements.hashAt.get(sessionId, sequence)),
    sparse: {
      page: (sessionId, after, limit) => {
        this.#open();
        return this.#statements.sparseSessionPage
          .all(sessionId, after, limit)
          .map((raw) => sparseTupleToRow(sessionId, raw));
      },
      hashAt: (sessionId, sequence) =>
        storedHashAt(this.#statements.hashAt.get(sessionId, sequence)),
    },
    head: (sessionId) => {
      const head = this.#statements.head.get(sessionId);
      return head && { sequence: head[0], hash: hashText(head[1]) };
    },
  };

  /**
   * A page of the global feed, each row checked against the hash it is chained to: the previous
   * row of its session, which is usually earlier in the same page and otherwise looked up. A
   * missing predecessor breaks the chain there.
   */
  #feedPage(afterPosition: number, limit: number): StoredEvent<Payload>[] {
    this.#open();
    const heads = new Map<string, { sequence: number; hash: string }>();
    return this.#statements.feedPage.all(afterPosition, limit).map((raw) => {
      const [position, sessionId, sequence, eventId, stored, hash, ...envelope] = raw;
      const head = heads.get(sessionId);
      const previousHash =
        sequence === 1
          ? GENESIS_HASH
          : head?.sequence === sequence - 1
            ? head.hash
            : storedHashAt(this.#statements.hashAt.get(sessionId, sequence - 1));
      if (previousHash === undefined)
        throw new CorruptEventError(
          sessionId,
          sequence,
          'hash',
          `sequence ${sequence - 1} is missing (the event this one is chained to)`,
        );
      const row = {
        ...eventRowOf(position, sessionId, sequence, eventId, stored, hashText(hash), ...envelope),
        previousHash,
      };
      checkRowHash(this.#sha256, row);
      heads.set(sessionId, { sequence, hash: row.hash });
      return this.#codec.decodeVerifiedRow(row, row.hash);
    });
  }

  #open(): void {
    if (this.#closed) throw new StoreClosedError(`SQLite event store ${this.path}`);
  }
}

function storedHashAt(stored: StoredHash | undefined): string | undefined {
  return stored === undefined ? undefined : hashText(stored);
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
