import { assertNever } from '../base/assert-never.js';
import type { CorrexEventStore } from '../event-catalog.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { PayloadShape, StoredEvent } from '../events/event-envelope.js';
import type { Projection } from '../events/projection.js';
import { replay, type ReplayResult } from '../events/replay.js';
import type {
  orchestrationPaused,
  orchestrationResumed,
  sessionCreated,
  stageCompleted,
  stageFailed,
  stageStarted,
  workflowCancelled,
  workflowCompleted,
  workflowFailed,
  workflowStarted,
} from '../sessions/session-events.js';
import type { transitionTaken } from '../sessions/transition-events.js';
import type { sessionRetried } from '../sessions/retry-events.js';
import type { turnRequested } from '../sessions/turn-events.js';
import type {
  approvalDenied,
  approvalGranted,
  approvalRequested,
} from '../approvals/approval-events.js';
import type { RouterL2Entry, RouterState } from './router-state.js';

type RouterPayload = PayloadOf<
  | typeof sessionCreated
  | typeof workflowStarted
  | typeof workflowCompleted
  | typeof workflowFailed
  | typeof workflowCancelled
  | typeof orchestrationPaused
  | typeof orchestrationResumed
  | typeof stageStarted
  | typeof stageCompleted
  | typeof stageFailed
  | typeof transitionTaken
  | typeof approvalRequested
  | typeof approvalGranted
  | typeof approvalDenied
  | typeof sessionRetried
  | typeof turnRequested
>;

/** The event types the router state folds; every other type only advances `lastSequence`. */
export const ROUTER_FOLDED_TYPES: ReadonlySet<string> = new Set<RouterPayload['type']>([
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
  'transition_taken',
  'approval_requested',
  'approval_granted',
  'approval_denied',
  'session_retried',
  'turn_requested',
]);

/** A summary line stays short: it is a pointer into the log, not a copy of it. */
export const MAX_SUMMARY_CHARACTERS = 200;

/**
 * The router's projection (spec 003, tasks 1 and 2): workflow status, current stage and the L2
 * memory of stage outcomes. Folds any catalog's events; types it does not know only advance
 * `lastSequence` (the spec's "all other events pass through unchanged").
 */
export const routerProjection: Projection<RouterState, PayloadShape> = {
  name: 'router',
  // 2: pending approvals and retries are folded too.
  version: 2,
  initial: () => ({
    sessionId: null,
    workflowStatus: 'idle',
    currentStageId: null,
    activeStage: null,
    task: null,
    pendingApprovals: [],
    l2Memory: [],
    lastSequence: 0,
  }),
  evolve(state, event) {
    const next = { ...state, sessionId: event.sessionId, lastSequence: event.sequence };
    if (!ROUTER_FOLDED_TYPES.has(event.payload.type)) return next;
    return evolveKnown(next, event.payload as RouterPayload, event);
  },
};

/** The spec's RouterRepository: fresh state for one session, replayed from its events. */
export function loadRouterState(
  store: CorrexEventStore,
  sessionId: string,
): Promise<ReplayResult<RouterState>> {
  return replay(store, routerProjection, sessionId);
}

function evolveKnown(state: RouterState, payload: RouterPayload, event: StoredEvent): RouterState {
  const remember = (entry: Omit<RouterL2Entry, 'sequence' | 'eventId' | 'timestamp'>) => [
    ...state.l2Memory,
    { ...entry, sequence: event.sequence, eventId: event.eventId, timestamp: event.timestamp },
  ];
  switch (payload.type) {
    case 'session_created':
      return { ...state, task: payload.task };
    case 'workflow_started':
      return { ...state, workflowStatus: 'running', currentStageId: payload.firstStageId };
    case 'orchestration_paused':
      return { ...state, workflowStatus: 'paused' };
    case 'orchestration_resumed':
      return { ...state, workflowStatus: 'running' };
    case 'workflow_completed':
      return {
        ...state,
        workflowStatus: 'completed',
        currentStageId: null,
        activeStage: null,
        pendingApprovals: [],
      };
    case 'workflow_failed':
      return {
        ...state,
        workflowStatus: 'failed',
        currentStageId: null,
        activeStage: null,
        pendingApprovals: [],
      };
    case 'session_retried':
      return { ...state, workflowStatus: 'running', currentStageId: payload.stageId };
    case 'turn_requested':
      return { ...state, workflowStatus: 'running', currentStageId: null, pendingApprovals: [] };
    case 'approval_requested':
      return {
        ...state,
        pendingApprovals: [
          ...state.pendingApprovals.filter((pending) => pending.callId !== payload.callId),
          {
            callId: payload.callId,
            tool: payload.tool,
            tier: payload.tier,
            reason: clip(firstLine(payload.reason)),
            sequence: event.sequence,
          },
        ],
      };
    case 'approval_granted':
    case 'approval_denied':
      return {
        ...state,
        pendingApprovals: state.pendingApprovals.filter(
          (pending) => pending.callId !== payload.callId,
        ),
      };
    case 'workflow_cancelled': {
      // A stage that was running when the workflow was cancelled ends as CANCELLED.
      const running = state.activeStage;
      return {
        ...state,
        workflowStatus: 'cancelled',
        currentStageId: null,
        activeStage: null,
        pendingApprovals: [],
        l2Memory:
          running === null
            ? state.l2Memory
            : remember({
                stageId: running.stageId,
                attempt: running.attempt,
                outcome: 'cancelled',
                summary: clip(
                  `stage ${running.stageId} attempt ${running.attempt} cancelled by ${payload.by}` +
                    (payload.reason === undefined ? '' : `: ${payload.reason}`),
                ),
              }),
      };
    }
    case 'stage_started':
      return {
        ...state,
        currentStageId: payload.stageId,
        activeStage: { stageId: payload.stageId, attempt: payload.attempt },
      };
    case 'stage_completed':
      return {
        ...state,
        currentStageId: payload.stageId,
        activeStage: null,
        l2Memory: remember({
          stageId: payload.stageId,
          attempt: payload.attempt,
          outcome: 'success',
          summary: clip(
            `stage ${payload.stageId} attempt ${payload.attempt} completed` +
              (payload.verdict === undefined ? '' : ` with verdict ${payload.verdict}`),
          ),
        }),
      };
    case 'stage_failed':
      return {
        ...state,
        currentStageId: payload.stageId,
        activeStage: null,
        l2Memory: remember({
          stageId: payload.stageId,
          attempt: payload.attempt,
          outcome: 'failure',
          summary: clip(
            `stage ${payload.stageId} attempt ${payload.attempt} failed (${payload.category}): ${firstLine(payload.message)}`,
          ),
        }),
      };
    case 'transition_taken':
      return { ...state, currentStageId: payload.to ?? state.currentStageId };
    default:
      return assertNever(payload);
  }
}

/** Only the first line, clipped: a failure message can carry a check's raw output below it. */
function firstLine(message: string): string {
  const line = message.split('\n', 1)[0]!.trim();
  return line === '' ? 'no message' : line;
}

function clip(text: string): string {
  return text.length <= MAX_SUMMARY_CHARACTERS
    ? text
    : `${text.slice(0, MAX_SUMMARY_CHARACTERS - 1)}…`;
}
