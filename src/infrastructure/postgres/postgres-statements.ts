import { createHash } from 'node:crypto';
import { GENESIS_HASH } from '../../core/events/hash-chain.js';
import { quoteSchema } from './postgres-connection.js';

const ROW_COLUMNS = 'position, session_id, sequence, event_id, bytes, hash, previous_hash';

/** The SQL of the event store, bound to one schema. */
export function createPostgresStatements(schema: string, location: string) {
  const s = quoteSchema(schema, location);
  return {
    /** NOTIFY channel of this schema's appends. */
    channel: `correx_events_${schema}`,
    /**
     * Opens the append's transaction and makes its first write: its transaction id and `n`
     * positions, taken together (see allocate_positions). One round trip; `n` is an integer.
     */
    beginAndAllocate: (n: number) =>
      `BEGIN; SELECT ${s}.allocate_positions(${Math.trunc(n)}) AS first`,
    /**
     * Returns the session's head and locks its row until commit, creating it (at sequence 0)
     * for a new session; a writer that waited gets the head its predecessor committed. Joined
     * with stored events that reuse the batch's ids ($3), read as of the statement's start.
     */
    lockHeadAndFind: `WITH head AS (
        INSERT INTO ${s}.sessions (session_id, last_sequence, last_hash) VALUES ($1, 0, $2)
        ON CONFLICT (session_id) DO UPDATE SET session_id = excluded.session_id
        RETURNING last_sequence, last_hash, driver_epoch)
      SELECT head.last_sequence, head.last_hash, head.driver_epoch, ${ROW_COLUMNS.split(', ')
        .map((column) => `e.${column}`)
        .join(', ')}
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
    appendAtHead: prepared(appendAtHead(s, 'existing', 'batch')),
    /** `appendAtHead` for a session expected to be new ($2 = 0): creates its head row. */
    appendToNew: prepared(appendAtHead(s, 'new', 'batch')),
    /**
     * `appendAtHead` and `appendToNew` for one event, $4-$9 its columns instead of arrays: no
     * array literals to write and parse, no unnest (most appends are one event).
     */
    appendOneAtHead: prepared(appendAtHead(s, 'existing', 'one')),
    appendOneToNew: prepared(appendAtHead(s, 'new', 'one')),
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
      FROM ${s}.sessions WHERE last_sequence > 0 ORDER BY first_position`,
  };
}

/**
 * A statement each connection parses and plans once, then reuses: planning the append's
 * statement costs about as much as running it. Named by its text, so stores of different
 * schemas sharing a pool never clash.
 */
function prepared(text: string): { readonly name: string; readonly text: string } {
  return { name: `correx_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
}

/**
 * Parameters: $1 session id, $2 and $3 the head the rows were sealed after (sequence, hash),
 * $4-$9 the rows (event ids, types, timestamps, bytes, hashes, previous hashes: arrays for a
 * `batch`, plain values for `one` event), $10 the batch's runnability (see
 * core/sessions/session-runnability.ts, or 'unchanged'), $11 the driver epoch of a driver
 * append (null: not a driver append): the head moves only while it is the session's epoch.
 */
function appendAtHead(s: string, session: 'new' | 'existing', rows: 'batch' | 'one'): string {
  const one = rows === 'one';
  const n = one ? '1' : 'cardinality($4::text[])';
  const lastHash = one ? '$8::text' : `($8::text[])[${n}]`;
  const lastTimestamp = one ? '$6::text' : `($6::text[])[${n}]`;
  const firstTimestamp = one ? '$6::text' : '($6::text[])[1]';
  const source = one
    ? `(VALUES ($4::text, $5::text, $6::text, $7::text, $8::text, $9::text, 1::bigint))`
    : `unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
        WITH ORDINALITY`;
  const runnability = '$10::text';
  const epoch = '$11::bigint';
  const head =
    session === 'new'
      ? // A head row that exists already (another writer got there first) is a wrong guess.
        `INSERT INTO ${s}.sessions (session_id, last_sequence, last_hash, last_timestamp,
           first_position, first_timestamp, is_child, runnable, runnable_since)
         SELECT $1::text, ${n}, ${lastHash}, ${lastTimestamp}, alloc.first, ${firstTimestamp},
           ${runnability} = 'child', ${runnability} = 'runnable',
           CASE WHEN ${runnability} = 'runnable' THEN clock_timestamp() END
         FROM alloc WHERE $2::bigint = 0 AND $3::text = '${GENESIS_HASH}'
           AND coalesce(${epoch}, 0) = 0
         ON CONFLICT (session_id) DO NOTHING
         RETURNING 1`
      : // Waits for the row lock of a writer ahead of it, then re-checks against what it committed.
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
         RETURNING 1`;
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

export type PostgresStatements = ReturnType<typeof createPostgresStatements>;
