import { artifactStoreContract } from '../../../test/contracts/artifact-store.contract.js';
import {
  createInMemoryArtifactStore,
  type InMemoryArtifactStore,
} from './in-memory-artifact-store.js';

artifactStoreContract('in-memory', {
  open: async () => createInMemoryArtifactStore(),
  tamper: async (store, hash, bytes) => (store as InMemoryArtifactStore).tamper(hash, bytes),
});
