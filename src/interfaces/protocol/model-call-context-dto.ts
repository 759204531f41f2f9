import { z } from 'zod';

/*
 * What each model call of a session saw (`GET /api/sessions/:sessionId/context` and
 * `.../context/:call`): the context manifest of every model call rebuilt from the log, the
 * objects `correx show --context --json` prints (the same read model computes both).
 */

const SourceDtoSchema = z.strictObject({ kind: z.string(), id: z.string() });

export const ManifestEntryDtoSchema = z.strictObject({
  id: z.string(),
  layer: z.string(),
  kind: z.string(),
  source: SourceDtoSchema,
  tokens: z.number().int(),
  originalTokens: z.number().int(),
  compression: z.string(),
  compressedBecause: z.string().optional(),
  contentSha256: z.string(),
});

export const ManifestExclusionDtoSchema = z.strictObject({
  id: z.string(),
  layer: z.string(),
  kind: z.string(),
  source: SourceDtoSchema,
  tokens: z.number().int(),
  /** `other_stage`, `empty`, `duplicate` (of `duplicateOf`) or `over_budget`. */
  reason: z.string(),
  duplicateOf: z.string().optional(),
});

const ModelCallFields = {
  requestId: z.string(),
  stageId: z.string(),
  /** The sequence of its `inference_requested`. */
  sequence: z.number().int(),
  profileId: z.string(),
  provider: z.string(),
  model: z.string(),
  packDigest: z.string(),
  tokenEstimate: z.number().int(),
  toolNames: z.array(z.string()),
  /** How the log holds the manifest: whole, or as the change from the previous one. */
  recordedAs: z.enum(['whole', 'reference']),
  /** Included ids that came in and went out since the stage's previous call; null for its first. */
  change: z.strictObject({ added: z.array(z.string()), dropped: z.array(z.string()) }).nullable(),
  /** The input tokens the model reported; null while unanswered or failed. */
  reportedInputTokens: z.number().int().nullable(),
};

export const ModelCallDtoSchema = z.strictObject({
  ...ModelCallFields,
  manifest: z.strictObject({
    budgetTokens: z.number().int(),
    totalTokens: z.number().int(),
    tokenizer: z.string(),
    included: z.array(ManifestEntryDtoSchema),
    excluded: z.array(ManifestExclusionDtoSchema),
  }),
});
export type ModelCallDto = z.infer<typeof ModelCallDtoSchema>;

/** A call in the list: its manifest's totals, not its items. */
export const ModelCallSummaryDtoSchema = z.strictObject({
  ...ModelCallFields,
  budgetTokens: z.number().int(),
  totalTokens: z.number().int(),
  tokenizer: z.string(),
  included: z.number().int(),
  excluded: z.number().int(),
});
export type ModelCallSummaryDto = z.infer<typeof ModelCallSummaryDtoSchema>;

export const ListModelCallsResponseSchema = z.strictObject({
  calls: z.array(ModelCallSummaryDtoSchema),
});
export type ListModelCallsResponse = z.infer<typeof ListModelCallsResponseSchema>;

/** One call: by its request id, its 1-based position, or `last`. */
export const ModelCallRefSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'expected a request id, a position or `last`');
