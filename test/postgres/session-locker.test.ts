import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SessionBusyError,
  type SessionLock,
  type SessionLocker,
} from '../../src/infrastructure/locks/session-locker.js';
import { schemaLockKey } from '../../src/infrastructure/postgres/postgres-connection.js';
import { migratePostgres } from '../../src/infrastructure/postgres/postgres-migrations.js';
import {
  openPostgresSessionLocker,
  type PostgresLockerOptions,
} from '../../src/infrastructure/postgres/postgres-session-locker.js';
import { expectRejection } from '../support/expect-rejection.js';
import { probeTestServer, schemaTracker, TEST_POSTGRES_URL } from './postgres-test-server.js';

const server = await probeTestServer();

/** Resolves with the reason once the lease is lost (a state, not a time). */
function lostReason(lock: SessionLock): Promise<string> {
  return new Promise((resolve) => {
    const signal = lock.lost!;
    const done = () => resolve(String((signal.reason as Error).message));
    if (signal.aborted) done();
    else signal.addEventListener('abort', done, { once: true });
  });
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Two lockers with pools of their own: two processes (or machines) sharing one store. */
describe.skipIf(!server.available)('PostgreSQL session driver leases', () => {
  const schemas = schemaTracker();
  const lockers: SessionLocker[] = [];
  const migrated = async () => {
    const schema = schemas.next();
    await migratePostgres(TEST_POSTGRES_URL, { schema });
    return schema;
  };
  const open = (schema: string, options: PostgresLockerOptions = {}) => {
    const locker = openPostgresSessionLocker(TEST_POSTGRES_URL, schema, options);
    lockers.push(locker);
    return locker;
  };
  afterEach(async () => {
    for (const locker of lockers.splice(0)) await locker.close();
  });

  it('lets one holder drive a session; another waits until it is released; each take moves the epoch on', async () => {
    const schema = await migrated();
    const here = open(schema);
    const there = open(schema);
    const lock = await here.acquire('s-1');
    expect(lock.epoch).toBe(1);
    await expectRejection(there.acquire('s-1'), SessionBusyError);
    await expect(there.acquire('s-1')).rejects.toThrow(/correx driver/);
    // Other sessions, and the same session in another schema, are not affected.
    await (await there.acquire('s-2')).release();
    await (await open(await migrated()).acquire('s-1')).release();
    await lock.release();
    const next = await there.acquire('s-1');
    expect(next.epoch).toBe(2);
    await next.release();
  });

  it('frees the lease of a holder whose lock connection is gone, and that holder learns it lost the session', async () => {
    const schema = await migrated();
    const here = open(schema);
    const there = open(schema);
    const lock = await here.acquire('s-3');
    await expectRejection(there.acquire('s-3'), SessionBusyError);
    const lost = lostReason(lock);
    await admin(async (client) => {
      // Only this lock's backend (other files' drivers share the server), and wait until it has
      // exited: without a timeout the call returns as soon as the signal is sent.
      const { rows } = await client.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid, 5000) AS ended FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND classid = $1::int AND objid = hashtext($2)::oid`,
        [schemaLockKey(`session-driver:${schema}`), 's-3'],
      );
      expect(rows).toEqual([{ ended: true }]);
    });
    const taken = await there.acquire('s-3');
    expect(taken.epoch).toBe(2);
    expect(await lost).toMatch(/lost the session s-3: its lock connection/);
    await taken.release();
  });

  it('a holder that lost its lease says on its driver record when its run stopped, once', async () => {
    const schema = await migrated();
    const here = open(schema, { driver: 'correx worker lost' });
    const there = open(schema, { driver: 'correx worker next' });
    const lock = await here.acquire('s-9');
    const lost = lostReason(lock);
    await admin((client) =>
      client.query(
        `SELECT pg_terminate_backend(pid, 5000) FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND classid = $1::int AND objid = hashtext($2)::oid`,
        [schemaLockKey(`session-driver:${schema}`), 's-9'],
      ),
    );
    await lost;
    const taken = await there.acquire('s-9');
    const records = () =>
      admin(async (client) => {
        const { rows } = await client.query<{
          worker: string;
          released: boolean;
          stopped: boolean;
        }>(
          `SELECT worker, released_at IS NOT NULL AS released, stopped_at IS NOT NULL AS stopped
           FROM "${schema}".session_drivers WHERE session_id = 's-9' ORDER BY id`,
        );
        return rows;
      });
    // Lost but not yet released: its run may still be going, so nothing is said.
    expect(await records()).toEqual([
      { worker: 'correx worker lost', released: false, stopped: false },
      { worker: 'correx worker next', released: false, stopped: false },
    ]);
    await lock.release();
    await lock.release();
    expect(await records()).toEqual([
      { worker: 'correx worker lost', released: false, stopped: true },
      { worker: 'correx worker next', released: false, stopped: false },
    ]);
    await taken.release();
    expect((await records())[1]).toEqual({
      worker: 'correx worker next',
      released: true,
      stopped: false,
    });
  });

  it('lets another take over a lease that is not renewed in time, while the silent holder keeps its connection', async () => {
    const schema = await migrated();
    // The silent holder: a lease taken on a connection that then says nothing (a paused process).
    await admin(async (client) => {
      await client.query(`SELECT pg_advisory_lock($1, hashtext('s-4'))`, [
        schemaLockKey(`session-driver:${schema}`),
      ]);
      await client.query(
        `INSERT INTO "${schema}".sessions (session_id, last_sequence, last_hash, driver_epoch,
           driver, driver_backend, lease_renewed_at, lease_ms)
         VALUES ('s-4', 0, 'x', 7, 'correx worker paused', pg_backend_pid(), clock_timestamp(), 1000)`,
      );
      const taker = open(schema, { leaseMs: 1000 });
      await expect(taker.acquire('s-4')).rejects.toThrow(/correx worker paused/);
      // Waits for the state: the silent lease runs out by the server's clock.
      let lock: SessionLock | undefined;
      while (lock === undefined) {
        lock = await taker.acquire('s-4').catch((error: unknown) => {
          if (!(error instanceof SessionBusyError)) throw error;
          return undefined;
        });
        if (lock === undefined) await new Promise((done) => setTimeout(done, 100));
      }
      expect(lock.epoch).toBe(8);
      // The new holder renews: a third does not take it, though the old connection still lives.
      await expectRejection(open(schema, { leaseMs: 1000 }).acquire('s-4'), SessionBusyError);
      await lock.release();
    });
  });

  it('a holder whose renewal finds another epoch loses its lease', async () => {
    const schema = await migrated();
    const lock = await open(schema, { leaseMs: 600 }).acquire('s-5');
    const lost = lostReason(lock);
    await admin((client) =>
      client.query(
        `UPDATE "${schema}".sessions SET driver_epoch = driver_epoch + 1 WHERE session_id = 's-5'`,
      ),
    );
    expect(await lost).toMatch(/another process took it/);
  });
});
