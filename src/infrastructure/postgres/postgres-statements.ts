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
        RETURNING last_sequence, last_hash)
      SELECT head.last_sequence, head.last_hash, ${ROW_COLUMNS.split(', ')
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

export type PostgresStatements = ReturnType<typeof createPostgresStatements>;
