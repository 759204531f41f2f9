import { CorrexError } from '../core/base/correx-error.js';
import type { Sha256 } from '../core/base/sha256.js';
import { correxEventCatalog } from '../core/event-catalog.js';
import type { EventCatalog } from '../core/events/event-catalog.js';
import { createEventCodec, type EventCodec } from '../core/events/event-codec.js';
import type { NewEvent, PayloadShape, StoredEvent } from '../core/events/event-envelope.js';
import type { EventStore } from '../core/events/event-store.js';
import { chainHash, GENESIS_HASH } from '../core/events/hash-chain.js';
import { nodeSha256 } from './system/node-sha256.js';

export type CopySessionsOptions<Payload extends PayloadShape> = {
  readonly from: EventStore<Payload>;
  readonly to: EventStore<Payload>;
  /** Sessions to copy (default: every session in `from`, in order of first appearance). */
  readonly sessionIds?: readonly string[];
  /** Events per appendAll on the target (default 500). */
  readonly batchSize?: number;
  /**
   * The catalog the target encodes with (default correx's), used to check before writing that
   * every event re-encodes to the source's exact bytes.
   */
  readonly catalog?: EventCatalog<Payload>;
  readonly sha256?: Sha256;
};

/** What happened to one session. */
export type SessionCopyReport = {
  readonly sessionId: string;
  /** Events appended to the target by this run. */
  readonly copied: number;
  /** Events the target already held, identical to the source's (an earlier, perhaps interrupted, copy). */
  readonly alreadyPresent: number;
  readonly lastSequence: number;
  /** The hash of the last event, the same in both stores. */
  readonly headHash: string;
};

/** A session could not be copied faithfully; nothing after the named sequence was written. */
export class StoreCopyError extends CorrexError {
  constructor(
    readonly sessionId: string,
    readonly sequence: number,
    detail: string,
  ) {
    super('store_copy_failed', `copying session ${sessionId} at sequence ${sequence}: ${detail}`);
  }
}

/**
 * Copies whole sessions between any two event stores, keeping event ids, timestamps,
 * canonical bytes and hashes. Rerunning it copies only what is missing. Each session's chain
 * is verified in the source before and in the target after; a target whose events differ
 * from the source's is a StoreCopyError, never overwritten.
 */
export async function copySessions<Payload extends PayloadShape>(
  options: CopySessionsOptions<Payload>,
): Promise<SessionCopyReport[]> {
  const { from, to } = options;
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const codec = createEventCodec(
    options.catalog ?? (correxEventCatalog as unknown as EventCatalog<Payload>),
  );
  const sha256 = options.sha256 ?? nodeSha256;
  const sessionIds =
    options.sessionIds ?? (await from.listSessions()).map((session) => session.sessionId);
  const reports: SessionCopyReport[] = [];
  for (const sessionId of sessionIds) {
    const source = await from.verify(sessionId);
    if (!source.ok)
      throw new StoreCopyError(
        sessionId,
        source.sequence,
        `the source chain is broken: ${source.detail}`,
      );
    if (source.lastSequence === 0)
      throw new StoreCopyError(sessionId, 0, 'the source store has no such session');

    const present = await to.lastSequence(sessionId);
    if (present > source.lastSequence) {
      throw new StoreCopyError(
        sessionId,
        source.lastSequence + 1,
        `the target holds ${present} events, the source only ${source.lastSequence}`,
      );
    }
    // What the target already holds must be the very events of the source.
    const sourceEvents = from.stream(sessionId)[Symbol.asyncIterator]();
    let copied = 0;
    try {
      for await (const held of to.stream(sessionId)) {
        const next = await sourceEvents.next();
        if (next.done || !sameEvent(next.value, held)) {
          throw new StoreCopyError(
            sessionId,
            held.sequence,
            'the target already holds a different event here',
          );
        }
      }

      let batch: StoredEvent<Payload>[] = [];
      let previousHash: string | undefined;
      const flush = async () => {
        if (batch.length === 0) return;
        previousHash = checkReencoding(
          codec,
          sha256,
          batch,
          previousHash ?? (await hashBefore(to, batch[0]!)),
        );
        const expectedSequence = batch[0]!.sequence - 1;
        const stored = await to.appendAll(batch.map(toNewEvent), { expectedSequence });
        stored.forEach((event, index) => {
          if (!sameEvent(batch[index]!, event)) {
            throw new StoreCopyError(
              sessionId,
              event.sequence,
              'the target stored different bytes (is its event catalog older or newer than the source’s?)',
            );
          }
        });
        copied += stored.length;
        batch = [];
      };
      for (let next = await sourceEvents.next(); !next.done; next = await sourceEvents.next()) {
        batch.push(next.value);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
    } finally {
      await sourceEvents.return?.();
    }

    const target = await to.verify(sessionId);
    if (!target.ok)
      throw new StoreCopyError(
        sessionId,
        target.sequence,
        `the target chain is broken: ${target.detail}`,
      );
    if (target.lastSequence !== source.lastSequence || target.headHash !== source.headHash) {
      throw new StoreCopyError(
        sessionId,
        target.lastSequence,
        'the target head differs from the source head after copying',
      );
    }
    reports.push({
      sessionId,
      copied,
      alreadyPresent: present,
      lastSequence: target.lastSequence,
      headHash: target.headHash,
    });
  }
  return reports;
}

/** Same place in the same session with the same hash: the hash covers the bytes and the chain before. */
function sameEvent(a: StoredEvent<PayloadShape>, b: StoredEvent<PayloadShape>): boolean {
  return a.eventId === b.eventId && a.sequence === b.sequence && a.hash === b.hash;
}

/** The hash the target's chain holds just before `first` (the genesis hash for sequence 1). */
async function hashBefore<Payload extends PayloadShape>(
  to: EventStore<Payload>,
  first: StoredEvent<Payload>,
): Promise<string> {
  if (first.sequence === 1) return GENESIS_HASH;
  const [previous] = await to.read(first.sessionId, {
    afterSequence: first.sequence - 2,
    limit: 1,
  });
  return previous?.hash ?? GENESIS_HASH;
}

/**
 * Recomputes each event's bytes and hash as the target will write them; a difference (an
 * upcast event, a catalog that differs) stops the copy before anything is written.
 */
function checkReencoding<Payload extends PayloadShape>(
  codec: EventCodec<Payload>,
  sha256: Sha256,
  batch: readonly StoredEvent<Payload>[],
  previousHash: string,
): string {
  let previous = previousHash;
  for (const event of batch) {
    let hash: string;
    try {
      hash = chainHash(
        sha256,
        previous,
        codec.encode(codec.normalize(toNewEvent(event)), event.sequence),
      );
    } catch (error) {
      throw new StoreCopyError(event.sessionId, event.sequence, (error as Error).message);
    }
    if (hash !== event.hash) {
      throw new StoreCopyError(
        event.sessionId,
        event.sequence,
        'the event would not keep its bytes in the target (an upcast event, or a different event catalog)',
      );
    }
    previous = hash;
  }
  return previous;
}

function toNewEvent<Payload extends PayloadShape>(event: StoredEvent<Payload>): NewEvent<Payload> {
  return {
    eventId: event.eventId,
    sessionId: event.sessionId,
    timestamp: event.timestamp,
    causationId: event.causationId,
    correlationId: event.correlationId,
    payload: event.payload,
  };
}
