import { ArtifactLineageError } from './artifact-errors.js';
import type { Artifact } from './artifact.js';

/** Throws `ArtifactLineageError` for the first parent the store does not hold. */
export function checkParents(artifact: Artifact, holds: (hash: string) => boolean): void {
  for (const parent of artifact.lineage.parents) {
    if (!holds(parent)) throw new ArtifactLineageError(artifact.hash, parent);
  }
}

/**
 * The artifact and its ancestors, nearest first, each once. Parents are always stored before
 * their children and hashes pin parents, so the graph is acyclic and the walk ends.
 */
export async function walkLineage(
  hash: string,
  load: (hash: string) => Promise<Artifact | undefined>,
): Promise<Artifact[]> {
  const result: Artifact[] = [];
  const seen = new Set<string>([hash]);
  const queue = [hash];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const artifact = await load(next);
    if (!artifact) continue;
    result.push(artifact);
    for (const parent of artifact.lineage.parents) {
      if (!seen.has(parent)) {
        seen.add(parent);
        queue.push(parent);
      }
    }
  }
  return result;
}
