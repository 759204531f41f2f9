import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteBatch, noteEvent } from '../../../test/support/sample-events.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../../test/postgres/postgres-test-server.js';
import { correxEventCatalog, type EventPayload } from '../../core/event-catalog.js';
import { ConcurrencyError } from '../../core/events/concurrency-error.js';
import { DuplicateEventError } from '../../core/events/duplicate-event-error.js';
import { expectRejection } from '../../../test/support/expect-rejection.js';
import { openPostgresEventStore, type PostgresEventStore } from './postgres-event-store.js';

const server = await probeTestServer();

/**
 * Why: a store seals an append after the head it last wrote, without asking the server. When
 * another process has moved that head, the guess is wrong; the append must then behave exactly
 * as if it had read the head under its lock.
 */
describe.skipIf(!server.available)('PostgreSQL append after another process moved the head', () => {
  const schemas = schemaTracker();
  let mine: PostgresEventStore<EventPayload>;
  let theirs: PostgresEventStore<EventPayload>;
  beforeAll(async () => {
    const schema = schemas.next();
    const open = (migrate: boolean) =>
      openPostgresEventStore({
        connectionString: TEST_POSTGRES_URL,
        schema,
        catalog: correxEventCatalog,
        migrate,
      });
    mine = await open(true);
    theirs = await open(false);
  });
  afterAll(async () => {
    await mine?.close();
    await theirs?.close();
  });

  it('an append without expectation lands after their events, on an intact chain', async () => {
    await mine.append(noteEvent('free', 1));
    await theirs.appendAll(noteBatch('free', 2, 2));
    expect((await mine.append(noteEvent('free', 4))).sequence).toBe(4);
    expect(await mine.verify('free')).toMatchObject({ ok: true, lastSequence: 4 });
  });

  it('an expectation that was right for this store but is stale now is a ConcurrencyError', async () => {
    await mine.append(noteEvent('stale', 1), { expectedSequence: 0 });
    await theirs.append(noteEvent('stale', 2), { expectedSequence: 1 });
    const error = await expectRejection(
      mine.append(noteEvent('stale', 3), { expectedSequence: 1 }),
      ConcurrencyError,
    );
    expect(error).toMatchObject({ expectedSequence: 1, actualSequence: 2 });
    expect(await mine.lastSequence('stale')).toBe(2);
    // A new session someone else created meanwhile is stale for expectedSequence 0 too.
    await theirs.append(noteEvent('taken', 1));
    await expectRejection(
      mine.append(noteEvent('taken', 2), { expectedSequence: 0 }),
      ConcurrencyError,
    );
  });

  it('a retry of a stored batch returns it, whoever stored it, and changed content is refused', async () => {
    const batch = noteBatch('retry', 1, 3);
    const stored = await theirs.appendAll(batch, { expectedSequence: 0 });
    expect(await mine.appendAll(batch, { expectedSequence: 0 })).toEqual(stored);
    await mine.append(noteEvent('retry', 4));
    // This store's head is past the batch now: its one-statement try hits the stored ids.
    expect(await mine.appendAll(batch)).toEqual(stored);
    await expectRejection(
      mine.append(noteEvent('retry', 4, { correlationId: 'changed' })),
      DuplicateEventError,
    );
    expect(await mine.verify('retry')).toMatchObject({ ok: true, lastSequence: 4 });
  });
});
