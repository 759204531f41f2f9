import { z } from 'zod';

/*
 * Eval runs' reports (`GET /api/evals`, `GET /api/evals/:evalId`): what `correx eval run` saved
 * under `<correx home>/evals/<id>.json`, the report `--json` prints with its id and times.
 * Objects are read leniently (`z.object`): a field a newer correx adds is dropped, not refused.
 */

/** An eval id names a file: letters, digits, `.`, `_` and `-`, never a path. */
export const EvalIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected an eval id (letters, digits, . _ -)');

const TokensSchema = z.object({ input: z.number(), output: z.number() });

export const EvalRunDtoSchema = z.object({
  model: z.string(),
  task: z.string(),
  repeat: z.number().int(),
  sessionId: z.string(),
  workspace: z.string(),
  status: z.string(),
  passed: z.boolean(),
  /** Why it did not pass (the checks that failed). */
  failures: z.array(z.string()),
  tokens: TokensSchema,
  cost: z.number().nullable(),
  durationMs: z.number(),
  /** Calls a person would have been asked about in prompt mode (auto mode approved them). */
  approvalsWouldAsk: z.number().int(),
  policyBlocks: z.number().int(),
  /** Whether the session re-derived byte for byte right after the run. */
  replays: z.boolean(),
  forkedFrom: z.object({ sessionId: z.string(), atSequence: z.number().int() }).optional(),
  /** A task whose workspace is a git reference: the repository, the reference, its commit. */
  workspaceGit: z
    .object({ repository: z.string(), ref: z.string(), commit: z.string() })
    .optional(),
});
export type EvalRunDto = z.infer<typeof EvalRunDtoSchema>;

export const EvalModelSummaryDtoSchema = z.object({
  model: z.string(),
  runs: z.number().int(),
  passed: z.number().int(),
  passRate: z.number(),
  tokens: TokensSchema,
  cost: z.number().nullable(),
  durationMs: z.number(),
  approvalsWouldAsk: z.number().int(),
  policyBlocks: z.number().int(),
});
export type EvalModelSummaryDto = z.infer<typeof EvalModelSummaryDtoSchema>;

/** One eval run as saved: its report with an id and when it started and finished. */
export const EvalRecordSchema = z.object({
  id: EvalIdSchema,
  startedAt: z.string(),
  finishedAt: z.string(),
  suite: z.string(),
  /** With `--from`: the recorded prefix every run started from. */
  from: z.object({ sessionId: z.string(), at: z.string() }).optional(),
  models: z.array(EvalModelSummaryDtoSchema),
  runs: z.array(EvalRunDtoSchema),
});
export type EvalRecord = z.infer<typeof EvalRecordSchema>;

export const EvalListItemDtoSchema = z.object({
  id: EvalIdSchema,
  startedAt: z.string(),
  finishedAt: z.string(),
  suite: z.string(),
  from: z.object({ sessionId: z.string(), at: z.string() }).optional(),
  models: z.array(EvalModelSummaryDtoSchema),
  runs: z.number().int(),
});
export type EvalListItemDto = z.infer<typeof EvalListItemDtoSchema>;

export const ListEvalsResponseSchema = z.object({
  /** Newest first; only eval runs whose sessions are in this server's store. */
  evals: z.array(EvalListItemDtoSchema),
  /** Saved files that could not be read as a report, with why. */
  unreadable: z.array(z.object({ file: z.string(), reason: z.string() })),
});
export type ListEvalsResponse = z.infer<typeof ListEvalsResponseSchema>;

export const GetEvalResponseSchema = EvalRecordSchema.extend({
  runs: z.array(
    EvalRunDtoSchema.extend({
      /** Whether the run's session is in this server's store (its link opens it). */
      inStore: z.boolean(),
    }),
  ),
});
export type GetEvalResponse = z.infer<typeof GetEvalResponseSchema>;
