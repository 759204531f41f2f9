/**
 * `correx/postgres`: the shared store for several processes or machines, its migrations and its
 * advisory driver locks. Loads pg.
 */
export {
  PostgresEventStore,
  openPostgresEventStore,
  type PostgresEventStoreOptions,
  type PostgresStoreTarget,
} from './infrastructure/postgres/postgres-event-store.js';
export {
  PostgresSnapshotStore,
  openPostgresSnapshotStore,
  type PostgresSnapshotStoreOptions,
} from './infrastructure/postgres/postgres-snapshot-store.js';
export {
  migratePostgres,
  POSTGRES_SCHEMA_VERSION,
  type PostgresMigrateOptions,
  type PostgresMigrationReport,
} from './infrastructure/postgres/postgres-migrations.js';
export {
  PostgresConnectError,
  PostgresSchemaError,
  type PostgresConnectReason,
} from './infrastructure/postgres/postgres-errors.js';
export {
  DEFAULT_POSTGRES_SCHEMA,
  redactConnectionString,
  type PostgresPoolOptions,
} from './infrastructure/postgres/postgres-connection.js';
export {
  createPostgresSessionLocker,
  openPostgresSessionLocker,
} from './infrastructure/postgres/postgres-session-locker.js';
