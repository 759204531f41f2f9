import { join } from 'node:path';
import { snapshotStoreContract } from '../../../test/contracts/snapshot-store.contract.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { openSqliteSnapshotStore } from './sqlite-snapshot-store.js';

const dir = tempDir();
let counter = 0;
snapshotStoreContract('SQLite', async () =>
  openSqliteSnapshotStore(join(dir, `snapshots-${++counter}.db`)),
);
