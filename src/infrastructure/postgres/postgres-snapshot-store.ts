import type pg from 'pg';
import { canonicalJson, type JsonValue } from '../../core/events/canonical-json.js';
import type { Snapshot, SnapshotStore } from '../../core/events/snapshot-store.js';
import { StoreClosedError } from '../../core/events/store-closed-error.js';
import {
  DEFAULT_POSTGRES_SCHEMA,
  quoteSchema,
  type PostgresPoolOptions,
} from './postgres-connection.js';
import { describeConnectFailure } from './postgres-errors.js';
import { openPool, type PostgresStoreTarget } from './postgres-event-store.js';

export type PostgresSnapshotStoreOptions = PostgresStoreTarget &
  PostgresPoolOptions & {
    readonly schema?: string;
    readonly migrate?: boolean;
  };

type SnapshotRow = {
  session_id: string;
  projection: string;
  projection_version: number;
  sequence: string;
  state: string;
};

/** Snapshots in the same schema as the events. State is stored as canonical JSON text. */
export class PostgresSnapshotStore implements SnapshotStore {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #save: string;
  readonly #load: string;
  #closed = false;

  /** Use `openPostgresSnapshotStore`. */
  constructor(
    readonly location: string,
    schema: string,
    pool: pg.Pool,
    ownsPool: boolean,
  ) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    const s = quoteSchema(schema, location);
    // A newer snapshot of the same version is never replaced by an older one.
    this.#save = `INSERT INTO ${s}.snapshots (session_id, projection, projection_version, sequence, state)
      VALUES ($1, $2, $3, $4, $5)
      ON CONFLICT (session_id, projection) DO UPDATE SET
        projection_version = excluded.projection_version, sequence = excluded.sequence, state = excluded.state
      WHERE excluded.projection_version <> snapshots.projection_version OR excluded.sequence >= snapshots.sequence`;
    this.#load = `SELECT session_id, projection, projection_version, sequence, state
      FROM ${s}.snapshots WHERE session_id = $1 AND projection = $2`;
  }

  async save(snapshot: Snapshot): Promise<void> {
    this.#open();
    await this.#query(this.#save, [
      snapshot.sessionId,
      snapshot.projection,
      snapshot.projectionVersion,
      snapshot.sequence,
      canonicalJson(snapshot.state),
    ]);
  }

  async load(sessionId: string, projection: string): Promise<Snapshot | undefined> {
    this.#open();
    const row = (await this.#query<SnapshotRow>(this.#load, [sessionId, projection])).rows[0];
    if (!row) return undefined;
    return {
      sessionId: row.session_id,
      projection: row.projection,
      projectionVersion: row.projection_version,
      sequence: Number(row.sequence),
      state: JSON.parse(row.state) as JsonValue,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsPool) await this.#pool.end();
  }

  async #query<Row extends pg.QueryResultRow>(text: string, values: unknown[]) {
    try {
      return await this.#pool.query<Row>(text, values);
    } catch (error) {
      throw describeConnectFailure(this.location, error);
    }
  }

  #open(): void {
    if (this.#closed) throw new StoreClosedError(`PostgreSQL snapshot store ${this.location}`);
  }
}

export async function openPostgresSnapshotStore(
  options: PostgresSnapshotStoreOptions,
): Promise<PostgresSnapshotStore> {
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const { pool, ownsPool, location } = await openPool(options, schema);
  return new PostgresSnapshotStore(location, schema, pool, ownsPool);
}
