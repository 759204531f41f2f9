import { z } from 'zod';
import { ApprovalTierDtoSchema, IdentifierSchema, SessionStatusDtoSchema } from './wire-values.js';

export const PendingApprovalDtoSchema = z.strictObject({
  callId: IdentifierSchema,
  tool: z.string(),
  tier: ApprovalTierDtoSchema,
});
export type PendingApprovalDto = z.infer<typeof PendingApprovalDtoSchema>;

const StageRunDtoSchema = z.strictObject({
  stageId: z.string(),
  attempt: z.number().int().min(1),
});

/** One session as the events say it stands (the session projection, as the API grants it). */
export const SessionDtoSchema = z.strictObject({
  sessionId: IdentifierSchema,
  status: SessionStatusDtoSchema,
  task: z.string().nullable(),
  workspace: z.string().nullable(),
  workflowId: z.string().nullable(),
  activeStage: StageRunDtoSchema.extend({ startedAt: z.string() }).nullable(),
  nextStage: StageRunDtoSchema.nullable(),
  lastStageId: z.string().nullable(),
  pendingApprovals: z.array(PendingApprovalDtoSchema),
  tokens: z.strictObject({ input: z.number(), output: z.number() }),
  failure: z.strictObject({ category: z.string(), message: z.string() }).nullable(),
  lastSequence: z.number().int().min(0),
  /** Whether this server process is driving the session now. */
  running: z.boolean(),
});
export type SessionDto = z.infer<typeof SessionDtoSchema>;

/** A row of the session list. */
export const SessionListItemDtoSchema = z.strictObject({
  sessionId: IdentifierSchema,
  status: SessionStatusDtoSchema,
  task: z.string().nullable(),
  lastSequence: z.number().int().min(0),
  firstTimestamp: z.string(),
  lastTimestamp: z.string(),
  running: z.boolean(),
});
export type SessionListItemDto = z.infer<typeof SessionListItemDtoSchema>;
