import type pg from 'pg';
import {
  checkConnection,
  createPostgresPool,
  DEFAULT_POSTGRES_SCHEMA,
  quoteSchema,
  redactConnectionString,
  schemaLockKey,
} from './postgres-connection.js';
import { describeConnectFailure, PostgresSchemaError } from './postgres-errors.js';

/** Advisory-lock sub-keys under a schema's key (see `schemaLockKey`). */
export const MIGRATION_LOCK = 0;
export const POSITION_LOCK = 1;

/**
 * Schema versions, each applied once in its own transaction and recorded in
 * `<schema>.correx_migrations`. `s` is the quoted schema name, `key` its advisory-lock key.
 */
const MIGRATIONS: readonly ((s: string, key: number) => string)[] = [
  (s, key) => `
  -- Global positions come from this sequence, but only through allocate_positions below.
  CREATE SEQUENCE ${s}.event_positions AS bigint;
  CREATE TABLE ${s}.events (
    position        bigint PRIMARY KEY,
    transaction_id  xid8   NOT NULL DEFAULT pg_current_xact_id(),
    session_id      text   NOT NULL,
    sequence        bigint NOT NULL,
    event_id        text   NOT NULL,
    type            text   NOT NULL,
    event_timestamp text   NOT NULL,
    bytes           text   NOT NULL,
    hash            text   NOT NULL,
    previous_hash   text   NOT NULL,
    CONSTRAINT events_event_id_unique UNIQUE (event_id),
    CONSTRAINT events_session_sequence_unique UNIQUE (session_id, sequence)
  );
  CREATE TABLE ${s}.sessions (
    session_id      text   PRIMARY KEY,
    last_sequence   bigint NOT NULL,
    last_hash       text   NOT NULL,
    first_position  bigint,
    first_timestamp text,
    last_timestamp  text
  );
  CREATE INDEX sessions_first_position ON ${s}.sessions (first_position);
  CREATE TABLE ${s}.snapshots (
    session_id         text    NOT NULL,
    projection         text    NOT NULL,
    projection_version integer NOT NULL,
    sequence           bigint  NOT NULL,
    state              text    NOT NULL,
    PRIMARY KEY (session_id, projection)
  );
  CREATE FUNCTION ${s}.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'correx events are append-only'; END $$;
  CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON ${s}.events
    FOR EACH ROW EXECUTE FUNCTION ${s}.refuse_change();
  CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON ${s}.events
    FOR EACH STATEMENT EXECUTE FUNCTION ${s}.refuse_change();
  -- Takes this transaction's id and n consecutive positions as one step, so that position order
  -- is transaction-id order across writers. The global feed relies on it (see docs/postgres.md).
  -- A session-level lock, released at once: writers serialize only for this step, not until commit.
  CREATE FUNCTION ${s}.allocate_positions(n integer) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE last bigint;
    BEGIN
      PERFORM pg_advisory_lock(${key}, ${POSITION_LOCK});
      PERFORM pg_current_xact_id();
      last := setval('${s}.event_positions', nextval('${s}.event_positions') + n - 1);
      PERFORM pg_advisory_unlock(${key}, ${POSITION_LOCK});
      RETURN last - n + 1;
    END $$;
  `,
  // Workers (docs/postgres.md "Workers"): which sessions need a driver, kept on the head row
  // each append already locks and updates; which worker drove a session when; and the
  // connection's application name on every event (a worker's names it), so the driver
  // records can be checked against the log.
  (s) => `
  ALTER TABLE ${s}.events ADD COLUMN writer text;
  ALTER TABLE ${s}.events ALTER COLUMN writer SET DEFAULT current_setting('application_name', true);
  ALTER TABLE ${s}.sessions ADD COLUMN runnable boolean NOT NULL DEFAULT false;
  ALTER TABLE ${s}.sessions ADD COLUMN runnable_since timestamptz;
  ALTER TABLE ${s}.sessions ADD COLUMN is_child boolean NOT NULL DEFAULT false;
  CREATE INDEX sessions_runnable ON ${s}.sessions (runnable_since) WHERE runnable;
  CREATE TABLE ${s}.session_drivers (
    id            bigserial   PRIMARY KEY,
    session_id    text        NOT NULL,
    worker        text        NOT NULL,
    backend_pid   integer     NOT NULL,
    from_sequence bigint      NOT NULL,
    acquired_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    released_at   timestamptz,
    to_sequence   bigint
  );
  CREATE INDEX session_drivers_session ON ${s}.session_drivers (session_id, id);
  `,
  // allocate_positions without setval for one position (most appends are one event): setval
  // writes WAL on every call and makes the next nextval write WAL again, two records per
  // append; a lone nextval writes one every 32 calls. Same positions, same lock, same order.
  (s, key) => `
  CREATE OR REPLACE FUNCTION ${s}.allocate_positions(n integer) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE first bigint;
    BEGIN
      PERFORM pg_advisory_lock(${key}, ${POSITION_LOCK});
      PERFORM pg_current_xact_id();
      first := nextval('${s}.event_positions');
      IF n > 1 THEN PERFORM setval('${s}.event_positions', first + n - 1); END IF;
      PERFORM pg_advisory_unlock(${key}, ${POSITION_LOCK});
      RETURN first;
    END $$;
  `,
  // One driver per session, by construction (docs/postgres.md "Fencing"): the driver epoch is
  // the fencing token every driver append is checked against under the head row's lock; the
  // lease says who holds it, whose lock connection (backend) holds its advisory lock, when it
  // was last renewed (the server's clock) and for how long a renewal holds. Sessions recorded
  // before are at epoch 0, with no lease.
  (s) => `
  ALTER TABLE ${s}.sessions ADD COLUMN driver_epoch bigint NOT NULL DEFAULT 0;
  ALTER TABLE ${s}.sessions ADD COLUMN driver text;
  ALTER TABLE ${s}.sessions ADD COLUMN driver_backend integer;
  ALTER TABLE ${s}.sessions ADD COLUMN lease_renewed_at timestamptz;
  ALTER TABLE ${s}.sessions ADD COLUMN lease_ms integer;
  ALTER TABLE ${s}.session_drivers ADD COLUMN epoch bigint;
  `,
  // A driver that lost its session says when its run had stopped (the command it was running
  // ended, nothing more of it will touch the workspace): a person asked about a command the
  // lost driver had started needs to know whether it may still be running.
  (s) => `
  ALTER TABLE ${s}.session_drivers ADD COLUMN stopped_at timestamptz;
  `,
];

/** The schema version this correx writes and reads. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

export type PostgresMigrateOptions = {
  /** Schema to create the tables in (default `correx`). */
  readonly schema?: string;
  /** Stop at this version (default: the current one); for tests of upgrades from older schemas. */
  readonly toVersion?: number;
};

export type PostgresMigrationReport = {
  readonly schema: string;
  readonly fromVersion: number;
  readonly toVersion: number;
};

/**
 * Brings a schema up to date. Safe to run twice and from several processes at once: the
 * migrations run under an advisory lock keyed by the schema, and each records its version.
 */
export async function migratePostgres(
  target: string | pg.Pool,
  options: PostgresMigrateOptions = {},
): Promise<PostgresMigrationReport> {
  const ownPool = typeof target === 'string';
  const pool = ownPool ? createPostgresPool(target, { maxConnections: 1 }) : target;
  const location = ownPool ? redactConnectionString(target) : 'pool';
  try {
    return await migratePool(
      pool,
      location,
      options.schema ?? DEFAULT_POSTGRES_SCHEMA,
      options.toVersion,
    );
  } finally {
    if (ownPool) await pool.end();
  }
}

/** `migratePostgres` on a pool, naming `location` in errors. */
export async function migratePool(
  pool: pg.Pool,
  location: string,
  schema: string,
  toVersion = MIGRATIONS.length,
): Promise<PostgresMigrationReport> {
  const s = quoteSchema(schema, location);
  const key = schemaLockKey(schema);
  const target = Math.min(toVersion, MIGRATIONS.length);
  await checkConnection(pool, location);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw describeConnectFailure(location, error);
  }
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [key, MIGRATION_LOCK]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${s}.correx_migrations (
           version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const fromVersion = await readVersion(client, s);
      if (fromVersion > MIGRATIONS.length) {
        throw new PostgresSchemaError(
          location,
          schema,
          'newer',
          `schema version ${fromVersion} is newer than this correx understands (${MIGRATIONS.length}); upgrade correx`,
        );
      }
      for (let version = fromVersion; version < target; version++) {
        await client.query('BEGIN');
        try {
          await client.query(MIGRATIONS[version]!(s, key));
          await client.query(`INSERT INTO ${s}.correx_migrations (version) VALUES ($1)`, [
            version + 1,
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }
      return { schema, fromVersion, toVersion: Math.max(fromVersion, target) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [key, MIGRATION_LOCK]);
    }
  } catch (error) {
    broken = true;
    throw describeConnectFailure(location, error);
  } finally {
    client.release(broken);
  }
}

async function readVersion(client: pg.ClientBase | pg.Pool, s: string): Promise<number> {
  const result = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${s}.correx_migrations`,
  );
  return result.rows[0]?.version ?? 0;
}

/**
 * Checks that a schema is migrated to exactly the version this correx knows; throws a
 * PostgresSchemaError saying to run `correx migrate` otherwise.
 */
export async function checkSchema(pool: pg.Pool, location: string, schema: string): Promise<void> {
  const s = quoteSchema(schema, location);
  let version = 0;
  try {
    const exists = await pool.query<{ found: string | null }>(`SELECT to_regclass($1) AS found`, [
      `${s}.correx_migrations`,
    ]);
    if (exists.rows[0]?.found) version = await readVersion(pool, s);
  } catch (error) {
    throw describeConnectFailure(location, error);
  }
  if (version === MIGRATIONS.length) return;
  if (version > MIGRATIONS.length) {
    throw new PostgresSchemaError(
      location,
      schema,
      'newer',
      `schema version ${version} is newer than this correx understands (${MIGRATIONS.length}); upgrade correx`,
    );
  }
  throw new PostgresSchemaError(
    location,
    schema,
    'missing',
    version === 0
      ? 'the correx tables do not exist: run `correx migrate` or open the store with migrate enabled'
      : `schema is at version ${version} of ${MIGRATIONS.length}: run \`correx migrate\``,
  );
}
