import {
  SessionHeadCache
} from "./chunk-XXOLSKOG.js";
import {
  DEFAULT_POSTGRES_SCHEMA,
  isPostgresUrl,
  redactConnectionString
} from "./chunk-XESUYX36.js";
import {
  StaleDriverError,
  StoreClosedError,
  checkDriverEpoch,
  checkExpectedSequence,
  collectEvents,
  createAppendNotifier,
  liveFeed,
  normalizeBatch,
  pageFeed,
  sealBatch,
  settleRetry,
  streamSession,
  toStoredEvent,
  verifySession
} from "./chunk-3K2LSKRX.js";
import {
  GENESIS_HASH,
  checkRowHash
} from "./chunk-5UEANXJE.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  ConcurrencyError
} from "./chunk-CORQQBM5.js";
import {
  correxEventCatalog
} from "./chunk-IRD534JB.js";
import {
  canonicalJson,
  createEventCodec
} from "./chunk-W32ANIA4.js";
import {
  CorruptEventError
} from "./chunk-AYFXHFZY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/core/sessions/session-runnability.ts
var BY_TYPE = {
  workflow_started: "runnable",
  orchestration_resumed: "runnable",
  approval_granted: "runnable",
  approval_denied: "runnable",
  stage_redirected: "runnable",
  session_retried: "runnable",
  approval_requested: "idle",
  orchestration_paused: "idle",
  workflow_completed: "final",
  workflow_failed: "final",
  workflow_cancelled: "final"
};
function runnabilityAfter(payloads) {
  let result = null;
  for (const payload of payloads) {
    if (payload.type === "session_created") {
      if (payload.parent !== void 0) return "child";
      result = "runnable";
    } else result = BY_TYPE[payload.type] ?? result;
  }
  return result;
}

// src/infrastructure/sqlite/sqlite-errors.ts
var SqliteBusyError = class extends CorrexError {
  retryable = true;
  constructor(path, attempts) {
    super(
      "sqlite_busy",
      `the SQLite store ${path} stayed locked by another process through ${attempts} attempts; nothing was written, try again`
    );
  }
};
var SqliteStorageError = class extends CorrexError {
  constructor(path, problem, code) {
    super(
      "sqlite_storage_failed",
      `the SQLite store ${path} could not write (${problem}, ${code}); nothing was written: free space or fix the disk, then resume`
    );
  }
};
function codeOf(error) {
  const code = error?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : void 0;
}
function isSqliteBusy(error) {
  const code = codeOf(error);
  return code !== void 0 && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}
function storageErrorOf(path, error) {
  const code = codeOf(error);
  if (code === void 0) return void 0;
  if (code === "SQLITE_FULL") return new SqliteStorageError(path, "the disk is full", code);
  if (code.startsWith("SQLITE_IOERR"))
    return new SqliteStorageError(path, "the disk reported an I/O error", code);
  if (code.startsWith("SQLITE_READONLY"))
    return new SqliteStorageError(path, "the file is read-only", code);
  return void 0;
}
var BUSY_ATTEMPTS = 5;
function busyBackoffMs(attempt) {
  return Math.min(1e3, 25 * 2 ** attempt) * (0.5 + Math.random() / 2);
}
async function writeWithRetry(path, write, stillOpen = () => {
}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return write();
    } catch (error) {
      if (!isSqliteBusy(error)) throw storageErrorOf(path, error) ?? error;
      if (attempt >= BUSY_ATTEMPTS) throw new SqliteBusyError(path, attempt);
    }
    await new Promise((resolve) => setTimeout(resolve, busyBackoffMs(attempt)));
    stillOpen();
  }
}

// src/infrastructure/sqlite/sqlite-database.ts
import Database from "better-sqlite3";
var SqliteOpenError = class extends CorrexError {
  constructor(path, cause) {
    super(
      "sqlite_open_failed",
      `cannot open SQLite store ${path}: ${cause.message ?? String(cause)}`,
      { cause }
    );
  }
};
var MIGRATIONS = [
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
  `
];
var SQLITE_SCHEMA_VERSION = MIGRATIONS.length;
function openSqliteDatabase(path, options = {}) {
  let db;
  try {
    db = new Database(path);
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5e3))}`);
    if (db.pragma("journal_mode", { simple: true }) !== "wal")
      db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
    if (schemaVersion(db) !== MIGRATIONS.length) migrate(db);
    return db;
  } catch (error) {
    db?.close();
    throw new SqliteOpenError(path, storageErrorOf(path, error) ?? error);
  }
}
function schemaVersion(db) {
  return db.pragma("user_version", { simple: true });
}
function migrateSqlite(path) {
  let before;
  try {
    const probe = new Database(path);
    before = probe.pragma("user_version", { simple: true });
    probe.close();
  } catch (error) {
    throw new SqliteOpenError(path, error);
  }
  openSqliteDatabase(path).close();
  return { fromVersion: before, toVersion: MIGRATIONS.length };
}
var REBUILDS_EVENTS = 4;
function migrate(db) {
  const apply = db.transaction(() => {
    const current = schemaVersion(db);
    if (current > MIGRATIONS.length) {
      throw new Error(
        `schema version ${current} is newer than this correx understands (${MIGRATIONS.length})`
      );
    }
    for (let version = current; version < MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version]);
    }
    db.pragma(`user_version = ${MIGRATIONS.length}`);
    return current;
  });
  const from = apply.immediate();
  if (from > 0 && from < REBUILDS_EVENTS) {
    try {
      db.exec("VACUUM");
    } catch {
    }
  }
}

// src/infrastructure/sqlite/sqlite-event-store.ts
function hashText(stored) {
  return Buffer.isBuffer(stored) ? stored.toString("hex") : String(stored);
}
function hashBytes(hash) {
  return Buffer.from(hash, "hex");
}
var HASH_CHECKPOINT = 64;
function sparseTupleToRow(sessionId, raw) {
  return {
    position: raw[0],
    sessionId,
    sequence: raw[1],
    bytes: raw[2],
    hash: raw[3] === null ? void 0 : hashText(raw[3])
  };
}
var INSERT_CHUNK = 32;
function sessionTupleToEventRow(sessionId, raw) {
  return {
    position: raw[0],
    sessionId,
    sequence: raw[1],
    bytes: raw[2],
    hash: hashText(raw[3])
  };
}
function toEventRow(raw) {
  return {
    position: raw.position,
    sessionId: raw.session_id,
    sequence: raw.sequence,
    eventId: raw.event_id,
    bytes: raw.bytes,
    hash: hashText(raw.hash)
  };
}
var SqliteEventStore = class {
  constructor(path, options) {
    this.path = path;
    this.#db = openSqliteDatabase(path, options);
    this.#codec = createEventCodec(options.catalog);
    this.#sha256 = options.sha256 ?? nodeSha256;
    this.#pollIntervalMs = options.pollIntervalMs ?? 200;
    const db = this.#db;
    this.#statements = {
      byEventIds: db.prepare(
        `SELECT position, session_id, sequence, event_id, bytes, hash FROM events
         WHERE event_id IN (SELECT value FROM json_each(?))`
      ),
      // Changes exactly when another connection (any process) has committed to the file.
      dataVersion: db.prepare("PRAGMA data_version").pluck(),
      // The head is the session's last row: one seek down the (session_id, sequence) index.
      head: db.prepare(
        "SELECT sequence, hash FROM events WHERE session_id = ? ORDER BY sequence DESC LIMIT 1"
      ).raw(true),
      driverEpoch: db.prepare("SELECT epoch FROM session_drivers WHERE session_id = ?").pluck(),
      takeDriverEpoch: db.prepare(
        `INSERT INTO session_drivers (session_id, epoch) VALUES (?, 1)
           ON CONFLICT (session_id) DO UPDATE SET epoch = epoch + 1 RETURNING epoch`
      ).pluck(),
      startSession: db.prepare(
        "INSERT OR IGNORE INTO sessions (session_id, first_position, first_timestamp) VALUES (?, ?, ?)"
      ),
      // Session reads check each hash against the previous row they read and take the event id
      // from the bytes, so they skip the columns that would only repeat those (session id, event
      // id, previous hash): each column read costs a value per row.
      sessionPage: db.prepare(
        "SELECT position, sequence, bytes, hash FROM events WHERE session_id = ? AND sequence > ? ORDER BY sequence LIMIT ?"
      ).raw(true),
      // Streams read a stored hash only every HASH_CHECKPOINT rows (and look up a page's last
      // one): the chain of computed hashes between two checked ones vouches for every row.
      sparseSessionPage: db.prepare(
        `SELECT position, sequence, bytes, CASE WHEN sequence % ${HASH_CHECKPOINT} = 0 THEN hash END
           FROM events WHERE session_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`
      ).raw(true),
      hashAt: db.prepare(
        "SELECT hash FROM events WHERE session_id = ? AND sequence = ?"
      ).pluck(),
      feedPage: db.prepare(
        `SELECT position, session_id, sequence, event_id, bytes, hash
           FROM events WHERE position > ? ORDER BY position LIMIT ?`
      ).raw(true),
      // The last timestamp is read from the head row's bytes; a row whose bytes are unreadable
      // (tampered) still lists, with the first timestamp, and `verify` reports it.
      sessions: db.prepare(
        `SELECT s.session_id, h.sequence AS last_sequence, s.first_timestamp,
           CASE WHEN json_valid(h.bytes) THEN json_extract(h.bytes, '$.timestamp') END AS last_timestamp
         FROM sessions s JOIN events h ON h.session_id = s.session_id
           AND h.sequence = (SELECT max(sequence) FROM events WHERE session_id = s.session_id)
         ORDER BY s.first_position`
      )
    };
    this.#takeEpoch = db.transaction(
      (sessionId) => this.#statements.takeDriverEpoch.get(sessionId)
    );
    this.#appendTransaction = db.transaction(
      (batch, options2) => {
        const sessionId = batch[0].sessionId;
        if (options2?.driverEpoch !== void 0)
          checkDriverEpoch(sessionId, options2, this.#statements.driverEpoch.get(sessionId) ?? 0);
        const head = this.#head(sessionId);
        const lastSequence = head?.sequence ?? 0;
        checkExpectedSequence(sessionId, options2, lastSequence);
        const sealed = sealBatch(this.#codec, this.#sha256, batch, {
          sequence: lastSequence,
          hash: head?.hash ?? GENESIS_HASH
        });
        const firstPosition = this.#insertRows(sealed);
        if (!head) this.#statements.startSession.run(sessionId, firstPosition, batch[0].timestamp);
        return sealed.map((row, index) => toStoredEvent(batch[index], row, firstPosition + index));
      }
    );
  }
  path;
  #db;
  #codec;
  #sha256;
  #pollIntervalMs;
  #notifier = createAppendNotifier();
  #statements;
  #appendTransaction;
  #takeEpoch;
  /** Multi-row INSERTs by row count, prepared on first use. */
  #inserts = /* @__PURE__ */ new Map();
  /** Heads this connection wrote, trusted while `#dataVersion` says no other connection wrote. */
  #heads = new SessionHeadCache();
  #dataVersion = -1;
  #closed = false;
  /**
   * The session's head, for an append (inside its write transaction) or `lastSequence`. The one
   * this connection last wrote is still the head unless another connection has committed since,
   * which `data_version` (a read of the file header, no index seek) tells; then every
   * remembered head is dropped and the head is read from the index.
   */
  #head(sessionId) {
    const version = this.#statements.dataVersion.get();
    if (version !== this.#dataVersion) {
      this.#heads.clear();
      this.#dataVersion = version;
    }
    const cached = this.#heads.get(sessionId);
    if (cached !== void 0) return cached;
    const row = this.#statements.head.get(sessionId);
    return row && { sequence: row[0], hash: hashText(row[1]) };
  }
  /**
   * Inserts rows in chunks of a power of two (few statements to prepare) and returns the first
   * one's position. SQLite gives each row the largest position plus one, and the write lock is
   * held, so the positions are consecutive and the first is read back from the first chunk.
   */
  #insertRows(rows) {
    let offset = 0;
    let firstPosition = 0;
    while (offset < rows.length) {
      const size = Math.min(INSERT_CHUNK, 2 ** Math.floor(Math.log2(rows.length - offset)));
      const values = [];
      for (let index = offset; index < offset + size; index++) {
        const row = rows[index];
        values.push(row.sessionId, row.sequence, row.eventId, row.bytes, hashBytes(row.hash));
      }
      const { lastInsertRowid } = this.#insertStatement(size).run(values);
      if (offset === 0) firstPosition = Number(lastInsertRowid) - size + 1;
      offset += size;
    }
    return firstPosition;
  }
  #insertStatement(rows) {
    let statement = this.#inserts.get(rows);
    if (!statement) {
      statement = this.#db.prepare(
        `INSERT INTO events (session_id, sequence, event_id, bytes, hash) VALUES ${Array(rows).fill("(?, ?, ?, ?, ?)").join(", ")}`
      );
      this.#inserts.set(rows, statement);
    }
    return statement;
  }
  async append(event, options) {
    const [stored] = await this.appendAll([event], options);
    return stored;
  }
  async appendAll(events, options) {
    this.#open();
    const batch = normalizeBatch(this.#codec, events);
    let stored;
    try {
      stored = await writeWithRetry(
        this.path,
        () => this.#appendTransaction.immediate(batch, options),
        () => this.#open()
      );
    } catch (error) {
      if (error instanceof ConcurrencyError || error instanceof StaleDriverError || isUniqueEventIdViolation(error))
        return this.#settle(batch, error);
      throw error;
    }
    const last = stored.at(-1);
    this.#heads.set(last.sessionId, { sequence: last.sequence, hash: last.hash });
    this.#notifier.notify();
    return stored;
  }
  /** A conflicting batch is either a retry of stored events (returned as stored) or a real conflict. */
  #settle(batch, conflict) {
    const existing = /* @__PURE__ */ new Map();
    for (const raw of this.#statements.byEventIds.all(
      JSON.stringify(batch.map((event) => event.eventId))
    )) {
      existing.set(raw.event_id, this.#codec.decodeRow(toEventRow(raw)));
    }
    const retried = settleRetry(this.#codec, batch, existing);
    if (retried) return retried;
    throw conflict;
  }
  async takeDriverEpoch(sessionId) {
    this.#open();
    return writeWithRetry(
      this.path,
      () => this.#takeEpoch.immediate(sessionId),
      () => this.#open()
    );
  }
  async driverEpoch(sessionId) {
    this.#open();
    return this.#statements.driverEpoch.get(sessionId) ?? 0;
  }
  async read(sessionId, options = {}) {
    return collectEvents(this.stream(sessionId, options), options.limit);
  }
  stream(sessionId, options = {}) {
    this.#open();
    return streamSession(
      this.#rowSource,
      this.#codec,
      this.#sha256,
      sessionId,
      options.afterSequence
    );
  }
  async lastSequence(sessionId) {
    this.#open();
    return this.#head(sessionId)?.sequence ?? 0;
  }
  async listSessions() {
    this.#open();
    return this.#statements.sessions.all().map((row) => ({
      sessionId: row.session_id,
      lastSequence: row.last_sequence,
      firstTimestamp: row.first_timestamp,
      lastTimestamp: typeof row.last_timestamp === "string" ? row.last_timestamp : row.first_timestamp
    }));
  }
  readAll(options = {}) {
    this.#open();
    return pageFeed((after, limit) => this.#feedPage(after, limit), options);
  }
  subscribe(options = {}) {
    this.#open();
    return liveFeed(
      {
        readPage: async (after, limit) => this.#closed ? [] : this.#feedPage(after, limit),
        // Appends from this process wake the feed at once; other processes' appends are found by polling.
        nextChange: () => Promise.race([this.#notifier.next(), delay(this.#pollIntervalMs)])
      },
      options
    );
  }
  async verify(sessionId) {
    this.#open();
    return verifySession(this.#rowSource, this.#codec, this.#sha256, sessionId);
  }
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#notifier.notify();
    this.#db.close();
  }
  /** Rows of one session, for the shared read paths; `.all()` materializes each page, so no statement stays open. */
  #rowSource = {
    page: (sessionId, after, limit) => {
      this.#open();
      return this.#statements.sessionPage.all(sessionId, after, limit).map((raw) => sessionTupleToEventRow(sessionId, raw));
    },
    hashAt: (sessionId, sequence) => storedHashAt(this.#statements.hashAt.get(sessionId, sequence)),
    sparse: {
      page: (sessionId, after, limit) => {
        this.#open();
        return this.#statements.sparseSessionPage.all(sessionId, after, limit).map((raw) => sparseTupleToRow(sessionId, raw));
      },
      hashAt: (sessionId, sequence) => storedHashAt(this.#statements.hashAt.get(sessionId, sequence))
    },
    head: (sessionId) => {
      const head = this.#statements.head.get(sessionId);
      return head && { sequence: head[0], hash: hashText(head[1]) };
    }
  };
  /**
   * A page of the global feed, each row checked against the hash it is chained to: the previous
   * row of its session, which is usually earlier in the same page and otherwise looked up. A
   * missing predecessor breaks the chain there.
   */
  #feedPage(afterPosition, limit) {
    this.#open();
    const heads = /* @__PURE__ */ new Map();
    return this.#statements.feedPage.all(afterPosition, limit).map((raw) => {
      const [position, sessionId, sequence, eventId, bytes, stored] = raw;
      const head = heads.get(sessionId);
      const previousHash = sequence === 1 ? GENESIS_HASH : head?.sequence === sequence - 1 ? head.hash : storedHashAt(this.#statements.hashAt.get(sessionId, sequence - 1));
      if (previousHash === void 0)
        throw new CorruptEventError(
          sessionId,
          sequence,
          "hash",
          `sequence ${sequence - 1} is missing (the event this one is chained to)`
        );
      const row = {
        position,
        sessionId,
        sequence,
        eventId,
        bytes,
        hash: hashText(stored),
        previousHash
      };
      checkRowHash(this.#sha256, row);
      heads.set(sessionId, { sequence, hash: row.hash });
      return this.#codec.decodeVerifiedRow(row, row.hash);
    });
  }
  #open() {
    if (this.#closed) throw new StoreClosedError(`SQLite event store ${this.path}`);
  }
};
function storedHashAt(stored) {
  return stored === void 0 ? void 0 : hashText(stored);
}
function isUniqueEventIdViolation(error) {
  return error instanceof Error && error.code === "SQLITE_CONSTRAINT_UNIQUE" && error.message.includes("events.event_id");
}
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
function openSqliteEventStore(path, options) {
  return new SqliteEventStore(path, options);
}

// src/infrastructure/sqlite/sqlite-snapshot-store.ts
var SqliteSnapshotStore = class {
  constructor(path, options = {}) {
    this.path = path;
    this.#db = openSqliteDatabase(path, options);
    this.#save = this.#db.prepare(
      `INSERT INTO snapshots (session_id, projection, projection_version, sequence, state)
       VALUES (@sessionId, @projection, @projectionVersion, @sequence, @state)
       ON CONFLICT (session_id, projection) DO UPDATE SET
         projection_version = excluded.projection_version, sequence = excluded.sequence, state = excluded.state
       WHERE excluded.projection_version <> snapshots.projection_version OR excluded.sequence >= snapshots.sequence`
    );
    this.#load = this.#db.prepare(
      "SELECT * FROM snapshots WHERE session_id = ? AND projection = ?"
    );
  }
  path;
  #db;
  #save;
  #load;
  #closed = false;
  async save(snapshot) {
    this.#open();
    const state = canonicalJson(snapshot.state);
    await writeWithRetry(
      this.path,
      () => this.#save.run({ ...snapshot, state }),
      () => this.#open()
    );
  }
  async load(sessionId, projection) {
    this.#open();
    const row = this.#load.get(sessionId, projection);
    if (!row) return void 0;
    return {
      sessionId: row.session_id,
      projection: row.projection,
      projectionVersion: row.projection_version,
      sequence: row.sequence,
      state: JSON.parse(row.state)
    };
  }
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
  #open() {
    if (this.#closed) throw new StoreClosedError(`SQLite snapshot store ${this.path}`);
  }
};
function openSqliteSnapshotStore(path, options) {
  return new SqliteSnapshotStore(path, options);
}

// src/infrastructure/open-store.ts
var StoreLocationError = class extends CorrexError {
  constructor(location, detail) {
    super("store_location_invalid", `store location "${location}": ${detail}`);
    this.location = location;
  }
  location;
};
var EXPECTED = "expected a SQLite path, sqlite:<path>, or a postgres:// URL";
function parseStoreLocation(location) {
  const trimmed = location.trim();
  if (trimmed === "") throw new StoreLocationError(location, `empty; ${EXPECTED}`);
  if (isPostgresUrl(trimmed)) return { kind: "postgres", url: trimmed };
  if (/^sqlite:/i.test(trimmed)) {
    const path = trimmed.replace(/^sqlite:(\/\/)?/i, "");
    if (path === "") throw new StoreLocationError(location, `no path after sqlite:; ${EXPECTED}`);
    return { kind: "sqlite", path };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed);
  if (scheme) {
    throw new StoreLocationError(
      redactConnectionString(trimmed),
      `unsupported scheme ${scheme[1]}:; ${EXPECTED}`
    );
  }
  return { kind: "sqlite", path: trimmed };
}
async function openStores(location, options = {}) {
  const parsed = parseStoreLocation(location);
  if (parsed.kind === "sqlite") {
    const sqliteOptions = options.synchronous ? { synchronous: options.synchronous } : {};
    const events = openSqliteEventStore(parsed.path, {
      catalog: correxEventCatalog,
      ...sqliteOptions,
      ...options.pollIntervalMs === void 0 ? {} : { pollIntervalMs: options.pollIntervalMs }
    });
    let snapshots;
    try {
      snapshots = openSqliteSnapshotStore(parsed.path, sqliteOptions);
    } catch (error) {
      await events.close();
      throw error;
    }
    return {
      kind: "sqlite",
      location: parsed.path,
      events,
      snapshots,
      close: async () => {
        await events.close();
        await snapshots.close();
      }
    };
  }
  const [{ createPostgresPool }, { openPool, PostgresEventStore }, { PostgresSnapshotStore }] = await Promise.all([
    import("./postgres-connection-I6GZXNJS.js"),
    import("./postgres-event-store-TYAPVSOW.js"),
    import("./postgres-snapshot-store-VPMP4MLD.js")
  ]);
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const pool = createPostgresPool(parsed.url, {
    ...options.maxConnections === void 0 ? {} : { maxConnections: options.maxConnections },
    ...options.applicationName === void 0 ? {} : { applicationName: options.applicationName }
  });
  const server = redactConnectionString(parsed.url);
  try {
    const opened = await openPool(
      { pool, ...options.migrate === void 0 ? {} : { migrate: options.migrate } },
      schema,
      server
    );
    const events = new PostgresEventStore(opened.location, schema, pool, false, {
      pool,
      catalog: correxEventCatalog,
      runnability: runnabilityAfter,
      ...options.pollIntervalMs === void 0 ? {} : { pollIntervalMs: options.pollIntervalMs }
    });
    const snapshots = new PostgresSnapshotStore(opened.location, schema, pool, false);
    return {
      kind: "postgres",
      location: server,
      events,
      snapshots,
      close: async () => {
        await events.close();
        await snapshots.close();
        await pool.end();
      }
    };
  } catch (error) {
    await pool.end().catch(() => void 0);
    throw error;
  }
}

export {
  SQLITE_SCHEMA_VERSION,
  migrateSqlite,
  StoreLocationError,
  parseStoreLocation,
  openStores
};
