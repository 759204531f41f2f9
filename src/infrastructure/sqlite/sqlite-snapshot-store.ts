import type Database from 'better-sqlite3';
import { canonicalJson, type JsonValue } from '../../core/events/canonical-json.js';
import type { Snapshot, SnapshotStore } from '../../core/events/snapshot-store.js';
import { StoreClosedError } from '../../core/events/store-closed-error.js';
import { openSqliteDatabase, type SqliteOptions } from './sqlite-database.js';
import { writeWithRetry } from './sqlite-errors.js';

type SnapshotRow = {
  session_id: string;
  projection: string;
  projection_version: number;
  sequence: number;
  state: string;
};

/** Snapshots in the same SQLite file as the events (its own connection). */
export class SqliteSnapshotStore implements SnapshotStore {
  readonly #db: Database.Database;
  readonly #save;
  readonly #load;
  #closed = false;

  constructor(
    readonly path: string,
    options: SqliteOptions = {},
  ) {
    this.#db = openSqliteDatabase(path, options);
    // A newer snapshot of the same version is never replaced by an older one.
    this.#save = this.#db.prepare(
      `INSERT INTO snapshots (session_id, projection, projection_version, sequence, state)
       VALUES (@sessionId, @projection, @projectionVersion, @sequence, @state)
       ON CONFLICT (session_id, projection) DO UPDATE SET
         projection_version = excluded.projection_version, sequence = excluded.sequence, state = excluded.state
       WHERE excluded.projection_version <> snapshots.projection_version OR excluded.sequence >= snapshots.sequence`,
    );
    this.#load = this.#db.prepare<[string, string], SnapshotRow>(
      'SELECT * FROM snapshots WHERE session_id = ? AND projection = ?',
    );
  }

  async save(snapshot: Snapshot): Promise<void> {
    this.#open();
    const state = canonicalJson(snapshot.state);
    await writeWithRetry(
      this.path,
      () => this.#save.run({ ...snapshot, state }),
      () => this.#open(),
    );
  }

  async load(sessionId: string, projection: string): Promise<Snapshot | undefined> {
    this.#open();
    const row = this.#load.get(sessionId, projection);
    if (!row) return undefined;
    return {
      sessionId: row.session_id,
      projection: row.projection,
      projectionVersion: row.projection_version,
      sequence: row.sequence,
      state: JSON.parse(row.state) as JsonValue,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  #open(): void {
    if (this.#closed) throw new StoreClosedError(`SQLite snapshot store ${this.path}`);
  }
}

export function openSqliteSnapshotStore(
  path: string,
  options?: SqliteOptions,
): SqliteSnapshotStore {
  return new SqliteSnapshotStore(path, options);
}
