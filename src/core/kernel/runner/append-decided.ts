import type { Clock } from '../../base/clock.js';
import { CorrexError } from '../../base/correx-error.js';
import type { IdSource } from '../../base/id-source.js';
import type { CorrexEventStore, EventPayload } from '../../event-catalog.js';
import { ConcurrencyError } from '../../events/concurrency-error.js';
import type { StoredEvent } from '../../events/event-envelope.js';

/** What stamps and names the events a person's decision becomes. */
export type RecordingContext = { readonly clock: Clock; readonly ids: IdSource };

/** The session named on the command line has no events. */
export class UnknownSessionError extends CorrexError {
  constructor(sessionId: string) {
    super('session_not_found', `no session ${sessionId} in this store`);
  }
}

/**
 * Appends what a person decided to a session that may be running in another process. `decide`
 * reads the session and returns the events to append after its last sequence; on a concurrency
 * conflict (a running session appended meanwhile) it is asked again. Event ids are kept across
 * attempts, so a retry cannot record the decision twice.
 */
export async function appendDecided(
  context: RecordingContext,
  events: CorrexEventStore,
  sessionId: string,
  decide: () => Promise<{ readonly sequence: number; readonly payloads: readonly EventPayload[] }>,
): Promise<StoredEvent<EventPayload>[]> {
  const eventIds: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const { sequence, payloads } = await decide();
    if (sequence === 0) throw new UnknownSessionError(sessionId);
    if (payloads.length === 0) return [];
    const timestamp = context.clock.now();
    const batch = payloads.map((payload, index) => ({
      eventId: (eventIds[index] ??= context.ids.next()),
      sessionId,
      timestamp,
      payload,
    }));
    try {
      return await events.appendAll(batch, { expectedSequence: sequence });
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 5) throw error;
    }
  }
}

/** Appends one event a person decided (a grant, a revocation) after the session's last event. */
export async function appendToSession(
  context: RecordingContext,
  events: CorrexEventStore,
  sessionId: string,
  payload: EventPayload,
): Promise<StoredEvent<EventPayload>> {
  const [stored] = await appendDecided(context, events, sessionId, async () => ({
    sequence: await events.lastSequence(sessionId),
    payloads: [payload],
  }));
  return stored!;
}
