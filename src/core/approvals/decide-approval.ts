import type { PayloadOf } from '../events/event-definition.js';
import type {
  approvalBypassed,
  approvalDenied,
  approvalGranted,
  approvalRequested,
} from './approval-events.js';
import {
  findCoveringGrant,
  type ApprovalGrantsState,
  type ApprovalSubject,
} from './approval-grants.js';
import { tierRank, type ApprovalTier, type OperatorMode } from './approval-tier.js';

export type ApprovalEventPayload =
  | PayloadOf<typeof approvalRequested>
  | PayloadOf<typeof approvalGranted>
  | PayloadOf<typeof approvalDenied>
  | PayloadOf<typeof approvalBypassed>;

export type ApprovalInput = {
  readonly mode: OperatorMode;
  /** The assessment's verdict and tier. */
  readonly verdict: 'ALLOW' | 'ASK' | 'BLOCK';
  readonly tier: ApprovalTier;
  readonly subject: ApprovalSubject;
  readonly grants: ApprovalGrantsState;
  /** The recorded instant the decision is made at (the assessment event's timestamp). */
  readonly at: string;
  /** Why the call is gated, from the assessment (shown to the human). */
  readonly reason: string;
};

/** `approved`/`denied` are final; `pending` means a human was asked and the session waits. */
export type ApprovalDecision = {
  readonly outcome: 'approved' | 'denied' | 'pending';
  readonly events: readonly ApprovalEventPayload[];
};

/**
 * The approval engine: consulted for every call in every mode (hard invariant #4). Pure.
 * Order: a policy BLOCK is terminal in every mode; T0 with no finding to ask about passes;
 * `deny` refuses everything above T0; a covering grant approves; `yolo` approves all tiers
 * (T3 with an `approval_bypassed` record); `auto` approves up to T2; otherwise a human is asked.
 * Every outcome is an event, so the audit trail is complete.
 */
export function decideApproval(input: ApprovalInput): ApprovalDecision {
  const { callId, tool } = input.subject;
  const { mode, tier } = input;
  if (input.verdict === 'BLOCK') {
    return denied(callId, 'policy', `blocked by policy: ${input.reason}`);
  }
  if (tier === 'T0' && input.verdict === 'ALLOW') {
    return granted(callId, { kind: 'auto', id: mode }, 'T0: read-only inside the workspace');
  }
  if (mode === 'deny') return denied(callId, mode, `operator mode deny refuses ${tier}`);
  const grant = findCoveringGrant(input.grants, input.subject, input.at);
  if (grant !== undefined) {
    return granted(
      callId,
      { kind: 'grant', id: grant.grantId },
      `within grant ${grant.grantId} (${grant.scope.kind}) by ${grant.by}`,
    );
  }
  if (mode === 'yolo') {
    if (tierRank(tier) <= tierRank('T2') && input.verdict === 'ALLOW') {
      return granted(callId, { kind: 'auto', id: mode }, `operator mode yolo approves ${tier}`);
    }
    return {
      outcome: 'approved',
      events: [
        { type: 'approval_bypassed', callId, tool, tier, mode, reason: input.reason },
        {
          type: 'approval_granted',
          callId,
          by: { kind: 'auto', id: mode },
          reason: `operator mode yolo bypasses ${tier}`,
        },
      ],
    };
  }
  if (mode === 'auto' && tierRank(tier) <= tierRank('T2')) {
    return granted(
      callId,
      { kind: 'auto', id: mode },
      `operator mode auto approves up to T2 (${tier})`,
    );
  }
  return {
    outcome: 'pending',
    events: [{ type: 'approval_requested', callId, tool, tier, reason: input.reason }],
  };
}

function granted(
  callId: string,
  by: { kind: 'auto' | 'grant'; id: string },
  reason: string,
): ApprovalDecision {
  return { outcome: 'approved', events: [{ type: 'approval_granted', callId, by, reason }] };
}

function denied(callId: string, id: string, reason: string): ApprovalDecision {
  return {
    outcome: 'denied',
    events: [{ type: 'approval_denied', callId, by: { kind: 'auto', id }, reason }],
  };
}
