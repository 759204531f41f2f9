import pg from 'pg';
import { SessionBusyError, type SessionLock, type SessionLocker } from '../locks/session-locker.js';
import { quoteSchema, schemaLockKey } from './postgres-connection.js';

/**
 * Driver locks as PostgreSQL session-level advisory locks, so processes on different machines
 * sharing one store never drive the same session at once. Each held lock keeps its own
 * connection: if the process dies, the server ends the connection and the lock with it.
 */
export function createPostgresSessionLocker(
  pool: pg.Pool,
  schema: string,
  /** When set, each acquisition and release is written to `session_drivers` under this name. */
  driver?: string,
): SessionLocker {
  const s = quoteSchema(schema, 'the driver lock');
  // Keyed by the schema and the session id, so stores in different schemas never contend.
  const namespace = schemaLockKey(`session-driver:${schema}`);
  const held = new Set<SessionLock>();
  return {
    async acquire(sessionId) {
      const client = await pool.connect();
      let record: string | undefined;
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
          [namespace, sessionId],
        );
        if (rows[0]?.locked !== true) {
          const { rows: holders } = await client.query<{ pid: number; application_name: string }>(
            `SELECT a.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'advisory' AND l.classid = $1::int AND l.objid = hashtext($2)::oid AND l.granted`,
            [namespace, sessionId],
          );
          const holder = holders[0];
          throw new SessionBusyError(
            sessionId,
            holder === undefined
              ? 'another process'
              : `${holder.application_name || 'a client'} (server backend ${holder.pid})`,
          );
        }
        // On the lock's own connection: its backend id says whether this record's lock is held.
        if (driver !== undefined) {
          const { rows: records } = await client.query<{ id: string }>(
            `INSERT INTO ${s}.session_drivers (session_id, worker, backend_pid, from_sequence)
             SELECT $1, $2, pg_backend_pid(),
               coalesce((SELECT last_sequence FROM ${s}.sessions WHERE session_id = $1), 0)
             RETURNING id`,
            [sessionId, driver],
          );
          record = records[0]?.id;
        }
      } catch (error) {
        client.release();
        throw error;
      }
      // A connection the server ends (a restart, an administrator) has lost the lock with it:
      // hand it back to the pool as broken instead of letting its error go unhandled.
      let gone = false;
      const onError = (error: Error) => {
        if (gone) return;
        gone = true;
        client.release(error);
      };
      client.on('error', onError);
      const lock: SessionLock = {
        async release() {
          held.delete(lock);
          if (gone) return;
          gone = true;
          // The connection goes back to the pool for other locks: its listener stays here.
          client.off('error', onError);
          try {
            if (record !== undefined)
              await client.query(
                `UPDATE ${s}.session_drivers SET released_at = clock_timestamp(),
                   to_sequence = coalesce((SELECT last_sequence FROM ${s}.sessions WHERE session_id = $2), 0)
                 WHERE id = $1`,
                [record, sessionId],
              );
            await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [
              namespace,
              sessionId,
            ]);
            client.release();
          } catch (error) {
            // A broken connection has released the lock already; drop it from the pool.
            client.release(error as Error);
          }
        },
      };
      held.add(lock);
      return lock;
    },
    // The pool ends only once its clients are back: hand back what is still held first.
    close: async () => {
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
  /** Who drives (recorded in `session_drivers`); absent: no driver records. */
  driver?: string,
): SessionLocker {
  const pool = new pg.Pool({
    connectionString: url,
    max: 32,
    allowExitOnIdle: true,
    application_name: driver ?? 'correx driver',
  });
  pool.on('error', () => undefined);
  return createPostgresSessionLocker(pool, schema, driver);
}
