import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteEvent } from '../../../test/support/sample-events.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../../test/postgres/postgres-test-server.js';
import { correxEventCatalog, type EventPayload } from '../../core/event-catalog.js';
import type { StoredEvent } from '../../core/events/event-envelope.js';
import { openPostgresEventStore, type PostgresEventStore } from './postgres-event-store.js';

const server = await probeTestServer();

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function waitFor(condition: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe.skipIf(!server.available)(
  'PostgresEventStore global feed under concurrent transactions',
  () => {
    const schemas = schemaTracker();
    let schema: string;
    let store: PostgresEventStore<EventPayload>;
    let raw: pg.Client;
    let raw2: pg.Client;
    const open = (
      options: { pollIntervalMs?: number; applicationName?: string; maxConnections?: number } = {},
    ) =>
      openPostgresEventStore({
        connectionString: TEST_POSTGRES_URL,
        schema,
        catalog: correxEventCatalog,
        migrate: true,
        settleTimeoutMs: 0,
        ...options,
      });
    const ids = (events: readonly StoredEvent<EventPayload>[]) =>
      events.map((event) => event.eventId);

    beforeAll(async () => {
      schema = schemas.next();
      store = await open({ pollIntervalMs: 20 });
      raw = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await raw.connect();
      raw2 = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await raw2.connect();
    });
    afterAll(async () => {
      await store?.close();
      await raw?.end();
      await raw2?.end();
    });

    it('does not skip a slow transaction that took its position first but commits after a later one', async () => {
      const before = await store.append(noteEvent('before', 1));
      const controller = new AbortController();
      const delivered: string[] = [];
      const subscription = (async () => {
        for await (const message of store.subscribe({
          afterPosition: before.position,
          signal: controller.signal,
        })) {
          if (message.type === 'event') delivered.push(message.event.eventId);
          if (delivered.length === 2) controller.abort();
        }
      })();

      // A blocker holds an uncommitted row with the slow writer's event id, so the slow writer
      // takes its position, then waits inside its INSERT until the blocker rolls back.
      const slowEvent = noteEvent('slow', 1);
      await raw.query('BEGIN');
      await raw.query(
        `INSERT INTO "${schema}".events (position, session_id, sequence, event_id, type, event_timestamp, bytes, hash, previous_hash)
       VALUES (-1, 'blocker', 1, $1, 'x', 'x', 'x', 'x', 'x')`,
        [slowEvent.eventId],
      );
      const slow = store.append(slowEvent);
      await waitFor(async () => {
        const result = await raw2.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
          [`%INSERT INTO "${schema}".events%`],
        );
        return result.rowCount === 1;
      });
      const fast = await store.append(noteEvent('fast', 1));

      // The fast event is committed and a plain position-ordered read sees it, with the slow
      // writer's earlier position still invisible: a reader checkpointing there would skip it.
      const naive = await raw.query<{ event_id: string }>(
        `SELECT event_id FROM "${schema}".events WHERE position > $1 AND session_id <> 'blocker' ORDER BY position`,
        [before.position],
      );
      expect(naive.rows.map((row) => row.event_id)).toEqual([fast.eventId]);
      // The store's feed holds it back while the older transaction is in flight.
      expect(ids(await collect(store.readAll({ afterPosition: before.position })))).toEqual([]);
      expect(delivered).toEqual([]);

      await raw.query('ROLLBACK');
      const slowStored = await slow;
      expect(slowStored.position).toBeLessThan(fast.position);
      await subscription;
      expect(delivered).toEqual([slowEvent.eventId, fast.eventId]);
      expect(ids(await collect(store.readAll({ afterPosition: before.position })))).toEqual([
        slowEvent.eventId,
        fast.eventId,
      ]);
    });

    it('position order is transaction order, under concurrent writers (what makes position a safe cursor)', async () => {
      const writers = await Promise.all([1, 2, 3, 4].map(() => open()));
      try {
        await Promise.all(
          writers.flatMap((writer, w) =>
            [0, 1].map(async (lane) => {
              for (let index = 1; index <= 40; index++)
                await writer.append(noteEvent(`order-${w}-${lane}`, index));
            }),
          ),
        );
        const inversions = await raw.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${schema}".events a JOIN "${schema}".events b
           ON a.position < b.position AND a.transaction_id > b.transaction_id`,
        );
        expect(inversions.rows[0]!.n).toBe(0);
      } finally {
        await Promise.all(writers.map((writer) => writer.close()));
      }
    });

    it('passes positions of a rolled-back transaction without stalling', async () => {
      const [{ last }] = (
        await raw.query<{ last: string }>(
          `SELECT last_value AS last FROM "${schema}".event_positions`,
        )
      ).rows as [{ last: string }];
      await raw.query('BEGIN');
      const burned = Number(
        (await raw.query<{ first: string }>(`SELECT "${schema}".allocate_positions(3) AS first`))
          .rows[0]!.first,
      );
      const after = await store.append(noteEvent('after-rollback', 1));
      expect(after.position).toBe(burned + 3);
      // Held back while the transaction that owns the earlier positions is open...
      expect(await collect(store.readAll({ afterPosition: Number(last) }))).toEqual([]);
      await raw.query('ROLLBACK');
      // ...and handed out once it is gone, across the three positions that will never exist.
      expect(ids(await collect(store.readAll({ afterPosition: Number(last) })))).toEqual([
        after.eventId,
      ]);
    });

    it('readAll waits for an in-flight older transaction to settle, within its timeout', async () => {
      const patient = await openPostgresEventStore({
        connectionString: TEST_POSTGRES_URL,
        schema,
        catalog: correxEventCatalog,
        settleTimeoutMs: 60_000,
      });
      try {
        const start = (await patient.append(noteEvent('patient', 1))).position;
        await raw.query('BEGIN');
        await raw.query(`SELECT "${schema}".allocate_positions(1)`);
        const later = await patient.append(noteEvent('patient', 2));
        const reading = collect(patient.readAll({ afterPosition: start }));
        setTimeout(() => void raw.query('ROLLBACK'), 50);
        expect(ids(await reading)).toEqual([later.eventId]);
      } finally {
        await patient.close();
      }
    });

    it('a subscription does not take a pooled connection from appends (a pool of one still appends)', async () => {
      const small = await open({ maxConnections: 1, pollIntervalMs: 3_600_000 });
      try {
        const start = await raw.query<{ p: string }>(
          `SELECT coalesce(max(position), 0) AS p FROM "${schema}".events`,
        );
        const controller = new AbortController();
        const seen: string[] = [];
        let caughtUp = false;
        const done = (async () => {
          for await (const message of small.subscribe({
            afterPosition: Number(start.rows[0]!.p),
            signal: controller.signal,
          })) {
            if (message.type === 'caught_up') caughtUp = true;
            else seen.push(message.event.eventId);
            if (seen.length === 1) controller.abort();
          }
        })();
        await waitFor(() => caughtUp);
        // Give the listener time to take its connection, then append through the one pooled connection.
        await waitFor(async () => {
          const listening = await raw.query(`SELECT 1 FROM pg_stat_activity WHERE query = $1`, [
            `LISTEN "correx_events_${schema}"`,
          ]);
          return (listening.rowCount ?? 0) > 0;
        });
        await small.append(noteEvent('small-pool', 1));
        await done;
        expect(seen).toEqual(['small-pool-e000001']);
      } finally {
        await small.close();
      }
    });

    it('subscribe says caught_up only after events held back behind an older transaction', async () => {
      const patient = await openPostgresEventStore({
        connectionString: TEST_POSTGRES_URL,
        schema,
        catalog: correxEventCatalog,
        settleTimeoutMs: 60_000,
      });
      try {
        const start = (await patient.append(noteEvent('caught', 1))).position;
        await raw.query('BEGIN');
        await raw.query(`SELECT "${schema}".allocate_positions(1)`);
        const later = await patient.append(noteEvent('caught', 2));
        const controller = new AbortController();
        const messages: string[] = [];
        const done = (async () => {
          for await (const message of patient.subscribe({
            afterPosition: start,
            signal: controller.signal,
          })) {
            messages.push(message.type === 'event' ? message.event.eventId : 'caught_up');
            if (message.type === 'caught_up') controller.abort();
          }
        })();
        setTimeout(() => void raw.query('ROLLBACK'), 50);
        await done;
        expect(messages).toEqual([later.eventId, 'caught_up']);
      } finally {
        await patient.close();
      }
    });

    it('a subscriber is woken by NOTIFY when another process appends (no polling)', async () => {
      const listener = await open({ pollIntervalMs: 3_600_000 });
      const writer = await open();
      try {
        const start = (await writer.append(noteEvent('notify', 1))).position;
        const controller = new AbortController();
        const seen: string[] = [];
        let caughtUp = false;
        const done = (async () => {
          for await (const message of listener.subscribe({
            afterPosition: start,
            signal: controller.signal,
          })) {
            if (message.type === 'caught_up') caughtUp = true;
            else seen.push(message.event.eventId);
            if (seen.length === 2) controller.abort();
          }
        })();
        await waitFor(() => caughtUp);
        await writer.append(noteEvent('notify', 2));
        await writer.append(noteEvent('notify', 3));
        await done;
        expect(seen).toEqual(['notify-e000002', 'notify-e000003']);
      } finally {
        await listener.close();
        await writer.close();
      }
    });
  },
);
