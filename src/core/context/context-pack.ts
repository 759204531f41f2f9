import { z } from 'zod';
import type {
  Compression,
  ContextLayer,
  ContextManifest,
  SourceRef,
} from '../inference/context-manifest.js';
import type { ContextEntryKind } from './context-candidate.js';

/** The pack's size limit: the model's window share for this call, minus room for its answer. */
export const TokenBudgetSchema = z.strictObject({
  maxTokens: z.number().int().positive(),
  reserveForOutput: z.number().int().nonnegative().default(0),
});
export type TokenBudget = z.input<typeof TokenBudgetSchema>;

/** One entry that went into the pack, in the form the model sees. */
export type ContextEntry = {
  readonly id: string;
  readonly layer: ContextLayer;
  readonly kind: ContextEntryKind;
  readonly role: 'user' | 'assistant';
  readonly source: SourceRef;
  readonly content: string;
  readonly tokens: number;
  readonly originalTokens: number;
  readonly compression: Compression;
  readonly contentSha256: string;
};

/**
 * An ephemeral, budgeted view for one model call. Never stored itself: `inference_requested`
 * records its manifest and digest, from which it can be rebuilt.
 */
export type ContextPack = {
  readonly stageId: string;
  /** In render order: L0, then L3, L2, L1 (newest last). */
  readonly entries: readonly ContextEntry[];
  readonly manifest: ContextManifest;
  /** Tokens of every entry plus the per-entry framing overhead; never above the budget. */
  readonly totalTokens: number;
};
