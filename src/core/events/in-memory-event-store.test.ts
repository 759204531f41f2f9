import { eventStoreContract } from '../../../test/contracts/event-store.contract.js';
import { correxEventCatalog } from '../event-catalog.js';
import { InMemoryEventStore } from './in-memory-event-store.js';

eventStoreContract('InMemoryEventStore', {
  open: async () => new InMemoryEventStore({ catalog: correxEventCatalog }),
  tamper: async (store, sessionId, sequence, change) => {
    (store as InMemoryEventStore<never>).tamper(sessionId, sequence, () => change);
  },
});
