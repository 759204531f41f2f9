import pg from 'pg';
import {
  DEFAULT_POSTGRES_SCHEMA,
  durableConnection,
  guardPool,
  quoteSchema,
  redactConnectionString,
  schemaLockKey,
} from './postgres-connection.js';
import { describeConnectFailure } from './postgres-errors.js';
import { leaseFree } from './postgres-driver-lease.js';
import { createFeedListener } from './postgres-feed-listener.js';

/** A session's driver now: the worker (or `correx run`, `correx serve`) that holds its lease. */
export type SessionDriver = {
  readonly sessionId: string;
  readonly driver: string;
  /** When it took the session. */
  readonly since: string;
  /** The driver epoch it took (see docs/postgres.md "Fencing"). */
  readonly epoch: number;
  /** How long ago it last renewed its lease, in ms (by the server's clock). */
  readonly leaseAgeMs: number;
  /**
   * Its lease ran out (no renewal for longer than it declared) or its lock connection is gone:
   * another worker may take the session over now.
   */
  readonly stalled: boolean;
};

/** One driver record: who held a session's driver lock from which sequence, until when. */
export type DriverRecord = {
  readonly sessionId: string;
  readonly driver: string;
  readonly fromSequence: number;
  /** Null: the driver still holds it, or died holding it. */
  readonly toSequence: number | null;
  /** Its driver epoch (the fencing token of its appends); null on records older than epochs. */
  readonly epoch: number | null;
  readonly acquiredAt: string;
  /** When it let go of the session in the ordinary way; null: it did not (yet). */
  readonly releasedAt: string | null;
  /** When, having lost the session, its run had stopped; null: not said (yet, or ever). */
  readonly stoppedAt: string | null;
};

/**
 * The runnable sessions of one schema, as workers see them: the head rows the appends mark
 * runnable (in their own transaction, see postgres-statements.ts), less those whose driver lease
 * is held now (postgres-driver-lease.ts). `onRunnable` is called when any process leaves a session runnable (LISTEN); a
 * lost notification is made good by the caller's periodic sweep.
 */
export function createRunnableSessions(pool: pg.Pool, schema: string, location: string) {
  const s = quoteSchema(schema, location);
  // The same key the driver lease takes (postgres-session-locker.ts).
  const namespace = schemaLockKey(`session-driver:${schema}`);

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
        `SELECT r.session_id FROM ${s}.sessions r WHERE r.runnable AND ${leaseFree('r', '$1')}
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
    /**
     * The sessions whose lease someone holds, by whom, and how fresh: the head rows name the
     * holder of the current epoch only, so a fenced-out driver is never shown as driving.
     */
    async drivers(): Promise<SessionDriver[]> {
      const rows = await query<{
        session_id: string;
        driver: string;
        driver_epoch: string;
        acquired_at: Date | null;
        lease_age_ms: number;
        stalled: boolean;
      }>(
        `SELECT r.session_id, r.driver, r.driver_epoch,
           (SELECT max(d.acquired_at) FROM ${s}.session_drivers d
             WHERE d.session_id = r.session_id AND d.epoch = r.driver_epoch) AS acquired_at,
           (extract(epoch FROM clock_timestamp() - r.lease_renewed_at) * 1000)::float8 AS lease_age_ms,
           ${leaseFree('r', '$1')} AS stalled
         FROM ${s}.sessions r WHERE r.driver IS NOT NULL AND r.lease_renewed_at IS NOT NULL`,
        [namespace],
      );
      return rows.map((row) => ({
        sessionId: row.session_id,
        driver: row.driver,
        since: (row.acquired_at ?? new Date(0)).toISOString(),
        epoch: Number(row.driver_epoch),
        leaseAgeMs: Math.max(0, Math.round(row.lease_age_ms)),
        stalled: row.stalled,
      }));
    },
    /** Every driver record of a session, oldest first. */
    async driverRecords(sessionId: string): Promise<DriverRecord[]> {
      const rows = await query<{
        worker: string;
        from_sequence: string;
        to_sequence: string | null;
        epoch: string | null;
        acquired_at: Date;
        released_at: Date | null;
        stopped_at: Date | null;
      }>(
        `SELECT worker, from_sequence, to_sequence, epoch, acquired_at, released_at, stopped_at
         FROM ${s}.session_drivers WHERE session_id = $1 ORDER BY id`,
        [sessionId],
      );
      return rows.map((row) => ({
        sessionId,
        driver: row.worker,
        fromSequence: Number(row.from_sequence),
        toSequence: row.to_sequence === null ? null : Number(row.to_sequence),
        epoch: row.epoch === null ? null : Number(row.epoch),
        acquiredAt: row.acquired_at.toISOString(),
        releasedAt: row.released_at?.toISOString() ?? null,
        stoppedAt: row.stopped_at?.toISOString() ?? null,
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
    ...durableConnection(url),
    max: 2,
    allowExitOnIdle: true,
    application_name: applicationName,
    keepAlive: true,
  });
  guardPool(pool);
  return {
    sessions: createRunnableSessions(pool, schema, redactConnectionString(url)),
    close: () => pool.end(),
  };
}
