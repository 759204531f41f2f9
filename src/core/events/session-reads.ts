import type { Sha256 } from '../base/sha256.js';
import { CorruptEventError } from './corrupt-event-error.js';
import type { EventCodec } from './event-codec.js';
import type { PayloadShape, StoredEvent } from './event-envelope.js';
import { createChainChecker, GENESIS_HASH, type ChainVerification } from './hash-chain.js';
import { SessionStream, type SessionPages } from './session-stream.js';

/**
 * The read paths every store shares. A store supplies only how to fetch a page of rows; the
 * paging, hash-chain checks and decoding live here once, so the stores cannot drift apart.
 */

/** How many rows one page holds. */
export const READ_PAGE_SIZE = 1000;

/** What a store supplies to read one session. */
export type SessionRowSource = SessionPages & {
  /** The session's head as the store records it (last sequence and hash), if any. */
  head(
    sessionId: string,
  ):
    | Promise<{ sequence: number; hash: string } | undefined>
    | { sequence: number; hash: string }
    | undefined;
};

/** Streams a session after a cursor, page by page, checking every link of the chain. */
export function streamSession<Payload extends PayloadShape>(
  source: SessionRowSource,
  codec: EventCodec<Payload>,
  sha256: Sha256,
  sessionId: string,
  afterSequence = 0,
): AsyncIterableIterator<StoredEvent<Payload>> {
  return new SessionStream(source, codec, sha256, sessionId, READ_PAGE_SIZE, afterSequence);
}

/** Collects at most `limit` events of a stream (all when no limit is given). */
export async function collectEvents<Event>(
  events: AsyncIterable<Event>,
  limit = Number.MAX_SAFE_INTEGER,
): Promise<Event[]> {
  const collected: Event[] = [];
  if (limit <= 0) return collected;
  for await (const event of events) {
    collected.push(event);
    if (collected.length >= limit) break;
  }
  return collected;
}

/**
 * Recomputes a session's whole chain and compares its end with the recorded head. Each row is
 * also decoded with its payload's full schema (reads trust verified rows; this is the deep check).
 */
export async function verifySession<Payload extends PayloadShape>(
  source: SessionRowSource,
  codec: EventCodec<Payload>,
  sha256: Sha256,
  sessionId: string,
): Promise<ChainVerification> {
  const checker = createChainChecker(sha256, { sequence: 0, hash: GENESIS_HASH });
  let after = 0;
  let headHash = GENESIS_HASH;
  try {
    for (;;) {
      const page = await source.page(sessionId, after, READ_PAGE_SIZE);
      for (const row of page) {
        checker.check(row);
        codec.decodeRow(row);
        headHash = row.hash;
        after = row.sequence;
      }
      if (page.length < READ_PAGE_SIZE) break;
    }
  } catch (error) {
    if (error instanceof CorruptEventError)
      return { ok: false, sessionId, sequence: error.sequence, detail: error.message };
    throw error;
  }
  const head = await source.head(sessionId);
  if (head && (head.sequence !== after || head.hash !== headHash)) {
    return {
      ok: false,
      sessionId,
      sequence: head.sequence,
      detail: 'the recorded session head does not match its last event',
    };
  }
  return { ok: true, sessionId, lastSequence: after, headHash };
}

/** The global feed in pages of already-decoded events, up to `limit` in all. */
export async function* pageFeed<Payload extends PayloadShape>(
  readPage: (
    afterPosition: number,
    limit: number,
  ) => Promise<readonly StoredEvent<Payload>[]> | readonly StoredEvent<Payload>[],
  options: { readonly afterPosition?: number; readonly limit?: number } = {},
): AsyncGenerator<StoredEvent<Payload>> {
  let after = options.afterPosition ?? 0;
  let remaining = options.limit ?? Number.MAX_SAFE_INTEGER;
  while (remaining > 0) {
    const want = Math.min(READ_PAGE_SIZE, remaining);
    const page = await readPage(after, want);
    yield* page;
    if (page.length < want) return;
    remaining -= page.length;
    after = page.at(-1)!.position;
  }
}
