import { parseStoreLocation } from './open-store.js';
import { DEFAULT_POSTGRES_SCHEMA, redactConnectionString } from './postgres/postgres-connection.js';
import { migratePostgres } from './postgres/postgres-migrations.js';
import { migrateSqlite } from './sqlite/sqlite-database.js';

export type StoreMigrationReport = {
  readonly kind: 'sqlite' | 'postgres';
  /** Safe to print: no password. */
  readonly location: string;
  /** The PostgreSQL schema, when there is one. */
  readonly schema?: string;
  readonly fromVersion: number;
  readonly toVersion: number;
};

/**
 * Brings the store at `location` to the schema this correx writes. Safe to run twice and from
 * several processes at once (SQLite: an IMMEDIATE transaction; PostgreSQL: an advisory lock).
 */
export async function migrateStore(
  location: string,
  options: { schema?: string } = {},
): Promise<StoreMigrationReport> {
  const parsed = parseStoreLocation(location);
  if (parsed.kind === 'sqlite')
    return { kind: 'sqlite', location: parsed.path, ...migrateSqlite(parsed.path) };
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const report = await migratePostgres(parsed.url, { schema });
  return {
    kind: 'postgres',
    location: redactConnectionString(parsed.url),
    schema,
    fromVersion: report.fromVersion,
    toVersion: report.toVersion,
  };
}
