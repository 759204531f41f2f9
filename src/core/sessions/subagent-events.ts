import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';
import { FailureCategorySchema } from './failure-category.js';

const stageId = z.string().min(1);
const sessionId = z.string().min(1);
const hash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * A stage attempt delegated its work to a sub-session (the stage's `subagent`): the child runs
 * the named workflow on `task` in the same workspace, as a session of its own whose id is
 * derived from this session, the stage and how many sub-sessions the stage started before.
 * Decided by the kernel; the runner starts (or re-attaches to) the child and records
 * `subagent_finished` when it ends.
 */
export const subagentStarted = defineEvent({
  type: 'subagent_started',
  description: 'A stage attempt started a sub-session to produce its artifact.',
  origin: 'decision',
  fields: () => ({
    stageId,
    attempt: z.number().int().min(1),
    childSessionId: sessionId,
    workflowId: z.string().min(1),
    task: z.string().min(1),
  }),
});

/**
 * A sub-session ended (recorded by the runner as the result of `run_subagent`). A completed
 * child hands over the content of its last accepted artifact, which the parent stage validates
 * as its own answer; a failed or cancelled one fails the parent's stage attempt.
 */
export const subagentFinished = defineEvent({
  type: 'subagent_finished',
  description: 'A sub-session ended; a completed one hands its final artifact to its parent stage.',
  origin: 'effect_result',
  fields: () => ({
    childSessionId: sessionId,
    status: z.enum(['completed', 'failed', 'cancelled']),
    /** The child's last accepted artifact (its hash in the child's lineage, and its content). */
    artifact: z
      .strictObject({ hash, kind: z.string().min(1), stageId, content: z.json() })
      .optional(),
    /** Why the child did not complete: its `workflow_failed` (or the cancel). */
    failure: z.strictObject({ category: FailureCategorySchema, message: z.string() }).optional(),
  }),
});

/** Events that link a session to the sub-sessions its stages run. */
export const subagentEvents = [subagentStarted, subagentFinished] as const;
