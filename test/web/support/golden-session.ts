import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CorrexEventStore, EventPayload } from '../../../src/core/event-catalog.js';

const SESSIONS = join(import.meta.dirname, '..', '..', 'golden', 'sessions');

/**
 * Appends a session of the frozen corpus (a real recorded run) to the store, as it was
 * recorded: same ids, timestamps and payloads. `edit` may change payloads first (e.g. price the
 * recorded model profile). Returns its session id.
 */
export async function loadGoldenSession(
  store: CorrexEventStore,
  name: string,
  edit: (payload: EventPayload) => EventPayload = (payload) => payload,
): Promise<string> {
  const lines = readFileSync(join(SESSIONS, `${name}.ndjson`), 'utf8')
    .trim()
    .split('\n');
  const events = lines.map(
    (line) =>
      JSON.parse(line) as {
        eventId: string;
        sessionId: string;
        timestamp: string;
        causationId: string | null;
        correlationId: string | null;
        payload: EventPayload;
      },
  );
  await store.appendAll(
    events.map((event) => ({
      eventId: event.eventId,
      sessionId: event.sessionId,
      timestamp: event.timestamp,
      causationId: event.causationId,
      correlationId: event.correlationId,
      payload: edit(event.payload),
    })),
  );
  return events[0]!.sessionId;
}
