import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import {
  createPostgresPool,
  DURABLE_COMMITS,
  durableConnection,
} from '../../src/infrastructure/postgres/postgres-connection.js';
import { openPostgresEventStore } from '../../src/infrastructure/postgres/postgres-event-store.js';
import { migratePostgres } from '../../src/infrastructure/postgres/postgres-migrations.js';
import { openPostgresSessionLocker } from '../../src/infrastructure/postgres/postgres-session-locker.js';
import { noteBatch } from '../support/sample-events.js';
import { probeTestServer, TEST_POSTGRES_URL } from './postgres-test-server.js';
import { startPrivateCluster } from './private-cluster.js';

/**
 * What an append acknowledged survives a crash of the server, also where the server commits
 * asynchronously (`synchronous_commit=off`, which a DBA may set for speed): there, a commit
 * returns before its WAL leaves the server's memory, and a crash (or `pg_ctl restart -m
 * immediate`) loses what the WAL writer had not yet written. A lost `tool_call_started` after
 * its command ran makes the next driver run the command again: `worker-chaos.test.ts` saw a
 * marker line written twice, one receipt per call, after its server restart. correx asks for
 * synchronous commits on its own connections. The WAL writer is slowed to 10 s here, so an
 * asynchronous commit waits in memory for up to 10 s, not 200 ms: without the option the last
 * append was lost in each of 5 runs (the first, which woke the idle WAL writer, was kept).
 */
const server = await probeTestServer();
const cluster = await startPrivateCluster(['wal_writer_delay=10000ms']);

describe('the startup options of correx connections', () => {
  it('ask for durable commits, before the options a URL gives (which win)', () => {
    expect(durableConnection('postgres://u@h:5432/db')).toEqual({
      connectionString: 'postgres://u@h:5432/db',
      options: DURABLE_COMMITS,
    });
    const merged = durableConnection('postgres://u:p%40ss@h/db?options=-c%20search_path%3Dx');
    expect(merged.options).toBeUndefined();
    const url = new URL(merged.connectionString);
    expect(url.searchParams.get('options')).toBe(`${DURABLE_COMMITS} -c search_path=x`);
    expect(url.password).toBe('p%40ss');
  });
});

describe.skipIf(!server.available)('the setting a correx pool gets (live server)', () => {
  const setting = async (url: string) => {
    const pool = createPostgresPool(url);
    try {
      return (await pool.query<{ s: string }>(`SELECT current_setting('synchronous_commit') AS s`))
        .rows[0]!.s;
    } finally {
      await pool.end();
    }
  };

  it('is on, unless the URL names its own', async () => {
    expect(await setting(TEST_POSTGRES_URL)).toBe('on');
    const explicit = new URL(TEST_POSTGRES_URL);
    explicit.searchParams.set('options', '-c synchronous_commit=remote_apply');
    expect(await setting(explicit.toString())).toBe('remote_apply');
  });
});

describe.skipIf(cluster === undefined)('acknowledged commits on an asynchronous server', () => {
  afterAll(async () => cluster?.stop());

  it('an append and a lease take, acknowledged, survive an immediate restart', async () => {
    await migratePostgres(cluster!.url);
    // What the server does with commits nobody asked about: asynchronous.
    const admin = new pg.Client({ connectionString: cluster!.url });
    admin.on('error', () => undefined);
    await admin.connect();
    const setting = (
      await admin.query<{ s: string }>(`SELECT current_setting('synchronous_commit') AS s`)
    ).rows[0]!.s;
    await admin.end();
    expect(setting).toBe('off');

    const store = await openPostgresEventStore({
      connectionString: cluster!.url,
      schema: 'correx',
      catalog: correxEventCatalog,
    });
    const locker = openPostgresSessionLocker(cluster!.url, 'correx', { driver: 'durable test' });
    const lock = await locker.acquire('s-durable');
    await store.appendAll(noteBatch('s-durable', 1, 2), { driverEpoch: lock.epoch! });
    await store.appendAll(noteBatch('s-durable', 3, 1), { driverEpoch: lock.epoch! });
    await cluster!.restart();
    await lock.release().catch(() => undefined);
    await locker.close().catch(() => undefined);
    await store.close().catch(() => undefined);

    const reopened = await openPostgresEventStore({
      connectionString: cluster!.url,
      schema: 'correx',
      catalog: correxEventCatalog,
    });
    try {
      const events = await reopened.read('s-durable');
      expect(events.map((event) => event.sequence)).toEqual([1, 2, 3]);
      expect(await reopened.driverEpoch('s-durable')).toBe(lock.epoch);
    } finally {
      await reopened.close();
    }
  });
});
