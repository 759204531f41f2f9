import type { Sha256 } from '../base/sha256.js';
import { CorruptEventError } from './corrupt-event-error.js';
import type { ChainedEventRow, EventRow } from './event-codec.js';

/** A row read for streaming, whose stored hash may be left out (see checkChainRun). */
export type SparseHashRow = Omit<EventRow, 'hash'> & { readonly hash: string | undefined };

/** The "previous hash" of a session's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** `H(previousHash || bytes)`: each event's hash commits to the whole session before it. */
export function chainHash(sha256: Sha256, previousHash: string, bytes: string): string {
  return sha256(previousHash + bytes);
}

/** The result of recomputing a session's chain. */
export type ChainVerification =
  | {
      readonly ok: true;
      readonly sessionId: string;
      readonly lastSequence: number;
      readonly headHash: string;
    }
  | {
      readonly ok: false;
      readonly sessionId: string;
      /** The first sequence whose link does not hold. */
      readonly sequence: number;
      readonly detail: string;
    };

/**
 * Checks rows of one session, in sequence order, one at a time. `previousHash` is the hash of
 * the row before the first one given (GENESIS_HASH when starting at sequence 1).
 */
export function createChainChecker(sha256: Sha256, start: { sequence: number; hash: string }) {
  let expectedSequence = start.sequence + 1;
  let previousHash = start.hash;
  return {
    /** Throws CorruptEventError (reason `hash`) at the first row that breaks the chain. */
    check(row: EventRow): void {
      if (row.sequence !== expectedSequence) {
        throw new CorruptEventError(
          row.sessionId,
          expectedSequence,
          'hash',
          `sequence ${expectedSequence} is missing (found ${row.sequence})`,
        );
      }
      if (row.previousHash !== undefined && row.previousHash !== previousHash) {
        throw new CorruptEventError(
          row.sessionId,
          row.sequence,
          'hash',
          'previous hash does not match the previous event',
        );
      }
      if (chainHash(sha256, previousHash, row.bytes) !== row.hash) {
        throw new CorruptEventError(
          row.sessionId,
          row.sequence,
          'hash',
          'hash does not match the stored bytes',
        );
      }
      previousHash = row.hash;
      expectedSequence += 1;
    },
  };
}

/** Checks one row on its own (its hash over its bytes), for reads that cross sessions. */
export function checkRowHash(sha256: Sha256, row: ChainedEventRow): void {
  if (chainHash(sha256, row.previousHash, row.bytes) !== row.hash) {
    throw new CorruptEventError(
      row.sessionId,
      row.sequence,
      'hash',
      'hash does not match the stored bytes',
    );
  }
}

/**
 * Checks `rows` from index `from` up to the first row that carries its stored hash, or to the
 * last row, whose stored hash `storedHash` looks up. That one hash vouches for every row of the
 * run: a changed byte anywhere in it changes every hash after it. The hashes it computes go into
 * `hashes`. Returns where the good rows end and, if the chain breaks there, the error the
 * row-by-row check would give (the first row whose stored hash disagrees, found by lookups).
 */
export function checkChainRun(
  sha256: Sha256,
  rows: readonly SparseHashRow[],
  from: number,
  link: { readonly sequence: number; readonly hash: string },
  hashes: string[],
  storedHash: (sequence: number) => string | undefined,
): { readonly end: number; readonly failure?: CorruptEventError } {
  let previousHash = link.hash;
  let end = from;
  let failure: CorruptEventError | undefined;
  while (end < rows.length) {
    const row = rows[end]!;
    const expectedSequence = link.sequence + 1 + (end - from);
    if (row.sequence !== expectedSequence) {
      failure = new CorruptEventError(
        row.sessionId,
        expectedSequence,
        'hash',
        `sequence ${expectedSequence} is missing (found ${row.sequence})`,
      );
      break;
    }
    if (row.previousHash !== undefined && row.previousHash !== previousHash) {
      failure = new CorruptEventError(
        row.sessionId,
        row.sequence,
        'hash',
        'previous hash does not match the previous event',
      );
      break;
    }
    const hash = chainHash(sha256, previousHash, row.bytes);
    if (row.hash !== undefined && row.hash !== hash) {
      failure = bytesMismatch(row);
      break;
    }
    hashes[end] = hash;
    previousHash = hash;
    end += 1;
    if (row.hash !== undefined) break;
  }
  const last = rows[end - 1];
  if (end > from && last!.hash === undefined && storedHash(last!.sequence) !== hashes[end - 1]) {
    let bad = from;
    while (storedHash(rows[bad]!.sequence) === hashes[bad]) bad += 1;
    return { end: bad, failure: bytesMismatch(rows[bad]!) };
  }
  return failure ? { end, failure } : { end };
}

function bytesMismatch(row: { readonly sessionId: string; readonly sequence: number }) {
  return new CorruptEventError(
    row.sessionId,
    row.sequence,
    'hash',
    'hash does not match the stored bytes',
  );
}
