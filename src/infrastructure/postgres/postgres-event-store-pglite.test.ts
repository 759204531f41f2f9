import type { PGlite } from '@electric-sql/pglite';
import { afterAll } from 'vitest';
import { eventStoreContract } from '../../../test/contracts/event-store.contract.js';
import { createPglite, createPglitePool } from '../../../test/postgres/pglite-pool.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { openPostgresEventStore, type PostgresEventStore } from './postgres-event-store.js';

// One embedded database for the file (starting PGlite takes a while); each test gets its own schema.
const db: PGlite = await createPglite();
const pool = createPglitePool(db);
afterAll(() => db.close());
let counter = 0;

eventStoreContract('PostgresEventStore on PGlite (embedded, no server)', {
  open: () =>
    openPostgresEventStore({
      pool,
      schema: `pglite_${++counter}`,
      catalog: correxEventCatalog,
      migrate: true,
      pollIntervalMs: 20,
    }),
  tamper: async (store, sessionId, sequence, change) => {
    const s = `"${(store as PostgresEventStore<never>).schema}"`;
    await pool.query(`ALTER TABLE ${s}.events DISABLE TRIGGER events_no_update`);
    if (change.bytes !== undefined)
      await pool.query(
        `UPDATE ${s}.events SET bytes = $1 WHERE session_id = $2 AND sequence = $3`,
        [change.bytes, sessionId, sequence],
      );
    if (change.hash !== undefined)
      await pool.query(`UPDATE ${s}.events SET hash = $1 WHERE session_id = $2 AND sequence = $3`, [
        change.hash,
        sessionId,
        sequence,
      ]);
    await pool.query(`ALTER TABLE ${s}.events ENABLE TRIGGER events_no_update`);
  },
});
