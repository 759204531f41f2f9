import pg from 'pg';
import { describe, it } from 'vitest';
import { eventStoreContract } from '../../../test/contracts/event-store.contract.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../../test/postgres/postgres-test-server.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { openPostgresEventStore, type PostgresEventStore } from './postgres-event-store.js';

const server = await probeTestServer();

/** Rewrites a stored row behind the store's back (the append-only trigger is switched off for it). */
async function tamperRow(
  schema: string,
  sessionId: string,
  sequence: number,
  change: { bytes?: string; hash?: string },
): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`ALTER TABLE "${schema}".events DISABLE TRIGGER events_no_update`);
    if (change.bytes !== undefined)
      await client.query(
        `UPDATE "${schema}".events SET bytes = $1 WHERE session_id = $2 AND sequence = $3`,
        [change.bytes, sessionId, sequence],
      );
    if (change.hash !== undefined)
      await client.query(
        `UPDATE "${schema}".events SET hash = $1 WHERE session_id = $2 AND sequence = $3`,
        [change.hash, sessionId, sequence],
      );
    await client.query(`ALTER TABLE "${schema}".events ENABLE TRIGGER events_no_update`);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

if (server.available) {
  const schemas = schemaTracker();
  eventStoreContract('PostgresEventStore', {
    open: () =>
      openPostgresEventStore({
        connectionString: TEST_POSTGRES_URL,
        schema: schemas.next(),
        catalog: correxEventCatalog,
        migrate: true,
        pollIntervalMs: 50,
      }),
    tamper: (store, sessionId, sequence, change) =>
      tamperRow((store as PostgresEventStore<never>).schema, sessionId, sequence, change),
  });
} else {
  describe('EventStore contract: PostgresEventStore', () => {
    it.skip(`skipped: ${server.reason}`, () => undefined);
  });
}
