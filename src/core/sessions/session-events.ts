import { z } from 'zod';
import { OperatorModeSchema } from '../approvals/approval-tier.js';
import { defineEvent } from '../events/event-definition.js';
import { TimestampSchema } from '../events/event-envelope.js';
import { FailureCategorySchema } from './failure-category.js';
import { RecordedWorktreeSchema } from './recorded-worktree.js';
import { SessionStatusSchema, LIFECYCLE_COMMANDS } from './session-status.js';

const stageId = z.string().min(1);
const actor = z.string().min(1);

/** A session exists: the task, where it runs, which workflow, under which operator mode. */
export const sessionCreated = defineEvent({
  type: 'session_created',
  description: 'A session was created for a task in a workspace.',
  origin: 'command',
  fields: () => ({
    task: z.string().min(1),
    workspace: z.string().min(1),
    workflowId: z.string().min(1),
    mode: OperatorModeSchema,
    modelProfile: z.string().min(1).optional(),
    /**
     * Set when the session is a sub-session: the session, stage attempt and `subagent_started`
     * event that started it (the child's first events also carry that event id as correlation).
     */
    parent: z
      .strictObject({
        sessionId: z.string().min(1),
        stageId,
        attempt: z.number().int().min(1),
        eventId: z.string().min(1),
      })
      .optional(),
    /**
     * Set when the session works in a git worktree of its own: the locations every later git
     * command correx runs for it uses (never rediscovered through the workspace's `.git`).
     */
    worktree: RecordedWorktreeSchema.optional(),
  }),
});

/**
 * The effective configuration a session runs with (workflow, tools, policy, model profiles,
 * bounds), recorded before its start so that replay and resume rebuild exactly the kernel
 * configuration it ran under. The content is the kernel's own description (see
 * core/kernel/config/session-configuration.ts), kept as plain JSON here so that the workflow and
 * policy schemas can grow without a new version of this event.
 */
export const sessionConfigured = defineEvent({
  type: 'session_configured',
  description: 'The effective configuration of a session was recorded before its start.',
  origin: 'command',
  fields: () => ({
    configuration: z.record(z.string(), z.json()),
    /** SHA-256 of the configuration's canonical JSON. */
    digest: z.string().regex(/^[0-9a-f]{64}$/),
    /**
     * The configuration files the session was built from (the user's and the workspace's
     * harness.yaml, a workflow file), in the order read, with the SHA-256 of the bytes read.
     * Outside `configuration`, so it never changes the digest; absent where none was read.
     */
    files: z
      .array(
        z.strictObject({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
      )
      .optional(),
  }),
});

export const workflowStarted = defineEvent({
  type: 'workflow_started',
  description: "The session's workflow started at its first stage.",
  origin: 'decision',
  fields: () => ({ workflowId: z.string().min(1), firstStageId: stageId }),
});

export const workflowCompleted = defineEvent({
  type: 'workflow_completed',
  description: 'The workflow reached a terminal stage successfully.',
  origin: 'decision',
  fields: () => ({ finalStageId: stageId, summary: z.string().optional() }),
});

export const workflowFailed = defineEvent({
  type: 'workflow_failed',
  description: 'The workflow ended in failure.',
  origin: 'decision',
  fields: () => ({
    category: FailureCategorySchema,
    message: z.string(),
    stageId: stageId.optional(),
  }),
});

export const workflowCancelled = defineEvent({
  type: 'workflow_cancelled',
  description: 'Someone cancelled the workflow.',
  origin: 'command',
  fields: () => ({ by: actor, reason: z.string().optional() }),
});

export const orchestrationPaused = defineEvent({
  type: 'orchestration_paused',
  description: 'The session was paused; nothing runs until it is resumed.',
  origin: 'command',
  fields: () => ({ by: actor, reason: z.string().optional() }),
});

export const orchestrationResumed = defineEvent({
  type: 'orchestration_resumed',
  description: 'A paused session was resumed.',
  origin: 'command',
  fields: () => ({ by: actor }),
});

export const stageStarted = defineEvent({
  type: 'stage_started',
  description: 'A stage attempt began.',
  origin: 'decision',
  fields: () => ({ stageId, attempt: z.number().int().min(1) }),
});

export const stageCompleted = defineEvent({
  type: 'stage_completed',
  description: 'A stage attempt produced an accepted artifact.',
  origin: 'decision',
  fields: () => ({
    stageId,
    attempt: z.number().int().min(1),
    artifactHash: z.string().optional(),
    verdict: z.string().optional(),
  }),
});

export const stageFailed = defineEvent({
  type: 'stage_failed',
  description: 'A stage attempt failed; the retry policy decides what follows.',
  origin: 'decision',
  fields: () => ({
    stageId,
    attempt: z.number().int().min(1),
    category: FailureCategorySchema,
    message: z.string(),
  }),
});

/**
 * A lifecycle command was refused because the session's status does not allow it (resuming a
 * session that is not paused, starting one twice...). Emitted by `decideLifecycle`; the status
 * is unchanged.
 */
export const lifecycleRejected = defineEvent({
  type: 'lifecycle_rejected',
  description: 'A lifecycle command was refused in the current session status.',
  origin: 'command',
  fields: () => ({
    command: z.enum(LIFECYCLE_COMMANDS),
    status: SessionStatusSchema,
    message: z.string().min(1),
  }),
});

/**
 * The kernel holds the next model call back because the provider asked it to (a rate limit's
 * `retryAfterMs`): nothing is requested before `until`, the failure's recorded timestamp plus
 * the delay. Decided by the kernel; the runner waits and records `retry_delay_elapsed`.
 */
export const retryDelayStarted = defineEvent({
  type: 'retry_delay_started',
  description: 'The next model call waits until the instant the provider asked for.',
  origin: 'decision',
  fields: () => ({
    /** The failed request whose provider asked for the delay. */
    requestId: z.string().min(1),
    provider: z.string().min(1),
    delayMs: z.number().int().min(1),
    until: TimestampSchema,
  }),
});

/** The runner waited out a retry delay (recorded once its clock reached `until`). */
export const retryDelayElapsed = defineEvent({
  type: 'retry_delay_elapsed',
  description: 'A retry delay asked for by a provider has passed; the next model call may run.',
  origin: 'effect_result',
  fields: () => ({ until: TimestampSchema }),
});

export const sessionEvents = [
  sessionCreated,
  sessionConfigured,
  workflowStarted,
  workflowCompleted,
  workflowFailed,
  workflowCancelled,
  orchestrationPaused,
  orchestrationResumed,
  stageStarted,
  stageCompleted,
  stageFailed,
  lifecycleRejected,
] as const;

/**
 * A person asked to move the running session to another stage (a preempt redirect). Recorded as
 * the command's input; the kernel decides whether the workflow allows it.
 */
export const redirectRequested = defineEvent({
  type: 'redirect_requested',
  description: 'A person asked to move the running session to another stage.',
  origin: 'command',
  fields: () => ({ to: stageId, by: actor, reason: z.string().optional() }),
});

/** The kernel ended the running stage attempt for a redirect; `transition_taken` follows. */
export const stageRedirected = defineEvent({
  type: 'stage_redirected',
  description:
    'The running stage attempt was ended by a redirect to a stage its transitions allow.',
  origin: 'decision',
  fields: () => ({
    from: stageId,
    to: stageId,
    attempt: z.number().int().min(1),
    by: actor,
    reason: z.string().optional(),
  }),
});

/** A redirect the workflow does not allow (no such transition, or its bound is spent). */
export const redirectRejected = defineEvent({
  type: 'redirect_rejected',
  description: 'A redirect was refused: the workflow has no open transition to that stage.',
  origin: 'decision',
  fields: () => ({ from: stageId.nullable(), to: stageId, by: actor, message: z.string().min(1) }),
});

/**
 * Session-level events the kernel records about its own flow (waits, redirects). Kept apart from
 * `sessionEvents`, which the session projection folds exhaustively.
 */
export const kernelFlowEvents = [
  retryDelayStarted,
  retryDelayElapsed,
  redirectRequested,
  stageRedirected,
  redirectRejected,
] as const;
