import { layeredHas, type LayeredRecord } from '../base/layered-record.js';
import type { Sha256 } from '../base/sha256.js';
import { canonicalJson } from '../events/canonical-json.js';
import type { ContextManifest, ManifestExclusion } from './context-manifest.js';
import type {
  ContextManifestReference,
  DuplicateRetarget,
  ManifestListChange,
} from './context-manifest-reference.js';
import { retargetDuplicates, type ListedItem, type ManifestHistory } from './manifest-history.js';

/**
 * Writes `manifest` by reference against the session's history (see
 * context-manifest-reference.ts): each list as its change from the previous manifest's, an item
 * that comes in by digest, whole only where the session has not recorded it yet.
 * `readRequestManifest` rebuilds exactly `manifest` from the result (a property test says so).
 */
export function manifestByReference(
  history: ManifestHistory,
  manifest: ContextManifest,
  sha256: Sha256,
): ContextManifestReference {
  const retargeted = duplicatesRetargeted(history.excluded, manifest.excluded);
  const excluded = listChange(
    retargetDuplicates(history.excluded, retargeted),
    manifest.excluded,
    history.exclusions,
    sha256,
  );
  return {
    budgetTokens: manifest.budgetTokens,
    totalTokens: manifest.totalTokens,
    tokenizer: manifest.tokenizer,
    after: history.lastRequestId,
    included: listChange(history.included, manifest.included, history.entries, sha256),
    excluded: retargeted.length === 0 ? excluded : { ...excluded, retargeted },
  };
}

/** The item's content address: the SHA-256 of its canonical JSON. */
export function manifestItemDigest(item: object, sha256: Sha256): string {
  return sha256(canonicalJson(item));
}

/**
 * Which earlier duplicates now point at another copy: for each `duplicateOf` of the previous
 * exclusions, the one the same exclusion (by id) names now. A guess is never wrong, only
 * unhelpful: the list change after it is exact whatever it did.
 */
function duplicatesRetargeted(
  previous: readonly ListedItem<ManifestExclusion>[],
  next: readonly ManifestExclusion[],
): DuplicateRetarget[] {
  const nextById = new Map<string, ManifestExclusion>();
  for (const item of next) if (item.reason === 'duplicate') nextById.set(item.id, item);
  const retargets = new Map<string, string>();
  for (const { item } of previous) {
    if (item.reason !== 'duplicate' || item.duplicateOf === undefined) continue;
    const now = nextById.get(item.id)?.duplicateOf;
    if (now !== undefined && now !== item.duplicateOf && !retargets.has(item.duplicateOf))
      retargets.set(item.duplicateOf, now);
  }
  return [...retargets].map(([from, to]) => ({ from, to }));
}

function listChange<Item extends object>(
  previous: readonly ListedItem<Item>[],
  items: readonly Item[],
  recorded: LayeredRecord<Item>,
  sha256: Sha256,
): ManifestListChange<Item> {
  const before = previous.map((listed) => listed.digest ?? manifestItemDigest(listed.item, sha256));
  const digests = items.map((item) => manifestItemDigest(item, sha256));
  const kept = keptInOrder(before, digests);
  const removed: number[] = [];
  let k = 0;
  before.forEach((digest, at) => {
    if (kept[k] === digest) k++;
    else removed.push(at);
  });
  const keptSet = new Set(kept);
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
