import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { parseStoreLocation } from '../open-store.js';
import { SQLITE_SCHEMA_VERSION } from '../sqlite/sqlite-database.js';
import {
  createPostgresPool,
  DEFAULT_POSTGRES_SCHEMA,
  redactConnectionString,
} from '../postgres/postgres-connection.js';
import { checkSchema } from '../postgres/postgres-migrations.js';
import { passed, problem, type DoctorCheck } from './doctor-check.js';

/**
 * Whether the store opens, carries the schema this correx writes, and can be written. Reads
 * only: a missing SQLite file is not created and nothing is migrated.
 */
export async function checkStore(location: string): Promise<DoctorCheck> {
  const parsed = parseStoreLocation(location);
  if (parsed.kind === 'postgres') return checkPostgresStore(parsed.url);
  const path = parsed.path;
  if (!existsSync(path)) {
    const folder = existingAncestor(dirname(path));
    return writable(folder)
      ? passed('store', `${path} does not exist yet; the first run creates it`)
      : problem(
          'store',
          `${path} does not exist and ${folder} is not writable`,
          `make ${folder} writable, or point --store / CORREX_STORE elsewhere`,
        );
  }
  let version: number;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      version = db.pragma('user_version', { simple: true }) as number;
      if (version > 0) db.prepare('SELECT count(*) FROM sessions').get();
    } finally {
      db.close();
    }
  } catch (error) {
    return problem(
      'store',
      `cannot open ${path}: ${(error as Error).message}`,
      `check that ${path} is a correx SQLite store (or move it aside; the next run starts a new one)`,
    );
  }
  if (version > SQLITE_SCHEMA_VERSION)
    return problem(
      'store',
      `${path} has schema version ${version}, newer than this correx (${SQLITE_SCHEMA_VERSION})`,
      'upgrade correx',
    );
  if (!writable(path) || !writable(dirname(path)))
    return problem(
      'store',
      `${path} (or its folder) is not writable`,
      `chmod u+w ${path} ${dirname(path)}`,
    );
  return passed(
    'store',
    version === SQLITE_SCHEMA_VERSION
      ? `${path} opens, schema version ${version} is current, writable`
      : `${path} opens and is writable; its schema (version ${version} of ${SQLITE_SCHEMA_VERSION}) is brought up to date on the next open`,
  );
}

async function checkPostgresStore(url: string): Promise<DoctorCheck> {
  const location = redactConnectionString(url);
  const pool = createPostgresPool(url, { maxConnections: 1 });
  try {
    await checkSchema(pool, location, DEFAULT_POSTGRES_SCHEMA);
    const writable = await pool.query<{ ok: boolean }>(
      `SELECT has_table_privilege(current_user, $1, 'INSERT') AS ok`,
      [`${DEFAULT_POSTGRES_SCHEMA}.events`],
    );
    return writable.rows[0]?.ok === true
      ? passed('store', `${location} opens, schema current, writable`)
      : problem(
          'store',
          `${location}: this role may not insert into ${DEFAULT_POSTGRES_SCHEMA}.events`,
          `GRANT INSERT ON ${DEFAULT_POSTGRES_SCHEMA}.events TO the role correx connects as`,
        );
  } catch (error) {
    const message = (error as Error).message;
    return problem(
      'store',
      message,
      /migrate/.test(message)
        ? `correx migrate --store ${location}`
        : 'check that PostgreSQL runs and the URL (host, port, user, database) is right',
    );
  } finally {
    await pool.end();
  }
}

function existingAncestor(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
