import type pg from 'pg';
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
import type { EventCatalog } from '../../core/events/event-catalog.js';
import {
  createEventCodec,
  type EventCodec,
  type ChainedEventRow,
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
import type { Runnability } from '../../core/sessions/session-runnability.js';
import { nodeSha256 } from '../system/node-sha256.js';
import {
  checkConnection,
  createPostgresPool,
  DEFAULT_POSTGRES_SCHEMA,
  redactConnectionString,
  type PostgresPoolOptions,
} from './postgres-connection.js';
import {
  describeConnectFailure,
  isConnectionFailure,
  isUniqueViolation,
  PostgresConnectError,
} from './postgres-errors.js';
import { createFeedListener, type FeedListener } from './postgres-feed-listener.js';
import { SessionHeadCache, type SessionHead } from '../session-head-cache.js';
import { checkSchema, migratePool } from './postgres-migrations.js';
import { createPostgresStatements, type PostgresStatements } from './postgres-statements.js';
import { createWakeSender, type WakeSender } from './postgres-wake-sender.js';

export type PostgresStoreTarget =
  | { readonly connectionString: string; readonly pool?: undefined }
  /** A pool the caller owns: the store does not end it on close. */
  | { readonly pool: pg.Pool; readonly connectionString?: undefined };

export type PostgresEventStoreOptions<Payload extends PayloadShape> = PostgresStoreTarget &
  PostgresPoolOptions & {
    readonly catalog: EventCatalog<Payload>;
    /** Schema holding the tables (default `correx`). */
    readonly schema?: string;
    /** Run migrations at open (default false: a missing schema is a PostgresSchemaError). */
    readonly migrate?: boolean;
    /** How often a live subscription polls when no notification arrives (default 500 ms). */
    readonly pollIntervalMs?: number;
    /** How long `readAll` waits for older transactions to settle before returning what is safe (default 2000 ms). */
    readonly settleTimeoutMs?: number;
    /**
     * Least time between two post-commit NOTIFY wake-ups this store sends (default 5 ms): a
     * wake-up after a quiet spell goes out at once, the appends of a busy spell share one per
     * interval (see postgres-wake-sender.ts). 0: one per append unless one is in flight.
     */
    readonly wakeIntervalMs?: number;
    readonly sha256?: Sha256;
    /**
     * Where a batch leaves its session for workers (see core/sessions/session-runnability.ts),
     * stored on the session's head row in the append's transaction. Absent: never runnable.
     */
    readonly runnability?: (payloads: readonly Payload[]) => Runnability | null;
  };

type RawRow = {
  position: string;
  session_id: string;
  sequence: string;
  event_id: string;
  bytes: string;
  hash: string;
  previous_hash: string;
};

type FeedRow = RawRow & { settled: boolean };

/** The session head, joined with any stored event whose id the batch reuses (null columns if none). */
type HeadRow = { last_sequence: string; last_hash: string; driver_epoch: string } & (
  RawRow | { [K in keyof RawRow]: null }
);

const UNIQUE_EVENT_ID = 'events_event_id_unique';
const UNIQUE_SEQUENCE = 'events_session_sequence_unique';
const MAX_APPEND_ATTEMPTS = 5;
const DEFAULT_WAKE_INTERVAL_MS = 5;

function toEventRow(raw: RawRow): ChainedEventRow {
  return {
    position: Number(raw.position),
    sessionId: raw.session_id,
    sequence: Number(raw.sequence),
    eventId: raw.event_id,
    bytes: raw.bytes,
    hash: raw.hash,
    previousHash: raw.previous_hash,
  };
}

/**
 * The event store for several processes: PostgreSQL through a `pg` pool. An append locks its
 * session's head row, so writers to one session serialize and a stale `expectedSequence` is a
 * ConcurrencyError. The global feed hands out only rows whose transaction is older than every
 * transaction still in flight, so a reader never skips a slow transaction's events (see
 * docs/postgres.md).
 */
export class PostgresEventStore<Payload extends PayloadShape> implements EventStore<Payload> {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #codec: EventCodec<Payload>;
  readonly #sha256: Sha256;
  readonly #sql: PostgresStatements;
  readonly #notifier = createAppendNotifier();
  readonly #pollIntervalMs: number;
  readonly #settleTimeoutMs: number;
  readonly #listener: FeedListener;
  readonly #runnability: ((payloads: readonly Payload[]) => Runnability | null) | undefined;
  readonly #heads = new SessionHeadCache();
  readonly #wakes: WakeSender;
  #closed = false;

  /** Use `openPostgresEventStore`, which checks the connection and schema first. */
  constructor(
    /** The server URL without its password, and the schema: safe to log. */
    readonly location: string,
    readonly schema: string,
    pool: pg.Pool,
    ownsPool: boolean,
    options: PostgresEventStoreOptions<Payload>,
  ) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#codec = createEventCodec(options.catalog);
    this.#sha256 = options.sha256 ?? nodeSha256;
    this.#sql = createPostgresStatements(schema, location);
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#settleTimeoutMs = options.settleTimeoutMs ?? 2000;
    this.#runnability = options.runnability;
    this.#listener = createFeedListener(pool, this.#sql.channel, () => this.#notifier.notify());
    this.#wakes = createWakeSender(
      (runnable) => pool.query(runnable ? this.#sql.notifyRunnable : this.#sql.notify),
      { intervalMs: options.wakeIntervalMs ?? DEFAULT_WAKE_INTERVAL_MS },
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
    const sessionId = batch[0]!.sessionId;
    const runnability = this.#runnability?.(batch.map((event) => event.payload)) ?? 'unchanged';
    for (let attempt = 1; ; attempt++) {
      try {
        // First at the head this store expects, in one statement; a wrong guess, a retry to
        // settle and a conflict to report go through the head lock.
        return (
          (attempt === 1 ? await this.#appendAtHead(batch, options, runnability) : undefined) ??
          (await this.#appendLocked(batch, options, runnability))
        );
      } catch (error) {
        this.#heads.forget(sessionId);
        // Another writer stored one of these ids between our check and our insert: settle
        // against what it stored (a retry returns it, a different event is a DuplicateEventError).
        if (isUniqueViolation(error, UNIQUE_EVENT_ID) && attempt < MAX_APPEND_ATTEMPTS) continue;
        if (isUniqueViolation(error, UNIQUE_SEQUENCE)) {
          const actual = await this.lastSequence(sessionId);
          throw new ConcurrencyError(sessionId, options?.expectedSequence ?? actual, actual);
        }
        throw this.#describe(error, 'append');
      }
    }
  }

  /**
   * The append as one round trip: seals the batch after the head this store last saw for the
   * session (or reads it, without a lock), and writes it in one statement that checks the head
   * under its row lock. Undefined when the head was not the one expected (another writer moved
   * it, or `expectedSequence` differs): nothing was stored, and the locked path decides.
   */
  async #appendAtHead(
    batch: readonly NormalizedEvent<Payload>[],
    options: AppendOptions | undefined,
    runnability: Runnability | 'unchanged',
  ): Promise<StoredEvent<Payload>[] | undefined> {
    const sessionId = batch[0]!.sessionId;
    const expected = options?.expectedSequence;
    const client = await this.#connect();
    let broken = false;
    try {
      const head =
        this.#expectedHead(sessionId, expected) ?? (await this.#readHead(client, sessionId));
      if (!head || (expected !== undefined && expected !== head.sequence)) return undefined;
      const sealed = sealBatch(this.#codec, this.#sha256, batch, head);
      const one = sealed.length === 1;
      const statement = one
        ? head.sequence === 0
          ? this.#sql.appendOneToNew
          : this.#sql.appendOneAtHead
        : head.sequence === 0
          ? this.#sql.appendToNew
          : this.#sql.appendAtHead;
      const columns = one ? rowColumns(sealed[0]!) : sealedColumns(sealed);
      const result = (
        await client.query<{ first: string; stored: number }>({
          ...statement,
          values: [
            sessionId,
            head.sequence,
            head.hash,
            ...columns,
            runnability,
            options?.driverEpoch ?? null,
          ],
        })
      ).rows[0]!;
      if (result.stored === 0) return undefined;
      return this.#stored(batch, sealed, Number(result.first), runnability);
    } catch (error) {
      broken = isConnectionFailure(error);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * The head to seal after without asking the server: the one this store last wrote or read,
   * or the empty head when the caller says the session is new. Undefined: not known here (read
   * it), or `false` when the caller expects another head than the one this store saw last.
   */
  #expectedHead(sessionId: string, expected: number | undefined): SessionHead | false | undefined {
    const cached = this.#heads.get(sessionId);
    if (cached) return expected === undefined || expected === cached.sequence ? cached : false;
    return expected === 0 ? { sequence: 0, hash: GENESIS_HASH } : undefined;
  }

  /** The committed head, read without a lock (the append statement re-checks it under one). */
  async #readHead(client: pg.PoolClient, sessionId: string): Promise<SessionHead> {
    const head = (
      await client.query<{ last_sequence: string; last_hash: string }>(this.#sql.head, [sessionId])
    ).rows[0];
    return head
      ? { sequence: Number(head.last_sequence), hash: head.last_hash }
      : { sequence: 0, hash: GENESIS_HASH };
  }

  /**
   * The append under the session's head lock, in one transaction: settles a retried batch,
   * reports a stale `expectedSequence`, and otherwise writes after whatever head it finds.
   */
  async #appendLocked(
    batch: readonly NormalizedEvent<Payload>[],
    options: AppendOptions | undefined,
    runnability: Runnability | 'unchanged',
  ): Promise<StoredEvent<Payload>[]> {
    const sessionId = batch[0]!.sessionId;
    const eventIds = batch.map((event) => event.eventId);
    const client = await this.#connect();
    let broken = false;
    try {
      // The transaction's first write: it takes its id and its positions as one step, so
      // position order is transaction order (the global feed depends on it).
      const first = Number(
        lastResult(await client.query<{ first: string }>(this.#sql.beginAndAllocate(batch.length)))
          .rows[0]!.first,
      );
      // Locks the session's head (creating it if new) until commit, so writers to one session
      // take turns, and finds events already stored under the batch's ids.
      const found = (
        await client.query<HeadRow>(this.#sql.lockHeadAndFind, [sessionId, GENESIS_HASH, eventIds])
      ).rows;
      const head = found[0]!;
      const settle = (rows: readonly (RawRow | HeadRow)[]) => {
        const existing = new Map<string, StoredEvent<Payload>>();
        for (const raw of rows)
          if (raw.event_id !== null)
            existing.set(raw.event_id, this.#codec.decodeRow(toEventRow(raw as RawRow)));
        return settleRetry(this.#codec, batch, existing);
      };
      let retried = settle(found);
      const lastSequence = Number(head.last_sequence);
      if (
        !retried &&
        options?.expectedSequence !== undefined &&
        options.expectedSequence !== lastSequence
      ) {
        // The lookup above read from before any wait for the head lock; before reporting a
        // conflict, look again: the writer we waited for may have stored this very batch.
        retried = settle((await client.query<RawRow>(this.#sql.byEventIds, [eventIds])).rows);
      }
      if (retried) {
        await client.query('ROLLBACK');
        return retried;
      }
      // The fence, under the head row's lock: a driver that took the session meanwhile moved
      // the epoch in a transaction that committed before this lock was granted.
      checkDriverEpoch(sessionId, options, Number(head.driver_epoch));
      checkExpectedSequence(sessionId, options, lastSequence);
      const sealed = sealBatch(this.#codec, this.#sha256, batch, {
        sequence: lastSequence,
        hash: head.last_hash,
      });
      const last = sealed.at(-1)!;
      await client.query(this.#sql.insert, [
        sealed.map((_, index) => first + index),
        sealed.map((row) => row.sessionId),
        sealed.map((row) => row.sequence),
        ...sealedColumns(sealed),
        sessionId,
        last.sequence,
        last.hash,
        last.timestamp,
        first,
        sealed[0]!.timestamp,
        runnability,
      ]);
      await client.query('COMMIT');
      return this.#stored(batch, sealed, first, runnability);
    } catch (error) {
      broken = isConnectionFailure(error);
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** After a commit: remembers the new head, wakes local and remote subscribers, returns the envelopes. */
  #stored(
    batch: readonly NormalizedEvent<Payload>[],
    sealed: readonly SealedEvent[],
    first: number,
    runnability: Runnability | 'unchanged',
  ): StoredEvent<Payload>[] {
    const last = sealed.at(-1)!;
    this.#heads.set(last.sessionId, { sequence: last.sequence, hash: last.hash });
    this.#notifier.notify();
    // Wakes subscribers (and workers) in other processes; if it is lost they find the events
    // by polling (and the runnable sessions by their sweep).
    this.#wakes.wake(runnability === 'runnable');
    return sealed.map((row, index) => toStoredEvent(batch[index]!, row, first + index));
  }

  async takeDriverEpoch(sessionId: string): Promise<number> {
    this.#open();
    const rows = await this.#query<{ driver_epoch: string }>(this.#sql.takeDriverEpoch, [
      sessionId,
    ]);
    return Number(rows.rows[0]!.driver_epoch);
  }

  async driverEpoch(sessionId: string): Promise<number> {
    this.#open();
    const rows = await this.#query<{ driver_epoch: string }>(this.#sql.driverEpoch, [sessionId]);
    return Number(rows.rows[0]?.driver_epoch ?? 0);
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
    const head = await this.#query<{ last_sequence: string }>(this.#sql.head, [sessionId]);
    return Number(head.rows[0]?.last_sequence ?? 0);
  }

  async listSessions(): Promise<SessionSummary[]> {
    this.#open();
    const result = await this.#query<{
      session_id: string;
      last_sequence: string;
      first_timestamp: string;
      last_timestamp: string;
    }>(this.#sql.sessions, []);
    return result.rows.map((row) => ({
      sessionId: row.session_id,
      lastSequence: Number(row.last_sequence),
      firstTimestamp: row.first_timestamp,
      lastTimestamp: row.last_timestamp,
    }));
  }

  /**
   * Every event committed before the call, and possibly later ones. Rows held back because an
   * older transaction is still in flight are waited for up to `settleTimeoutMs`; after that the
   * safe prefix is returned and the rest comes on the next read.
   */
  readAll(options: ReadAllOptions = {}): AsyncIterable<StoredEvent<Payload>> {
    this.#open();
    return pageFeed((after, limit) => this.#settledPage(after, limit), options);
  }

  subscribe(options: SubscribeOptions = {}): AsyncIterable<SubscriptionMessage<Payload>> {
    this.#open();
    return liveFeed(
      {
        // Waits for held-back rows like readAll, so `caught_up` means what it says.
        readPage: async (after, limit) => (this.#closed ? [] : this.#settledPage(after, limit)),
        // NOTIFY wakes the feed as soon as any process commits; polling covers a lost listener
        // and rows held back behind a transaction that was still in flight.
        nextChange: () => {
          this.#listener.ensure();
          return Promise.race([this.#notifier.next(), delay(this.#pollIntervalMs)]);
        },
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
    await this.#wakes.flush();
    await this.#listener.close();
    if (this.#ownsPool) await this.#pool.end();
  }

  /** Rows of one session, for the shared read paths. */
  readonly #rowSource: SessionRowSource = {
    page: async (sessionId, after, limit) => {
      this.#open();
      const result = await this.#query<RawRow>(this.#sql.sessionPage, [sessionId, after, limit]);
      return result.rows.map(toEventRow);
    },
    hashAt: async (sessionId, sequence) =>
      (await this.#query<{ hash: string }>(this.#sql.hashAt, [sessionId, sequence])).rows[0]?.hash,
    head: async (sessionId) => {
      const head = (
        await this.#query<{ last_sequence: string; last_hash: string }>(this.#sql.head, [sessionId])
      ).rows[0];
      return head && { sequence: Number(head.last_sequence), hash: head.last_hash };
    },
  };

  /**
   * Up to `limit` feed events after `afterPosition`, waiting up to `settleTimeoutMs` while
   * committed rows are held back behind an older transaction still in flight.
   */
  async #settledPage(afterPosition: number, limit: number): Promise<StoredEvent<Payload>[]> {
    const deadline = Date.now() + this.#settleTimeoutMs;
    const events: StoredEvent<Payload>[] = [];
    let after = afterPosition;
    for (;;) {
      const page = await this.#feedPage(after, limit - events.length);
      events.push(...page.events);
      if (page.events.length > 0) after = page.events.at(-1)!.position;
      if (events.length >= limit || !page.heldBack || this.#closed || Date.now() >= deadline)
        return events;
      if (page.events.length === 0) await delay(5);
    }
  }

  /** One page of the feed, cut before the first row whose transaction may not be the last to land before it. */
  async #feedPage(
    afterPosition: number,
    limit: number,
  ): Promise<{ events: StoredEvent<Payload>[]; heldBack: boolean }> {
    this.#open();
    const result = await this.#query<FeedRow>(this.#sql.feedPage, [afterPosition, limit]);
    const events: StoredEvent<Payload>[] = [];
    for (const raw of result.rows) {
      if (!raw.settled) return { events, heldBack: true };
      const row = toEventRow(raw);
      checkRowHash(this.#sha256, row);
      events.push(this.#codec.decodeVerifiedRow(row, row.hash));
    }
    return { events, heldBack: false };
  }

  async #query<Row extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<Row>> {
    try {
      return await this.#pool.query<Row>(text, values);
    } catch (error) {
      throw this.#describe(error, 'read');
    }
  }

  async #connect(): Promise<pg.PoolClient> {
    try {
      return await this.#pool.connect();
    } catch (error) {
      throw this.#describe(error, 'connect');
    }
  }

  #describe(error: unknown, during: 'append' | 'read' | 'connect'): unknown {
    if (during === 'append' && isConnectionFailure(error)) {
      return new PostgresConnectError(
        this.location,
        'connection_lost',
        'the connection was lost during an append; it may or may not have been stored: ' +
          'retry with the same event ids (a stored batch is returned, never duplicated)',
        error,
      );
    }
    return describeConnectFailure(this.location, error);
  }

  #open(): void {
    if (this.#closed) throw new StoreClosedError(`PostgreSQL event store ${this.location}`);
  }
}

/** A multi-statement query answers with one result per statement; the last is ours. */
function lastResult<Row extends pg.QueryResultRow>(
  result: pg.QueryResult<Row> | pg.QueryResult<Row>[],
): pg.QueryResult<Row> {
  return Array.isArray(result) ? result.at(-1)! : result;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Opens a PostgreSQL event store: checks the connection, then migrates (when `migrate` is set)
 * or checks that the schema is current. Every failure is a named CorrexError.
 */
export async function openPostgresEventStore<Payload extends PayloadShape>(
  options: PostgresEventStoreOptions<Payload>,
): Promise<PostgresEventStore<Payload>> {
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const { pool, ownsPool, location } = await openPool(options, schema);
  return new PostgresEventStore(location, schema, pool, ownsPool, options);
}

/** Shared by the event and snapshot stores: the pool, checked and migrated. */
export async function openPool(
  options: PostgresStoreTarget & PostgresPoolOptions & { readonly migrate?: boolean },
  schema: string,
  /** How to name the server in errors when `options.pool` is given. */
  serverName?: string,
): Promise<{ pool: pg.Pool; ownsPool: boolean; location: string }> {
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? createPostgresPool(options.connectionString, options);
  const server = options.connectionString
    ? redactConnectionString(options.connectionString)
    : (serverName ?? describePool(pool));
  const location = `${server} (schema ${schema})`;
  try {
    await checkConnection(pool, server);
    if (options.migrate) await migratePool(pool, server, schema);
    else await checkSchema(pool, server, schema);
    return { pool, ownsPool, location };
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => undefined);
    throw error;
  }
}

function describePool(pool: pg.Pool): string {
  const { host, port, database, user } = pool.options;
  return `postgres://${user ?? ''}@${host ?? 'localhost'}:${port ?? 5432}/${database ?? ''}`;
}

/** One row's columns in the order every append statement binds them ($4-$9 of a one-event append). */
function rowColumns(row: SealedEvent): string[] {
  return [row.eventId, row.type, row.timestamp, row.bytes, row.hash, row.previousHash];
}

/** The same columns for a batch, one array per column (what the batch statements unnest). */
function sealedColumns(sealed: readonly SealedEvent[]): string[][] {
  const rows = sealed.map(rowColumns);
  return rows[0]!.map((_column, index) => rows.map((columns) => columns[index]!));
}
