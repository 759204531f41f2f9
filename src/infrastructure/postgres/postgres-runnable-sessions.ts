import pg from 'pg';
import {
  DEFAULT_POSTGRES_SCHEMA,
  quoteSchema,
  redactConnectionString,
  schemaLockKey,
} from './postgres-connection.js';
import { describeConnectFailure } from './postgres-errors.js';
import { createFeedListener } from './postgres-feed-listener.js';

/** A session's driver now: the worker (or `correx run`, `correx serve`) that holds its lock. */
export type SessionDriver = {
  readonly sessionId: string;
  readonly driver: string;
  readonly since: string;
};

/** One driver record: who held a session's driver lock from which sequence, until when. */
export type DriverRecord = {
  readonly sessionId: string;
  readonly driver: string;
  readonly fromSequence: number;
  /** Null: the driver still holds it, or died holding it. */
  readonly toSequence: number | null;
};

/**
 * The runnable sessions of one schema, as workers see them: the head rows the appends mark
 * runnable (in their own transaction, see postgres-statements.ts), less those whose driver lock
 * is held now. `onRunnable` is called when any process leaves a session runnable (LISTEN); a
 * lost notification is made good by the caller's periodic sweep.
 */
export function createRunnableSessions(pool: pg.Pool, schema: string, location: string) {
  const s = quoteSchema(schema, location);
  // The same key the driver lock takes (postgres-session-locker.ts): held means driven.
  const namespace = schemaLockKey(`session-driver:${schema}`);
  const held = `EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'
      AND l.classid = $1::int AND l.objid = hashtext(r.session_id)::oid AND l.granted)`;
  const query = async <Row extends pg.QueryResultRow>(text: string, values: unknown[]) => {
    try {
      return (await pool.query<Row>(text, values)).rows;
    } catch (error) {
      throw describeConnectFailure(location, error);
    }
  };
  return {
    /** Up to `limit` runnable sessions nobody drives, longest runnable first. */
    async free(limit: number): Promise<string[]> {
      const rows = await query<{ session_id: string }>(
        `SELECT r.session_id FROM ${s}.sessions r WHERE r.runnable AND NOT ${held}
         ORDER BY r.runnable_since LIMIT $2`,
        [namespace, limit],
      );
      return rows.map((row) => row.session_id);
    },
    /** When each session became runnable (null: not runnable). */
    async runnableSince(sessionId: string): Promise<Date | null> {
      const rows = await query<{ runnable_since: Date | null }>(
        `SELECT runnable_since FROM ${s}.sessions WHERE session_id = $1`,
        [sessionId],
      );
      return rows[0]?.runnable_since ?? null;
    },
    /** The sessions driven now and by whom: the newest record whose connection holds the lock. */
    async drivers(): Promise<SessionDriver[]> {
      const rows = await query<{ session_id: string; worker: string; acquired_at: Date }>(
        `SELECT DISTINCT ON (d.session_id) d.session_id, d.worker, d.acquired_at
         FROM ${s}.session_drivers d
         WHERE d.released_at IS NULL AND EXISTS (SELECT 1 FROM pg_locks l
           WHERE l.locktype = 'advisory' AND l.classid = $1::int
             AND l.objid = hashtext(d.session_id)::oid AND l.granted AND l.pid = d.backend_pid)
         ORDER BY d.session_id, d.id DESC`,
        [namespace],
      );
      return rows.map((row) => ({
        sessionId: row.session_id,
        driver: row.worker,
        since: row.acquired_at.toISOString(),
      }));
    },
    /** Every driver record of a session, oldest first. */
    async driverRecords(sessionId: string): Promise<DriverRecord[]> {
      const rows = await query<{
        worker: string;
        from_sequence: string;
        to_sequence: string | null;
      }>(
        `SELECT worker, from_sequence, to_sequence FROM ${s}.session_drivers
         WHERE session_id = $1 ORDER BY id`,
        [sessionId],
      );
      return rows.map((row) => ({
        sessionId,
        driver: row.worker,
        fromSequence: Number(row.from_sequence),
        toSequence: row.to_sequence === null ? null : Number(row.to_sequence),
      }));
    },
    /** Who wrote each event of a session (the connection's application name), by sequence. */
    async writers(sessionId: string): Promise<{ sequence: number; writer: string | null }[]> {
      const rows = await query<{ sequence: string; writer: string | null }>(
        `SELECT sequence, writer FROM ${s}.events WHERE session_id = $1 ORDER BY sequence`,
        [sessionId],
      );
      return rows.map((row) => ({ sequence: Number(row.sequence), writer: row.writer }));
    },
    /** LISTENs for sessions becoming runnable until the returned function is called. */
    listen(onRunnable: () => void): { ensure(): void; close(): Promise<void> } {
      const listener = createFeedListener(pool, `correx_runnable_${schema}`, onRunnable);
      listener.ensure();
      return listener;
    },
  };
}

export type RunnableSessions = ReturnType<typeof createRunnableSessions>;

/** The runnable table and driver records of a PostgreSQL store, on a small pool of its own. */
export function openRunnableSessions(
  url: string,
  applicationName: string,
  schema: string = DEFAULT_POSTGRES_SCHEMA,
): { sessions: RunnableSessions; close(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    allowExitOnIdle: true,
    application_name: applicationName,
  });
  pool.on('error', () => undefined);
  return {
    sessions: createRunnableSessions(pool, schema, redactConnectionString(url)),
    close: () => pool.end(),
  };
}
