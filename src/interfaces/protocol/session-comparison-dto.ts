import { z } from 'zod';
import { IdentifierSchema } from './wire-values.js';

/*
 * `GET /api/compare?a=&b=`: where two sessions first differ and what each came to, the object
 * `correx compare --json` prints (the same code computes both).
 */

export const CompareQuerySchema = z.strictObject({ a: IdentifierSchema, b: IdentifierSchema });
export type CompareQuery = z.infer<typeof CompareQuerySchema>;

const FileChangeKindSchema = z.enum(['created', 'modified', 'deleted']);

export const ComparedSideDtoSchema = z.strictObject({
  sessionId: z.string(),
  task: z.string().nullable(),
  /** The model profiles its stages asked (`profile (model)`), in first-use order. */
  models: z.array(z.string()),
  status: z.string(),
  failure: z.string().nullable(),
  checks: z.array(z.strictObject({ name: z.string(), passed: z.boolean() })),
  /** Workspace-relative paths; +/− lines null when the bytes of either side are unknown. */
  filesChanged: z.array(
    z.strictObject({
      path: z.string(),
      change: FileChangeKindSchema,
      added: z.number().int().nullable(),
      removed: z.number().int().nullable(),
    }),
  ),
  tokens: z.strictObject({ input: z.number(), output: z.number() }),
  cost: z.number().nullable(),
  approvalsAsked: z.number().int(),
  policyBlocks: z.number().int(),
  events: z.number().int(),
  /** From its first recorded timestamp to its last. */
  durationMs: z.number(),
});
export type ComparedSideDto = z.infer<typeof ComparedSideDtoSchema>;

export const CompareResponseSchema = z.strictObject({
  a: ComparedSideDtoSchema,
  b: ComparedSideDtoSchema,
  /** The `session_configured` fields that differ (`models`, `policy`...). */
  configurationDiffers: z.array(z.string()),
  /** The first sequence whose event differs; null: both logs tell the same story. */
  firstDifference: z
    .strictObject({
      sequence: z.number().int(),
      /** The event type in each log there (null: that log has ended). */
      a: z.string().nullable(),
      b: z.string().nullable(),
      fields: z.array(z.string()),
    })
    .nullable(),
  /** Every file either session changed, and how their final contents compare. */
  files: z.array(
    z.strictObject({
      path: z.string(),
      a: z.union([FileChangeKindSchema, z.literal('unchanged')]),
      b: z.union([FileChangeKindSchema, z.literal('unchanged')]),
      same: z.boolean(),
      /** Unified diff from a's final content to b's; null when either side's bytes are unknown. */
      diff: z.array(z.string()).nullable(),
    }),
  ),
});
export type CompareResponse = z.infer<typeof CompareResponseSchema>;
