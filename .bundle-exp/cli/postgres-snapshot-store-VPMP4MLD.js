import {
  openPool
} from "./chunk-T35XNKVT.js";
import "./chunk-2XSB7GWG.js";
import "./chunk-3PFGHKN4.js";
import "./chunk-XXOLSKOG.js";
import {
  describeConnectFailure,
  quoteSchema
} from "./chunk-YCTECULU.js";
import {
  DEFAULT_POSTGRES_SCHEMA
} from "./chunk-XESUYX36.js";
import {
  StoreClosedError
} from "./chunk-3K2LSKRX.js";
import "./chunk-5UEANXJE.js";
import "./chunk-XFVAXZIU.js";
import "./chunk-CORQQBM5.js";
import {
  canonicalJson
} from "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-BDZLLWVY.js";

// src/infrastructure/postgres/postgres-snapshot-store.ts
var PostgresSnapshotStore = class {
  /** Use `openPostgresSnapshotStore`. */
  constructor(location, schema, pool, ownsPool) {
    this.location = location;
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    const s = quoteSchema(schema, location);
    this.#save = `INSERT INTO ${s}.snapshots (session_id, projection, projection_version, sequence, state)
      VALUES ($1, $2, $3, $4, $5)
      ON CONFLICT (session_id, projection) DO UPDATE SET
        projection_version = excluded.projection_version, sequence = excluded.sequence, state = excluded.state
      WHERE excluded.projection_version <> snapshots.projection_version OR excluded.sequence >= snapshots.sequence`;
    this.#load = `SELECT session_id, projection, projection_version, sequence, state
      FROM ${s}.snapshots WHERE session_id = $1 AND projection = $2`;
  }
  location;
  #pool;
  #ownsPool;
  #save;
  #load;
  #closed = false;
  async save(snapshot) {
    this.#open();
    await this.#query(this.#save, [
      snapshot.sessionId,
      snapshot.projection,
      snapshot.projectionVersion,
      snapshot.sequence,
      canonicalJson(snapshot.state)
    ]);
  }
  async load(sessionId, projection) {
    this.#open();
    const row = (await this.#query(this.#load, [sessionId, projection])).rows[0];
    if (!row) return void 0;
    return {
      sessionId: row.session_id,
      projection: row.projection,
      projectionVersion: row.projection_version,
      sequence: Number(row.sequence),
      state: JSON.parse(row.state)
    };
  }
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsPool) await this.#pool.end();
  }
  async #query(text, values) {
    try {
      return await this.#pool.query(text, values);
    } catch (error) {
      throw describeConnectFailure(this.location, error);
    }
  }
  #open() {
    if (this.#closed) throw new StoreClosedError(`PostgreSQL snapshot store ${this.location}`);
  }
};
async function openPostgresSnapshotStore(options) {
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const { pool, ownsPool, location } = await openPool(options, schema);
  return new PostgresSnapshotStore(location, schema, pool, ownsPool);
}
export {
  PostgresSnapshotStore,
  openPostgresSnapshotStore
};
