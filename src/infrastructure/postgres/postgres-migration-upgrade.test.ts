import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteBatch, noteEvent } from '../../../test/support/sample-events.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../../test/postgres/postgres-test-server.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import type { StoredEvent } from '../../core/events/event-envelope.js';
import type { EventPayload } from '../../core/event-catalog.js';
import { replay } from '../../core/events/replay.js';
import { openPostgresEventStore, PostgresEventStore } from './postgres-event-store.js';
import { migratePostgres, POSTGRES_SCHEMA_VERSION } from './postgres-migrations.js';

const server = await probeTestServer();

const counting = {
  name: 'count',
  version: 1,
  initial: () => ({ events: 0, lastSequence: 0 }),
  evolve: (state: { events: number; lastSequence: number }, event: StoredEvent<EventPayload>) => ({
    events: state.events + 1,
    lastSequence: event.sequence,
  }),
};

describe.skipIf(!server.available)('PostgreSQL schema upgrades', () => {
  const schemas = schemaTracker();
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
  });

  it('sessions written at schema version 2 migrate to the current one, verify, replay and go on', async () => {
    const schema = schemas.next();
    expect(await migratePostgres(pool, { schema, toVersion: 2 })).toEqual({
      schema,
      fromVersion: 0,
      toVersion: 2,
    });
    // The store as it ran against a version-2 schema (its allocate_positions, its rows):
    // opened without the version check, which would refuse the old schema. Its statements name
    // the driver epoch (a later version's column) only to check a fence no append here carries,
    // so the column stands in while they write and goes again: the rows are a version-2 store's.
    await pool.query(
      `ALTER TABLE "${schema}".sessions ADD COLUMN driver_epoch bigint NOT NULL DEFAULT 0`,
    );
    const old = new PostgresEventStore('test', schema, pool, false, {
      pool,
      catalog: correxEventCatalog,
    });
    for (let index = 1; index <= 3; index++)
      await old.append(noteEvent('a', index), { expectedSequence: index - 1 });
    await old.appendAll(noteBatch('b', 1, 5));
    await old.append(noteEvent('a', 4));
    await old.appendAll(noteBatch('a', 5, 2));
    await old.close();
    await pool.query(`ALTER TABLE "${schema}".sessions DROP COLUMN driver_epoch`);
    const before = { a: await readBack(pool, schema, 'a'), b: await readBack(pool, schema, 'b') };

    expect(await migratePostgres(pool, { schema })).toEqual({
      schema,
      fromVersion: 2,
      toVersion: POSTGRES_SCHEMA_VERSION,
    });
    const store = await openPostgresEventStore({ pool, schema, catalog: correxEventCatalog });
    for (const [sessionId, lastSequence] of [
      ['a', 6],
      ['b', 5],
    ] as const) {
      expect(await store.verify(sessionId)).toMatchObject({ ok: true, lastSequence });
      expect((await replay(store, counting, sessionId)).state).toEqual({
        events: lastSequence,
        lastSequence,
      });
    }
    // Appends after the upgrade, one event and batches, continue the chains and the positions.
    await store.append(noteEvent('a', 7), { expectedSequence: 6 });
    const batch = await store.appendAll(noteBatch('b', 6, 3), { expectedSequence: 5 });
    expect(batch.map((event) => event.position - batch[0]!.position)).toEqual([0, 1, 2]);
    await store.append(noteEvent('c', 1), { expectedSequence: 0 });
    await store.append(noteEvent('b', 9));
    expect(await store.verify('a')).toMatchObject({ ok: true, lastSequence: 7 });
    expect(await store.verify('b')).toMatchObject({ ok: true, lastSequence: 9 });
    expect(await store.verify('c')).toMatchObject({ ok: true, lastSequence: 1 });
    const after = { a: await readBack(pool, schema, 'a'), b: await readBack(pool, schema, 'b') };
    expect(after.a.slice(0, 6)).toEqual(before.a);
    expect(after.b.slice(0, 5)).toEqual(before.b);

    const all: StoredEvent<EventPayload>[] = [];
    for await (const event of store.readAll()) all.push(event);
    expect(all).toHaveLength(17);
    const positions = all.map((event) => event.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    // Position order is transaction order, before and after the upgrade.
    const order = await pool.query<{ position: string; transaction_id: string }>(
      `SELECT position, transaction_id::text FROM "${schema}".events ORDER BY position`,
    );
    const transactions = order.rows.map((row) => BigInt(row.transaction_id));
    expect(transactions.every((id, index) => index === 0 || id >= transactions[index - 1]!)).toBe(
      true,
    );
    // Sessions written before driver epochs existed are at epoch 0, fenced from their first take.
    expect(await store.driverEpoch('a')).toBe(0);
    await store.append(noteEvent('a', 8), { driverEpoch: 0 });
    expect(await store.takeDriverEpoch('a')).toBe(1);
    await expect(store.append(noteEvent('a', 9), { driverEpoch: 0 })).rejects.toMatchObject({
      code: 'driver_fenced',
    });
    expect(await store.lastSequence('a')).toBe(8);
    await store.close();
  });
});

async function readBack(pool: pg.Pool, schema: string, sessionId: string) {
  return (
    await pool.query(
      `SELECT position, sequence, event_id, bytes, hash, previous_hash FROM "${schema}".events
       WHERE session_id = $1 ORDER BY sequence`,
      [sessionId],
    )
  ).rows;
}
