import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  describeConnectFailure,
  PostgresConnectError,
  PostgresSchemaError,
} from './postgres-errors.js';

import { isPostgresUrl, redactConnectionString } from './postgres-url.js';

export { DEFAULT_POSTGRES_SCHEMA, isPostgresUrl, redactConnectionString } from './postgres-url.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export type PostgresPoolOptions = {
  /** Most connections the pool opens (default 10). */
  readonly maxConnections?: number;
  /** How long to wait for a connection, in ms (default 10000). */
  readonly connectTimeoutMs?: number;
  /** Shown in pg_stat_activity (default `correx`). */
  readonly applicationName?: string;
};

/**
 * The server setting every correx connection asks for: a commit returns only once its WAL has
 * left the server's memory (flushed, where the server flushes). Under `synchronous_commit=off`,
 * which a server may be configured with for speed, a commit is acknowledged before that, and a
 * crash of the server (or `pg_ctl restart -m immediate`) loses what the WAL writer had not
 * written yet: up to three `wal_writer_delay`s of acknowledged appends. A driver runs a command
 * once the append of its `tool_call_started` is acknowledged; lost, the next driver sees no start,
 * and the command runs a second time. So correx does not leave this to the server's default.
 */
export const DURABLE_COMMITS = '-c synchronous_commit=on';

/**
 * The connection settings of a pool for `connectionString`: the URL, and startup options that
 * ask for durable commits (DURABLE_COMMITS) before any the URL gives (`?options=...`). A later
 * `-c` wins, so a URL that names its own `synchronous_commit` (`remote_apply`, stronger, for
 * reads from a standby) keeps it: the server's configuration is what this overrides, not the
 * person's explicit choice. A URL's options replace the pool's in node-postgres, so when it has
 * some they are rewritten into the URL.
 */
export function durableConnection(connectionString: string): {
  readonly connectionString: string;
  readonly options?: string;
} {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { connectionString, options: DURABLE_COMMITS };
  }
  const own = url.searchParams.get('options');
  if (own === null) return { connectionString, options: DURABLE_COMMITS };
  url.searchParams.set('options', `${DURABLE_COMMITS} ${own}`);
  return { connectionString: url.toString() };
}

/** Checks a schema name (lowercase letters, digits, underscores) and returns it quoted for SQL. */
export function quoteSchema(schema: string, location: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new PostgresSchemaError(
      location,
      schema,
      'invalid_name',
      'a schema name is 1-63 lowercase letters, digits or underscores, not starting with a digit',
    );
  }
  return `"${schema}"`;
}

/** A 32-bit advisory-lock key derived from the schema name, so stores in different schemas never contend. */
export function schemaLockKey(schema: string): number {
  return createHash('sha256').update(`correx:${schema}`).digest().readInt32BE(0);
}

/**
 * Creates a pool for a `postgres://` URL. The URL is checked here; the first connection is
 * made by `checkConnection`.
 */
export function createPostgresPool(
  connectionString: string,
  options: PostgresPoolOptions = {},
): pg.Pool {
  const location = redactConnectionString(connectionString);
  if (!isPostgresUrl(connectionString)) {
    throw new PostgresConnectError(
      location,
      'invalid_url',
      'not a PostgreSQL URL: expected postgres://user[:password]@host[:port]/database',
    );
  }
  try {
    new URL(connectionString);
  } catch {
    throw new PostgresConnectError(
      location,
      'invalid_url',
      'the URL cannot be parsed: expected postgres://user[:password]@host[:port]/database',
    );
  }
  const pool = new pg.Pool({
    ...durableConnection(connectionString),
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: options.applicationName ?? 'correx',
    keepAlive: true,
  });
  guardPool(pool);
  return pool;
}

/**
 * Makes a pool safe against its server going away: an idle connection the server drops is
 * discarded by the pool, and a connection that fails while checked out (a restart, a failover,
 * `pg_terminate_backend`) reports to the query it serves instead of emitting an `error` event
 * nobody handles, which would end the process. The next query reconnects.
 */
export function guardPool(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
}

/** Opens one connection and runs a trivial query, turning any failure into a named error. */
export async function checkConnection(pool: pg.Pool, location: string): Promise<void> {
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    throw describeConnectFailure(location, error);
  }
}
