import type { sessionRetried } from './retry-events.js';
import type { turnRequested } from './turn-events.js';
import type {
  approvalDenied,
  approvalGranted,
  approvalRequested,
} from '../approvals/approval-events.js';
import type { ApprovalTier } from '../approvals/approval-tier.js';
import { assertNever } from '../base/assert-never.js';
import { ARTIFACT_APPROVAL_PREFIX } from './artifact-approval-key.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { PayloadShape } from '../events/event-envelope.js';
import type { Projection } from '../events/projection.js';
import type { FailureCategory } from './failure-category.js';
import type { sessionEvents } from './session-events.js';
import type { SessionStatus } from './session-status.js';
import type { transitionEvents } from './transition-events.js';

type StageRun = { readonly stageId: string; readonly attempt: number };

/** The session as the events say it stands. Plain JSON, so it can be snapshotted. */
export type SessionState = {
  readonly sessionId: string | null;
  readonly status: SessionStatus;
  readonly task: string | null;
  readonly workspace: string | null;
  readonly workflowId: string | null;
  /** The stage attempt that started and has not yet completed or failed. */
  readonly activeStage: (StageRun & { readonly startedAt: string }) | null;
  /** The stage attempt the workflow moved to and has not started yet. */
  readonly nextStage: StageRun | null;
  /** The last stage that started, even when it has finished. */
  readonly lastStageId: string | null;
  /** The attempt number of each stage's latest run (attempts restart at 1 on each visit). */
  readonly attempts: { readonly [stageId: string]: number };
  /** Traversals per transition edge (`review->implement`): the cycle counts. */
  readonly cycles: { readonly [edge: string]: number };
  /** Approvals requested and not yet granted or denied, in request order. */
  readonly pendingApprovals: readonly {
    readonly callId: string;
    readonly tool: string;
    readonly tier: ApprovalTier;
  }[];
  /**
   * Artifact approvals granted (call ids `artifact:<hash>`), in grant order. A tool call's grant
   * lives on its call record; keeping every call's here would copy a list as long as the
   * session on each grant.
   */
  readonly grantedApprovals: readonly string[];
  readonly tokens: { readonly input: number; readonly output: number };
  /** Finished attempts per stage and their summed wall time, from event timestamps. */
  readonly timings: {
    readonly [stageId: string]: { readonly runs: number; readonly totalMs: number };
  };
  readonly failure: { readonly category: FailureCategory; readonly message: string } | null;
  readonly lastSequence: number;
};

type SessionPayload =
  // The configuration record is the kernel's; the session state does not fold it.
  | Exclude<PayloadOf<(typeof sessionEvents)[number]>, { type: 'session_configured' }>
  | PayloadOf<typeof approvalRequested>
  | PayloadOf<typeof approvalGranted>
  | PayloadOf<typeof approvalDenied>
  | PayloadOf<(typeof transitionEvents)[number]>
  | PayloadOf<typeof sessionRetried>
  | PayloadOf<typeof turnRequested>;

const foldedTypes: ReadonlySet<string> = new Set<SessionPayload['type']>([
  'session_created',
  'workflow_started',
  'workflow_completed',
  'workflow_failed',
  'workflow_cancelled',
  'orchestration_paused',
  'orchestration_resumed',
  'stage_started',
  'stage_completed',
  'stage_failed',
  'lifecycle_rejected',
  'approval_requested',
  'approval_granted',
  'approval_denied',
  'transition_taken',
  'session_retried',
  'turn_requested',
  'transition_rejected',
]);

/**
 * The session projection. It folds any catalog's events: the types it knows are narrowed by
 * name (the codec has already checked each payload against its type's schema on read) and
 * every other type only advances `lastSequence`. Token usage is read from `inference_completed`
 * events, owned by core/inference (a higher layer), by their `result.usage` token counts.
 */
export const sessionProjection: Projection<SessionState, PayloadShape> = {
  name: 'session',
  // 2: grantedApprovals holds artifact approvals only.
  version: 2,
  initial: () => ({
    sessionId: null,
    status: 'new',
    task: null,
    workspace: null,
    workflowId: null,
    activeStage: null,
    nextStage: null,
    lastStageId: null,
    attempts: {},
    cycles: {},
    pendingApprovals: [],
    grantedApprovals: [],
    tokens: { input: 0, output: 0 },
    timings: {},
    failure: null,
    lastSequence: 0,
  }),
  evolve(state, event) {
    const next = at(state, event.sessionId, event.sequence);
    if (foldedTypes.has(event.payload.type)) {
      return evolveKnown(next, event.payload as SessionPayload, event.timestamp);
    }
    if (event.payload.type === 'inference_completed') return addUsage(next, event.payload);
    return next;
  },
};

function evolveKnown(
  state: SessionState,
  payload: SessionPayload,
  timestamp: string,
): SessionState {
  switch (payload.type) {
    case 'session_created':
      return {
        ...state,
        status: 'created',
        task: payload.task,
        workspace: payload.workspace,
        workflowId: payload.workflowId,
      };
    case 'workflow_started':
      return {
        ...state,
        status: 'running',
        workflowId: payload.workflowId,
        nextStage: { stageId: payload.firstStageId, attempt: 1 },
      };
    case 'orchestration_paused':
      return { ...state, status: 'paused' };
    case 'orchestration_resumed':
      return { ...state, status: 'running' };
    case 'workflow_completed':
      return { ...state, status: 'completed', nextStage: null };
    case 'workflow_failed':
      return {
        ...state,
        status: 'failed',
        nextStage: null,
        failure: { category: payload.category, message: payload.message },
      };
    case 'workflow_cancelled':
      return { ...state, status: 'cancelled', nextStage: null };
    case 'session_retried':
      // A failed session runs again, from a new attempt of the stage that failed.
      return {
        ...state,
        status: 'running',
        activeStage: null,
        nextStage: { stageId: payload.stageId, attempt: payload.attempt },
        failure: null,
      };
    case 'turn_requested':
      // A follow-up turn: the session runs again, its workflow from the start (attempts and
      // bounded transitions count afresh in each turn).
      return {
        ...state,
        status: 'running',
        workflowId: payload.workflowId,
        activeStage: null,
        nextStage: null,
        attempts: {},
        cycles: {},
        pendingApprovals: [],
        failure: null,
      };
    case 'stage_started':
      return {
        ...state,
        activeStage: { stageId: payload.stageId, attempt: payload.attempt, startedAt: timestamp },
        nextStage: null,
        lastStageId: payload.stageId,
        attempts: {
          ...state.attempts,
          [payload.stageId]: payload.attempt,
        },
      };
    case 'stage_completed':
    case 'stage_failed':
      return finishStage(state, payload.stageId, timestamp);
    case 'transition_taken':
      return {
        ...state,
        cycles: { ...state.cycles, [payload.edge]: payload.traversal },
        nextStage:
          payload.to === undefined ? null : { stageId: payload.to, attempt: payload.attempt ?? 1 },
      };
    case 'approval_requested':
      return {
        ...state,
        pendingApprovals: [
          ...state.pendingApprovals.filter((pending) => pending.callId !== payload.callId),
          { callId: payload.callId, tool: payload.tool, tier: payload.tier },
        ],
      };
    case 'approval_granted':
      return {
        ...state,
        pendingApprovals: state.pendingApprovals.filter(
          (pending) => pending.callId !== payload.callId,
        ),
        grantedApprovals:
          !payload.callId.startsWith(ARTIFACT_APPROVAL_PREFIX) ||
          state.grantedApprovals.includes(payload.callId)
            ? state.grantedApprovals
            : [...state.grantedApprovals, payload.callId],
      };
    case 'approval_denied':
      return {
        ...state,
        pendingApprovals: state.pendingApprovals.filter(
          (pending) => pending.callId !== payload.callId,
        ),
      };
    case 'lifecycle_rejected':
    case 'transition_rejected':
      // Refusals are recorded for the audit trail; by definition they change nothing.
      return state;
    default:
      return assertNever(payload, 'session event');
  }
}

function finishStage(state: SessionState, stageId: string, timestamp: string): SessionState {
  const active = state.activeStage;
  if (!active || active.stageId !== stageId) return { ...state, activeStage: null };
  const elapsed = Math.max(0, Date.parse(timestamp) - Date.parse(active.startedAt));
  const previous = state.timings[stageId] ?? { runs: 0, totalMs: 0 };
  return {
    ...state,
    activeStage: null,
    timings: {
      ...state.timings,
      [stageId]: { runs: previous.runs + 1, totalMs: previous.totalMs + elapsed },
    },
  };
}

/**
 * The state as of one more event. Fields listed, not spread: this runs for every event, and V8
 * copies a spread with overrides on its slow path.
 */
function at(state: SessionState, sessionId: string, lastSequence: number): SessionState {
  return {
    sessionId,
    status: state.status,
    task: state.task,
    workspace: state.workspace,
    workflowId: state.workflowId,
    activeStage: state.activeStage,
    nextStage: state.nextStage,
    lastStageId: state.lastStageId,
    attempts: state.attempts,
    cycles: state.cycles,
    pendingApprovals: state.pendingApprovals,
    grantedApprovals: state.grantedApprovals,
    tokens: state.tokens,
    timings: state.timings,
    failure: state.failure,
    lastSequence,
  };
}

function addUsage(state: SessionState, payload: PayloadShape): SessionState {
  const usage = (
    payload as { result?: { usage?: { inputTokens?: unknown; outputTokens?: unknown } } }
  ).result?.usage;
  return {
    ...state,
    tokens: {
      input: state.tokens.input + count(usage?.inputTokens),
      output: state.tokens.output + count(usage?.outputTokens),
    },
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Where a session would pick up after a crash or restart, read from its projection. */
export type ResumePoint =
  | { readonly kind: 'not_started' }
  | { readonly kind: 'paused' }
  /** A stage attempt started and has no outcome: its work must be re-checked or retried. */
  | { readonly kind: 'mid_stage'; readonly stageId: string; readonly attempt: number }
  /** A transition was taken; the next stage has not started. */
  | { readonly kind: 'next_stage'; readonly stageId: string; readonly attempt: number }
  /** A stage finished and no transition has been recorded yet: evaluate it. */
  | { readonly kind: 'awaiting_transition'; readonly stageId: string | null }
  | { readonly kind: 'finished'; readonly status: SessionStatus };

/** Reads where a session stands for resumption. Pure. */
export function resumePointOf(state: SessionState): ResumePoint {
  switch (state.status) {
    case 'new':
    case 'created':
      return { kind: 'not_started' };
    case 'paused':
      return { kind: 'paused' };
    case 'completed':
    case 'failed':
    case 'cancelled':
      return { kind: 'finished', status: state.status };
    case 'running':
      if (state.activeStage) {
        return {
          kind: 'mid_stage',
          stageId: state.activeStage.stageId,
          attempt: state.activeStage.attempt,
        };
      }
      if (state.nextStage) return { kind: 'next_stage', ...state.nextStage };
      return { kind: 'awaiting_transition', stageId: state.lastStageId };
    default:
      return assertNever(state.status, 'session status');
  }
}
