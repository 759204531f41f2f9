import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteBatch, noteEvent, stageEvent } from '../../../test/support/sample-events.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import {
  probeTestServer,
  schemaTracker,
  TEST_POSTGRES_URL,
} from '../../../test/postgres/postgres-test-server.js';
import { CorrexError } from '../../core/base/correx-error.js';
import { createEventCodec } from '../../core/events/event-codec.js';
import { correxEventCatalog } from '../../core/event-catalog.js';
import { openSqliteEventStore } from '../sqlite/sqlite-event-store.js';
import { redactConnectionString } from './postgres-connection.js';
import { PostgresConnectError, PostgresSchemaError } from './postgres-errors.js';
import { openPostgresEventStore } from './postgres-event-store.js';
import { migratePostgres, POSTGRES_SCHEMA_VERSION } from './postgres-migrations.js';
import { expectRejection } from '../../../test/support/expect-rejection.js';

const server = await probeTestServer();

const openAt = (connectionString: string, schema = 'correx') =>
  openPostgresEventStore({
    connectionString,
    schema,
    catalog: correxEventCatalog,
    connectTimeoutMs: 3000,
  });

describe('PostgreSQL connection errors name what to fix', () => {
  it('a URL that is not PostgreSQL, or cannot be parsed', async () => {
    const error = await expectRejection(openAt('mysql://root@localhost/db'), CorrexError);
    expect(error).toBeInstanceOf(PostgresConnectError);
    expect(error).toMatchObject({ reason: 'invalid_url', code: 'postgres_connect_failed' });
    expect(error.message).toContain('postgres://user[:password]@host[:port]/database');
    expect(await expectRejection(openAt('postgres://user:pw@[bad'), CorrexError)).toMatchObject({
      reason: 'invalid_url',
    });
  });

  it('a refused connection', async () => {
    const error = await expectRejection(
      openAt('postgres://postgres@127.0.0.1:1/test'),
      CorrexError,
    );
    expect(error).toMatchObject({ reason: 'refused' });
    expect(error.message).toMatch(/connection refused: is PostgreSQL running/);
  });

  it('never shows the password', async () => {
    const error = await expectRejection(
      openAt('postgres://someone:hunter2@127.0.0.1:1/test'),
      CorrexError,
    );
    expect(error.message).not.toContain('hunter2');
    expect(error.message).toContain('someone:***@127.0.0.1:1');
    expect(redactConnectionString('postgresql://u:secret@h/d?password=x')).not.toMatch(/secret|=x/);
  });
});

describe.skipIf(!server.available)('PostgreSQL store faults (live server)', () => {
  const schemas = schemaTracker();
  const url = new URL(TEST_POSTGRES_URL);
  const withUrl = (change: (url: URL) => void) => {
    const copy = new URL(url);
    change(copy);
    return copy.toString();
  };
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
  });
  afterAll(async () => admin?.end());

  it('an unknown user is an authentication failure', async () => {
    const error = await expectRejection(
      openAt(withUrl((u) => (u.username = 'correx_no_such_user'))),
      CorrexError,
    );
    expect(error).toMatchObject({ reason: 'auth_failed' });
    expect(error.message).toContain('check the user and password');
  });

  it('a missing database says to create it', async () => {
    const error = await expectRejection(
      openAt(withUrl((u) => (u.pathname = '/correx_no_such_database'))),
      CorrexError,
    );
    expect(error).toMatchObject({ reason: 'database_missing' });
    expect(error.message).toMatch(/createdb/);
  });

  it('a schema that was never migrated says to run correx migrate; migrate fixes it', async () => {
    const schema = schemas.next();
    const error = await expectRejection(openAt(TEST_POSTGRES_URL, schema), CorrexError);
    expect(error).toBeInstanceOf(PostgresSchemaError);
    expect(error).toMatchObject({ reason: 'missing', code: 'postgres_schema_not_ready' });
    expect(error.message).toContain('run `correx migrate`');
    await migratePostgres(TEST_POSTGRES_URL, { schema });
    await (await openAt(TEST_POSTGRES_URL, schema)).close();
  });

  it('a schema from a newer correx is refused, not misread', async () => {
    const schema = schemas.next();
    await migratePostgres(TEST_POSTGRES_URL, { schema });
    await admin.query(`INSERT INTO "${schema}".correx_migrations (version) VALUES (99)`);
    expect(await expectRejection(openAt(TEST_POSTGRES_URL, schema), CorrexError)).toMatchObject({
      reason: 'newer',
    });
    expect(
      await expectRejection(migratePostgres(TEST_POSTGRES_URL, { schema }), CorrexError),
    ).toMatchObject({
      reason: 'newer',
    });
  });

  it('a schema name that is not a plain identifier is refused', async () => {
    expect(
      await expectRejection(openAt(TEST_POSTGRES_URL, 'x"; DROP TABLE y; --'), CorrexError),
    ).toMatchObject({
      reason: 'invalid_name',
    });
  });

  it('migrating twice, and from several connections at once, applies each version once', async () => {
    const schema = schemas.next();
    const reports = await Promise.all(
      Array.from({ length: 4 }, () => migratePostgres(TEST_POSTGRES_URL, { schema })),
    );
    expect(reports.filter((report) => report.fromVersion === 0)).toHaveLength(1);
    expect(reports.every((report) => report.toVersion === POSTGRES_SCHEMA_VERSION)).toBe(true);
    expect(await migratePostgres(TEST_POSTGRES_URL, { schema })).toEqual({
      schema,
      fromVersion: POSTGRES_SCHEMA_VERSION,
      toVersion: POSTGRES_SCHEMA_VERSION,
    });
    const applied = await admin.query(
      `SELECT version FROM "${schema}".correx_migrations ORDER BY version`,
    );
    expect(applied.rows).toEqual(
      Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, index) => ({ version: index + 1 })),
    );
  });

  it('refuses UPDATE, DELETE and TRUNCATE on events at the database level', async () => {
    const schema = schemas.next();
    const store = await openPostgresEventStore({
      connectionString: TEST_POSTGRES_URL,
      schema,
      catalog: correxEventCatalog,
      migrate: true,
    });
    await store.append(noteEvent('a', 1));
    await store.close();
    for (const statement of [
      `UPDATE "${schema}".events SET bytes = 'x'`,
      `DELETE FROM "${schema}".events`,
      `TRUNCATE "${schema}".events`,
    ])
      await expect(admin.query(statement)).rejects.toThrow(/append-only/);
  });

  it('a connection dropped mid-appendAll stores nothing; the retry stores once and is idempotent', async () => {
    const schema = schemas.next();
    const applicationName = `correx_drop_${process.pid}`;
    const store = await openPostgresEventStore({
      connectionString: TEST_POSTGRES_URL,
      schema,
      catalog: correxEventCatalog,
      migrate: true,
      applicationName,
    });
    const batch = noteBatch('drop', 1, 20);
    // An uncommitted row with the batch's last id makes the append wait inside its INSERT,
    // with its transaction open and the rows before it written.
    await admin.query('BEGIN');
    await admin.query(
      `INSERT INTO "${schema}".events (position, session_id, sequence, event_id, type, event_timestamp, bytes, hash, previous_hash)
       VALUES (-1, 'blocker', 1, $1, 'x', 'x', 'x', 'x', 'x')`,
      [batch.at(-1)!.eventId],
    );
    const appending = store.appendAll(batch).then(
      () => undefined,
      (error: unknown) => error,
    );
    const killer = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await killer.connect();
    let killed = 0;
    while (killed === 0) {
      const result = await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = $1 AND wait_event_type = 'Lock'`,
        [applicationName],
      );
      killed = result.rowCount ?? 0;
    }
    await killer.end();
    await admin.query('ROLLBACK');
    const error = await appending;
    expect(error).toBeInstanceOf(PostgresConnectError);
    expect(error).toMatchObject({ reason: 'connection_lost' });
    expect((error as Error).message).toContain('retry with the same event ids');

    expect(await store.lastSequence('drop')).toBe(0);
    const rows = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".events`);
    expect(rows.rows[0]).toEqual({ n: 0 });
    const stored = await store.appendAll(batch, { expectedSequence: 0 });
    expect(stored.map((event) => event.sequence)).toEqual(batch.map((_, index) => index + 1));
    expect(await store.appendAll(batch, { expectedSequence: 0 })).toEqual(stored);
    expect(await store.read('drop')).toEqual(stored);
    expect(await store.verify('drop')).toMatchObject({ ok: true, lastSequence: 20 });
    await store.close();
  });

  it('stores the same canonical bytes and hashes as SQLite for the same events', async () => {
    const schema = schemas.next();
    const postgres = await openPostgresEventStore({
      connectionString: TEST_POSTGRES_URL,
      schema,
      catalog: correxEventCatalog,
      migrate: true,
    });
    const path = join(tempDir(), 'same.db');
    const sqlite = openSqliteEventStore(path, { catalog: correxEventCatalog });
    const events = [
      ...noteBatch('same', 1, 3),
      stageEvent('same', 4),
      noteEvent('same', 5, {
        payload: {
          type: 'steering_note_added',
          sessionId: 'same',
          content: 'ünïcødé ✓ "q" \\ \n 😀',
        },
        causationId: 'same-e000004',
      }),
    ];
    const fromPostgres = await postgres.appendAll(events);
    const fromSqlite = await sqlite.appendAll(events);
    expect(fromPostgres.map((event) => event.hash)).toEqual(fromSqlite.map((event) => event.hash));
    const pgRows = await admin.query<{ bytes: string; hash: string }>(
      `SELECT bytes, hash FROM "${schema}".events ORDER BY sequence`,
    );
    await sqlite.close();
    // SQLite keeps each hash as its 32 bytes (schema 4), and the envelope in columns beside the
    // payload text (schema 6); PostgreSQL keeps the whole canonical bytes and the hash as hex.
    const codec = createEventCodec(correxEventCatalog);
    const normalized = events.map((event) => codec.normalize(event));
    const db = new Database(path, { readonly: true });
    const sqliteRows = db
      .prepare('SELECT bytes, lower(hex(hash)) AS hash FROM events ORDER BY sequence')
      .all();
    db.close();
    expect(pgRows.rows).toEqual(
      normalized.map((event, index) => ({
        bytes: codec.encode(event, index + 1),
        hash: fromSqlite[index]!.hash,
      })),
    );
    expect(sqliteRows).toEqual(
      normalized.map((event, index) => ({
        bytes: codec.encodePayload(event.payload),
        hash: fromSqlite[index]!.hash,
      })),
    );
    expect(await postgres.read('same')).toEqual(
      fromSqlite.map((event, index) => ({ ...event, position: fromPostgres[index]!.position })),
    );
    await postgres.close();
  });
});
