import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventStoreContract } from '../../../test/contracts/event-store.contract.js';
import { noteBatch, noteEvent } from '../../../test/support/sample-events.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { CorruptEventError } from '../../core/events/corrupt-event-error.js';
import { chainHash } from '../../core/events/hash-chain.js';
import { nodeSha256 } from '../system/node-sha256.js';
import { openSqliteEventStore, type SqliteEventStore } from './sqlite-event-store.js';
import { SqliteOpenError } from './sqlite-database.js';

const dir = tempDir();
let counter = 0;
const freshPath = () => join(dir, `store-${++counter}.db`);
const open = (path = freshPath()) =>
  openSqliteEventStore(path, { catalog: correxEventCatalog, pollIntervalMs: 20 });

/** Edits a row behind the store's back, as someone with the file could (the append-only trigger is no defence against them). */
function tamperFile(
  path: string,
  sessionId: string,
  sequence: number,
  change: { bytes?: string; hash?: string },
): void {
  const db = new Database(path);
  try {
    db.exec('DROP TRIGGER IF EXISTS events_no_update');
    // Whole bytes go in as a row from before schema 6 keeps them (no version): the row then says
    // exactly those bytes.
    if (change.bytes !== undefined)
      db.prepare(
        'UPDATE events SET bytes = ?, version = NULL WHERE session_id = ? AND sequence = ?',
      ).run(change.bytes, sessionId, sequence);
    if (change.hash !== undefined)
      db.prepare('UPDATE events SET hash = ? WHERE session_id = ? AND sequence = ?').run(
        change.hash,
        sessionId,
        sequence,
      );
  } finally {
    db.close();
  }
}

eventStoreContract('SqliteEventStore', {
  open: async () => open(),
  tamper: async (store, sessionId, sequence, change) =>
    tamperFile((store as SqliteEventStore<never>).path, sessionId, sequence, change),
});

describe('SqliteEventStore on disk', () => {
  it('stores each appended hash as its 32 bytes, the hash the append returned', async () => {
    const path = freshPath();
    const store = open(path);
    // 37 events: inserted as chunks of 32, 4 and 1 rows.
    const stored = await store.appendAll(noteBatch('a', 1, 37));
    await store.close();
    const db = new Database(path, { readonly: true });
    try {
      const rows = db
        .prepare(
          "SELECT typeof(hash) AS kind, length(hash) AS size, lower(hex(hash)) AS text FROM events WHERE session_id = 'a' ORDER BY sequence",
        )
        .all();
      expect(rows).toEqual(stored.map((event) => ({ kind: 'blob', size: 32, text: event.hash })));
    } finally {
      db.close();
    }
  });

  it('reopens a file and reads everything back identically', async () => {
    const path = freshPath();
    const store = open(path);
    await store.appendAll(noteBatch('a', 1, 50));
    await store.append(noteEvent('b', 1));
    const before = {
      a: await store.read('a'),
      b: await store.read('b'),
      sessions: await store.listSessions(),
    };
    await store.close();
    const reopened = open(path);
    expect({
      a: await reopened.read('a'),
      b: await reopened.read('b'),
      sessions: await reopened.listSessions(),
    }).toEqual(before);
    expect((await reopened.append(noteEvent('a', 51))).sequence).toBe(51);
    expect(await reopened.verify('a')).toMatchObject({ ok: true, lastSequence: 51 });
    await reopened.close();
  });

  it('refuses UPDATE and DELETE on events at the database level', async () => {
    const path = freshPath();
    const store = open(path);
    await store.append(noteEvent('a', 1));
    await store.close();
    const db = new Database(path);
    expect(() => db.prepare("UPDATE events SET bytes = 'x'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM events').run()).toThrow(/append-only/);
    db.close();
  });

  it('handles sequences beyond 2^31', async () => {
    const path = freshPath();
    const store = open(path);
    await store.close();
    // Seed a session whose head is past 2^32, as a very long-lived log would be.
    const high = 2 ** 33;
    const db = new Database(path);
    const seed = noteEvent('big', high);
    const bytes = JSON.stringify({
      causationId: null,
      correlationId: seed.correlationId,
      eventId: seed.eventId,
      payload: seed.payload,
      sequence: high,
      sessionId: 'big',
      timestamp: seed.timestamp,
      version: 1,
    });
    const previous = '0'.repeat(64);
    const hash = chainHash(nodeSha256, previous, bytes);
    db.prepare(
      'INSERT INTO events (session_id, sequence, event_id, bytes, hash) VALUES (?,?,?,?,?)',
    ).run('big', high, seed.eventId, bytes, Buffer.from(hash, 'hex'));
    db.prepare('INSERT INTO sessions VALUES (?,?,?)').run('big', 1, seed.timestamp);
    db.close();
    const reopened = open(path);
    const next = await reopened.append(noteEvent('big', high + 1), { expectedSequence: high });
    expect(next.sequence).toBe(high + 1);
    expect(
      (await reopened.read('big', { afterSequence: high })).map((event) => event.sequence),
    ).toEqual([high + 1]);
    expect(await reopened.lastSequence('big')).toBe(high + 1);
    await reopened.close();
  });

  it('the global feed names the event whose predecessor is missing, since rows do not repeat the hash they chain to', async () => {
    const path = freshPath();
    const store = open(path);
    await store.appendAll(noteBatch('a', 1, 3));
    const db = new Database(path);
    db.exec('DROP TRIGGER events_no_delete');
    db.prepare("DELETE FROM events WHERE session_id = 'a' AND sequence = 2").run();
    db.close();
    const read = async () => {
      for await (const _event of store.readAll());
    };
    await expect(read()).rejects.toThrow(CorruptEventError);
    await expect(read()).rejects.toThrow(/session a, sequence 3: hash: sequence 2 is missing/);
    await store.close();
  });

  it('two connections taking turns on one session each see the other append: no head this one wrote is trusted after', async () => {
    const path = freshPath();
    const first = open(path);
    const second = open(path);
    for (let sequence = 1; sequence <= 20; sequence++) {
      const writer = sequence % 3 === 0 ? second : first;
      const stored = await writer.append(noteEvent('shared', sequence));
      expect(stored.sequence).toBe(sequence);
    }
    // The first wrote 20; once the second has written 21, the first's own last head is stale.
    expect((await second.append(noteEvent('shared', 21))).sequence).toBe(21);
    expect(await first.lastSequence('shared')).toBe(21);
    await expect(
      first.append(noteEvent('shared', 22), { expectedSequence: 20 }),
    ).rejects.toMatchObject({ code: 'concurrency_conflict' });
    expect((await first.append(noteEvent('shared', 22), { expectedSequence: 21 })).sequence).toBe(
      22,
    );
    expect(await second.verify('shared')).toMatchObject({ ok: true, lastSequence: 22 });
    await first.close();
    await second.close();
  });

  it('a subscriber sees appends made through another connection to the same file', async () => {
    const path = freshPath();
    const reader = open(path);
    const writer = open(path);
    const controller = new AbortController();
    const seen: string[] = [];
    const done = (async () => {
      for await (const message of reader.subscribe({ signal: controller.signal })) {
        if (message.type === 'event') seen.push(message.event.eventId);
        if (seen.length === 2) controller.abort();
      }
    })();
    await writer.append(noteEvent('x', 1));
    await writer.append(noteEvent('x', 2));
    await done;
    expect(seen).toEqual(['x-e000001', 'x-e000002']);
    await reader.close();
    await writer.close();
  });

  it('a file that is not a database is a clear SqliteOpenError', async () => {
    const path = freshPath();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, 'this is not sqlite'.repeat(100));
    expect(() => open(path)).toThrow(SqliteOpenError);
    expect(() => open(path)).toThrow(/cannot open SQLite store/);
  });

  it('a file from a newer correx is refused, not misread', async () => {
    const path = freshPath();
    await open(path).close();
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => open(path)).toThrow(/newer than this correx/);
  });
});
