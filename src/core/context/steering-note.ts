import type { PayloadOf } from '../events/event-definition.js';
import type { ContextCandidate } from './context-candidate.js';
import type { steeringNoteAdded } from './steering-events.js';

/** A note a person added to steer a session, as recorded by `steering_note_added`. */
export type SteeringNote = Omit<PayloadOf<typeof steeringNoteAdded>, 'type'>;

/** A steering note as a pinned L0 candidate; `eventId` and `sequence` locate its event. */
export function steeringNoteCandidate(
  note: SteeringNote,
  eventId: string,
  sequence: number,
): ContextCandidate {
  return {
    id: `steering:${eventId}`,
    layer: 'L0',
    kind: 'steering',
    source: { kind: 'event', id: eventId },
    content: `Steering note from the operator:\n${note.content}`,
    order: sequence,
    ...(note.stageId === undefined ? {} : { stageId: note.stageId }),
  };
}
