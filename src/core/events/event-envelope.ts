import { z } from 'zod';

/** Every payload is a member of a discriminated union on `type`. */
export type PayloadShape = { readonly type: string };

/** An event as a writer offers it: the store assigns `sequence`, `version`, `position` and `hash`. */
export type NewEvent<Payload extends PayloadShape = PayloadShape> = {
  readonly eventId: string;
  readonly sessionId: string;
  /** ISO-8601 UTC instant, stamped by the writer through a Clock; recorded data from then on. */
  readonly timestamp: string;
  /** The event that caused this one, if any. */
  readonly causationId?: string | null;
  /** Groups events of one logical operation (a stage turn, a tool call). */
  readonly correlationId?: string | null;
  readonly payload: Payload;
};

/** The canonical envelope: exactly what is serialized, hashed and compared on replay. */
export type EventEnvelope<Payload extends PayloadShape = PayloadShape> = {
  readonly eventId: string;
  readonly sessionId: string;
  /** Per session, gapless, from 1; assigned by the store. */
  readonly sequence: number;
  readonly timestamp: string;
  /** The schema version of the payload as stored. */
  readonly version: number;
  readonly causationId: string | null;
  readonly correlationId: string | null;
  readonly payload: Payload;
};

/** An envelope as read back from a store. */
export type StoredEvent<Payload extends PayloadShape = PayloadShape> = EventEnvelope<Payload> & {
  /** Position in the store's global feed: increasing across all sessions, not necessarily gapless. */
  readonly position: number;
  /** SHA-256 (hex) of the previous event's hash followed by this envelope's canonical bytes. */
  readonly hash: string;
};

const identifier = z.string().min(1).max(256);

/** ISO-8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
export const TimestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'expected an ISO-8601 UTC timestamp');

/** Envelope fields other than the payload, checked on every write and read. */
export const EnvelopeFieldsSchema = z.strictObject({
  eventId: identifier,
  sessionId: identifier,
  sequence: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  timestamp: TimestampSchema,
  version: z.number().int().min(1),
  causationId: identifier.nullable(),
  correlationId: identifier.nullable(),
  // Only the discriminator is checked here, without copying the payload: the payload's own
  // schema validates it next, and this runs once per event read.
  payload: z.custom<PayloadShape>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as { type?: unknown }).type === 'string' &&
      (value as { type: string }).type.length > 0,
    'payload must be an object with a non-empty string "type"',
  ),
});

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const isIdentifier = (value: unknown): boolean =>
  typeof value === 'string' && value.length >= 1 && value.length <= 256;

/**
 * EnvelopeFieldsSchema's check written out for the append path, where it runs once per event
 * and a schema pass costs more than the fields themselves. True only for fields the schema
 * accepts (it is as strict or stricter); on false the caller runs the schema, whose issue is the
 * error, so a rejected envelope reads the same as before.
 */
export function hasWellFormedEnvelopeFields(candidate: {
  readonly eventId: unknown;
  readonly sessionId: unknown;
  readonly sequence: unknown;
  readonly timestamp: unknown;
  readonly version: unknown;
  readonly causationId: unknown;
  readonly correlationId: unknown;
  readonly payload: unknown;
}): boolean {
  return (
    Object.keys(candidate).length === 8 &&
    Number.isSafeInteger(candidate.sequence) &&
    (candidate.sequence as number) >= 1 &&
    hasWellFormedFields(
      candidate.eventId,
      candidate.sessionId,
      candidate.timestamp,
      candidate.version,
      candidate.causationId,
      candidate.correlationId,
      candidate.payload,
    )
  );
}

/**
 * hasWellFormedEnvelopeFields for the fields other than the sequence, passed one by one: an
 * append checks them without building an envelope object for the check.
 */
export function hasWellFormedFields(
  eventId: unknown,
  sessionId: unknown,
  timestamp: unknown,
  version: unknown,
  causationId: unknown,
  correlationId: unknown,
  payload: unknown,
): boolean {
  return (
    isIdentifier(eventId) &&
    isIdentifier(sessionId) &&
    typeof timestamp === 'string' &&
    TIMESTAMP.test(timestamp) &&
    Number.isSafeInteger(version) &&
    (version as number) >= 1 &&
    (causationId === null || isIdentifier(causationId)) &&
    (correlationId === null || isIdentifier(correlationId)) &&
    typeof payload === 'object' &&
    payload !== null &&
    !Array.isArray(payload) &&
    typeof (payload as { type?: unknown }).type === 'string' &&
    (payload as { type: string }).type.length > 0
  );
}
