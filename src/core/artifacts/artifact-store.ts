import type { Artifact } from './artifact.js';

/**
 * Where artifact content lives; events carry only the hash. Write-once by hash: putting an
 * artifact that is already stored is a no-op, nothing is ever updated or deleted. Every
 * implementation runs the shared suite in `test/contracts/artifact-store.contract.ts`.
 */
export interface ArtifactStore {
  /**
   * Stores an artifact and returns it. Throws `ArtifactIntegrityError` if its hash does not match
   * its fields and `ArtifactLineageError` if a parent is not stored.
   */
  put(artifact: Artifact): Promise<Artifact>;
  /** The artifact with this hash, verified against its hash; undefined if not stored. */
  get(hash: string): Promise<Artifact | undefined>;
  has(hash: string): Promise<boolean>;
  /** A session's artifacts in the order they were first stored. */
  listBySession(sessionId: string): Promise<Artifact[]>;
  /** The artifact and all its ancestors, nearest first, each once (breadth-first over parents). */
  lineage(hash: string): Promise<Artifact[]>;
  /** Releases resources; later calls throw `StoreClosedError`. */
  close(): Promise<void>;
}
