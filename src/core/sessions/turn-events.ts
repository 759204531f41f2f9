import { z } from 'zod';
import { OperatorModeSchema } from '../approvals/approval-tier.js';
import { defineEvent } from '../events/event-definition.js';

const sha256 = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .nullable();

/**
 * A person asked a session whose workflow ended (completed, failed or cancelled) for another
 * turn (`correx continue`, flag `follow-up-turns`). The session's first request is turn 1; this
 * is turn 2, 3, …. The next run reuses the workspace as the log left it and starts `workflowId`
 * again; `workflow` holds its definition when it is not the workflow the session was configured
 * with (so replay never reads today's configuration). `mode`, when given, is the approval mode
 * from this turn on.
 */
export const turnRequested = defineEvent({
  type: 'turn_requested',
  description: 'A person asked a finished session for a follow-up turn.',
  origin: 'command',
  fields: () => ({
    turn: z.number().int().min(2),
    text: z.string().min(1),
    requestedBy: z.string().min(1),
    workflowId: z.string().min(1),
    workflow: z.record(z.string(), z.json()).optional(),
    mode: OperatorModeSchema.optional(),
  }),
});

/** A file whose bytes differ from what the session's recorded changes left. */
export const TurnWorkspaceChangeSchema = z.strictObject({
  path: z.string().min(1),
  /** What the log says the session left (null: the session deleted it). */
  expected: sha256,
  /** What is there now (null: missing; a directory or other kind shows as `kind`). */
  found: sha256,
  kind: z.enum(['modified', 'deleted', 'created', 'replaced']),
  /** The `world_observed` that saw it. */
  observedSequence: z.number().int().min(1),
});
export type TurnWorkspaceChange = z.infer<typeof TurnWorkspaceChangeSchema>;

/**
 * Before a follow-up turn runs: every file the session's recorded changes touched was observed
 * again and compared with what the log says it left. `changed` lists what was edited outside
 * correx since (by hand, another tool); empty when the workspace is as the log left it. The
 * model of the turn is told, and nothing is restored or overwritten for it.
 */
export const turnWorkspaceChecked = defineEvent({
  type: 'turn_workspace_checked',
  description: 'The workspace compared with what the log left, before a follow-up turn.',
  origin: 'decision',
  fields: () => ({
    turn: z.number().int().min(2),
    /** How many files were compared. */
    compared: z.number().int().min(0),
    changed: z.array(TurnWorkspaceChangeSchema),
  }),
});

/**
 * A conversational stage (role `conversational`, the built-in `chat` workflow) ended its turn
 * with a message to the person; `checks` are the check runs of this attempt (the project's,
 * run because the turn changed files), reported with the reply.
 */
export const turnReplyRecorded = defineEvent({
  type: 'turn_reply_recorded',
  description: "A conversational stage's reply to the person, with the checks it ran.",
  origin: 'decision',
  fields: () => ({
    turn: z.number().int().min(1),
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    artifactHash: z.string().min(1),
    message: z.string(),
    filesChanged: z.array(z.string().min(1)),
    checks: z.array(
      z.strictObject({
        name: z.string().min(1),
        passed: z.boolean(),
        sequence: z.number().int().min(1),
      }),
    ),
  }),
});

export const turnEvents = [turnRequested, turnWorkspaceChecked, turnReplyRecorded] as const;
