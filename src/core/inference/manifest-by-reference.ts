import { layeredHas, type LayeredRecord } from '../base/layered-record.js';
import type { Sha256 } from '../base/sha256.js';
import { canonicallyEqual } from '../events/canonical-equal.js';
import { canonicalJson } from '../events/canonical-json.js';
import type { ContextManifest, ManifestExclusion } from './context-manifest.js';
import type {
  ContextManifestReference,
  DuplicateRetarget,
  ManifestListChange,
} from './context-manifest-reference.js';
import { retargetDuplicates, type ManifestHistory } from './manifest-history.js';

/**
 * Writes `manifest` by reference against the session's history (see
 * context-manifest-reference.ts): each list as its change from the previous manifest's, an item
 * that comes in by digest, whole only where the session has not recorded it yet. Within one list
 * a pack's ids are distinct (the builder names each candidate once); a list that repeats one is
 * written whole.
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
  previous: readonly ManifestExclusion[],
  next: readonly ManifestExclusion[],
): DuplicateRetarget[] {
  const nextById = new Map<string, ManifestExclusion>();
  for (const item of next) if (item.reason === 'duplicate') nextById.set(item.id, item);
  const retargets = new Map<string, string>();
  for (const item of previous) {
    if (item.reason !== 'duplicate' || item.duplicateOf === undefined) continue;
    const now = nextById.get(item.id)?.duplicateOf;
    if (now !== undefined && now !== item.duplicateOf && !retargets.has(item.duplicateOf))
      retargets.set(item.duplicateOf, now);
  }
  return [...retargets].map(([from, to]) => ({ from, to }));
}

function listChange<Item extends { readonly id: string }>(
  previous: readonly Item[],
  items: readonly Item[],
  recorded: LayeredRecord<Item>,
  sha256: Sha256,
): ManifestListChange<Item> {
  // Items that stay are matched by id and equal content, so only those that come in are hashed.
  const kept = keptInOrder(previous, items);
  const removed: number[] = [];
  let k = 0;
  previous.forEach((item, at) => {
    if (kept[k] === item.id) k++;
    else removed.push(at);
  });
  const keptIds = new Set(kept);
  const added: { at: number; digest: string; item?: Item }[] = [];
  const firstSeen = new Set<string>();
  items.forEach((item, at) => {
    if (keptIds.has(item.id)) return;
    const digest = manifestItemDigest(item, sha256);
    // Whole once: the first time the session (or this very list) names the digest.
    const known = layeredHas(recorded, digest) || firstSeen.has(digest);
    firstSeen.add(digest);
    added.push(known ? { at, digest } : { at, digest, item });
  });
  return { removed, unchanged: kept.length, added };
}

/**
 * The ids of the previous list's items that stay (same id, same content), in order: the longest
 * run common to both lists in the same order. Most calls only append and drop, where that is
 * every shared item; a reordering takes the longest common subsequence. A list that repeats an
 * id is written whole (nothing kept), which stays exact whatever the repeats.
 */
function keptInOrder<Item extends { readonly id: string }>(
  previous: readonly Item[],
  next: readonly Item[],
): string[] {
  const nextById = new Map(next.map((item) => [item.id, item]));
  const previousIds = new Set(previous.map((item) => item.id));
  if (nextById.size !== next.length || previousIds.size !== previous.length) return [];
  const shared = previous
    .filter((item) => {
      const now = nextById.get(item.id);
      return now !== undefined && canonicallyEqual(item, now);
    })
    .map((item) => item.id);
  const sharedIds = new Set(shared);
  const sharedNext = next.filter((item) => sharedIds.has(item.id)).map((item) => item.id);
  if (shared.every((id, index) => id === sharedNext[index])) return shared;
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
