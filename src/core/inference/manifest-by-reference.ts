import { layeredHas, type LayeredRecord } from '../base/layered-record.js';
import type { Sha256 } from '../base/sha256.js';
import { canonicalJson } from '../events/canonical-json.js';
import type { ContextManifest } from './context-manifest.js';
import type { ContextManifestReference, ManifestListChange } from './context-manifest-reference.js';
import type { ManifestHistory } from './manifest-history.js';

/**
 * Writes `manifest` by reference against the session's history (see
 * context-manifest-reference.ts): each item by digest, each list as its change from the
 * previous manifest's, an item whole only where the session has not recorded it yet.
 * `readRequestManifest` rebuilds exactly `manifest` from the result (a property test says so).
 */
export function manifestByReference(
  history: ManifestHistory,
  manifest: ContextManifest,
  sha256: Sha256,
): ContextManifestReference {
  return {
    budgetTokens: manifest.budgetTokens,
    totalTokens: manifest.totalTokens,
    tokenizer: manifest.tokenizer,
    after: history.lastRequestId,
    included: listChange(history.included, manifest.included, history.entries, sha256),
    excluded: listChange(history.excluded, manifest.excluded, history.exclusions, sha256),
  };
}

/** The item's content address: the SHA-256 of its canonical JSON. */
export function manifestItemDigest(item: object, sha256: Sha256): string {
  return sha256(canonicalJson(item));
}

function listChange<Item extends object>(
  previous: readonly string[],
  items: readonly Item[],
  recorded: LayeredRecord<Item>,
  sha256: Sha256,
): ManifestListChange<Item> {
  const digests = items.map((item) => manifestItemDigest(item, sha256));
  const kept = keptInOrder(previous, digests);
  const keptSet = new Set(kept);
  const removed = previous.filter((digest) => !keptSet.has(digest));
  const added: { at: number; digest: string; item?: Item }[] = [];
  const firstSeen = new Set<string>();
  digests.forEach((digest, at) => {
    if (keptSet.has(digest)) return;
    // Whole once: the first time the session (or this very list) names the digest.
    const known = layeredHas(recorded, digest) || firstSeen.has(digest);
    firstSeen.add(digest);
    added.push(known ? { at, digest } : { at, digest, item: items[at] as Item });
  });
  return { removed, unchanged: kept.length, added };
}

/**
 * The previous list's digests that stay, in order: the longest run common to both in the same
 * order. Most calls only append and drop, where that is every shared digest; a reordering takes
 * the longest common subsequence. A list that repeats a digest is written whole (nothing kept),
 * which stays exact whatever the repeats.
 */
function keptInOrder(previous: readonly string[], next: readonly string[]): string[] {
  const nextSet = new Set(next);
  const previousSet = new Set(previous);
  if (nextSet.size !== next.length || previousSet.size !== previous.length) return [];
  const shared = previous.filter((digest) => nextSet.has(digest));
  const sharedNext = next.filter((digest) => previousSet.has(digest));
  if (shared.every((digest, index) => digest === sharedNext[index])) return shared;
  return longestCommonSubsequence(shared, sharedNext);
}

function longestCommonSubsequence(a: readonly string[], b: readonly string[]): string[] {
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
  const common: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common.push(a[i] as string);
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) i++;
    else j++;
  }
  return common;
}
