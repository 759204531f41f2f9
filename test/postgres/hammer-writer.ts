/**
 * One of the OS processes of the multi-process test: opens the store (migrating, as every
 * process at start-up may), says `ready`, waits for `go` on stdin, then appends `count`
 * events to one session with optimistic concurrency, refreshing its view only after a
 * conflict. Prints every attempt as JSON on the last line.
 *
 * Usage: node --import tsx hammer-writer.ts <url> <schema> <sessionId> <writer> <count>
 */
import { once } from 'node:events';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { ConcurrencyError } from '../../src/core/events/concurrency-error.js';
import { openPostgresEventStore } from '../../src/infrastructure/postgres/postgres-event-store.js';
import { noteEvent } from '../support/sample-events.js';

export type HammerAttempt = {
  readonly eventId: string;
  readonly expected: number;
  readonly outcome: 'stored' | 'conflict';
  /** The stored sequence, or the actual last sequence the conflict reported. */
  readonly sequence: number;
};

const [url, schema, sessionId, writer, countText] = process.argv.slice(2);
const count = Number(countText);
const store = await openPostgresEventStore({
  connectionString: url!,
  schema: schema!,
  catalog: correxEventCatalog,
  migrate: true,
  maxConnections: 1,
});
process.stdout.write('ready\n');
await once(process.stdin, 'data');

const attempts: HammerAttempt[] = [];
let view = 0;
let written = 0;
while (written < count) {
  const eventId = `${sessionId}-${writer}-${attempts.length + 1}`;
  try {
    const stored = await store.append(noteEvent(sessionId!, attempts.length + 1, { eventId }), {
      expectedSequence: view,
    });
    attempts.push({ eventId, expected: view, outcome: 'stored', sequence: stored.sequence });
    view = stored.sequence;
    written += 1;
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
    attempts.push({ eventId, expected: view, outcome: 'conflict', sequence: error.actualSequence });
    view = error.actualSequence;
  }
}
await store.close();
process.stdout.write(`${JSON.stringify(attempts)}\n`);
process.stdin.destroy();
