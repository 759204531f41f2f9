import { z } from 'zod';
import { IdentifierSchema } from './wire-values.js';

/**
 * A stored event as a client sees it. The payload is the recorded JSON, discriminated by its
 * `type` (the event catalog documents each); store internals (global position, hash chain)
 * stay on the server.
 */
export const EventDtoSchema = z.strictObject({
  eventId: IdentifierSchema,
  sessionId: IdentifierSchema,
  sequence: z.number().int().min(1),
  timestamp: z.string(),
  /** The payload's schema version as stored. */
  version: z.number().int().min(1),
  causationId: z.string().nullable(),
  correlationId: z.string().nullable(),
  type: z.string().min(1),
  payload: z.looseObject({ type: z.string().min(1) }),
});
export type EventDto = z.infer<typeof EventDtoSchema>;
