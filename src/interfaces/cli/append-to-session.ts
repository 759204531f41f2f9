import { CorrexError } from '../../core/base/correx-error.js';
import type { CorrexEventStore, EventPayload } from '../../core/event-catalog.js';
import { ConcurrencyError } from '../../core/events/concurrency-error.js';
import type { StoredEvent } from '../../core/events/event-envelope.js';
import type { CliContext } from './cli-context.js';

/** The session named on the command line has no events. */
export class UnknownSessionError extends CorrexError {
  constructor(sessionId: string) {
    super('session_not_found', `no session ${sessionId} in this store (see \`correx sessions\`)`);
  }
}

/**
 * Appends a person's decision to a session that may be running in another process: stamped
 * with the clock and a fresh id, appended after the last event seen, and retried on a
 * concurrency conflict (a running session appends too). The id stays the same across retries,
 * so a retry after a lost acknowledgement cannot record the decision twice.
 */
export async function appendToSession(
  context: Pick<CliContext, 'clock' | 'ids'>,
  events: CorrexEventStore,
  sessionId: string,
  payload: EventPayload,
): Promise<StoredEvent<EventPayload>> {
  const eventId = context.ids.next();
  for (let attempt = 1; ; attempt++) {
    const last = await events.lastSequence(sessionId);
    if (last === 0) throw new UnknownSessionError(sessionId);
    try {
      return await events.append(
        { eventId, sessionId, timestamp: context.clock.now(), payload },
        { expectedSequence: last },
      );
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 5) throw error;
    }
  }
}
