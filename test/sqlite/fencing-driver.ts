/**
 * A second driver process for the SQLite fencing test: opens the store, takes the session as
 * its driver (moving its epoch on) and appends one event with its epoch. Prints `took <epoch>`.
 *
 * Usage: node --import tsx fencing-driver.ts <path> <session>
 */
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { noteEvent } from '../support/sample-events.js';

const [path, sessionId] = process.argv.slice(2) as [string, string];
const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
const epoch = await store.takeDriverEpoch(sessionId);
const last = await store.lastSequence(sessionId);
await store.append(noteEvent(sessionId, last + 1, { eventId: `${sessionId}-taker` }), {
  driverEpoch: epoch,
  expectedSequence: last,
});
await store.close();
process.stdout.write(`took ${epoch}\n`);
