import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SessionBusyError,
  type SessionLocker,
} from '../../src/infrastructure/locks/session-locker.js';
import { schemaLockKey } from '../../src/infrastructure/postgres/postgres-connection.js';
import { openPostgresSessionLocker } from '../../src/infrastructure/postgres/postgres-session-locker.js';
import { expectRejection } from '../support/expect-rejection.js';
import { freshSchemaName, probeTestServer, TEST_POSTGRES_URL } from './postgres-test-server.js';

const server = await probeTestServer();

/** Two lockers with pools of their own: two processes (or machines) sharing one store. */
describe.skipIf(!server.available)('PostgreSQL session driver locks', () => {
  const lockers: SessionLocker[] = [];
  const open = (schema: string) => {
    const locker = openPostgresSessionLocker(TEST_POSTGRES_URL, schema);
    lockers.push(locker);
    return locker;
  };
  afterEach(async () => {
    for (const locker of lockers.splice(0)) await locker.close();
  });

  it('lets one holder drive a session; another waits until it is released', async () => {
    const schema = freshSchemaName();
    const here = open(schema);
    const there = open(schema);
    const lock = await here.acquire('s-1');
    await expectRejection(there.acquire('s-1'), SessionBusyError);
    await expect(there.acquire('s-1')).rejects.toThrow(/correx driver/);
    // Other sessions, and the same session in another schema, are not affected.
    await (await there.acquire('s-2')).release();
    await (await open(freshSchemaName()).acquire('s-1')).release();
    await lock.release();
    await (await there.acquire('s-1')).release();
  });

  it('frees the lock of a holder whose connection is gone (a process that died)', async () => {
    const schema = freshSchemaName();
    const here = open(schema);
    const there = open(schema);
    await here.acquire('s-3');
    await expectRejection(there.acquire('s-3'), SessionBusyError);
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      // Only this lock's backend (other files' drivers share the server), and wait until it has
      // exited: without a timeout the call returns as soon as the signal is sent.
      const { rows } = await admin.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid, 5000) AS ended FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND classid = $1::int AND objid = hashtext($2)::oid`,
        [schemaLockKey(`session-driver:${schema}`), 's-3'],
      );
      expect(rows).toEqual([{ ended: true }]);
    } finally {
      await admin.end();
    }
    await (await there.acquire('s-3')).release();
  });
});
