import type { z } from 'zod';
import type { PayloadOf } from '../events/event-definition.js';
import type { ContextCandidate } from './context-candidate.js';
import { steeringNoteAdded } from './steering-events.js';

/**
 * A note a person added to steer a session (spec 003, task 0): the `steering_note_added`
 * payload without its `type`. No `createdAt` field: the event's timestamp is when it was made.
 */
export const SteeringNoteSchema = steeringNoteAdded.schema.omit({ type: true });
export type SteeringNote = z.infer<typeof SteeringNoteSchema>;

/** The event payload that records `note`. */
export function steeringNotePayload(note: SteeringNote): PayloadOf<typeof steeringNoteAdded> {
  return {
    type: 'steering_note_added',
    sessionId: note.sessionId,
    content: note.content,
    ...(note.stageId === undefined ? {} : { stageId: note.stageId }),
  };
}

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
