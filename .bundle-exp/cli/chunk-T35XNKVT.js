import {
  createFeedListener
} from "./chunk-2XSB7GWG.js";
import {
  checkSchema,
  migratePool
} from "./chunk-3PFGHKN4.js";
import {
  SessionHeadCache
} from "./chunk-XXOLSKOG.js";
import {
  PostgresConnectError,
  checkConnection,
  createPostgresPool,
  describeConnectFailure,
  isConnectionFailure,
  isUniqueViolation,
  quoteSchema
} from "./chunk-YCTECULU.js";
import {
  DEFAULT_POSTGRES_SCHEMA,
  redactConnectionString
} from "./chunk-XESUYX36.js";
import {
  StoreClosedError,
  checkDriverEpoch,
  checkExpectedSequence,
  collectEvents,
  createAppendNotifier,
  liveFeed,
  normalizeBatch,
  pageFeed,
  sealBatch,
  settleRetry,
  streamSession,
  toStoredEvent,
  verifySession
} from "./chunk-3K2LSKRX.js";
import {
  GENESIS_HASH,
  checkRowHash
} from "./chunk-5UEANXJE.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  ConcurrencyError
} from "./chunk-CORQQBM5.js";
import {
  createEventCodec
} from "./chunk-W32ANIA4.js";

// src/infrastructure/postgres/postgres-statements.ts
import { createHash } from "node:crypto";
var ROW_COLUMNS = "position, session_id, sequence, event_id, bytes, hash, previous_hash";
function createPostgresStatements(schema, location) {
  const s = quoteSchema(schema, location);
  return {
    /** NOTIFY channel of this schema's appends. */
    channel: `correx_events_${schema}`,
    /**
     * Opens the append's transaction and makes its first write: its transaction id and `n`
     * positions, taken together (see allocate_positions). One round trip; `n` is an integer.
     */
    beginAndAllocate: (n) => `BEGIN; SELECT ${s}.allocate_positions(${Math.trunc(n)}) AS first`,
    /**
     * Returns the session's head and locks its row until commit, creating it (at sequence 0)
     * for a new session; a writer that waited gets the head its predecessor committed. Joined
     * with stored events that reuse the batch's ids ($3), read as of the statement's start.
     */
    lockHeadAndFind: `WITH head AS (
        INSERT INTO ${s}.sessions (session_id, last_sequence, last_hash) VALUES ($1, 0, $2)
        ON CONFLICT (session_id) DO UPDATE SET session_id = excluded.session_id
        RETURNING last_sequence, last_hash, driver_epoch)
      SELECT head.last_sequence, head.last_hash, head.driver_epoch, ${ROW_COLUMNS.split(", ").map((column) => `e.${column}`).join(", ")}
      FROM head LEFT JOIN ${s}.events e ON e.event_id = ANY($3::text[])`,
    byEventIds: `SELECT ${ROW_COLUMNS} FROM ${s}.events WHERE event_id = ANY($1::text[])`,
    /**
     * Sent after the append commits, as a transaction of its own that does not wait for a disk
     * flush (it is only a wake-up). A NOTIFY inside the append would hold PostgreSQL's global
     * notify lock through the append's flush and serialize every writer's commit.
     */
    notify: `BEGIN; SET LOCAL synchronous_commit = off; NOTIFY "correx_events_${schema}"; COMMIT`,
    /** NOTIFY channel of sessions that became runnable (workers LISTEN on it). */
    runnableChannel: `correx_runnable_${schema}`,
    /** The wake-up of both channels, after an append that left its session runnable. */
    notifyRunnable: `BEGIN; SET LOCAL synchronous_commit = off; NOTIFY "correx_events_${schema}";
      NOTIFY "correx_runnable_${schema}"; COMMIT`,
    insert: `WITH inserted AS (
        INSERT INTO ${s}.events
          (position, session_id, sequence, event_id, type, event_timestamp, bytes, hash, previous_hash)
        SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[],
                             $6::text[], $7::text[], $8::text[], $9::text[])
        RETURNING 1)
      UPDATE ${s}.sessions SET last_sequence = $11, last_hash = $12, last_timestamp = $13,
        first_position = coalesce(first_position, $14), first_timestamp = coalesce(first_timestamp, $15),
        is_child = is_child OR $16 = 'child',
        runnable = CASE WHEN is_child OR $16 = 'child' THEN false
          WHEN $16 = 'runnable' THEN true WHEN $16 IN ('idle', 'final') THEN false ELSE runnable END,
        runnable_since = CASE WHEN is_child OR $16 IN ('child', 'idle', 'final') THEN NULL
          WHEN $16 = 'runnable' THEN coalesce(runnable_since, clock_timestamp()) ELSE runnable_since END
      WHERE session_id = $10`,
    /**
     * The whole append as one statement in its own transaction, for a writer that knows (or
     * guesses) the session's head: $2 and $3 are that head, the arrays the sealed rows. The
     * positions come first (the head and event writes read them, so nothing assigns the
     * transaction id before allocate_positions); the head row moves on only if it is still
     * that head, and the events are written only if it did. `stored` 0: the guess was wrong
     * and nothing but the positions was taken.
     */
    appendAtHead: prepared(appendAtHead(s, "existing", "batch")),
    /** `appendAtHead` for a session expected to be new ($2 = 0): creates its head row. */
    appendToNew: prepared(appendAtHead(s, "new", "batch")),
    /**
     * `appendAtHead` and `appendToNew` for one event, $4-$9 its columns instead of arrays: no
     * array literals to write and parse, no unnest (most appends are one event).
     */
    appendOneAtHead: prepared(appendAtHead(s, "existing", "one")),
    appendOneToNew: prepared(appendAtHead(s, "new", "one")),
    /** Moves a session's driver epoch on by one (creating its head row at sequence 0). */
    takeDriverEpoch: `INSERT INTO ${s}.sessions (session_id, last_sequence, last_hash, driver_epoch)
      VALUES ($1, 0, '${GENESIS_HASH}', 1)
      ON CONFLICT (session_id) DO UPDATE SET driver_epoch = ${s}.sessions.driver_epoch + 1
      RETURNING driver_epoch`,
    driverEpoch: `SELECT driver_epoch FROM ${s}.sessions WHERE session_id = $1`,
    head: `SELECT last_sequence, last_hash FROM ${s}.sessions WHERE session_id = $1 AND last_sequence > 0`,
    hashAt: `SELECT hash FROM ${s}.events WHERE session_id = $1 AND sequence = $2`,
    sessionPage: `SELECT ${ROW_COLUMNS} FROM ${s}.events
      WHERE session_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3`,
    /**
     * `settled`: the row's transaction is older than every transaction still in flight, so no
     * row can later appear before it. Position order is transaction order (allocate_positions),
     * so the settled rows of a page are a prefix of it.
     */
    feedPage: `SELECT ${ROW_COLUMNS},
        transaction_id < pg_snapshot_xmin(pg_current_snapshot()) AS settled
      FROM ${s}.events WHERE position > $1 ORDER BY position LIMIT $2`,
    sessions: `SELECT session_id, last_sequence, first_timestamp, last_timestamp
      FROM ${s}.sessions WHERE last_sequence > 0 ORDER BY first_position`
  };
}
function prepared(text) {
  return { name: `correx_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`, text };
}
function appendAtHead(s, session, rows) {
  const one = rows === "one";
  const n = one ? "1" : "cardinality($4::text[])";
  const lastHash = one ? "$8::text" : `($8::text[])[${n}]`;
  const lastTimestamp = one ? "$6::text" : `($6::text[])[${n}]`;
  const firstTimestamp = one ? "$6::text" : "($6::text[])[1]";
  const source = one ? `(VALUES ($4::text, $5::text, $6::text, $7::text, $8::text, $9::text, 1::bigint))` : `unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
        WITH ORDINALITY`;
  const runnability = "$10::text";
  const epoch = "$11::bigint";
  const head = session === "new" ? (
    // A head row that exists already (another writer got there first) is a wrong guess.
    `INSERT INTO ${s}.sessions (session_id, last_sequence, last_hash, last_timestamp,
           first_position, first_timestamp, is_child, runnable, runnable_since)
         SELECT $1::text, ${n}, ${lastHash}, ${lastTimestamp}, alloc.first, ${firstTimestamp},
           ${runnability} = 'child', ${runnability} = 'runnable',
           CASE WHEN ${runnability} = 'runnable' THEN clock_timestamp() END
         FROM alloc WHERE $2::bigint = 0 AND $3::text = '${GENESIS_HASH}'
           AND coalesce(${epoch}, 0) = 0
         ON CONFLICT (session_id) DO NOTHING
         RETURNING 1`
  ) : (
    // Waits for the row lock of a writer ahead of it, then re-checks against what it committed.
    `UPDATE ${s}.sessions h SET last_sequence = $2::bigint + ${n}, last_hash = ${lastHash},
           last_timestamp = ${lastTimestamp},
           first_position = coalesce(h.first_position, alloc.first),
           first_timestamp = coalesce(h.first_timestamp, ${firstTimestamp}),
           is_child = h.is_child OR ${runnability} = 'child',
           runnable = CASE WHEN h.is_child OR ${runnability} = 'child' THEN false
             WHEN ${runnability} = 'runnable' THEN true
             WHEN ${runnability} IN ('idle', 'final') THEN false ELSE h.runnable END,
           runnable_since = CASE WHEN h.is_child OR ${runnability} IN ('child', 'idle', 'final') THEN NULL
             WHEN ${runnability} = 'runnable' THEN coalesce(h.runnable_since, clock_timestamp())
             ELSE h.runnable_since END
         FROM alloc
         WHERE h.session_id = $1::text AND h.last_sequence = $2::bigint AND h.last_hash = $3::text
           AND (${epoch} IS NULL OR h.driver_epoch = ${epoch})
         RETURNING 1`
  );
  return `WITH alloc AS MATERIALIZED (SELECT ${s}.allocate_positions(${n}) AS first),
    head AS (${head}),
    inserted AS (
      INSERT INTO ${s}.events
        (position, session_id, sequence, event_id, type, event_timestamp, bytes, hash, previous_hash)
      SELECT alloc.first + e.ord - 1, $1::text, $2::bigint + e.ord, e.event_id, e.type, e.at,
        e.bytes, e.hash, e.previous_hash
      FROM alloc, head, ${source} AS e(event_id, type, at, bytes, hash, previous_hash, ord))
    SELECT alloc.first, (SELECT count(*) FROM head)::int AS stored FROM alloc`;
}

// src/infrastructure/postgres/postgres-wake-sender.ts
function createWakeSender(send, options = {}) {
  const intervalMs = options.intervalMs ?? 0;
  const now = options.now ?? (() => performance.now());
  let sending;
  let pending = false;
  let pendingRunnable = false;
  let lastSentAt = -Infinity;
  let hurry = false;
  let skipWait;
  async function drain() {
    try {
      while (pending) {
        const wait = lastSentAt + intervalMs - now();
        if (wait > 0 && !hurry) {
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, wait);
            skipWait = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          skipWait = void 0;
        }
        const runnable = pendingRunnable;
        pending = false;
        pendingRunnable = false;
        lastSentAt = now();
        await send(runnable).catch(() => void 0);
      }
    } finally {
      sending = void 0;
      hurry = false;
    }
  }
  return {
    wake(runnable) {
      pending = true;
      pendingRunnable ||= runnable;
      sending ??= drain();
    },
    async flush() {
      if (!sending) return;
      hurry = true;
      skipWait?.();
      await sending;
    }
  };
}

// src/infrastructure/postgres/postgres-event-store.ts
var UNIQUE_EVENT_ID = "events_event_id_unique";
var UNIQUE_SEQUENCE = "events_session_sequence_unique";
var MAX_APPEND_ATTEMPTS = 5;
var DEFAULT_WAKE_INTERVAL_MS = 5;
function toEventRow(raw) {
  return {
    position: Number(raw.position),
    sessionId: raw.session_id,
    sequence: Number(raw.sequence),
    eventId: raw.event_id,
    bytes: raw.bytes,
    hash: raw.hash,
    previousHash: raw.previous_hash
  };
}
var PostgresEventStore = class {
  /** Use `openPostgresEventStore`, which checks the connection and schema first. */
  constructor(location, schema, pool, ownsPool, options) {
    this.location = location;
    this.schema = schema;
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#codec = createEventCodec(options.catalog);
    this.#sha256 = options.sha256 ?? nodeSha256;
    this.#sql = createPostgresStatements(schema, location);
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#settleTimeoutMs = options.settleTimeoutMs ?? 2e3;
    this.#runnability = options.runnability;
    this.#listener = createFeedListener(pool, this.#sql.channel, () => this.#notifier.notify());
    this.#wakes = createWakeSender(
      (runnable) => pool.query(runnable ? this.#sql.notifyRunnable : this.#sql.notify),
      { intervalMs: options.wakeIntervalMs ?? DEFAULT_WAKE_INTERVAL_MS }
    );
  }
  location;
  schema;
  #pool;
  #ownsPool;
  #codec;
  #sha256;
  #sql;
  #notifier = createAppendNotifier();
  #pollIntervalMs;
  #settleTimeoutMs;
  #listener;
  #runnability;
  #heads = new SessionHeadCache();
  #wakes;
  #closed = false;
  async append(event, options) {
    const [stored] = await this.appendAll([event], options);
    return stored;
  }
  async appendAll(events, options) {
    this.#open();
    const batch = normalizeBatch(this.#codec, events);
    const sessionId = batch[0].sessionId;
    const runnability = this.#runnability?.(batch.map((event) => event.payload)) ?? "unchanged";
    for (let attempt = 1; ; attempt++) {
      try {
        return (attempt === 1 ? await this.#appendAtHead(batch, options, runnability) : void 0) ?? await this.#appendLocked(batch, options, runnability);
      } catch (error) {
        this.#heads.forget(sessionId);
        if (isUniqueViolation(error, UNIQUE_EVENT_ID) && attempt < MAX_APPEND_ATTEMPTS) continue;
        if (isUniqueViolation(error, UNIQUE_SEQUENCE)) {
          const actual = await this.lastSequence(sessionId);
          throw new ConcurrencyError(sessionId, options?.expectedSequence ?? actual, actual);
        }
        throw this.#describe(error, "append");
      }
    }
  }
  /**
   * The append as one round trip: seals the batch after the head this store last saw for the
   * session (or reads it, without a lock), and writes it in one statement that checks the head
   * under its row lock. Undefined when the head was not the one expected (another writer moved
   * it, or `expectedSequence` differs): nothing was stored, and the locked path decides.
   */
  async #appendAtHead(batch, options, runnability) {
    const sessionId = batch[0].sessionId;
    const expected = options?.expectedSequence;
    const client = await this.#connect();
    let broken = false;
    try {
      const head = this.#expectedHead(sessionId, expected) ?? await this.#readHead(client, sessionId);
      if (!head || expected !== void 0 && expected !== head.sequence) return void 0;
      const sealed = sealBatch(this.#codec, this.#sha256, batch, head);
      const one = sealed.length === 1;
      const statement = one ? head.sequence === 0 ? this.#sql.appendOneToNew : this.#sql.appendOneAtHead : head.sequence === 0 ? this.#sql.appendToNew : this.#sql.appendAtHead;
      const columns = one ? rowColumns(sealed[0]) : sealedColumns(sealed);
      const result = (await client.query({
        ...statement,
        values: [
          sessionId,
          head.sequence,
          head.hash,
          ...columns,
          runnability,
          options?.driverEpoch ?? null
        ]
      })).rows[0];
      if (result.stored === 0) return void 0;
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
  #expectedHead(sessionId, expected) {
    const cached = this.#heads.get(sessionId);
    if (cached) return expected === void 0 || expected === cached.sequence ? cached : false;
    return expected === 0 ? { sequence: 0, hash: GENESIS_HASH } : void 0;
  }
  /** The committed head, read without a lock (the append statement re-checks it under one). */
  async #readHead(client, sessionId) {
    const head = (await client.query(this.#sql.head, [sessionId])).rows[0];
    return head ? { sequence: Number(head.last_sequence), hash: head.last_hash } : { sequence: 0, hash: GENESIS_HASH };
  }
  /**
   * The append under the session's head lock, in one transaction: settles a retried batch,
   * reports a stale `expectedSequence`, and otherwise writes after whatever head it finds.
   */
  async #appendLocked(batch, options, runnability) {
    const sessionId = batch[0].sessionId;
    const eventIds = batch.map((event) => event.eventId);
    const client = await this.#connect();
    let broken = false;
    try {
      const first = Number(
        lastResult(await client.query(this.#sql.beginAndAllocate(batch.length))).rows[0].first
      );
      const found = (await client.query(this.#sql.lockHeadAndFind, [sessionId, GENESIS_HASH, eventIds])).rows;
      const head = found[0];
      const settle = (rows) => {
        const existing = /* @__PURE__ */ new Map();
        for (const raw of rows)
          if (raw.event_id !== null)
            existing.set(raw.event_id, this.#codec.decodeRow(toEventRow(raw)));
        return settleRetry(this.#codec, batch, existing);
      };
      let retried = settle(found);
      const lastSequence = Number(head.last_sequence);
      if (!retried && options?.expectedSequence !== void 0 && options.expectedSequence !== lastSequence) {
        retried = settle((await client.query(this.#sql.byEventIds, [eventIds])).rows);
      }
      if (retried) {
        await client.query("ROLLBACK");
        return retried;
      }
      checkDriverEpoch(sessionId, options, Number(head.driver_epoch));
      checkExpectedSequence(sessionId, options, lastSequence);
      const sealed = sealBatch(this.#codec, this.#sha256, batch, {
        sequence: lastSequence,
        hash: head.last_hash
      });
      const last = sealed.at(-1);
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
        sealed[0].timestamp,
        runnability
      ]);
      await client.query("COMMIT");
      return this.#stored(batch, sealed, first, runnability);
    } catch (error) {
      broken = isConnectionFailure(error);
      if (!broken) await client.query("ROLLBACK").catch(() => void 0);
      throw error;
    } finally {
      client.release(broken);
    }
  }
  /** After a commit: remembers the new head, wakes local and remote subscribers, returns the envelopes. */
  #stored(batch, sealed, first, runnability) {
    const last = sealed.at(-1);
    this.#heads.set(last.sessionId, { sequence: last.sequence, hash: last.hash });
    this.#notifier.notify();
    this.#wakes.wake(runnability === "runnable");
    return sealed.map((row, index) => toStoredEvent(batch[index], row, first + index));
  }
  async takeDriverEpoch(sessionId) {
    this.#open();
    const rows = await this.#query(this.#sql.takeDriverEpoch, [
      sessionId
    ]);
    return Number(rows.rows[0].driver_epoch);
  }
  async driverEpoch(sessionId) {
    this.#open();
    const rows = await this.#query(this.#sql.driverEpoch, [sessionId]);
    return Number(rows.rows[0]?.driver_epoch ?? 0);
  }
  async read(sessionId, options = {}) {
    return collectEvents(this.stream(sessionId, options), options.limit);
  }
  stream(sessionId, options = {}) {
    this.#open();
    return streamSession(
      this.#rowSource,
      this.#codec,
      this.#sha256,
      sessionId,
      options.afterSequence
    );
  }
  async lastSequence(sessionId) {
    this.#open();
    const head = await this.#query(this.#sql.head, [sessionId]);
    return Number(head.rows[0]?.last_sequence ?? 0);
  }
  async listSessions() {
    this.#open();
    const result = await this.#query(this.#sql.sessions, []);
    return result.rows.map((row) => ({
      sessionId: row.session_id,
      lastSequence: Number(row.last_sequence),
      firstTimestamp: row.first_timestamp,
      lastTimestamp: row.last_timestamp
    }));
  }
  /**
   * Every event committed before the call, and possibly later ones. Rows held back because an
   * older transaction is still in flight are waited for up to `settleTimeoutMs`; after that the
   * safe prefix is returned and the rest comes on the next read.
   */
  readAll(options = {}) {
    this.#open();
    return pageFeed((after, limit) => this.#settledPage(after, limit), options);
  }
  subscribe(options = {}) {
    this.#open();
    return liveFeed(
      {
        // Waits for held-back rows like readAll, so `caught_up` means what it says.
        readPage: async (after, limit) => this.#closed ? [] : this.#settledPage(after, limit),
        // NOTIFY wakes the feed as soon as any process commits; polling covers a lost listener
        // and rows held back behind a transaction that was still in flight.
        nextChange: () => {
          this.#listener.ensure();
          return Promise.race([this.#notifier.next(), delay(this.#pollIntervalMs)]);
        }
      },
      options
    );
  }
  async verify(sessionId) {
    this.#open();
    return verifySession(this.#rowSource, this.#codec, this.#sha256, sessionId);
  }
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#notifier.notify();
    await this.#wakes.flush();
    await this.#listener.close();
    if (this.#ownsPool) await this.#pool.end();
  }
  /** Rows of one session, for the shared read paths. */
  #rowSource = {
    page: async (sessionId, after, limit) => {
      this.#open();
      const result = await this.#query(this.#sql.sessionPage, [sessionId, after, limit]);
      return result.rows.map(toEventRow);
    },
    hashAt: async (sessionId, sequence) => (await this.#query(this.#sql.hashAt, [sessionId, sequence])).rows[0]?.hash,
    head: async (sessionId) => {
      const head = (await this.#query(this.#sql.head, [sessionId])).rows[0];
      return head && { sequence: Number(head.last_sequence), hash: head.last_hash };
    }
  };
  /**
   * Up to `limit` feed events after `afterPosition`, waiting up to `settleTimeoutMs` while
   * committed rows are held back behind an older transaction still in flight.
   */
  async #settledPage(afterPosition, limit) {
    const deadline = Date.now() + this.#settleTimeoutMs;
    const events = [];
    let after = afterPosition;
    for (; ; ) {
      const page = await this.#feedPage(after, limit - events.length);
      events.push(...page.events);
      if (page.events.length > 0) after = page.events.at(-1).position;
      if (events.length >= limit || !page.heldBack || this.#closed || Date.now() >= deadline)
        return events;
      if (page.events.length === 0) await delay(5);
    }
  }
  /** One page of the feed, cut before the first row whose transaction may not be the last to land before it. */
  async #feedPage(afterPosition, limit) {
    this.#open();
    const result = await this.#query(this.#sql.feedPage, [afterPosition, limit]);
    const events = [];
    for (const raw of result.rows) {
      if (!raw.settled) return { events, heldBack: true };
      const row = toEventRow(raw);
      checkRowHash(this.#sha256, row);
      events.push(this.#codec.decodeVerifiedRow(row, row.hash));
    }
    return { events, heldBack: false };
  }
  async #query(text, values) {
    try {
      return await this.#pool.query(text, values);
    } catch (error) {
      throw this.#describe(error, "read");
    }
  }
  async #connect() {
    try {
      return await this.#pool.connect();
    } catch (error) {
      throw this.#describe(error, "connect");
    }
  }
  #describe(error, during) {
    if (during === "append" && isConnectionFailure(error)) {
      return new PostgresConnectError(
        this.location,
        "connection_lost",
        "the connection was lost during an append; it may or may not have been stored: retry with the same event ids (a stored batch is returned, never duplicated)",
        error
      );
    }
    return describeConnectFailure(this.location, error);
  }
  #open() {
    if (this.#closed) throw new StoreClosedError(`PostgreSQL event store ${this.location}`);
  }
};
function lastResult(result) {
  return Array.isArray(result) ? result.at(-1) : result;
}
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
async function openPostgresEventStore(options) {
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const { pool, ownsPool, location } = await openPool(options, schema);
  return new PostgresEventStore(location, schema, pool, ownsPool, options);
}
async function openPool(options, schema, serverName) {
  const ownsPool = options.pool === void 0;
  const pool = options.pool ?? createPostgresPool(options.connectionString, options);
  const server = options.connectionString ? redactConnectionString(options.connectionString) : serverName ?? describePool(pool);
  const location = `${server} (schema ${schema})`;
  try {
    await checkConnection(pool, server);
    if (options.migrate) await migratePool(pool, server, schema);
    else await checkSchema(pool, server, schema);
    return { pool, ownsPool, location };
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => void 0);
    throw error;
  }
}
function describePool(pool) {
  const { host, port, database, user } = pool.options;
  return `postgres://${user ?? ""}@${host ?? "localhost"}:${port ?? 5432}/${database ?? ""}`;
}
function rowColumns(row) {
  return [row.eventId, row.type, row.timestamp, row.bytes, row.hash, row.previousHash];
}
function sealedColumns(sealed) {
  const rows = sealed.map(rowColumns);
  return rows[0].map((_column, index) => rows.map((columns) => columns[index]));
}

export {
  PostgresEventStore,
  openPostgresEventStore,
  openPool
};
