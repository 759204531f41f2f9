/**
 * Child process for the crash test: appends batches of 10 events to one session of a SQLite
 * store, forever, reporting each acknowledged batch on stdout, until it is killed.
 */
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { noteBatch } from '../support/sample-events.js';

const [path, sessionId] = process.argv.slice(2) as [string, string];
const store = openSqliteEventStore(path, { catalog: correxEventCatalog, synchronous: 'full' });
let last = await store.lastSequence(sessionId);
process.stdout.write(`ready ${last}\n`);
for (;;) {
  const batch = noteBatch(sessionId, last + 1, 10);
  const stored = await store.appendAll(batch, { expectedSequence: last });
  last = stored.at(-1)!.sequence;
  process.stdout.write(`acked ${last}\n`);
}
