import { CorrexError } from '../base/correx-error.js';
import { sha256Hex, type Sha256 } from '../base/sha256.js';
import { TokenBudgetSchema, type TokenBudget } from './context-pack.js';
import type { PackMemo } from './pack-memo.js';

export type ContextPackOptions = {
  /** Tokens charged per entry for message framing and separators. Default 4. */
  readonly entryOverheadTokens?: number;
  /** No unpinned entry goes in larger than this; bigger ones are cut head+tail. Default 2000. */
  readonly maxEntryTokens?: number;
  /** Under budget pressure, compressible entries shrink to this before anything is dropped. Default 256. */
  readonly compressTargetTokens?: number;
  readonly hash?: Sha256;
  /** Token counts and digests of texts already seen in this session's packs (none: all afresh). */
  readonly memo?: PackMemo;
};

/** The input to the builder is malformed (duplicate ids, a bad budget or option). */
export class ContextInputError extends CorrexError {
  constructor(message: string) {
    super('context_input_invalid', message);
  }
}

const MIN_COMPRESS_TARGET = 32;

/** Validates the budget and options and fills in defaults; throws `ContextInputError`. */
export function resolveContextPackSettings(budget: TokenBudget, options: ContextPackOptions) {
  const parsed = TokenBudgetSchema.safeParse(budget);
  if (!parsed.success) {
    throw new ContextInputError(
      `invalid token budget: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const available = parsed.data.maxTokens - parsed.data.reserveForOutput;
  if (available <= 0) {
    throw new ContextInputError(
      `reserveForOutput (${parsed.data.reserveForOutput}) leaves no room in maxTokens (${parsed.data.maxTokens})`,
    );
  }
  const overhead = options.entryOverheadTokens ?? 4;
  const maxEntryTokens = options.maxEntryTokens ?? 2000;
  const compressTarget = options.compressTargetTokens ?? 256;
  if (!Number.isInteger(overhead) || overhead < 0)
    throw new ContextInputError('entryOverheadTokens must be a non-negative integer');
  if (!Number.isInteger(compressTarget) || compressTarget < MIN_COMPRESS_TARGET) {
    throw new ContextInputError(
      `compressTargetTokens must be an integer of at least ${MIN_COMPRESS_TARGET}`,
    );
  }
  if (!Number.isInteger(maxEntryTokens) || maxEntryTokens < compressTarget) {
    throw new ContextInputError(
      'maxEntryTokens must be an integer no smaller than compressTargetTokens',
    );
  }
  return { available, overhead, maxEntryTokens, compressTarget, hash: options.hash ?? sha256Hex };
}
