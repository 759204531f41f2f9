import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

/**
 * A person retried a failed session (`correx resume <id> --retry`): the workflow goes on from
 * the stage that failed, with a new attempt of it, and the log says who asked and why. Only a
 * session recorded with the `retry-failed-session` flag accepts it.
 */
export const sessionRetried = defineEvent({
  type: 'session_retried',
  description: 'A person retried a failed session from the stage that failed.',
  origin: 'command',
  fields: () => ({
    stageId: z.string().min(1),
    /** The new attempt: one past the stage's last, so ids of the earlier attempts stay unique. */
    attempt: z.number().int().min(1),
    by: z.string().min(1),
    reason: z.string(),
  }),
});

export const retryEvents = [sessionRetried] as const;
