import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noteBatch, noteEvent, stageEvent } from '../../test/support/sample-events.js';
import { tempDir } from '../../test/support/temp-dir.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../test/postgres/postgres-test-server.js';
import { correxEventCatalog, type EventPayload } from '../core/event-catalog.js';
import type { EventStore } from '../core/events/event-store.js';
import { createEventCatalog } from '../core/events/event-catalog.js';
import { defineEvent } from '../core/events/event-definition.js';
import { createInMemoryEventStore } from '../core/events/in-memory-event-store.js';
import { z } from 'zod';
import { openStores } from './open-store.js';
import { openSqliteEventStore } from './sqlite/sqlite-event-store.js';
import { copySessions, StoreCopyError } from './store-copy.js';
import { expectRejection } from '../../test/support/expect-rejection.js';

const server = await probeTestServer();
const dir = tempDir();
let counter = 0;
const sqlite = () =>
  openSqliteEventStore(join(dir, `copy-${++counter}.db`), { catalog: correxEventCatalog });

async function seed(store: EventStore<EventPayload>): Promise<void> {
  await store.appendAll(noteBatch('alpha', 1, 1200));
  await store.append(stageEvent('beta', 1));
  await store.append(noteEvent('beta', 2, { causationId: 'beta-e000001' }));
}

describe('copySessions', () => {
  it('copies every session keeping ids, timestamps and hashes, and a rerun copies nothing', async () => {
    const from = sqlite();
    const to = createInMemoryEventStore({ catalog: correxEventCatalog });
    await seed(from);
    const reports = await copySessions({ from, to, batchSize: 500 });
    expect(reports).toEqual([
      {
        sessionId: 'alpha',
        copied: 1200,
        alreadyPresent: 0,
        lastSequence: 1200,
        headHash: ((await from.verify('alpha')) as { headHash: string }).headHash,
      },
      {
        sessionId: 'beta',
        copied: 2,
        alreadyPresent: 0,
        lastSequence: 2,
        headHash: expect.any(String),
      },
    ]);
    const strip = (events: { position: number }[]) =>
      events.map(({ position: _, ...rest }) => rest);
    expect(strip(await to.read('alpha'))).toEqual(strip(await from.read('alpha')));
    expect(strip(await to.read('beta'))).toEqual(strip(await from.read('beta')));
    const again = await copySessions({ from, to });
    expect(again.map((report) => [report.copied, report.alreadyPresent])).toEqual([
      [0, 1200],
      [0, 2],
    ]);
    await from.close();
  });

  it('resumes an interrupted copy and copies only the named sessions', async () => {
    const from = sqlite();
    const to = sqlite();
    await seed(from);
    await to.appendAll(
      (await from.read('alpha', { limit: 700 })).map(
        ({ position: _, hash: __, sequence: ___, version: ____, ...event }) => event,
      ),
    );
    const [report] = await copySessions({ from, to, sessionIds: ['alpha'] });
    expect(report).toMatchObject({
      sessionId: 'alpha',
      copied: 500,
      alreadyPresent: 700,
      lastSequence: 1200,
    });
    expect(await to.listSessions()).toHaveLength(1);
    expect(await to.verify('alpha')).toEqual(await from.verify('alpha'));
    await from.close();
    await to.close();
  });

  it('refuses a target that holds different events, and leaves it as it was', async () => {
    const from = sqlite();
    const to = sqlite();
    await seed(from);
    await to.append(noteEvent('beta', 1));
    const error = await expectRejection(
      copySessions({ from, to, sessionIds: ['beta'] }),
      StoreCopyError,
    );
    expect(error).toMatchObject({ sessionId: 'beta', sequence: 1, code: 'store_copy_failed' });
    expect(await to.lastSequence('beta')).toBe(1);
    await from.close();
    await to.close();
  });

  it('stops before writing an event the target would re-encode differently', async () => {
    // A target whose catalog has moved steering notes to version 2: the bytes would change.
    const newer = createEventCatalog([
      defineEvent({
        type: 'steering_note_added',
        origin: 'command',
        description: 'test: a newer version',
        version: 2,
        fields: { sessionId: z.string(), content: z.string(), stageId: z.string().optional() },
        upcasters: [{ fromVersion: 1, upcast: (payload) => payload }],
      }),
    ]);
    const from = sqlite();
    await from.appendAll(noteBatch('gamma', 1, 3));
    const to = createInMemoryEventStore({ catalog: newer });
    const error = await expectRejection(
      copySessions({
        from: from as unknown as EventStore<typeof to extends EventStore<infer P> ? P : never>,
        to,
        catalog: newer,
      }),
      StoreCopyError,
    );
    expect(error).toMatchObject({ sessionId: 'gamma', sequence: 1 });
    expect(error.message).toMatch(/would not keep its bytes/);
    expect(await to.lastSequence('gamma')).toBe(0);
    await from.close();
  });

  it('names a session the source does not have', async () => {
    const from = sqlite();
    const to = sqlite();
    expect(
      (await expectRejection(copySessions({ from, to, sessionIds: ['ghost'] }), StoreCopyError))
        .message,
    ).toMatch(/no such session/);
    await from.close();
    await to.close();
  });

  it.skipIf(!server.available)(
    'moves sessions from SQLite to PostgreSQL and back, hashes intact',
    async () => {
      const schema = schemas.next();
      const from = sqlite();
      await seed(from);
      const postgres = await openStores(TEST_POSTGRES_URL, { schema, migrate: true });
      const there = await copySessions({ from, to: postgres.events });
      const back = sqlite();
      const returned = await copySessions({ from: postgres.events, to: back });
      expect(returned.map((report) => report.headHash)).toEqual(
        there.map((report) => report.headHash),
      );
      expect(await back.verify('alpha')).toEqual(await from.verify('alpha'));
      expect(await back.read('beta')).toEqual(await from.read('beta'));
      await postgres.close();
      await from.close();
      await back.close();
    },
  );
});

const schemas = schemaTracker();
