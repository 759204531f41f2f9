import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correxEventCatalog, type EventPayload } from '../../src/core/event-catalog.js';
import { runnabilityAfter } from '../../src/core/sessions/session-runnability.js';
import {
  openPostgresEventStore,
  type PostgresEventStore,
} from '../../src/infrastructure/postgres/postgres-event-store.js';
import { createRunnableSessions } from '../../src/infrastructure/postgres/postgres-runnable-sessions.js';
import { createPostgresSessionLocker } from '../../src/infrastructure/postgres/postgres-session-locker.js';
import { noteEvent } from '../support/sample-events.js';
import { probeTestServer, schemaTracker, TEST_POSTGRES_URL } from './postgres-test-server.js';

const probe = await probeTestServer();

describe.skipIf(!probe.available)('runnable sessions kept by the PostgreSQL store', () => {
  const schemas = schemaTracker();
  const schema = schemas.next();
  let pool: pg.Pool;
  let store: PostgresEventStore<EventPayload>;
  let index = 0;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 4 });
    store = await openPostgresEventStore({
      pool,
      schema,
      catalog: correxEventCatalog,
      migrate: true,
      runnability: runnabilityAfter,
    });
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
  });

  const append = (sessionId: string, ...payloads: EventPayload[]) =>
    store.appendAll(payloads.map((payload) => noteEvent(sessionId, ++index, { payload })));
  const created = (parent?: string): EventPayload => ({
    type: 'session_created',
    task: 't',
    workspace: '/w',
    workflowId: 'wf',
    mode: 'auto',
    ...(parent === undefined
      ? {}
      : { parent: { sessionId: parent, stageId: 's', attempt: 1, eventId: 'e' } }),
  });

  it('marks a session runnable from its first event, idle while it waits, and gone once it ends', async () => {
    const runnable = createRunnableSessions(pool, schema, 'test');
    await append('a', created());
    expect(await runnable.free(10)).toEqual(['a']);
    await append('a', { type: 'stage_started', stageId: 's', attempt: 1 });
    expect(await runnable.free(10)).toEqual(['a']);
    await append('a', {
      type: 'approval_requested',
      callId: 'c',
      tool: 'x',
      tier: 'T2',
      reason: 'r',
    });
    expect(await runnable.free(10)).toEqual([]);
    await append('a', { type: 'approval_granted', callId: 'c', by: { kind: 'human', id: 'me' } });
    expect(await runnable.free(10)).toEqual(['a']);
    await append('a', { type: 'workflow_completed', finalStageId: 's' });
    expect(await runnable.free(10)).toEqual([]);
  });

  it('never lists a sub-session, and leaves out a session whose driver lock is held', async () => {
    const runnable = createRunnableSessions(pool, schema, 'test');
    await append('child', created('parent'));
    await append('child', { type: 'orchestration_resumed', by: 'me' });
    await append('b', created());
    expect(await runnable.free(10)).toEqual(['b']);
    const locker = createPostgresSessionLocker(
      new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 2 }),
      schema,
      { driver: 'correx worker test' },
    );
    const lock = await locker.acquire('b');
    try {
      expect(await runnable.free(10)).toEqual([]);
      expect(
        (await runnable.drivers()).map((row) => [row.sessionId, row.driver, row.stalled]),
      ).toEqual([['b', 'correx worker test', false]]);
      expect((await runnable.drivers())[0]!.leaseAgeMs).toBeLessThan(30_000);
    } finally {
      await lock.release();
    }
    expect(await runnable.free(10)).toEqual(['b']);
    expect(await runnable.driverRecords('b')).toEqual([
      expect.objectContaining({
        sessionId: 'b',
        driver: 'correx worker test',
        fromSequence: 1,
        toSequence: 1,
        epoch: 1,
        releasedAt: expect.any(String),
        stoppedAt: null,
      }),
    ]);
    await locker.close();
  });

  it('lists a lease its holder stopped renewing as stalled, and lets a worker take the session', async () => {
    const runnable = createRunnableSessions(pool, schema, 'test');
    await append('silent', created());
    await pool.query(
      `UPDATE "${schema}".sessions SET driver = 'correx worker paused', driver_epoch = 3,
         lease_renewed_at = clock_timestamp() - interval '1 hour', lease_ms = 30000
       WHERE session_id = 'silent'`,
    );
    const row = (await runnable.drivers()).find((driver) => driver.sessionId === 'silent');
    expect(row).toMatchObject({ driver: 'correx worker paused', epoch: 3, stalled: true });
    expect(row!.leaseAgeMs).toBeGreaterThan(3_000_000);
    expect(await runnable.free(10)).toContain('silent');
  });
});
