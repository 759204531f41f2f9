import pg from 'pg';
import { GENESIS_HASH } from '../../core/events/hash-chain.js';
import {
  DriverLeaseLostError,
  SessionBusyError,
  type SessionLock,
  type SessionLocker,
} from '../locks/session-locker.js';
import { durableConnection, guardPool, quoteSchema, schemaLockKey } from './postgres-connection.js';
import { DEFAULT_LEASE_MS, leaseFree } from './postgres-driver-lease.js';

export type PostgresLockerOptions = {
  /** Who drives: the lease names it, and each take is written to `session_drivers`. */
  readonly driver?: string;
  /**
   * How long a lease holds without a renewal (default 30 s). The holder renews it three times
   * per period; a holder silent for longer may be replaced by anyone, who moves the epoch on.
   */
  readonly leaseMs?: number;
};

/**
 * Driver leases on a shared PostgreSQL store (docs/postgres.md "Fencing"). Taking a session moves
 * its driver epoch on in the head row, in one transaction that checks the lease is free: nobody
 * holds it, its holder stopped renewing, or the holder's lock connection is gone (a session
 * advisory lock on a connection of the lease's own is its liveness, ended by the server with
 * the connection). The holder renews on that connection; a renewal that fails or finds another
 * epoch, or the connection's end, aborts `lost`. Which driver may append is the epoch's to say,
 * checked by every append: timestamps only decide when a silent holder may be replaced.
 */
/** Tries at saying a lost driver stopped: about a minute of doubling waits, capped at 2 s. */
const STOP_SAID_ATTEMPTS = 35;

export function createPostgresSessionLocker(
  pool: pg.Pool,
  schema: string,
  options: PostgresLockerOptions = {},
): SessionLocker {
  const s = quoteSchema(schema, 'the driver lock');
  // Keyed by the schema and the session id, so stores in different schemas never contend.
  const namespace = schemaLockKey(`session-driver:${schema}`);
  const leaseMs = Math.max(300, Math.floor(options.leaseMs ?? DEFAULT_LEASE_MS));
  const name = options.driver ?? 'correx driver';
  const held = new Set<SessionLock>();

  const take = `UPDATE ${s}.sessions r SET driver_epoch = r.driver_epoch + 1, driver = $2,
      driver_backend = CASE WHEN $3 THEN pg_backend_pid() END,
      lease_renewed_at = clock_timestamp(), lease_ms = $4
    WHERE r.session_id = $1 AND ${leaseFree('r', '$5')}
    RETURNING r.driver_epoch, r.last_sequence`;
  const renew = `UPDATE ${s}.sessions SET lease_renewed_at = clock_timestamp(),
      driver_backend = CASE WHEN $3 THEN pg_backend_pid() ELSE driver_backend END
    WHERE session_id = $1 AND driver_epoch = $2 RETURNING 1`;

  let closing = false;
  /** Retries of a stop not yet said, running on after the release that started them. */
  const retrying = new Set<Promise<void>>();
  const markStopped = (record: string) =>
    pool.query(
      `UPDATE ${s}.session_drivers SET stopped_at = clock_timestamp()
       WHERE id = $1 AND stopped_at IS NULL`,
      [record],
    );
  /**
   * Writes on a lost driver's record that its run has stopped. A lease is often lost because
   * the store went away (every connection ended, a restart): the first try is the release's,
   * and when it fails the write is retried in the background, with a doubling wait, for up to
   * about a minute and never past `close`, so a release (and the drive's end) waits on no outage.
   */
  const sayStopped = async (record: string) => {
    if (
      await markStopped(record).then(
        () => true,
        () => false,
      )
    )
      return;
    const retry = (async () => {
      for (let attempt = 1; attempt <= STOP_SAID_ATTEMPTS && !closing; attempt++) {
        await new Promise((done) => setTimeout(done, Math.min(100 * 2 ** attempt, 2_000)));
        if (closing) return;
        if (
          await markStopped(record).then(
            () => true,
            () => false,
          )
        )
          return;
      }
    })();
    retrying.add(retry);
    void retry.finally(() => retrying.delete(retry));
  };

  return {
    async acquire(sessionId) {
      const client = await pool.connect();
      // A connection the server ends while held: its error is the lease's loss, never unhandled.
      const errors: Error[] = [];
      let onLost: (error: Error) => void = (error) => errors.push(error);
      let onEnd: () => void = () => errors.push(new Error('the connection ended'));
      const listeners = { error: (error: Error) => onLost(error), end: () => onEnd() };
      client.on('error', listeners.error);
      client.on('end', listeners.end);
      /** A connection going back to the pool for other leases: its listeners stay here. */
      const detach = () => {
        client.off('error', listeners.error);
        client.off('end', listeners.end);
      };
      let locked = false;
      let epoch: number;
      let record: string | undefined;
      try {
        locked =
          (
            await client.query<{ locked: boolean }>(
              'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
              [namespace, sessionId],
            )
          ).rows[0]?.locked === true;
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO ${s}.sessions (session_id, last_sequence, last_hash) VALUES ($1, 0, $2)
           ON CONFLICT (session_id) DO NOTHING`,
          [sessionId, GENESIS_HASH],
        );
        const taken = (
          await client.query<{ driver_epoch: string; last_sequence: string }>(take, [
            sessionId,
            name,
            locked,
            leaseMs,
            namespace,
          ])
        ).rows[0];
        if (taken === undefined) {
          const holder = (
            await client.query<{ driver: string | null }>(
              `SELECT driver FROM ${s}.sessions WHERE session_id = $1`,
              [sessionId],
            )
          ).rows[0]?.driver;
          await client.query('ROLLBACK');
          throw new SessionBusyError(sessionId, holder ?? 'another process');
        }
        epoch = Number(taken.driver_epoch);
        if (options.driver !== undefined) {
          const { rows: records } = await client.query<{ id: string }>(
            `INSERT INTO ${s}.session_drivers (session_id, worker, backend_pid, from_sequence, epoch)
             VALUES ($1, $2, pg_backend_pid(), $3, $4) RETURNING id`,
            [sessionId, options.driver, taken.last_sequence, epoch],
          );
          record = records[0]?.id;
        }
        await client.query('COMMIT');
        if (errors.length > 0) throw errors[0]!;
      } catch (error) {
        if (!(error instanceof SessionBusyError)) await client.query('ROLLBACK').catch(() => {});
        if (locked)
          await client
            .query('SELECT pg_advisory_unlock($1, hashtext($2))', [namespace, sessionId])
            .catch(() => undefined);
        if (error instanceof SessionBusyError) {
          detach();
          client.release();
        } else client.release(error as Error);
        throw error;
      }

      const loss = new AbortController();
      let gone = false;
      /** Ends the lease without a release: the connection is dropped, and with it the lock. */
      /** Lost, and its stop not yet written to its driver record. */
      let stopUnsaid = false;
      const lose = (reason: string) => {
        if (gone) return;
        gone = true;
        stopUnsaid = true;
        clearInterval(timer);
        held.delete(lock);
        loss.abort(new DriverLeaseLostError(sessionId, reason));
        client.release(new Error(reason));
      };
      onLost = (error) => lose(`its lock connection failed (${error.message})`);
      onEnd = () => lose('its lock connection ended');

      let renewing = false;
      /** When the last renewal that went through was sent (this process's monotonic clock). */
      let renewedAt = performance.now();
      const renewOnce = async () => {
        if (gone) return;
        // A renewal slow to answer (a loaded server or machine) is waited for, up to the lease:
        // past it another process may have taken the session, so this one stops.
        if (renewing) {
          if (performance.now() - renewedAt > leaseMs)
            lose(`its lease was not renewed within ${leaseMs} ms`);
          return;
        }
        renewing = true;
        const sent = performance.now();
        try {
          // A holder that took the session from a silent one has no advisory lock yet: it takes
          // it as soon as the silent one's connection lets go.
          if (!locked)
            locked =
              (
                await client.query<{ locked: boolean }>(
                  'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
                  [namespace, sessionId],
                )
              ).rows[0]?.locked === true;
          const renewed = await client.query(renew, [sessionId, epoch, locked]);
          if (renewed.rowCount === 0)
            lose(`another process took it (its driver epoch moved past ${epoch})`);
          else renewedAt = sent;
        } catch (error) {
          lose(`its lease could not be renewed (${(error as Error).message})`);
        } finally {
          renewing = false;
        }
      };
      const timer = setInterval(() => void renewOnce(), Math.max(100, Math.floor(leaseMs / 3)));
      timer.unref();

      const lock: SessionLock = {
        epoch,
        lost: loss.signal,
        async release() {
          held.delete(lock);
          // A lost lease is released once its holder's run has stopped: that is said on the
          // driver record, through another connection (the lock's own is gone), so a person
          // asked about a command this driver started knows it no longer runs. Said once, and
          // only as well as the store can be reached: unsaid, the record reads "unconfirmed".
          if (stopUnsaid && record !== undefined) {
            stopUnsaid = false;
            await sayStopped(record);
          }
          if (gone) return;
          gone = true;
          clearInterval(timer);
          while (renewing) await new Promise((done) => setTimeout(done, 5));
          try {
            await client.query(
              `UPDATE ${s}.sessions SET driver = NULL, driver_backend = NULL, lease_renewed_at = NULL
               WHERE session_id = $1 AND driver_epoch = $2`,
              [sessionId, epoch],
            );
            if (record !== undefined)
              await client.query(
                `UPDATE ${s}.session_drivers SET released_at = clock_timestamp(),
                   to_sequence = coalesce((SELECT last_sequence FROM ${s}.sessions WHERE session_id = $2), 0)
                 WHERE id = $1`,
                [record, sessionId],
              );
            if (locked)
              await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [
                namespace,
                sessionId,
              ]);
            detach();
            client.release();
          } catch (error) {
            // A broken connection has released the lock already; drop it from the pool. Its
            // run has ended all the same, which a person may be waiting to hear: said as a
            // lost driver says it, through the pool.
            client.release(error as Error);
            if (record !== undefined) await sayStopped(record);
          }
        },
      };
      held.add(lock);
      return lock;
    },
    // The pool ends only once its clients are back: hand back what is still held first.
    close: async () => {
      closing = true;
      await Promise.all(retrying);
      for (const lock of [...held]) await lock.release();
      await pool.end();
    },
  };
}

/**
 * A locker with its own small pool on the store's server. The pool lets the process exit while
 * no lock is held, so a finished `correx run` does not wait for idle connections to time out.
 */
export function openPostgresSessionLocker(
  url: string,
  schema: string,
  options: PostgresLockerOptions = {},
): SessionLocker {
  const pool = new pg.Pool({
    ...durableConnection(url),
    max: 32,
    allowExitOnIdle: true,
    keepAlive: true,
    application_name: options.driver ?? 'correx driver',
  });
  guardPool(pool);
  return createPostgresSessionLocker(pool, schema, options);
}
