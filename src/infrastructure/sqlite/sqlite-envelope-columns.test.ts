import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noteBatch, noteEvent } from '../../../test/support/sample-events.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { createEventCodec } from '../../core/events/event-codec.js';
import { chainHash, GENESIS_HASH } from '../../core/events/hash-chain.js';
import { nodeSha256 } from '../system/node-sha256.js';
import { openSqliteEventStore } from './sqlite-event-store.js';

/*
 * Schema 6: a row keeps its envelope in columns and its payload's canonical text in bytes. The
 * assumption is that the bytes rebuilt from the columns are exactly the bytes that were hashed;
 * these tests hold the rebuild to that for any ids and timestamps, and break it by hand in each
 * column to show verification reports the row.
 */

const dir = tempDir('correx-sqlite-envelope-');
let files = 0;
const freshPath = () => join(dir, `store-${(files += 1)}.db`);
const open = (path: string) => openSqliteEventStore(path, { catalog: correxEventCatalog });
const codec = createEventCodec(correxEventCatalog);

type Row = {
  bytes: string;
  causation_id: string | null;
  correlation_id: string | null;
  timestamp: string | null;
  version: number | null;
};

function rowsOf(path: string, sessionId: string): Row[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        'SELECT bytes, causation_id, correlation_id, timestamp, version FROM events WHERE session_id = ? ORDER BY sequence',
      )
      .all(sessionId) as Row[];
  } finally {
    db.close();
  }
}

function editRow(path: string, sessionId: string, sequence: number, set: string, value: unknown) {
  const db = new Database(path);
  try {
    db.exec('DROP TRIGGER IF EXISTS events_no_update');
    db.prepare(`UPDATE events SET ${set} = ? WHERE session_id = ? AND sequence = ?`).run(
      value,
      sessionId,
      sequence,
    );
  } finally {
    db.close();
  }
}

describe('SQLite rows keep the envelope in columns (schema 6)', () => {
  it('stores the payload text and envelope columns, and hashes exactly the canonical bytes', async () => {
    const path = freshPath();
    const store = open(path);
    const events = [
      noteEvent('s', 1),
      noteEvent('s', 2, { causationId: 's-e000001', correlationId: null }),
    ];
    const stored = await store.appendAll(events);
    await store.close();
    const rows = rowsOf(path, 's');
    let previous = GENESIS_HASH;
    for (const [index, event] of events.entries()) {
      const normalized = codec.normalize(event);
      expect(rows[index]).toEqual({
        bytes: codec.encodePayload(normalized.payload),
        causation_id: normalized.causationId,
        correlation_id: normalized.correlationId,
        timestamp: event.timestamp,
        version: normalized.version,
      });
      // The chain is over the whole canonical event, as before schema 6 (the golden bytes).
      const hash = chainHash(nodeSha256, previous, codec.encode(normalized, index + 1));
      expect(stored[index]!.hash).toBe(hash);
      previous = hash;
    }
  });

  it('reads back any ids exactly and keeps the chain, whatever characters they hold', async () => {
    // A string the envelope accepts: anything JSON can carry, lone surrogates and quotes included.
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ causation: fc.option(text), correlation: fc.option(text) }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        async (envelopes, start) => {
          const path = freshPath();
          const store = open(path);
          const events = envelopes.map((envelope, index) =>
            noteEvent('p', index + 1, {
              causationId: envelope.causation,
              correlationId: envelope.correlation,
              timestamp: new Date(start + index).toISOString(),
            }),
          );
          const appended = await store.appendAll(events);
          await store.close();
          const reopened = open(path);
          try {
            expect(await reopened.read('p')).toEqual(appended);
            expect(await reopened.verify('p')).toMatchObject({ ok: true });
          } finally {
            await reopened.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it.each([
    [
      'the payload text',
      'bytes',
      '{"content":"forged","sessionId":"s","type":"steering_note_added"}',
    ],
    ['the causation id', 'causation_id', 's-e000001'],
    ['the correlation id', 'correlation_id', 'corr-other'],
    ['the timestamp', 'timestamp', '2027-01-01T00:00:00.000Z'],
    ['the timestamp, as a number', 'timestamp', 1_796_083_200_000],
    ['the version', 'version', 2],
    ['the version, removed (the row then reads as whole bytes)', 'version', null],
    ['the event id', 'event_id', 's-forged'],
  ])('a hand edit of %s breaks the chain at that row', async (_what, column, value) => {
    const path = freshPath();
    const store = open(path);
    await store.appendAll(noteBatch('s', 1, 4));
    await store.close();
    editRow(path, 's', 3, column, value);
    const reopened = open(path);
    try {
      expect(await reopened.verify('s')).toMatchObject({ ok: false, sequence: 3 });
    } finally {
      await reopened.close();
    }
  });

  it('a session begun before schema 6 keeps its whole-bytes rows and goes on in the new form', async () => {
    const path = freshPath();
    const store = open(path);
    const before = await store.appendAll(noteBatch('m', 1, 3));
    await store.close();
    // Rows 1-3 as schema 5 wrote them: the whole canonical event, no envelope columns.
    const db = new Database(path);
    db.exec('DROP TRIGGER events_no_update');
    for (const event of before)
      db.prepare(
        'UPDATE events SET bytes = ?, causation_id = NULL, correlation_id = NULL, timestamp = NULL, version = NULL WHERE session_id = ? AND sequence = ?',
      ).run(codec.encode(codec.normalize(event), event.sequence), 'm', event.sequence);
    db.close();
    const reopened = open(path);
    try {
      await reopened.appendAll(noteBatch('m', 4, 2));
      expect(await reopened.verify('m')).toMatchObject({ ok: true, lastSequence: 5 });
      const read = await reopened.read('m');
      expect(read.slice(0, 3)).toEqual(before);
      expect(read.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5]);
      const [session] = await reopened.listSessions();
      expect(session?.lastTimestamp).toBe(noteEvent('m', 5).timestamp);
    } finally {
      await reopened.close();
    }
    expect(rowsOf(path, 'm').map((row) => row.version)).toEqual([null, null, null, 1, 1]);
  });
});
