import { z } from 'zod';
import {
  ApprovalTierDtoSchema,
  FindingSeverityDtoSchema,
  GrantScopeDtoSchema,
  IdentifierSchema,
  OperatorModeDtoSchema,
  RiskLevelDtoSchema,
  SessionStatusDtoSchema,
  VerdictDtoSchema,
} from './wire-values.js';

export const PendingApprovalDtoSchema = z.strictObject({
  callId: IdentifierSchema,
  tool: z.string(),
  tier: ApprovalTierDtoSchema,
});
export type PendingApprovalDto = z.infer<typeof PendingApprovalDtoSchema>;

/** A path or host the call would touch, as the assessment resolved it. */
export const ApprovalTargetDtoSchema = z.strictObject({
  /** The tool parameter it came from (`path`, `url`...). */
  param: z.string(),
  /** The argument as the model wrote it. */
  raw: z.string(),
  /** The absolute path (or URL/host) it resolves to. */
  resolved: z.string(),
  /** The real path with symlinks resolved, where one applies. */
  realPath: z.string().nullable(),
  write: z.boolean(),
});
export type ApprovalTargetDto = z.infer<typeof ApprovalTargetDtoSchema>;

/** What one policy rule said about the call. */
export const ApprovalFindingDtoSchema = z.strictObject({
  ruleId: z.string(),
  severity: FindingSeverityDtoSchema,
  code: z.string(),
  message: z.string(),
  /** The least tier this finding needs. */
  tier: ApprovalTierDtoSchema,
});
export type ApprovalFindingDto = z.infer<typeof ApprovalFindingDtoSchema>;

/**
 * A call waiting for a person with what they need to decide it, read from the session's recent
 * events: the arguments as the model sent them, the resolved targets, the rule findings.
 * `arguments` is null (and the lists empty) when the proposal is no longer among those events.
 */
export const PendingApprovalDetailsDtoSchema = PendingApprovalDtoSchema.extend({
  /** Why it asks (the approval request's reason). */
  reason: z.string(),
  stageId: z.string().nullable(),
  /** The arguments as the raw JSON text the model sent. */
  arguments: z.string().nullable(),
  verdict: VerdictDtoSchema.nullable(),
  risk: RiskLevelDtoSchema.nullable(),
  targets: z.array(ApprovalTargetDtoSchema),
  findings: z.array(ApprovalFindingDtoSchema),
  /**
   * The exact grant "always allow" records for this call (as the CLI's prompt), or null when no
   * single exact grant covers just it (or it is not known here).
   */
  alwaysAllow: z
    .strictObject({
      scope: GrantScopeDtoSchema,
      description: z.string(),
    })
    .nullable(),
  /**
   * For a write or edit: the file's content as the session's log recorded it before the call
   * (its last whole read and the writes since), to diff against; null when the log never held it.
   */
  recordedContent: z.string().nullable(),
  /**
   * For a call its driver started and went away from before its receipt (so a person decides
   * whether it runs again): where it started and was found interrupted, and what the driver
   * that started it has said since (null when the store keeps no driver records, as SQLite).
   */
  interrupted: z
    .strictObject({
      startedSequence: z.number().int(),
      sequence: z.number().int(),
      startedBy: z
        .strictObject({
          driver: z.string(),
          epoch: z.number().int().nullable(),
          state: z.enum(['released', 'stopped', 'unconfirmed']),
          at: z.string().nullable(),
          description: z.string(),
        })
        .nullable(),
    })
    .nullable(),
});
export type PendingApprovalDetailsDto = z.infer<typeof PendingApprovalDetailsDtoSchema>;

const StageRunDtoSchema = z.strictObject({
  stageId: z.string(),
  attempt: z.number().int().min(1),
});

const TokensDtoSchema = z.strictObject({ input: z.number(), output: z.number() });

/** One session as the events say it stands (the session projection, as the API grants it). */
export const SessionDtoSchema = z.strictObject({
  sessionId: IdentifierSchema,
  status: SessionStatusDtoSchema,
  task: z.string().nullable(),
  workspace: z.string().nullable(),
  workflowId: z.string().nullable(),
  /** The operator (approval) mode the session was created with; null before `session_created`. */
  mode: OperatorModeDtoSchema.nullable(),
  activeStage: StageRunDtoSchema.extend({ startedAt: z.string() }).nullable(),
  nextStage: StageRunDtoSchema.nullable(),
  lastStageId: z.string().nullable(),
  pendingApprovals: z.array(PendingApprovalDtoSchema),
  tokens: TokensDtoSchema,
  /** US dollars by the prices of the model profiles the session recorded; null when none has prices. */
  cost: z.number().nonnegative().nullable(),
  failure: z.strictObject({ category: z.string(), message: z.string() }).nullable(),
  lastSequence: z.number().int().min(0),
  /** Whether this server process is driving the session now. */
  running: z.boolean(),
});
export type SessionDto = z.infer<typeof SessionDtoSchema>;

/** A row of the session list: everything the list shows, so one request fills it. */
export const SessionListItemDtoSchema = z.strictObject({
  sessionId: IdentifierSchema,
  status: SessionStatusDtoSchema,
  task: z.string().nullable(),
  /** The folder it works in, as `session_created` recorded it. */
  workspace: z.string().nullable(),
  /** The stage running now, else the one it moves to next, else the last one that ran. */
  stage: z.string().nullable(),
  mode: OperatorModeDtoSchema.nullable(),
  tokens: TokensDtoSchema,
  /** US dollars by the recorded profiles' prices; null when none has prices. */
  cost: z.number().nonnegative().nullable(),
  /** How many tool calls wait for a person. */
  pendingApprovals: z.number().int().min(0),
  lastSequence: z.number().int().min(0),
  firstTimestamp: z.string(),
  lastTimestamp: z.string(),
  running: z.boolean(),
  /**
   * This server holds it while it waits for a person: a decision made here drives it on at once.
   * False (or absent, from an older server) with `running` false and no live `driver`: nobody
   * drives it, and a decision only takes effect when someone resumes it.
   */
  attended: z.boolean().optional(),
  /** Who drives it now, any process on a shared store (a worker's name); absent: not known here. */
  driver: z.string().nullable().optional(),
  /** How long ago its driver last renewed its lease, in ms; null: nobody holds it. */
  leaseAgeMs: z.number().min(0).nullable().optional(),
  /** Its driver let the lease run out (or lost its lock connection): another may take it over. */
  stalled: z.boolean().optional(),
});
export type SessionListItemDto = z.infer<typeof SessionListItemDtoSchema>;
