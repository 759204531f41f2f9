import type { ApprovalTier, OperatorMode } from '../../core/approvals/approval-tier.js';
import type { SessionSummary } from '../../core/events/event-store.js';
import type { ReplayVerification } from '../session-host.js';
import type { SessionState } from '../../core/sessions/session-projection.js';
import type { SessionStatus } from '../../core/sessions/session-status.js';
import type { ReplayVerifyResponse } from './rest-dto.js';
import type { SessionDto, SessionListItemDto } from './session-dto.js';
import type { ApprovalTierDto, OperatorModeDto, SessionStatusDto } from './wire-values.js';

// The wire enums are copies; these fail to compile the day a domain enum grows a value.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const enumsMatch: [
  Same<SessionStatus, SessionStatusDto>,
  Same<ApprovalTier, ApprovalTierDto>,
  Same<OperatorMode, OperatorModeDto>,
] = [true, true, true];
void enumsMatch;

/** The session projection as the API grants it: no stage timings, attempts or cycle counts. */
export function toSessionDto(
  state: SessionState,
  sessionId: string,
  running: boolean,
  mode: OperatorMode | null,
  /** The session's cost in US dollars (`spendOf`), null when no profile has prices. */
  cost: number | null,
): SessionDto {
  return {
    sessionId,
    status: state.status,
    task: state.task,
    workspace: state.workspace,
    workflowId: state.workflowId,
    mode,
    activeStage: state.activeStage && { ...state.activeStage },
    nextStage: state.nextStage && { ...state.nextStage },
    lastStageId: state.lastStageId,
    pendingApprovals: state.pendingApprovals.map(({ callId, tool, tier }) => ({
      callId,
      tool,
      tier,
    })),
    tokens: { input: state.tokens.input, output: state.tokens.output },
    cost,
    failure: state.failure && { category: state.failure.category, message: state.failure.message },
    lastSequence: state.lastSequence,
    running,
  };
}

/** A list row: the projection's status, stage, tokens, cost and pending count, and the session's mode. */
export function toSessionListItemDto(
  summary: SessionSummary,
  state: SessionState,
  running: boolean,
  mode: OperatorMode | null,
  cost: number | null,
): SessionListItemDto {
  return {
    sessionId: summary.sessionId,
    status: state.status,
    task: state.task,
    workspace: state.workspace,
    stage: state.activeStage?.stageId ?? state.nextStage?.stageId ?? state.lastStageId,
    mode,
    tokens: { input: state.tokens.input, output: state.tokens.output },
    cost,
    pendingApprovals: state.pendingApprovals.length,
    lastSequence: summary.lastSequence,
    firstTimestamp: summary.firstTimestamp,
    lastTimestamp: summary.lastTimestamp,
    running,
  };
}

export function toReplayVerifyResponse(verification: ReplayVerification): ReplayVerifyResponse {
  if (verification.ok) return { ok: true, events: verification.events };
  const { sequence, reason, expected, actual } = verification.divergence;
  return {
    ok: false,
    events: verification.events,
    divergence: { sequence, reason, expected, actual },
  };
}
