import { describe, expect, it } from 'vitest';
import { noteBatch } from '../../../test/support/sample-events.js';
import { sha256Hex } from '../base/sha256.js';
import { correxEventCatalog } from '../event-catalog.js';
import { normalizeBatch, sealBatch } from './append-batch.js';
import { createEventCodec, type EventRow } from './event-codec.js';
import { GENESIS_HASH } from './hash-chain.js';
import {
  collectEvents,
  pageFeed,
  READ_PAGE_SIZE,
  streamSession,
  verifySession,
  type SessionRowSource,
} from './session-reads.js';

const codec = createEventCodec(correxEventCatalog);

function rowsOf(count: number): EventRow[] {
  const sealed = sealBatch(codec, sha256Hex, normalizeBatch(codec, noteBatch('s', 1, count)), {
    sequence: 0,
    hash: GENESIS_HASH,
  });
  return sealed.map((row, index) => ({ ...row, position: index + 1 }));
}

function sourceOf(rows: EventRow[], head = rows.at(-1)): SessionRowSource & { pages: number } {
  const source = {
    pages: 0,
    page: (_sessionId: string, after: number, limit: number) => {
      source.pages += 1;
      return rows.filter((row) => row.sequence > after).slice(0, limit);
    },
    hashAt: (_sessionId: string, sequence: number) =>
      rows.find((row) => row.sequence === sequence)?.hash,
    head: () => head && { sequence: head.sequence, hash: head.hash },
  };
  return source;
}

describe('shared session reads', () => {
  it('streams across page boundaries from a cursor, one page at a time', async () => {
    const rows = rowsOf(READ_PAGE_SIZE * 2 + 5);
    const source = sourceOf(rows);
    const events = await collectEvents(streamSession(source, codec, sha256Hex, 's', 3));
    expect(events.map((event) => event.sequence)).toEqual(rows.slice(3).map((row) => row.sequence));
    expect(source.pages).toBe(3);
    expect(await collectEvents(streamSession(source, codec, sha256Hex, 's'), 2)).toHaveLength(2);
  });

  it('streams from a store whose pages and hashes arrive later, one call at a time', async () => {
    const rows = rowsOf(READ_PAGE_SIZE + 3);
    const source = sourceOf(rows);
    const later: SessionRowSource = {
      page: async (...args) => source.page(...args),
      hashAt: async (...args) => source.hashAt(...args),
      head: source.head,
    };
    const events = await collectEvents(streamSession(later, codec, sha256Hex, 's', 1));
    expect(events.map((event) => event.sequence)).toEqual(rows.slice(1).map((row) => row.sequence));
    // Calls made before the previous one settles still get consecutive events, each once.
    const stream = streamSession(later, codec, sha256Hex, 's');
    const firstThree = await Promise.all([stream.next(), stream.next(), stream.next()]);
    expect(firstThree.map((result) => result.value?.sequence)).toEqual([1, 2, 3]);
  });

  it('a stream that meets a broken link rejects once, then ends', async () => {
    const rows = rowsOf(3);
    const broken = rows.map((row, index) => (index === 1 ? { ...row, hash: 'f'.repeat(64) } : row));
    const stream = streamSession(sourceOf(broken), codec, sha256Hex, 's');
    expect((await stream.next()).value?.sequence).toBe(1);
    await expect(stream.next()).rejects.toMatchObject({ sequence: 2, reason: 'hash' });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  describe('sparse pages (a stored hash only here and there)', () => {
    /** Rows 1-10 where only sequences 4 and 8 carry their stored hash; the others are looked up. */
    function sparseOf(
      rows: EventRow[],
      stored = new Map(rows.map((row) => [row.sequence, row.hash])),
    ) {
      const lookups: number[] = [];
      const source: SessionRowSource = {
        ...sourceOf(rows),
        sparse: {
          page: (_sessionId, after, limit) =>
            rows
              .filter((row) => row.sequence > after)
              .slice(0, limit)
              .map((row) => ({
                ...row,
                hash: row.sequence % 4 === 0 ? stored.get(row.sequence) : undefined,
              })),
          hashAt: (_sessionId, sequence) => {
            lookups.push(sequence);
            return stored.get(sequence);
          },
        },
      };
      return { source, lookups };
    }
    const sequences = async (stream: AsyncIterator<{ sequence: number }>) => {
      const seen: number[] = [];
      for (;;) {
        const next = await stream.next().catch((error: unknown) => error);
        if (next instanceof Error || (next as IteratorResult<unknown>).done)
          return { seen, end: next };
        seen.push((next as IteratorYieldResult<{ sequence: number }>).value.sequence);
      }
    };

    it('read the same events and hashes as full pages, checking at the carried hashes and the last row', async () => {
      const rows = rowsOf(10);
      const { source, lookups } = sparseOf(rows);
      const events = await collectEvents(streamSession(source, codec, sha256Hex, 's'));
      expect(events).toEqual(
        await collectEvents(streamSession(sourceOf(rows), codec, sha256Hex, 's')),
      );
      expect(lookups).toEqual([10]);
      expect(await collectEvents(streamSession(source, codec, sha256Hex, 's', 5))).toEqual(
        events.slice(5),
      );
    });

    it('changed bytes without a stored hash: the events before them read, then the stream rejects there', async () => {
      const rows = rowsOf(10);
      const tampered = rows.map((row) =>
        row.sequence === 6 ? { ...row, bytes: row.bytes.replace('note 6', 'note X') } : row,
      );
      const { end, seen } = await sequences(
        streamSession(sparseOf(tampered).source, codec, sha256Hex, 's'),
      );
      expect(seen).toEqual([1, 2, 3, 4, 5]);
      expect(end).toMatchObject({ sequence: 6, reason: 'hash' });
    });

    it('a forged event whose stored hash was recomputed: the next link breaks, as with full pages', async () => {
      const rows = rowsOf(10);
      const bytes = rows[5]!.bytes.replace('note 6', 'note X');
      const forged = rows.map((row) =>
        row.sequence === 6 ? { ...row, bytes, hash: sha256Hex(rows[4]!.hash + bytes) } : row,
      );
      const stored = new Map(forged.map((row) => [row.sequence, row.hash]));
      const { end, seen } = await sequences(
        streamSession(sparseOf(forged, stored).source, codec, sha256Hex, 's'),
      );
      expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
      expect(end).toMatchObject({ sequence: 7, reason: 'hash' });
      const full = await sequences(streamSession(sourceOf(forged), codec, sha256Hex, 's'));
      expect(full).toEqual({ seen, end });
    });

    it('a missing sequence: the events before the gap read, then the stream rejects at the gap', async () => {
      const rows = rowsOf(10).filter((row) => row.sequence !== 6);
      const { end, seen } = await sequences(
        streamSession(sparseOf(rows).source, codec, sha256Hex, 's'),
      );
      expect(seen).toEqual([1, 2, 3, 4, 5]);
      expect(end).toMatchObject({
        sequence: 6,
        reason: 'hash',
        message: expect.stringContaining('missing'),
      });
    });
  });

  it('verify reports a recorded head that disagrees with the last event', async () => {
    const rows = rowsOf(3);
    expect(await verifySession(sourceOf(rows), codec, sha256Hex, 's')).toMatchObject({
      ok: true,
      lastSequence: 3,
    });
    const stale = await verifySession(sourceOf(rows.slice(0, 2), rows[2]), codec, sha256Hex, 's');
    expect(stale).toMatchObject({
      ok: false,
      sequence: 3,
      detail: expect.stringContaining('head'),
    });
  });

  it('reads verified rows without a schema pass, and verify still checks every payload deeply', async () => {
    const rows = rowsOf(3);
    // Someone with write access rewrote event 2 to a payload its schema refuses, and re-chained.
    const bytes = rows[1]!.bytes.replace('"content":', '"content_":');
    const forged: EventRow[] = [];
    let previous = GENESIS_HASH;
    for (const [index, row] of rows.entries()) {
      const rowBytes = index === 1 ? bytes : row.bytes;
      const hash = sha256Hex(`${previous}${rowBytes}`);
      forged.push({ ...row, bytes: rowBytes, previousHash: previous, hash });
      previous = hash;
    }
    expect(() => codec.decodeRow(forged[1]!)).toThrow(/schema|content/);
    const verdict = await verifySession(sourceOf(forged), codec, sha256Hex, 's');
    expect(verdict).toMatchObject({ ok: false, sequence: 2 });
    // Rows as this codec wrote them decode the same either way.
    for (const row of rows)
      expect(codec.decodeVerifiedRow(row, row.hash)).toEqual(codec.decodeRow(row));
  });

  it('pages the global feed up to a limit', async () => {
    const events = rowsOf(5).map((row) => codec.decodeRow(row));
    const feed = await collectEvents(
      pageFeed((after, limit) => events.filter((e) => e.position > after).slice(0, limit), {
        afterPosition: 1,
        limit: 3,
      }),
    );
    expect(feed.map((event) => event.position)).toEqual([2, 3, 4]);
  });
});
