import { z } from 'zod';
import { EventDtoSchema } from './event-dto.js';
import { PendingApprovalDetailsDtoSchema, SessionListItemDtoSchema } from './session-dto.js';
import { IdentifierSchema, SequenceCursorSchema } from './wire-values.js';

export const SocketErrorCodeSchema = z.enum([
  /** Not JSON, or not a ClientMessage; `issues` says why. */
  'invalid_message',
  'message_too_large',
  'session_not_found',
  /** The cursor is past the session's last event (a different store, or a client bug). */
  'cursor_out_of_range',
  'already_subscribed',
  'not_subscribed',
  'too_many_subscriptions',
  'too_many_requests',
  'router_unavailable',
  'router_failed',
  'internal',
]);
export type SocketErrorCode = z.infer<typeof SocketErrorCodeSchema>;

/** What the server sends over the WebSocket, one JSON object per text frame. */
export const ServerMessageSchema = z.discriminatedUnion('type', [
  /** The subscription is open; `event` messages follow from `afterSequence + 1`. */
  z.strictObject({
    type: z.literal('subscribed'),
    sessionId: IdentifierSchema,
    afterSequence: SequenceCursorSchema,
  }),
  /** One event; per session, sequences arrive in order with no gap and no repeat. */
  z.strictObject({ type: z.literal('event'), sessionId: IdentifierSchema, event: EventDtoSchema }),
  /** Every event recorded before the subscription was delivered; live events follow. */
  z.strictObject({
    type: z.literal('caught_up'),
    sessionId: IdentifierSchema,
    sequence: SequenceCursorSchema,
  }),
  /** A tool call waits for a person (decide it with REST `POST .../approvals/:callId`). */
  z.strictObject({
    type: z.literal('approval_requested'),
    sessionId: IdentifierSchema,
    sequence: z.number().int().min(1),
    approval: PendingApprovalDetailsDtoSchema,
  }),
  z.strictObject({ type: z.literal('unsubscribed'), sessionId: IdentifierSchema }),
  /**
   * Work in progress of a subscribed session driven by this server, never recorded: a piece of
   * the text a model is writing (`kind: model_text`, `id` the `requestId` of its
   * `inference_requested`, or its `requestDigest` for a call resumed after a restart) or of what
   * a running command prints (`kind: command_output`, `id` the call's `callId`). Concatenated in
   * order, the pieces of one id are its output so far (at most 64 KiB, then a cut marker). The
   * recorded `inference_completed` / `tool_receipt` replaces them; a late subscriber sees only
   * that, and a slow client may miss pieces.
   */
  z.strictObject({
    type: z.literal('live'),
    sessionId: IdentifierSchema,
    kind: z.enum(['model_text', 'command_output']),
    id: z.string().min(1),
    chunk: z.string(),
  }),
  /** The router's answer to a `user_input`. */
  z.strictObject({
    type: z.literal('router_response'),
    requestId: z.string(),
    sessionId: IdentifierSchema,
    answer: z.string(),
    /** Event sequences of the session that the answer relies on. */
    citedSequences: z.array(z.number().int().min(1)),
    /** The steering note the input became, when it became one. */
    note: z.strictObject({ eventId: z.string(), sequence: z.number().int().min(1) }).optional(),
  }),
  /** The session list follows (after `subscribe_sessions`): `session_updated` messages come. */
  z.strictObject({ type: z.literal('sessions_subscribed') }),
  z.strictObject({ type: z.literal('sessions_unsubscribed') }),
  /**
   * A session's list row after new events (any session, throttled per session). Sent to
   * connections that asked with `subscribe_sessions`.
   */
  z.strictObject({ type: z.literal('session_updated'), session: SessionListItemDtoSchema }),
  z.strictObject({ type: z.literal('pong'), requestId: z.string().optional() }),
  z.strictObject({
    type: z.literal('error'),
    code: SocketErrorCodeSchema,
    message: z.string(),
    requestId: z.string().optional(),
    sessionId: z.string().optional(),
  }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
