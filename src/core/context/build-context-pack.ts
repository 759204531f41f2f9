import { CorrexError } from '../base/correx-error.js';
import type {
  ContextLayer,
  ManifestEntry,
  ManifestExclusion,
} from '../inference/context-manifest.js';
import { compressHeadTail } from './compress-head-tail.js';
import { isCompressible, isPinned, type ContextCandidate } from './context-candidate.js';
import type { ContextEntry, ContextPack, TokenBudget } from './context-pack.js';
import {
  ContextInputError,
  resolveContextPackSettings,
  type ContextPackOptions,
} from './context-pack-settings.js';
import { operatingGuidanceCandidate } from './operating-guidance.js';
import type { Tokenizer } from './tokenizer.js';

export type ContextPackInput = {
  readonly stageId: string;
  /** Everything that may go in: task, steering notes, turns, tool results, summaries, knowledge. */
  readonly candidates: readonly ContextCandidate[];
};

/** The pinned entries alone exceed the budget: nothing may be dropped, so no pack can be built. */
export class PinnedContextOverBudgetError extends CorrexError {
  readonly pinnedTokens: number;
  readonly budgetTokens: number;

  constructor(pinnedTokens: number, budgetTokens: number) {
    super(
      'pinned_context_over_budget',
      `pinned context (L0, task, steering notes, guidance) needs ${pinnedTokens} tokens ` +
        `but the budget allows ${budgetTokens}; raise the budget or shorten the pinned entries`,
    );
    this.pinnedTokens = pinnedTokens;
    this.budgetTokens = budgetTokens;
  }
}

export type ContextPackResult =
  | { readonly ok: true; readonly pack: ContextPack }
  | { readonly ok: false; readonly error: PinnedContextOverBudgetError };

const EVICTION_RANK: Record<ContextLayer, number> = { L3: 0, L2: 1, L1: 2, L0: 3 };
const RENDER_RANK: Record<ContextLayer, number> = { L0: 0, L3: 1, L2: 2, L1: 3 };
const NON_SPACE = /\S/;

type Working = {
  readonly candidate: ContextCandidate;
  readonly index: number;
  readonly pinned: boolean;
  readonly originalTokens: number;
  /** Planned size: an upper bound on what the entry will take once compressed. */
  planned: number;
  compressedBecause: 'entry_cap' | 'over_budget' | undefined;
  dropped: boolean;
};

/**
 * Builds the pack for one call. Pure: the same input, budget and tokenizer give the same pack.
 * Steps: filter (other stages, empty), de-duplicate by content (pinned and higher layers win),
 * cap oversized entries, then under budget pressure compress large tool outputs and excerpts
 * before dropping anything, and drop lowest layer first, least relevant then oldest first.
 * The operating-guidance entry is always added. Pinned entries are never dropped or cut.
 */
export function safeBuildContextPack(
  input: ContextPackInput,
  budget: TokenBudget,
  tokenizer: Tokenizer,
  options: ContextPackOptions = {},
): ContextPackResult {
  const { available, overhead, maxEntryTokens, compressTarget, hash } = resolveContextPackSettings(
    budget,
    options,
  );
  const memo = options.memo;
  const countTokens = (text: string) =>
    memo === undefined ? tokenizer.count(text) : memo.tokens(tokenizer, text);
  const digest = (text: string) => (memo === undefined ? hash(text) : memo.digest(hash, text));
  const candidates = [operatingGuidanceCandidate(), ...input.candidates];
  const excluded: { index: number; record: ManifestExclusion }[] = [];
  const exclude = (
    c: ContextCandidate,
    index: number,
    tokens: number,
    reason: ManifestExclusion['reason'],
    duplicateOf?: string,
  ) =>
    excluded.push({
      index,
      record: {
        id: c.id,
        layer: c.layer,
        kind: c.kind,
        source: c.source,
        tokens,
        reason,
        ...(duplicateOf === undefined ? {} : { duplicateOf }),
      },
    });

  const ids = new Set<string>();
  const eligible: { candidate: ContextCandidate; index: number; pinned: boolean }[] = [];
  candidates.forEach((candidate, index) => {
    if (ids.has(candidate.id))
      throw new ContextInputError(`duplicate candidate id "${candidate.id}"`);
    ids.add(candidate.id);
    if (candidate.stageId !== undefined && candidate.stageId !== input.stageId) {
      exclude(candidate, index, 0, 'other_stage');
    } else if (!NON_SPACE.test(candidate.content)) {
      exclude(candidate, index, 0, 'empty');
    } else {
      eligible.push({ candidate, index, pinned: isPinned(candidate) });
    }
  });

  // De-duplicate: identical content is one entry. Keep the pinned one, then the higher layer,
  // then the newest; equal strings are equal content hashes, so the map needs no hashing.
  const keepOrder = [...eligible].sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) ||
      EVICTION_RANK[b.candidate.layer] - EVICTION_RANK[a.candidate.layer] ||
      b.candidate.order - a.candidate.order ||
      a.index - b.index,
  );
  const byContent = new Map<string, string>();
  const working: Working[] = [];
  for (const { candidate, index, pinned } of keepOrder) {
    const keptId = byContent.get(candidate.content);
    if (keptId !== undefined) {
      exclude(candidate, index, 0, 'duplicate', keptId);
      continue;
    }
    byContent.set(candidate.content, candidate.id);
    const tokens = countTokens(candidate.content);
    const capped = !pinned && tokens > maxEntryTokens;
    working.push({
      candidate,
      index,
      pinned,
      originalTokens: tokens,
      planned: capped ? maxEntryTokens : tokens,
      compressedBecause: capped ? 'entry_cap' : undefined,
      dropped: false,
    });
  }

  const pinnedTokens = working
    .filter((w) => w.pinned)
    .reduce((sum, w) => sum + w.planned + overhead, 0);
  if (pinnedTokens > available) {
    return { ok: false, error: new PinnedContextOverBudgetError(pinnedTokens, available) };
  }

  let total = working.reduce((sum, w) => sum + w.planned + overhead, 0);
  const evictionOrder = working
    .filter((w) => !w.pinned)
    .sort(
      (a, b) =>
        EVICTION_RANK[a.candidate.layer] - EVICTION_RANK[b.candidate.layer] ||
        (a.candidate.relevance ?? 0.5) - (b.candidate.relevance ?? 0.5) ||
        a.candidate.order - b.candidate.order ||
        a.index - b.index,
    );
  // Plan first with upper bounds, compress only what survives: compressing costs tokenizer calls.
  for (const w of evictionOrder) {
    if (total <= available) break;
    if (isCompressible(w.candidate) && w.planned > compressTarget) {
      total -= w.planned - compressTarget;
      w.planned = compressTarget;
      w.compressedBecause = 'over_budget';
    }
  }
  for (const w of evictionOrder) {
    if (total <= available) break;
    w.dropped = true;
    total -= w.planned + overhead;
  }

  const entries: ContextEntry[] = [];
  for (const w of working) {
    if (w.dropped) {
      exclude(w.candidate, w.index, w.originalTokens, 'over_budget');
      continue;
    }
    let content = w.candidate.content;
    let tokens = w.originalTokens;
    if (w.compressedBecause !== undefined) {
      const compressed = compressHeadTail(content, w.planned, tokenizer);
      if (compressed === undefined) {
        exclude(w.candidate, w.index, w.originalTokens, 'over_budget');
        continue;
      }
      content = compressed.content;
      tokens = compressed.tokens;
    }
    entries.push({
      id: w.candidate.id,
      layer: w.candidate.layer,
      kind: w.candidate.kind,
      role: w.candidate.role ?? 'user',
      source: w.candidate.source,
      content,
      tokens,
      originalTokens: w.originalTokens,
      compression: w.compressedBecause === undefined ? 'none' : 'head_tail',
      contentSha256: digest(content),
    });
  }
  const compressedBecause = new Map(working.map((w) => [w.candidate.id, w.compressedBecause]));
  const indexOf = new Map(working.map((w) => [w.candidate.id, w.index]));
  const orderOf = new Map(working.map((w) => [w.candidate.id, w.candidate.order]));
  entries.sort(
    (a, b) =>
      RENDER_RANK[a.layer] - RENDER_RANK[b.layer] ||
      (a.layer === 'L0' ? 0 : orderOf.get(a.id)! - orderOf.get(b.id)!) ||
      indexOf.get(a.id)! - indexOf.get(b.id)!,
  );
  excluded.sort((a, b) => a.index - b.index);

  const totalTokens = entries.reduce((sum, entry) => sum + entry.tokens + overhead, 0);
  const included: ManifestEntry[] = entries.map((entry) => {
    const because = compressedBecause.get(entry.id);
    return {
      id: entry.id,
      layer: entry.layer,
      kind: entry.kind,
      source: entry.source,
      tokens: entry.tokens,
      originalTokens: entry.originalTokens,
      compression: entry.compression,
      ...(because === undefined ? {} : { compressedBecause: because }),
      contentSha256: entry.contentSha256,
    };
  });
  return {
    ok: true,
    pack: {
      stageId: input.stageId,
      entries,
      totalTokens,
      manifest: {
        budgetTokens: available,
        totalTokens,
        tokenizer: tokenizer.name,
        included,
        excluded: excluded.map((e) => e.record),
      },
    },
  };
}

/** As `safeBuildContextPack`, but throws `PinnedContextOverBudgetError`. */
export function buildContextPack(
  input: ContextPackInput,
  budget: TokenBudget,
  tokenizer: Tokenizer,
  options: ContextPackOptions = {},
): ContextPack {
  const result = safeBuildContextPack(input, budget, tokenizer, options);
  if (!result.ok) throw result.error;
  return result.pack;
}
