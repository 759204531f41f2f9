import { sha256Hex, type Sha256 } from '../base/sha256.js';
import { StoreClosedError } from '../events/store-closed-error.js';
import { checkArtifact, decodeArtifact, encodeArtifact, type Artifact } from './artifact.js';
import type { ArtifactStore } from './artifact-store.js';
import { checkParents, walkLineage } from './artifact-lineage.js';

export type InMemoryArtifactStoreOptions = {
  /** Defaults to the pure SHA-256 in core/base. */
  readonly sha256?: Sha256;
};

/**
 * The reference ArtifactStore. Keeps each artifact's canonical bytes and decodes and verifies
 * them on read, like the durable stores, so a caller can never mutate what is stored.
 */
export class InMemoryArtifactStore implements ArtifactStore {
  readonly #sha256: Sha256;
  readonly #bytes = new Map<string, string>();
  readonly #bySession = new Map<string, string[]>();
  #closed = false;

  constructor(options: InMemoryArtifactStoreOptions = {}) {
    this.#sha256 = options.sha256 ?? sha256Hex;
  }

  async put(artifact: Artifact): Promise<Artifact> {
    this.#open();
    const checked = checkArtifact(artifact, this.#sha256);
    const existing = this.#load(checked.hash);
    if (existing) return existing;
    checkParents(checked, (hash) => this.#bytes.has(hash));
    this.#bytes.set(checked.hash, encodeArtifact(checked));
    this.#bySession.set(checked.sessionId, [
      ...(this.#bySession.get(checked.sessionId) ?? []),
      checked.hash,
    ]);
    return this.#load(checked.hash)!;
  }

  async get(hash: string): Promise<Artifact | undefined> {
    this.#open();
    return this.#load(hash);
  }

  async has(hash: string): Promise<boolean> {
    this.#open();
    return this.#bytes.has(hash);
  }

  async listBySession(sessionId: string): Promise<Artifact[]> {
    this.#open();
    return (this.#bySession.get(sessionId) ?? []).map((hash) => this.#load(hash)!);
  }

  async lineage(hash: string): Promise<Artifact[]> {
    this.#open();
    return walkLineage(hash, async (next) => this.#load(next));
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  /** Overwrites stored bytes, as corrupted storage would; for the contract suite's integrity test. */
  tamper(hash: string, bytes: string): void {
    if (!this.#bytes.has(hash)) throw new RangeError(`no artifact ${hash} to tamper with`);
    this.#bytes.set(hash, bytes);
  }

  #load(hash: string): Artifact | undefined {
    const bytes = this.#bytes.get(hash);
    return bytes === undefined ? undefined : decodeArtifact(hash, bytes, this.#sha256);
  }

  #open(): void {
    if (this.#closed) throw new StoreClosedError('in-memory artifact store');
  }
}

export function createInMemoryArtifactStore(
  options?: InMemoryArtifactStoreOptions,
): InMemoryArtifactStore {
  return new InMemoryArtifactStore(options);
}
