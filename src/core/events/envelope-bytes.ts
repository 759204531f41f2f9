/** The envelope fields around a payload: what an event's canonical bytes hold besides it. */
export type EnvelopeAround = {
  readonly causationId: string | null;
  readonly correlationId: string | null;
  readonly eventId: string;
  readonly sessionId: string;
  readonly timestamp: string;
  readonly version: number;
};

/**
 * The canonical bytes of an event from its envelope fields and its payload's canonical text.
 * The keys are written in their fixed sorted order: the same bytes as `canonicalJson` of the
 * whole envelope (a property test proves it). A store that keeps the envelope in columns and only
 * the payload as text (SQLite, schema 6) rebuilds the hashed bytes with this, so what is hashed
 * and what is stored can never be two encodings.
 */
export function envelopeBytes(
  fields: EnvelopeAround,
  sequence: number,
  payloadText: string,
): string {
  if (!Number.isSafeInteger(sequence))
    throw new RangeError(`sequence ${sequence} is not a safe integer`);
  return (
    `{"causationId":${fields.causationId === null ? 'null' : JSON.stringify(fields.causationId)}` +
    `,"correlationId":${fields.correlationId === null ? 'null' : JSON.stringify(fields.correlationId)}` +
    `,"eventId":${JSON.stringify(fields.eventId)}` +
    `,"payload":${payloadText}` +
    `,"sequence":${sequence}` +
    `,"sessionId":${JSON.stringify(fields.sessionId)}` +
    `,"timestamp":${JSON.stringify(fields.timestamp)}` +
    `,"version":${fields.version}}`
  );
}
