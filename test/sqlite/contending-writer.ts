/**
 * One of the OS processes of the SQLite contention test: opens the store while the others may
 * be appending, then appends `count` batches of 5 events to its own session and `count` single
 * events to a session all writers share (optimistic concurrency, refreshing after a conflict).
 * A busy timeout shorter than the default lets lock waits run out under load, so the bounded
 * retry is exercised. Prints `done` and its counts as JSON, or the error's code and message.
 *
 * Usage: node --import tsx contending-writer.ts <path> <writer> <count>
 */
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { ConcurrencyError } from '../../src/core/events/concurrency-error.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { noteBatch, noteEvent } from '../support/sample-events.js';

const [path, writer, countText] = process.argv.slice(2) as [string, string, string];
const count = Number(countText);
try {
  const store = openSqliteEventStore(path, { catalog: correxEventCatalog, busyTimeoutMs: 1000 });
  const own = `own-${writer}`;
  let conflicts = 0;
  let view = await store.lastSequence('shared');
  for (let round = 0; round < count; round++) {
    await store.appendAll(noteBatch(own, round * 5 + 1, 5), { expectedSequence: round * 5 });
    for (;;) {
      try {
        const event = noteEvent('shared', round, { eventId: `shared-${writer}-${round}` });
        view = (await store.append(event, { expectedSequence: view })).sequence;
        break;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        conflicts += 1;
        view = error.actualSequence;
      }
    }
  }
  await store.close();
  process.stdout.write(`done ${JSON.stringify({ writer, conflicts })}\n`);
} catch (error) {
  const { code, message, name } = error as { code?: string; message: string; name: string };
  process.stdout.write(`failed ${name} ${code ?? ''}: ${message}\n`);
  process.exitCode = 1;
}
