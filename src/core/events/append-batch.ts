import type { Sha256 } from '../base/sha256.js';
import { ConcurrencyError } from './concurrency-error.js';
import { DuplicateEventError } from './duplicate-event-error.js';
import { envelopeBytes } from './envelope-bytes.js';
import type { EventCodec, NormalizedEvent } from './event-codec.js';
import type { NewEvent, PayloadShape, StoredEvent } from './event-envelope.js';
import { chainHash } from './hash-chain.js';
import { InvalidAppendError } from './invalid-event-error.js';
import { StaleDriverError } from './stale-driver-error.js';

/**
 * The parts of an append every store shares, so each implementation only supplies storage:
 * check the batch, settle retries, check the expected sequence, then seal rows.
 */

export type AppendOptions = {
  /** The last sequence the writer has seen (0 for a new session). A mismatch is a ConcurrencyError. */
  readonly expectedSequence?: number;
  /**
   * The driver epoch the appending driver took with its lease (see `EventStore.takeDriverEpoch`).
   * The store refuses the append with StaleDriverError, in the append's own transaction, when the
   * session's epoch is another. Absent: not a driver append (a person's command, an import).
   */
  readonly driverEpoch?: number;
};

/** A row ready to insert. */
export type SealedEvent = {
  readonly sessionId: string;
  readonly sequence: number;
  readonly eventId: string;
  readonly type: string;
  readonly timestamp: string;
  /** The canonical bytes, which the hash chains. */
  readonly bytes: string;
  /** The payload's canonical text within `bytes`, for a store that keeps the envelope in columns. */
  readonly payloadBytes: string;
  readonly causationId: string | null;
  readonly correlationId: string | null;
  readonly version: number;
  readonly hash: string;
  readonly previousHash: string;
};

/** Validates a batch as a whole and every event in it; returns the normalized events. */
export function normalizeBatch<Payload extends PayloadShape>(
  codec: EventCodec<Payload>,
  events: readonly NewEvent<Payload>[],
): NormalizedEvent<Payload>[] {
  if (events.length === 0) throw new InvalidAppendError('appendAll needs at least one event');
  const sessionId = events[0]!.sessionId;
  const seen = new Set<string>();
  for (const event of events) {
    if (event.sessionId !== sessionId) {
      throw new InvalidAppendError(
        `appendAll is for one session: got ${sessionId} and ${event.sessionId}`,
      );
    }
    if (seen.has(event.eventId))
      throw new InvalidAppendError(`event id ${event.eventId} appears twice in one batch`);
    seen.add(event.eventId);
  }
  return events.map((event) => codec.normalize(event));
}

/**
 * Settles a batch against events already stored under the same ids. Returns the stored
 * envelopes when the whole batch is a retry of what is stored, undefined when none of it is
 * stored, and throws DuplicateEventError for a changed event or a partial overlap.
 */
export function settleRetry<Payload extends PayloadShape>(
  codec: EventCodec<Payload>,
  batch: readonly NormalizedEvent<Payload>[],
  stored: ReadonlyMap<string, StoredEvent<Payload>>,
): StoredEvent<Payload>[] | undefined {
  if (stored.size === 0) return undefined;
  const result: StoredEvent<Payload>[] = [];
  for (const event of batch) {
    const existing = stored.get(event.eventId);
    if (!existing) {
      const first = [...stored.keys()][0]!;
      throw new DuplicateEventError(
        event.sessionId,
        first,
        'batch overlaps stored events only in part',
      );
    }
    if (
      existing.sessionId !== event.sessionId ||
      codec.identity(existing) !== codec.identity(event)
    ) {
      throw new DuplicateEventError(
        event.sessionId,
        event.eventId,
        'already stored with different content',
      );
    }
    result.push(existing);
  }
  const sequences = result.map((event) => event.sequence);
  if (sequences.some((sequence, index) => index > 0 && sequence !== sequences[index - 1]! + 1)) {
    throw new DuplicateEventError(
      batch[0]!.sessionId,
      batch[0]!.eventId,
      'batch matches stored events in another order',
    );
  }
  return result;
}

/** Throws ConcurrencyError when the writer's view is stale. */
export function checkExpectedSequence(
  sessionId: string,
  options: AppendOptions | undefined,
  actual: number,
): void {
  if (options?.expectedSequence !== undefined && options.expectedSequence !== actual) {
    throw new ConcurrencyError(sessionId, options.expectedSequence, actual);
  }
}

/** Throws StaleDriverError when a driver append's epoch is not the session's current one. */
export function checkDriverEpoch(
  sessionId: string,
  options: AppendOptions | undefined,
  current: number,
): void {
  if (options?.driverEpoch !== undefined && options.driverEpoch !== current)
    throw new StaleDriverError(sessionId, options.driverEpoch, current);
}

/** Assigns sequences after `last` and chains hashes. */
export function sealBatch<Payload extends PayloadShape>(
  codec: EventCodec<Payload>,
  sha256: Sha256,
  batch: readonly NormalizedEvent<Payload>[],
  last: { readonly sequence: number; readonly hash: string },
): SealedEvent[] {
  let previousHash = last.hash;
  return batch.map((event, index) => {
    const sequence = last.sequence + index + 1;
    const payloadBytes = codec.encodePayload(event.payload);
    const bytes = envelopeBytes(event, sequence, payloadBytes);
    const hash = chainHash(sha256, previousHash, bytes);
    const sealed: SealedEvent = {
      sessionId: event.sessionId,
      sequence,
      eventId: event.eventId,
      type: event.payload.type,
      timestamp: event.timestamp,
      bytes,
      payloadBytes,
      causationId: event.causationId,
      correlationId: event.correlationId,
      version: event.version,
      hash,
      previousHash,
    };
    previousHash = hash;
    return sealed;
  });
}

/** The stored envelope of a freshly written row, built without decoding its bytes again. */
export function toStoredEvent<Payload extends PayloadShape>(
  event: NormalizedEvent<Payload>,
  sealed: SealedEvent,
  position: number,
): StoredEvent<Payload> {
  // Listed field by field rather than spread: this runs once per appended event.
  return {
    eventId: event.eventId,
    sessionId: event.sessionId,
    sequence: sealed.sequence,
    timestamp: event.timestamp,
    version: event.version,
    causationId: event.causationId,
    correlationId: event.correlationId,
    payload: event.payload,
    position,
    hash: sealed.hash,
  };
}
