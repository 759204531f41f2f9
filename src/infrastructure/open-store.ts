import { CorrexError } from '../core/base/correx-error.js';
import { correxEventCatalog, type EventPayload } from '../core/event-catalog.js';
import type { EventStore } from '../core/events/event-store.js';
import type { SnapshotStore } from '../core/events/snapshot-store.js';
import { runnabilityAfter } from '../core/sessions/session-runnability.js';
import {
  DEFAULT_POSTGRES_SCHEMA,
  isPostgresUrl,
  redactConnectionString,
} from './postgres/postgres-url.js';
import type { SqliteSynchronous } from './sqlite/sqlite-database.js';
import { openSqliteEventStore } from './sqlite/sqlite-event-store.js';
import { openSqliteSnapshotStore } from './sqlite/sqlite-snapshot-store.js';

export type StoreKind = 'sqlite' | 'postgres';

/** Where the stores live: a SQLite file, or a PostgreSQL server (URL kept, password included). */
export type StoreLocation =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

export type OpenStoresOptions = {
  /** PostgreSQL: the schema holding correx's tables (default `correx`). */
  readonly schema?: string;
  /** PostgreSQL: run migrations at open (default false: an unmigrated schema is an error saying to run `correx migrate`). */
  readonly migrate?: boolean;
  /** PostgreSQL: most pooled connections (default 10). */
  readonly maxConnections?: number;
  /** PostgreSQL: the connections' application name, which each event's `writer` records. */
  readonly applicationName?: string;
  /** SQLite: durability of a commit (default `full`). */
  readonly synchronous?: SqliteSynchronous;
  /** How often a live subscription polls for other processes' appends. */
  readonly pollIntervalMs?: number;
};

export type OpenedStores = {
  readonly kind: StoreKind;
  /** The SQLite path, or the PostgreSQL URL without its password: safe to print. */
  readonly location: string;
  readonly events: EventStore<EventPayload>;
  readonly snapshots: SnapshotStore;
  close(): Promise<void>;
};

/** A store location that names no store correx can open. */
export class StoreLocationError extends CorrexError {
  constructor(
    readonly location: string,
    detail: string,
  ) {
    super('store_location_invalid', `store location "${location}": ${detail}`);
  }
}

const EXPECTED = 'expected a SQLite path, sqlite:<path>, or a postgres:// URL';

/** Reads a store location: a SQLite path, `sqlite:<path>`, or a `postgres://`/`postgresql://` URL. */
export function parseStoreLocation(location: string): StoreLocation {
  const trimmed = location.trim();
  if (trimmed === '') throw new StoreLocationError(location, `empty; ${EXPECTED}`);
  if (isPostgresUrl(trimmed)) return { kind: 'postgres', url: trimmed };
  if (/^sqlite:/i.test(trimmed)) {
    const path = trimmed.replace(/^sqlite:(\/\/)?/i, '');
    if (path === '') throw new StoreLocationError(location, `no path after sqlite:; ${EXPECTED}`);
    return { kind: 'sqlite', path };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed);
  if (scheme) {
    throw new StoreLocationError(
      redactConnectionString(trimmed),
      `unsupported scheme ${scheme[1]}:; ${EXPECTED}`,
    );
  }
  return { kind: 'sqlite', path: trimmed };
}

/**
 * Opens the event and snapshot stores at a location: SQLite by default, PostgreSQL for a
 * `postgres://` URL (one pool shared by both stores). Failures are named CorrexErrors.
 */
export async function openStores(
  location: string,
  options: OpenStoresOptions = {},
): Promise<OpenedStores> {
  const parsed = parseStoreLocation(location);
  if (parsed.kind === 'sqlite') {
    const sqliteOptions = options.synchronous ? { synchronous: options.synchronous } : {};
    const events = openSqliteEventStore(parsed.path, {
      catalog: correxEventCatalog,
      ...sqliteOptions,
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    });
    let snapshots: SnapshotStore;
    try {
      snapshots = openSqliteSnapshotStore(parsed.path, sqliteOptions);
    } catch (error) {
      await events.close();
      throw error;
    }
    return {
      kind: 'sqlite',
      location: parsed.path,
      events,
      snapshots,
      close: async () => {
        await events.close();
        await snapshots.close();
      },
    };
  }
  // Loaded only for a PostgreSQL store: `pg` costs a SQLite command about 0.15 s of CPU.
  const [{ createPostgresPool }, { openPool, PostgresEventStore }, { PostgresSnapshotStore }] =
    await Promise.all([
      import('./postgres/postgres-connection.js'),
      import('./postgres/postgres-event-store.js'),
      import('./postgres/postgres-snapshot-store.js'),
    ]);
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const pool = createPostgresPool(parsed.url, {
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.applicationName === undefined ? {} : { applicationName: options.applicationName }),
  });
  const server = redactConnectionString(parsed.url);
  try {
    const opened = await openPool(
      { pool, ...(options.migrate === undefined ? {} : { migrate: options.migrate }) },
      schema,
      server,
    );
    const events = new PostgresEventStore(opened.location, schema, pool, false, {
      pool,
      catalog: correxEventCatalog,
      runnability: runnabilityAfter,
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    });
    const snapshots = new PostgresSnapshotStore(opened.location, schema, pool, false);
    return {
      kind: 'postgres',
      location: server,
      events,
      snapshots,
      close: async () => {
        await events.close();
        await snapshots.close();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
