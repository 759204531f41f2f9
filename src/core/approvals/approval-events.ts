import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';
import { TimestampSchema } from '../events/event-envelope.js';
import { ApprovalTierSchema, OperatorModeSchema } from './approval-tier.js';

/** Who decided an approval: a person, the operator mode, or a standing grant. */
export const ApproverSchema = z.strictObject({
  kind: z.enum(['human', 'auto', 'grant', 'timeout']),
  /** A person's name or id, the mode, the grant id, or the policy setting that timed out. */
  id: z.string().min(1),
});

/** The kernel asks for approval of a gated call; the session waits until it is decided. */
export const approvalRequested = defineEvent({
  type: 'approval_requested',
  description: 'A gated tool call needs approval at the given tier before it may run.',
  origin: 'decision',
  fields: () => ({
    callId: z.string().min(1),
    tool: z.string().min(1),
    tier: ApprovalTierSchema,
    reason: z.string(),
    /** When the wait ends by the policy's approval timeout (denied, never approved); absent: none. */
    deadline: TimestampSchema.optional(),
  }),
});

/** A pending approval was granted, by a human, the operator mode or a grant. */
export const approvalGranted = defineEvent({
  type: 'approval_granted',
  description: 'An approval request was granted.',
  // A person's answer enters from outside; the engine's (mode, grant, redirect) is decided.
  origin: (payload) => (payload.by.kind === 'human' ? 'command' : 'decision'),
  fields: () => ({ callId: z.string().min(1), by: ApproverSchema, reason: z.string().optional() }),
});

/** A pending approval was denied; the call does not run. */
export const approvalDenied = defineEvent({
  type: 'approval_denied',
  description: 'An approval request was denied; the call does not run.',
  // A person's answer enters from outside; the engine's (mode, grant, redirect) is decided.
  origin: (payload) => (payload.by.kind === 'human' ? 'command' : 'decision'),
  fields: () => ({ callId: z.string().min(1), by: ApproverSchema, reason: z.string() }),
});

/**
 * A runner found a call still waiting for approval past its policy's `approvalTimeoutMs`
 * (`deadline`, from the request's timestamp). `decide` then denies the call by timeout.
 */
export const approvalTimedOut = defineEvent({
  type: 'approval_timed_out',
  description: "A pending approval outlived the policy's approvalTimeoutMs; the call is denied.",
  origin: 'effect_result',
  fields: () => ({ callId: z.string().min(1), deadline: TimestampSchema }),
});

/**
 * What a standing grant covers, exactly: one command line for `exec`, one path glob for one
 * tool (workspace-relative, or absolute when it starts with `/`), or one host for network tools.
 */
export const GrantScopeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('command'), command: z.string().min(1) }),
  z.strictObject({ kind: z.literal('path'), tool: z.string().min(1), glob: z.string().min(1) }),
  z.strictObject({ kind: z.literal('host'), host: z.string().min(1) }),
]);
export type GrantScope = z.infer<typeof GrantScopeSchema>;

/**
 * A person answered an approval with "allow this from now on": the scope, for this stage or
 * the whole session, until an optional recorded instant. Emitted when a human adds a grant.
 */
export const approvalGrantAdded = defineEvent({
  type: 'approval_grant_added',
  description: 'A human added a scoped standing approval (command, path glob or host).',
  origin: 'command',
  fields: () => ({
    grantId: z.string().min(1),
    scope: GrantScopeSchema,
    /** `stage` grants apply only inside `stageId`. */
    lifetime: z.enum(['stage', 'session']),
    stageId: z.string().min(1).nullable(),
    expiresAt: TimestampSchema.nullable(),
    by: z.string().min(1),
    reason: z.string(),
  }),
});

/** A person revoked a grant; later calls are asked again. */
export const approvalGrantRevoked = defineEvent({
  type: 'approval_grant_revoked',
  description: 'A human revoked a standing approval grant.',
  origin: 'command',
  fields: () => ({ grantId: z.string().min(1), by: z.string().min(1), reason: z.string() }),
});

/**
 * The operator mode approved a call that `auto` would have asked a human about (yolo at T3):
 * recorded so the audit trail shows where the human check was skipped. Emitted by the engine.
 */
export const approvalBypassed = defineEvent({
  type: 'approval_bypassed',
  description: 'An approval a human would have been asked for was bypassed by the operator mode.',
  origin: 'decision',
  fields: () => ({
    callId: z.string().min(1),
    tool: z.string().min(1),
    tier: ApprovalTierSchema,
    mode: OperatorModeSchema,
    reason: z.string(),
  }),
});

export const approvalEvents = [
  approvalRequested,
  approvalGranted,
  approvalDenied,
  approvalTimedOut,
  approvalGrantAdded,
  approvalGrantRevoked,
  approvalBypassed,
] as const;
