import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';
import { ApprovalTierSchema } from './approval-tier.js';

/** Who decided an approval: a person, the operator mode, or a standing grant. */
export const ApproverSchema = z.strictObject({
  kind: z.enum(['human', 'auto', 'grant']),
  /** A person's name or id, the mode, or the grant id. */
  id: z.string().min(1),
});

/** The kernel asks for approval of a gated call; the session waits until it is decided. */
export const approvalRequested = defineEvent({
  type: 'approval_requested',
  description: 'A gated tool call needs approval at the given tier before it may run.',
  fields: {
    callId: z.string().min(1),
    tool: z.string().min(1),
    tier: ApprovalTierSchema,
    reason: z.string(),
  },
});

/** A pending approval was granted, by a human, the operator mode or a grant. */
export const approvalGranted = defineEvent({
  type: 'approval_granted',
  description: 'An approval request was granted.',
  fields: { callId: z.string().min(1), by: ApproverSchema, reason: z.string().optional() },
});

/** A pending approval was denied; the call does not run. */
export const approvalDenied = defineEvent({
  type: 'approval_denied',
  description: 'An approval request was denied; the call does not run.',
  fields: { callId: z.string().min(1), by: ApproverSchema, reason: z.string() },
});

export const approvalEvents = [approvalRequested, approvalGranted, approvalDenied] as const;
