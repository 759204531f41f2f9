import type Database from 'better-sqlite3';
import { sha256Hex, type Sha256 } from '../../core/base/sha256.js';
import {
  checkArtifact,
  decodeArtifact,
  encodeArtifact,
  type Artifact,
} from '../../core/artifacts/artifact.js';
import { checkParents, walkLineage } from '../../core/artifacts/artifact-lineage.js';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { StoreClosedError } from '../../core/events/store-closed-error.js';
import { openSqliteDatabase, type SqliteOptions } from './sqlite-database.js';
import { writeWithRetry } from './sqlite-errors.js';

export type SqliteArtifactStoreOptions = SqliteOptions & {
  /** Defaults to the pure SHA-256; pass `nodeSha256` for speed. */
  readonly sha256?: Sha256;
};

type ArtifactRow = { hash: string; bytes: string };

/**
 * Artifacts in the same SQLite file as the events (its own connection). Rows are write-once:
 * triggers refuse updates and deletes, and every read re-checks the hash.
 */
export class SqliteArtifactStore implements ArtifactStore {
  readonly #db: Database.Database;
  readonly #sha256: Sha256;
  readonly #insert;
  readonly #byHash;
  readonly #bySession;
  #closed = false;

  constructor(
    readonly path: string,
    options: SqliteArtifactStoreOptions = {},
  ) {
    this.#db = openSqliteDatabase(path, options);
    this.#sha256 = options.sha256 ?? sha256Hex;
    this.#insert = this.#db.prepare(
      `INSERT INTO artifacts (hash, session_id, stage_id, kind, bytes)
       VALUES (@hash, @sessionId, @stageId, @kind, @bytes)
       ON CONFLICT (hash) DO NOTHING`,
    );
    this.#byHash = this.#db.prepare<[string], ArtifactRow>(
      'SELECT hash, bytes FROM artifacts WHERE hash = ?',
    );
    this.#bySession = this.#db.prepare<[string], ArtifactRow>(
      'SELECT hash, bytes FROM artifacts WHERE session_id = ? ORDER BY position',
    );
  }

  async put(artifact: Artifact): Promise<Artifact> {
    this.#open();
    const checked = checkArtifact(artifact, this.#sha256);
    // One transaction, so the parent check and the insert see the same rows.
    const store = this.#db.transaction(() => {
      const existing = this.#load(checked.hash);
      if (existing) return existing;
      checkParents(checked, (hash) => this.#byHash.get(hash) !== undefined);
      this.#insert.run({
        hash: checked.hash,
        sessionId: checked.sessionId,
        stageId: checked.stageId,
        kind: checked.kind,
        bytes: encodeArtifact(checked),
      });
      return this.#load(checked.hash)!;
    });
    return writeWithRetry(
      this.path,
      () => store.immediate(),
      () => this.#open(),
    );
  }

  async get(hash: string): Promise<Artifact | undefined> {
    this.#open();
    return this.#load(hash);
  }

  async has(hash: string): Promise<boolean> {
    this.#open();
    return this.#byHash.get(hash) !== undefined;
  }

  async listBySession(sessionId: string): Promise<Artifact[]> {
    this.#open();
    return this.#bySession
      .all(sessionId)
      .map((row) => decodeArtifact(row.hash, row.bytes, this.#sha256));
  }

  async lineage(hash: string): Promise<Artifact[]> {
    this.#open();
    return walkLineage(hash, async (next) => this.#load(next));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  #load(hash: string): Artifact | undefined {
    const row = this.#byHash.get(hash);
    return row ? decodeArtifact(row.hash, row.bytes, this.#sha256) : undefined;
  }

  #open(): void {
    if (this.#closed) throw new StoreClosedError(`SQLite artifact store ${this.path}`);
  }
}

export function openSqliteArtifactStore(
  path: string,
  options?: SqliteArtifactStoreOptions,
): SqliteArtifactStore {
  return new SqliteArtifactStore(path, options);
}
