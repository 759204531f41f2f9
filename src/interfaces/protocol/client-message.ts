import { z } from 'zod';
import { IdentifierSchema, SequenceCursorSchema, UserInputModeSchema } from './wire-values.js';

/** A client-chosen id that the server echoes on the answer (and on an error about it). */
const RequestIdSchema = z.string().min(1).max(128);

/**
 * What a client sends over the WebSocket (`/api/ws`), one JSON object per text frame.
 * Anything else is answered with an `error` message; the connection stays open.
 */
export const ClientMessageSchema = z.discriminatedUnion('type', [
  /** Every event of the session after `afterSequence`, then live events as they are recorded. */
  z.strictObject({
    type: z.literal('subscribe'),
    sessionId: IdentifierSchema,
    afterSequence: SequenceCursorSchema.default(0),
  }),
  z.strictObject({ type: z.literal('unsubscribe'), sessionId: IdentifierSchema }),
  /** A message for the session's router: a question (`normal`) or a steering request. */
  z.strictObject({
    type: z.literal('user_input'),
    requestId: RequestIdSchema,
    sessionId: IdentifierSchema,
    text: z.string().min(1).max(8_000),
    mode: UserInputModeSchema,
  }),
  /** Every session's list row each time it changes (`session_updated`), until unsubscribed. */
  z.strictObject({ type: z.literal('subscribe_sessions') }),
  z.strictObject({ type: z.literal('unsubscribe_sessions') }),
  z.strictObject({ type: z.literal('ping'), requestId: RequestIdSchema.optional() }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;
/** What a client may write before defaults are applied (`afterSequence` optional). */
export type ClientMessageInput = z.input<typeof ClientMessageSchema>;
