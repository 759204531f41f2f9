import { CorrexError } from '../base/correx-error.js';
import {
  layeredGet,
  layeredHas,
  layeredRecord,
  layeredSetAll,
  type LayeredRecord,
} from '../base/layered-record.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { ContextManifest, ManifestEntry, ManifestExclusion } from './context-manifest.js';
import type {
  ContextManifestReference,
  DuplicateRetarget,
  ManifestListChange,
} from './context-manifest-reference.js';
import type { inferenceRequested } from './inference-events.js';

/**
 * The read model of a session's context manifests: what the manifests recorded by reference so
 * far add up to. `readRequestManifest` is the one rebuild of a model call's full manifest; every
 * reader (the kernel's fold, `correx show`, the steering receipts) goes through it, so a manifest
 * written either way reads as the same `ContextManifest`.
 */
export type ManifestHistory = {
  /** The request whose manifest was recorded by reference last; null before the first. */
  readonly lastRequestId: string | null;
  /** That manifest's lists in order. */
  readonly included: readonly ManifestEntry[];
  readonly excluded: readonly ManifestExclusion[];
  /** Every item recorded in the session so far, by digest. */
  readonly entries: LayeredRecord<ManifestEntry>;
  readonly exclusions: LayeredRecord<ManifestExclusion>;
};

export const emptyManifestHistory: ManifestHistory = {
  lastRequestId: null,
  included: [],
  excluded: [],
  entries: layeredRecord(),
  exclusions: layeredRecord(),
};

/** A manifest recorded by reference that the log before it cannot resolve (damaged or cut). */
export class UnresolvedManifestReferenceError extends CorrexError {
  constructor(
    readonly requestId: string,
    reason: string,
  ) {
    super(
      'manifest_reference_unresolved',
      `the context manifest of model call ${requestId} cannot be rebuilt from the log: ${reason}`,
    );
  }
}

type RequestedPayload = PayloadOf<typeof inferenceRequested>;

/**
 * The full manifest of one `inference_requested` and the history after it. A manifest recorded
 * whole is returned as it is (the history does not change); one recorded by reference is
 * resolved against the history, or an `UnresolvedManifestReferenceError` says what is missing.
 */
export function readRequestManifest(
  history: ManifestHistory,
  payload: Pick<RequestedPayload, 'requestId' | 'manifest' | 'manifestRef'>,
): { readonly manifest: ContextManifest; readonly history: ManifestHistory } {
  if (payload.manifest !== undefined) return { manifest: payload.manifest, history };
  if (payload.manifestRef === undefined)
    throw new UnresolvedManifestReferenceError(payload.requestId, 'it records no manifest');
  const next = foldManifestReference(history, payload.requestId, payload.manifestRef);
  const ref = payload.manifestRef;
  return {
    manifest: {
      budgetTokens: ref.budgetTokens,
      totalTokens: ref.totalTokens,
      tokenizer: ref.tokenizer,
      included: [...next.included],
      excluded: [...next.excluded],
    },
    history: next,
  };
}

/**
 * The history after one manifest recorded by reference, checked: it must be written after the
 * last one, remove only what that one listed, and name only items recorded so far (or with it).
 * The kernel folds this (no item is copied out); readers call `readRequestManifest`.
 */
export function foldManifestReference(
  history: ManifestHistory,
  requestId: string,
  ref: ContextManifestReference,
): ManifestHistory {
  if (ref.after !== history.lastRequestId)
    throw new UnresolvedManifestReferenceError(
      requestId,
      `it is written after ${ref.after === null ? 'no manifest' : `the manifest of ${ref.after}`}, but the last manifest recorded by reference before it is ${history.lastRequestId === null ? 'none' : `that of ${history.lastRequestId}`}`,
    );
  const entries = withItems<ManifestEntry>(requestId, history.entries, ref.included);
  const exclusions = withItems<ManifestExclusion>(requestId, history.exclusions, ref.excluded);
  const included = applyListChange(requestId, 'included', history.included, ref.included, entries);
  const excluded = applyListChange(
    requestId,
    'excluded',
    retargetDuplicates(history.excluded, ref.excluded.retargeted ?? []),
    ref.excluded,
    exclusions,
  );
  return { lastRequestId: requestId, included, excluded, entries, exclusions };
}

function applyListChange<Item>(
  requestId: string,
  list: 'included' | 'excluded',
  previous: readonly Item[],
  change: ManifestListChange<Item>,
  recorded: LayeredRecord<Item>,
): Item[] {
  const next: Item[] = [];
  let from = 0;
  for (const at of change.removed) {
    if (at < from || at >= previous.length)
      throw new UnresolvedManifestReferenceError(
        requestId,
        `it removes position ${at} of the previous ${list} list, which has ${previous.length} items (positions ascending, each once)`,
      );
    next.push(...previous.slice(from, at));
    from = at + 1;
  }
  next.push(...previous.slice(from));
  if (next.length !== change.unchanged)
    throw new UnresolvedManifestReferenceError(
      requestId,
      `it keeps ${change.unchanged} ${list} items of the previous manifest, which leaves ${next.length}`,
    );
  let lastAt = -1;
  for (const added of change.added) {
    if (added.at <= lastAt || added.at > next.length)
      throw new UnresolvedManifestReferenceError(
        requestId,
        `it adds ${added.digest} to the ${list} list at ${added.at}, out of order or past the end`,
      );
    next.splice(added.at, 0, layeredGet(recorded, added.digest) as Item);
    lastAt = added.at;
  }
  return next;
}

/** The exclusions with each retargeted duplicate pointing at its new copy. */
export function retargetDuplicates(
  excluded: readonly ManifestExclusion[],
  retargeted: readonly DuplicateRetarget[],
): readonly ManifestExclusion[] {
  if (retargeted.length === 0) return excluded;
  const to = new Map(retargeted.map((change) => [change.from, change.to]));
  return excluded.map((item) => {
    const target = item.reason === 'duplicate' ? to.get(item.duplicateOf ?? '') : undefined;
    return target === undefined ? item : { ...item, duplicateOf: target };
  });
}

function withItems<Item>(
  requestId: string,
  items: LayeredRecord<Item>,
  change: ManifestListChange<Item>,
): LayeredRecord<Item> {
  const fresh: [string, Item][] = [];
  const freshDigests = new Set<string>();
  for (const added of change.added) {
    if (layeredHas(items, added.digest) || freshDigests.has(added.digest)) continue;
    if (added.item === undefined)
      throw new UnresolvedManifestReferenceError(
        requestId,
        `it names the item ${added.digest}, which no earlier event of the session records`,
      );
    freshDigests.add(added.digest);
    fresh.push([added.digest, added.item]);
  }
  return layeredSetAll(items, fresh);
}

/**
 * Reads the manifests of one session's `inference_requested` events in log order (a fork's copied
 * prefix included): the stateful form of `readRequestManifest` for a reader that streams.
 */
export function sessionManifestReader(): (
  payload: Pick<RequestedPayload, 'requestId' | 'manifest' | 'manifestRef'>,
) => ContextManifest {
  let history = emptyManifestHistory;
  return (payload) => {
    const read = readRequestManifest(history, payload);
    history = read.history;
    return read.manifest;
  };
}
