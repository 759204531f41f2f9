import { snapshotStoreContract } from '../../../test/contracts/snapshot-store.contract.js';
import { createInMemorySnapshotStore } from './in-memory-snapshot-store.js';

snapshotStoreContract('in-memory', async () => createInMemorySnapshotStore());
