import Database from 'better-sqlite3';
import { CorrexError } from '../../core/base/correx-error.js';
import { retryWhileBusy, storageErrorOf } from './sqlite-errors.js';

export type SqliteSynchronous = 'full' | 'normal';

export type SqliteOptions = {
  /**
   * `full` (default): a commit survives power loss, not only a crash of the process.
   * `normal`: in WAL mode a commit survives a process crash but the last commits may be lost
   * on power loss; several times faster for single-event appends.
   */
  readonly synchronous?: SqliteSynchronous;
  /** How long a writer waits for another process's write lock, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
};

/** The SQLite file could not be opened or migrated. */
export class SqliteOpenError extends CorrexError {
  constructor(path: string, cause: unknown) {
    super(
      'sqlite_open_failed',
      `cannot open SQLite store ${path}: ${(cause as Error).message ?? String(cause)}`,
      { cause },
    );
  }
}

/**
 * Schema versions, applied in order inside one IMMEDIATE transaction and recorded in
 * `PRAGMA user_version`, so opening twice, or from two processes at once, is safe.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE events (
    position      INTEGER PRIMARY KEY,
    session_id    TEXT    NOT NULL,
    sequence      INTEGER NOT NULL,
    event_id      TEXT    NOT NULL UNIQUE,
    type          TEXT    NOT NULL,
    timestamp     TEXT    NOT NULL,
    bytes         TEXT    NOT NULL,
    hash          TEXT    NOT NULL,
    previous_hash TEXT    NOT NULL,
    UNIQUE (session_id, sequence)
  );
  CREATE TABLE sessions (
    session_id      TEXT    PRIMARY KEY,
    last_sequence   INTEGER NOT NULL,
    last_hash       TEXT    NOT NULL,
    first_position  INTEGER NOT NULL,
    first_timestamp TEXT    NOT NULL,
    last_timestamp  TEXT    NOT NULL
  );
  CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'correx events are append-only'); END;
  CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'correx events are append-only'); END;
  CREATE TABLE snapshots (
    session_id         TEXT    NOT NULL,
    projection         TEXT    NOT NULL,
    projection_version INTEGER NOT NULL,
    sequence           INTEGER NOT NULL,
    state              TEXT    NOT NULL,
    PRIMARY KEY (session_id, projection)
  );
  `,
  // 2: artifact content, write-once by hash (core/artifacts).
  `
  CREATE TABLE artifacts (
    position   INTEGER PRIMARY KEY,
    hash       TEXT    NOT NULL UNIQUE,
    session_id TEXT    NOT NULL,
    stage_id   TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    bytes      TEXT    NOT NULL
  );
  CREATE INDEX artifacts_by_session ON artifacts (session_id, position);
  CREATE TRIGGER artifacts_no_update BEFORE UPDATE ON artifacts
    BEGIN SELECT RAISE(ABORT, 'correx artifacts are immutable'); END;
  CREATE TRIGGER artifacts_no_delete BEFORE DELETE ON artifacts
    BEGIN SELECT RAISE(ABORT, 'correx artifacts are immutable'); END;
  `,
  // 3: a session's head is its last row, found through the (session_id, sequence) index, so an
  // append no longer rewrites a sessions row; that row is written once, when the session starts,
  // for listing. The type and timestamp columns repeated what the canonical bytes hold.
  // DROP COLUMN rewrites the rows in place without firing the append-only triggers.
  `
  ALTER TABLE events DROP COLUMN type;
  ALTER TABLE events DROP COLUMN timestamp;
  ALTER TABLE sessions DROP COLUMN last_sequence;
  ALTER TABLE sessions DROP COLUMN last_hash;
  ALTER TABLE sessions DROP COLUMN last_timestamp;
  `,
  // 4: the previous hash repeated the hash of the session's row before, and a hash as 64 hex
  // characters took twice its 32 bytes: rows shrink by a sixth, and so do the pages a commit
  // writes. A stored hash that is not hex (only a hand edit makes one) keeps its bytes, so
  // verification still reports it. The table is rebuilt, so the triggers are made again (also
  // where a hand edit had dropped them).
  `
  DROP TRIGGER IF EXISTS events_no_update;
  DROP TRIGGER IF EXISTS events_no_delete;
  CREATE TABLE events_v4 (
    position   INTEGER PRIMARY KEY,
    session_id TEXT    NOT NULL,
    sequence   INTEGER NOT NULL,
    event_id   TEXT    NOT NULL UNIQUE,
    bytes      TEXT    NOT NULL,
    hash       BLOB    NOT NULL,
    UNIQUE (session_id, sequence)
  );
  INSERT INTO events_v4 (position, session_id, sequence, event_id, bytes, hash)
    SELECT position, session_id, sequence, event_id, bytes, coalesce(unhex(hash), CAST(hash AS BLOB))
    FROM events ORDER BY position;
  DROP TABLE events;
  ALTER TABLE events_v4 RENAME TO events;
  CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'correx events are append-only'); END;
  CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'correx events are append-only'); END;
  `,
  // 5: the driver epoch of each session taken by a driver (the fencing token of every driver
  // append, see docs/postgres.md). A session without a row is at epoch 0, as every session
  // recorded before this version is.
  `
  CREATE TABLE session_drivers (
    session_id TEXT    PRIMARY KEY,
    epoch      INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 6: a row keeps its envelope in columns and only its payload's canonical text in bytes. The
  // key names, and the event id, session id and sequence the row's other columns already held,
  // were stored in every row twice. The hashed bytes are rebuilt from the columns exactly
  // (envelopeBytes), so the chain and the golden bytes are unchanged. The timestamp stays text:
  // as epoch milliseconds it took 18 bytes less, but turning it back into text cost every read
  // more than a tenth of its time. A row written before keeps its whole bytes and has no
  // version; no row is rewritten.
  `
  ALTER TABLE events ADD COLUMN causation_id TEXT;
  ALTER TABLE events ADD COLUMN correlation_id TEXT;
  ALTER TABLE events ADD COLUMN timestamp TEXT;
  ALTER TABLE events ADD COLUMN version INTEGER;
  `,
];

/** The schema version this correx writes and reads (`PRAGMA user_version`). */
export const SQLITE_SCHEMA_VERSION = MIGRATIONS.length;

/** Opens (creating if needed) a correx SQLite file in WAL mode and brings its schema up to date. */
export function openSqliteDatabase(path: string, options: SqliteOptions = {}): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    bringUpToDate(db, options);
    return db;
  } catch (error) {
    db?.close();
    throw new SqliteOpenError(path, storageErrorOf(path, error) ?? error);
  }
}

/** Sets the connection up (WAL, durability, busy timeout) and migrates the schema if behind. */
function bringUpToDate(db: Database.Database, options: SqliteOptions): void {
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  // Already WAL (every store after its first open): a read of the header, no write lock.
  retryWhileBusy(busyTimeoutMs, () => {
    if ((db.pragma('journal_mode', { simple: true }) as string) !== 'wal')
      db.pragma('journal_mode = WAL');
  });
  db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  // A current schema is read, not written: opening takes no write lock, so a process opening
  // the store never waits behind (or starves) writers that are appending.
  retryWhileBusy(busyTimeoutMs, () => {
    if (schemaVersion(db) !== MIGRATIONS.length) migrate(db);
  });
}

function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** What a migration run did: the schema version before and after. */
export type SqliteMigrationReport = { readonly fromVersion: number; readonly toVersion: number };

/** Opens a SQLite store only to bring its schema up to date (`correx migrate`), and reports. */
export function migrateSqlite(path: string): SqliteMigrationReport {
  let before: number;
  try {
    const probe = new Database(path, { timeout: 5000 });
    before = probe.pragma('user_version', { simple: true }) as number;
    probe.close();
  } catch (error) {
    throw new SqliteOpenError(path, error);
  }
  openSqliteDatabase(path).close();
  return { fromVersion: before, toVersion: MIGRATIONS.length };
}

/** The migration that rebuilds the events table, leaving the old table's pages free in the file. */
const REBUILDS_EVENTS = 4;

function migrate(db: Database.Database): void {
  const apply = db.transaction((): number => {
    const current = schemaVersion(db);
    if (current > MIGRATIONS.length) {
      throw new Error(
        `schema version ${current} is newer than this correx understands (${MIGRATIONS.length})`,
      );
    }
    for (let version = current; version < MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version]!);
    }
    db.pragma(`user_version = ${MIGRATIONS.length}`);
    return current;
  });
  const from = apply.immediate();
  // A rebuilt table's old pages stay in the file as free pages, nearly doubling a large store
  // once; VACUUM gives them back. It only reclaims space: another process using the file
  // meanwhile makes it fail, the schema is migrated all the same, and appends reuse the pages.
  if (from > 0 && from < REBUILDS_EVENTS) {
    try {
      db.exec('VACUUM');
    } catch {
      // Left for a later VACUUM; nothing depends on it.
    }
  }
}
