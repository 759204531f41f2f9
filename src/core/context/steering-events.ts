import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

/** A person steered a running session; the note is carried into later context packs. */
export const steeringNoteAdded = defineEvent({
  type: 'steering_note_added',
  description: 'A steering note was added to a session (optionally for one stage).',
  origin: 'command',
  fields: () => ({
    sessionId: z.string().min(1),
    content: z.string().min(1).max(20_000),
    stageId: z.string().min(1).optional(),
  }),
});

export const steeringEvents = [steeringNoteAdded] as const;
