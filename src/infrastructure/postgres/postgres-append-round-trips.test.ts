import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { noteBatch, noteEvent } from '../../../test/support/sample-events.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../../test/postgres/postgres-test-server.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { openPostgresEventStore } from './postgres-event-store.js';

const server = await probeTestServer();

/**
 * Why: an append's cost is its round trips to the server (and, inside a transaction, the
 * time its locks are held across them). The wake-up NOTIFY goes after the commit, off the
 * append's path, and is not counted.
 */
describe.skipIf(!server.available)('PostgreSQL append round trips', () => {
  const schemas = schemaTracker();
  const pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 2 });
  const sent: string[] = [];
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const text = args[0];
      sent.push(typeof text === 'string' ? text : (text as pg.QueryConfig).text);
      return query(...args);
    };
  });
  afterAll(() => pool.end());
  const statementsOf = async (append: () => Promise<unknown>) => {
    sent.length = 0;
    await append();
    return sent.filter((text) => !text.includes('NOTIFY')).length;
  };

  it('is one statement at a head the store knows, and one more to read a head it does not', async () => {
    const schema = schemas.next();
    const open = (migrate: boolean) =>
      openPostgresEventStore({ pool, schema, catalog: correxEventCatalog, migrate });
    const store = await open(true);
    expect(await statementsOf(() => store.append(noteEvent('s', 1), { expectedSequence: 0 }))).toBe(
      1,
    );
    expect(await statementsOf(() => store.append(noteEvent('s', 2)))).toBe(1);
    expect(
      await statementsOf(() => store.appendAll(noteBatch('s', 3, 5), { expectedSequence: 2 })),
    ).toBe(1);
    // A store that has not written the session (another process, say) reads its head first.
    const other = await open(false);
    expect(await statementsOf(() => other.append(noteEvent('s', 8)))).toBe(2);
    expect(await statementsOf(() => other.append(noteEvent('s', 9)))).toBe(1);
    expect((await store.read('s')).map((event) => event.sequence)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    await other.close();
    await store.close();
  });
});
