import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noteBatch, noteEvent } from '../../../test/support/sample-events.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { createEventCodec } from '../../core/events/event-codec.js';
import { chainHash, GENESIS_HASH } from '../../core/events/hash-chain.js';
import { migrateStore } from '../migrate-store.js';
import { nodeSha256 } from '../system/node-sha256.js';
import { migrateSqlite, SQLITE_SCHEMA_VERSION } from './sqlite-database.js';
import { StaleDriverError } from '../../core/events/stale-driver-error.js';
import { openSqliteEventStore } from './sqlite-event-store.js';

const dir = tempDir();
const codec = createEventCodec(correxEventCatalog);

/** The schema of versions 1 and 2, as the correx before migration 3 wrote it. */
const V2_SCHEMA = `
  CREATE TABLE events (
    position INTEGER PRIMARY KEY, session_id TEXT NOT NULL, sequence INTEGER NOT NULL,
    event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, timestamp TEXT NOT NULL,
    bytes TEXT NOT NULL, hash TEXT NOT NULL, previous_hash TEXT NOT NULL,
    UNIQUE (session_id, sequence)
  );
  CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY, last_sequence INTEGER NOT NULL, last_hash TEXT NOT NULL,
    first_position INTEGER NOT NULL, first_timestamp TEXT NOT NULL, last_timestamp TEXT NOT NULL
  );
  CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'correx events are append-only'); END;
  CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'correx events are append-only'); END;
  CREATE TABLE snapshots (
    session_id TEXT NOT NULL, projection TEXT NOT NULL, projection_version INTEGER NOT NULL,
    sequence INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (session_id, projection)
  );
  CREATE TABLE artifacts (
    position INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL,
    stage_id TEXT NOT NULL, kind TEXT NOT NULL, bytes TEXT NOT NULL
  );
  CREATE INDEX artifacts_by_session ON artifacts (session_id, position);
  CREATE TRIGGER artifacts_no_update BEFORE UPDATE ON artifacts
    BEGIN SELECT RAISE(ABORT, 'correx artifacts are immutable'); END;
  CREATE TRIGGER artifacts_no_delete BEFORE DELETE ON artifacts
    BEGIN SELECT RAISE(ABORT, 'correx artifacts are immutable'); END;
`;

/** Writes a version-2 file the way the old store did: sessions `a` (3 events) and `b` (2), interleaved. */
function writeV2File(path: string): Map<string, string[]> {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(V2_SCHEMA);
  const insert = db.prepare(
    `INSERT INTO events (session_id, sequence, event_id, type, timestamp, bytes, hash, previous_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const upsert = db.prepare(
    `INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET
       last_sequence = excluded.last_sequence, last_hash = excluded.last_hash, last_timestamp = excluded.last_timestamp`,
  );
  const hashes = new Map<string, string[]>();
  const order = [noteEvent('a', 1), noteEvent('b', 1), ...noteBatch('a', 2, 2), noteEvent('b', 2)];
  for (const event of order) {
    const chain = hashes.get(event.sessionId) ?? [];
    const sequence = chain.length + 1;
    const previous = chain.at(-1) ?? GENESIS_HASH;
    const normalized = codec.normalize(event);
    const bytes = codec.encode(normalized, sequence);
    const hash = chainHash(nodeSha256, previous, bytes);
    const { lastInsertRowid } = insert.run(
      event.sessionId,
      sequence,
      event.eventId,
      event.payload.type,
      event.timestamp,
      bytes,
      hash,
      previous,
    );
    upsert.run(
      event.sessionId,
      sequence,
      hash,
      Number(lastInsertRowid),
      event.timestamp,
      event.timestamp,
    );
    hashes.set(event.sessionId, [...chain, hash]);
  }
  db.pragma('user_version = 2');
  db.close();
  return hashes;
}

describe('SQLite schema migrations 3 and 4 (head read from the events index, hashes as bytes)', () => {
  it('reads a version-2 file back: events, chain, sessions, and appends continue its chains', async () => {
    const path = join(dir, 'v2.db');
    const hashes = writeV2File(path);
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
    const a = await store.read('a');
    expect(a.map((event) => [event.eventId, event.sequence, event.position, event.hash])).toEqual([
      ['a-e000001', 1, 1, hashes.get('a')![0]],
      ['a-e000002', 2, 3, hashes.get('a')![1]],
      ['a-e000003', 3, 4, hashes.get('a')![2]],
    ]);
    expect(a[1]!.payload).toEqual(noteEvent('a', 2).payload);
    expect(await store.verify('a')).toEqual({
      ok: true,
      sessionId: 'a',
      lastSequence: 3,
      headHash: hashes.get('a')![2],
    });
    expect(await store.verify('b')).toMatchObject({ ok: true, lastSequence: 2 });
    expect(await store.listSessions()).toEqual([
      {
        sessionId: 'a',
        lastSequence: 3,
        firstTimestamp: noteEvent('a', 1).timestamp,
        lastTimestamp: noteEvent('a', 3).timestamp,
      },
      {
        sessionId: 'b',
        lastSequence: 2,
        firstTimestamp: noteEvent('b', 1).timestamp,
        lastTimestamp: noteEvent('b', 2).timestamp,
      },
    ]);
    expect(await store.lastSequence('b')).toBe(2);

    const next = await store.append(noteEvent('a', 4), { expectedSequence: 3 });
    expect(next).toMatchObject({ sequence: 4, position: 6 });
    expect(await store.verify('a')).toMatchObject({
      ok: true,
      lastSequence: 4,
      headHash: next.hash,
    });
    const feed: string[] = [];
    for await (const event of store.readAll()) feed.push(event.eventId);
    expect(feed).toEqual([
      'a-e000001',
      'b-e000001',
      'a-e000002',
      'a-e000003',
      'b-e000002',
      'a-e000004',
    ]);
    // Sessions recorded before driver epochs existed are at epoch 0, and fenced from there on.
    expect(await store.driverEpoch('a')).toBe(0);
    await store.append(noteEvent('a', 5), { driverEpoch: 0 });
    expect(await store.takeDriverEpoch('a')).toBe(1);
    const refused = store.append(noteEvent('a', 6), { driverEpoch: 0 });
    await expect(refused).rejects.toBeInstanceOf(StaleDriverError);
    expect(await store.lastSequence('a')).toBe(5);
    await store.close();

    const db = new Database(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    expect(() => db.prepare("UPDATE events SET bytes = 'x'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM events').run()).toThrow(/append-only/);
    db.close();
  });

  it('migration 4 stores each hash as its 32 bytes without the previous hash; a hash edited to non-hex survives it and verify still reports it', async () => {
    const path = join(dir, 'v4.db');
    const hashes = writeV2File(path);
    const edit = new Database(path);
    edit.exec('DROP TRIGGER events_no_update');
    edit
      .prepare("UPDATE events SET hash = 'not a hash' WHERE session_id = 'b' AND sequence = 2")
      .run();
    edit.close();
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
    expect(await store.verify('a')).toMatchObject({ ok: true, headHash: hashes.get('a')![2] });
    expect(await store.verify('b')).toMatchObject({ ok: false, sequence: 2 });
    await store.close();
    const db = new Database(path, { readonly: true });
    const columns = db.prepare('SELECT name, type FROM pragma_table_info(?)').all('events');
    expect(columns).toEqual([
      { name: 'position', type: 'INTEGER' },
      { name: 'session_id', type: 'TEXT' },
      { name: 'sequence', type: 'INTEGER' },
      { name: 'event_id', type: 'TEXT' },
      { name: 'bytes', type: 'TEXT' },
      { name: 'hash', type: 'BLOB' },
      // Schema 6: the envelope's columns (a row from before keeps them empty).
      { name: 'causation_id', type: 'TEXT' },
      { name: 'correlation_id', type: 'TEXT' },
      { name: 'timestamp', type: 'TEXT' },
      { name: 'version', type: 'INTEGER' },
    ]);
    const stored = db
      .prepare(
        "SELECT typeof(hash) AS kind, length(hash) AS size, hex(hash) AS text FROM events WHERE session_id = 'a' ORDER BY sequence",
      )
      .all();
    expect(stored).toEqual(
      hashes.get('a')!.map((hash) => ({ kind: 'blob', size: 32, text: hash.toUpperCase() })),
    );
    // The old table's pages went back to the file system (VACUUM after the rebuild).
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    db.close();
  });

  it('correx migrate reports the step from version 2, then nothing left to do', async () => {
    const path = join(dir, 'migrate.db');
    writeV2File(path);
    expect(await migrateStore(path)).toEqual({
      kind: 'sqlite',
      location: path,
      fromVersion: 2,
      toVersion: SQLITE_SCHEMA_VERSION,
    });
    expect(migrateSqlite(path)).toEqual({
      fromVersion: SQLITE_SCHEMA_VERSION,
      toVersion: SQLITE_SCHEMA_VERSION,
    });
    const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
    expect(await store.verify('a')).toMatchObject({ ok: true, lastSequence: 3 });
    await store.close();
  });
});
