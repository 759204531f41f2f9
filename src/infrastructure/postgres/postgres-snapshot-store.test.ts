import { describe, it } from 'vitest';
import { snapshotStoreContract } from '../../../test/contracts/snapshot-store.contract.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../../test/postgres/postgres-test-server.js';
import { openPostgresSnapshotStore } from './postgres-snapshot-store.js';

const server = await probeTestServer();

if (server.available) {
  const schemas = schemaTracker();
  snapshotStoreContract('PostgreSQL', () =>
    openPostgresSnapshotStore({
      connectionString: TEST_POSTGRES_URL,
      schema: schemas.next(),
      migrate: true,
    }),
  );
} else {
  describe('SnapshotStore contract: PostgreSQL', () => {
    it.skip(`skipped: ${server.reason}`, () => {});
  });
}
