import type { WorldObservation } from './toolintent-events.js';

/**
 * WorldProbe: observes one absolute path (exists, kind, real path with every symlink resolved,
 * link target, content hash, size, mtime, hard-link count). The live runner appends each
 * observation as `world_observed` the moment it is made (hard invariant #9); rules read only
 * those events, and replay never calls a probe. Implementations: the on-disk probe in
 * infrastructure, and test doubles.
 */
export interface WorldProbe {
  observe(absolutePath: string): Promise<WorldObservation>;
}
