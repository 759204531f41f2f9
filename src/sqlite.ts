/**
 * `correx/sqlite`: the embedded store (one file, one machine) and the driver locks that go with
 * it. Loads better-sqlite3.
 */
export {
  SqliteEventStore,
  openSqliteEventStore,
  type SqliteEventStoreOptions,
} from './infrastructure/sqlite/sqlite-event-store.js';
export {
  SqliteSnapshotStore,
  openSqliteSnapshotStore,
} from './infrastructure/sqlite/sqlite-snapshot-store.js';
export {
  SqliteArtifactStore,
  openSqliteArtifactStore,
  type SqliteArtifactStoreOptions,
} from './infrastructure/sqlite/sqlite-artifact-store.js';
export {
  SqliteOpenError,
  type SqliteOptions,
  type SqliteSynchronous,
} from './infrastructure/sqlite/sqlite-database.js';
export { createFileSessionLocker } from './infrastructure/locks/file-session-locker.js';
