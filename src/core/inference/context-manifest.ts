import { z } from 'zod';

/**
 * The manifest of one context pack: what the model saw and what it did not, and why. Defined
 * here (not in `core/context`, which builds it) because `inference_requested` records it and
 * core/inference sits below core/context in the layer order.
 */
export const ContextLayerSchema = z.enum(['L0', 'L1', 'L2', 'L3']);
export type ContextLayer = z.infer<typeof ContextLayerSchema>;

/** Where an entry came from: an event (by id), an artifact (by hash), config or correx itself. */
export const SourceRefSchema = z.strictObject({
  kind: z.enum(['event', 'artifact', 'config', 'builtin']),
  id: z.string().min(1),
});
export type SourceRef = z.infer<typeof SourceRefSchema>;

export const CompressionSchema = z.enum(['none', 'head_tail']);
export type Compression = z.infer<typeof CompressionSchema>;

export const ManifestEntrySchema = z.strictObject({
  id: z.string().min(1),
  layer: ContextLayerSchema,
  kind: z.string().min(1),
  source: SourceRefSchema,
  /** Tokens the entry takes in the pack (after compression). */
  tokens: z.number().int().nonnegative(),
  /** Tokens of the candidate before compression. */
  originalTokens: z.number().int().nonnegative(),
  compression: CompressionSchema,
  /** Why it was compressed: the per-entry cap or budget pressure. */
  compressedBecause: z.enum(['entry_cap', 'over_budget']).optional(),
  contentSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ManifestEntry = z.infer<typeof ManifestEntrySchema>;

export const ExclusionReasonSchema = z.enum([
  /** Scoped to another stage. */
  'other_stage',
  /** Empty after trimming. */
  'empty',
  /** Same content as an entry that went in (`duplicateOf`). */
  'duplicate',
  /** Dropped under budget pressure (lowest layer, least relevant, oldest first). */
  'over_budget',
]);
export type ExclusionReason = z.infer<typeof ExclusionReasonSchema>;

export const ManifestExclusionSchema = z.strictObject({
  id: z.string().min(1),
  layer: ContextLayerSchema,
  kind: z.string().min(1),
  source: SourceRefSchema,
  tokens: z.number().int().nonnegative(),
  reason: ExclusionReasonSchema,
  duplicateOf: z.string().min(1).optional(),
});
export type ManifestExclusion = z.infer<typeof ManifestExclusionSchema>;

export const ContextManifestSchema = z.strictObject({
  /** Tokens available to the pack (budget minus the reserve for output). */
  budgetTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  /** Which tokenizer counted, e.g. `estimate-v1` or `llama-cpp:<model>`. */
  tokenizer: z.string().min(1),
  included: z.array(ManifestEntrySchema),
  excluded: z.array(ManifestExclusionSchema),
});
export type ContextManifest = z.infer<typeof ContextManifestSchema>;
