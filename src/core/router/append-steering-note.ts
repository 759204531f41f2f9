import type { Clock } from '../base/clock.js';
import type { IdSource } from '../base/id-source.js';
import type { CorrexEvent, CorrexEventStore } from '../event-catalog.js';
import { ConcurrencyError } from '../events/concurrency-error.js';
import { steeringNotePayload, type SteeringNote } from '../context/steering-note.js';

const MAX_ATTEMPTS = 5;

/**
 * Appends `steering_note_added`, the only event the router writes, after the last event it has
 * seen (`seenSequence`). A session running in another process may append meanwhile; then the
 * note goes after the new last event. Id and timestamp are kept across attempts, so a retry
 * cannot record the note twice.
 */
export async function appendSteeringNote(
  ports: { readonly store: CorrexEventStore; readonly clock: Clock; readonly ids: IdSource },
  note: SteeringNote,
  seenSequence: number,
): Promise<CorrexEvent> {
  const eventId = ports.ids.next();
  const timestamp = ports.clock.now();
  let expectedSequence = seenSequence;
  for (let attempt = 1; ; attempt++) {
    try {
      return await ports.store.append(
        {
          eventId,
          sessionId: note.sessionId,
          timestamp,
          causationId: null,
          correlationId: null,
          payload: steeringNotePayload(note),
        },
        { expectedSequence },
      );
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
      expectedSequence = error.actualSequence;
    }
  }
}
