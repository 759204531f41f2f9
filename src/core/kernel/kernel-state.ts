import {
  approvalGrantsProjection,
  type ApprovalGrantsState,
} from '../approvals/approval-grants.js';
import type { OperatorMode } from '../approvals/approval-tier.js';
import type { JsonValue } from '../events/canonical-json.js';
import type { Projection } from '../events/projection.js';
import type { CorrexEvent } from '../event-catalog.js';
import { sessionProjection, type SessionState } from '../sessions/session-projection.js';
import {
  toolSessionProjection,
  type ToolSessionState,
} from '../toolintent/tool-session-projection.js';
import type { FailureCategory } from '../sessions/failure-category.js';
import type { StageOutcome } from '../transitions/evaluate-transition.js';
import { artifactContentOf } from './artifact-content.js';
import { isInputEvent } from './input-events.js';
import { countReferenceBlocks, missingReferences } from './reference-strikes.js';
import { evolveRun, mapAnyTurn, type StageRunState, type TurnRecord } from './stage-run.js';

export type { CallRecord, CallStatus, StageRunState, TurnRecord } from './stage-run.js';

export type AcceptedArtifact = {
  readonly hash: string;
  readonly kind: string;
  readonly stageId: string;
  readonly content: JsonValue;
  readonly eventId: string;
  readonly sequence: number;
};

export type SteeringEntry = {
  readonly eventId: string;
  readonly sequence: number;
  readonly content: string;
  readonly stageId: string | null;
};

/**
 * The orchestration state: the session projection (lifecycle, stages, cycles, approvals), the
 * plane-2 tool view (observations, reads, egress), the approval grants, and the kernel's own
 * stage-turn bookkeeping. Folded from the session's events only; plain JSON.
 */
export type KernelState = {
  readonly session: SessionState;
  readonly tools: ToolSessionState;
  readonly grants: ApprovalGrantsState;
  readonly mode: OperatorMode;
  readonly taskEventId: string | null;
  readonly run: StageRunState | null;
  /** The outcome of the stage that just finished, until its transition is recorded. */
  readonly outcome: StageOutcome | null;
  /** Set by a `transition_taken` that ends the workflow. */
  readonly ending: {
    readonly result: 'completed' | 'failed';
    readonly category: FailureCategory;
    readonly message: string;
  } | null;
  /** Set by `transition_rejected`: the workflow cannot move and fails. */
  readonly stuck: string | null;
  readonly accepted: readonly AcceptedArtifact[];
  readonly steering: readonly SteeringEntry[];
  /** Real paths of files the session's tool calls wrote (definition-of-done diagnostics count only these). */
  readonly written: readonly string[];
  /**
   * A delay a provider asked for (`retryAfterMs`): no model call is requested before `until`
   * (the failure's recorded timestamp plus the delay). `started` once `retry_delay_started` is
   * recorded; cleared by `retry_delay_elapsed`.
   */
  readonly retryDelay: RetryDelay | null;
  /** A recorded redirect the kernel has not answered yet. */
  readonly redirect: PendingRedirect | null;
  /** How many sub-sessions each stage started (the next child's id counts on from it). */
  readonly subagents: { readonly [stageId: string]: number };
  /** The timestamp of the last event: the only clock `decide` reads. */
  readonly lastTimestamp: string | null;
  /** The sequence of the last input event (a command or an effect's result). */
  readonly lastInputSequence: number;
};

export type PendingRedirect = {
  readonly to: string;
  readonly by: string;
  readonly reason?: string;
};

export type RetryDelay = {
  readonly requestId: string;
  readonly provider: string;
  readonly delayMs: number;
  readonly until: string;
  readonly started: boolean;
};

export const kernelProjection: Projection<KernelState, CorrexEvent['payload']> = {
  name: 'kernel',
  version: 1,
  initial: () => ({
    session: sessionProjection.initial(),
    tools: toolSessionProjection.initial(),
    grants: approvalGrantsProjection.initial(),
    mode: 'prompt',
    taskEventId: null,
    run: null,
    outcome: null,
    ending: null,
    stuck: null,
    accepted: [],
    steering: [],
    written: [],
    retryDelay: null,
    redirect: null,
    subagents: {},
    lastTimestamp: null,
    lastInputSequence: 0,
  }),
  evolve(state, event) {
    const next: KernelState = {
      ...evolveKernel(state, event as CorrexEvent),
      session: sessionProjection.evolve(state.session, event),
      tools: toolSessionProjection.evolve(state.tools, event),
      grants: approvalGrantsProjection.evolve(state.grants, event),
      written: writtenBy(state.written, event as CorrexEvent),
      lastTimestamp: event.timestamp,
      lastInputSequence: isInputEvent(event.payload) ? event.sequence : state.lastInputSequence,
    };
    return next;
  },
};

/** Whether the last event is an input that `decide` has not answered yet (it may answer nothing). */
export function awaitsDecision(state: KernelState): boolean {
  return state.lastInputSequence > 0 && state.lastInputSequence === state.session.lastSequence;
}

function evolveKernel(state: KernelState, event: CorrexEvent): KernelState {
  const payload = event.payload;
  switch (payload.type) {
    case 'session_created':
      return { ...state, mode: payload.mode, taskEventId: event.eventId };
    case 'stage_started':
      return {
        ...state,
        run: {
          stageId: payload.stageId,
          attempt: payload.attempt,
          turns: 0,
          turn: null,
          transcript: [],
          failures: {},
          referenceBlocks: {},
          checks: [],
          subagent: null,
        },
      };
    case 'stage_completed':
      return {
        ...state,
        run: null,
        outcome: {
          kind: 'completed',
          ...(payload.verdict === undefined ? {} : { verdict: payload.verdict }),
        },
      };
    case 'stage_failed':
      return { ...state, run: null, outcome: { kind: 'failed', category: payload.category } };
    case 'transition_taken': {
      const previous = state.outcome;
      const ending =
        payload.end === undefined
          ? null
          : {
              result: payload.end,
              category: previous?.kind === 'failed' ? previous.category : ('validation' as const),
              message: `stage ${payload.from} ended the workflow (${payload.condition}, edge ${payload.edge})`,
            };
      return { ...state, outcome: null, ending };
    }
    case 'transition_rejected':
      return { ...state, outcome: null, stuck: payload.message };
    case 'inference_failed': {
      const delayMs = payload.retryAfterMs ?? 0;
      const next = state.run === null ? state : { ...state, run: evolveRun(state.run, event) };
      if (delayMs <= 0) return next;
      // The recorded failure's timestamp is the only clock: the delay runs from it.
      const until = new Date(Date.parse(event.timestamp) + delayMs).toISOString();
      return {
        ...next,
        retryDelay: {
          requestId: payload.requestId,
          provider: payload.provider,
          delayMs,
          until,
          started: false,
        },
      };
    }
    case 'tool_call_assessed': {
      if (state.run === null) return state;
      const run = evolveRun(state.run, event);
      const missing = missingReferences(payload, state.tools.observations);
      return { ...state, run: countReferenceBlocks(run, payload.callId, missing) };
    }
    case 'redirect_requested':
      return {
        ...state,
        redirect: {
          to: payload.to,
          by: payload.by,
          ...(payload.reason === undefined ? {} : { reason: payload.reason }),
        },
      };
    case 'redirect_rejected':
      return { ...state, redirect: null };
    case 'stage_redirected':
      return { ...state, redirect: null, run: null };
    case 'subagent_started':
      return {
        ...state,
        run: state.run === null ? null : evolveRun(state.run, event),
        subagents: {
          ...state.subagents,
          [payload.stageId]: (state.subagents[payload.stageId] ?? 0) + 1,
        },
      };
    case 'retry_delay_started':
      return state.retryDelay === null
        ? state
        : { ...state, retryDelay: { ...state.retryDelay, started: true } };
    case 'retry_delay_elapsed':
      return { ...state, retryDelay: null };
    case 'steering_note_added':
      return {
        ...state,
        steering: [
          ...state.steering,
          {
            eventId: event.eventId,
            sequence: event.sequence,
            content: payload.content,
            stageId: payload.stageId ?? null,
          },
        ],
      };
    case 'artifact_accepted': {
      const content = state.run?.turn?.result
        ? artifactContentOf(state.run.turn.result.text)
        : null;
      const accepted: AcceptedArtifact = {
        hash: payload.hash,
        kind: payload.kind,
        stageId: payload.stageId,
        content,
        eventId: event.eventId,
        sequence: event.sequence,
      };
      return {
        ...withTurn(state, event, (turn) => ({
          ...turn,
          artifact: {
            hash: payload.hash,
            status: 'accepted',
            approval: turn.artifact?.approval ?? null,
          },
        })),
        accepted: [...state.accepted, accepted],
      };
    }
    default:
      return state.run === null ? state : { ...state, run: evolveRun(state.run, event) };
  }
}

function withTurn(
  state: KernelState,
  event: CorrexEvent,
  change: (turn: TurnRecord) => TurnRecord,
): KernelState {
  if (state.run === null) return state;
  const run = evolveRun(state.run, event);
  return { ...state, run: mapAnyTurn(run, change) };
}

function writtenBy(written: readonly string[], event: CorrexEvent): readonly string[] {
  if (event.payload.type !== 'tool_receipt' || event.payload.outcome !== 'succeeded')
    return written;
  const paths = event.payload.files
    .filter((file) => file.access === 'write' && !written.includes(file.path))
    .map((file) => file.path);
  return paths.length === 0 ? written : [...written, ...paths];
}
