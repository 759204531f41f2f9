import {
  approvalGrantsProjection,
  type ApprovalGrantsState,
} from '../approvals/approval-grants.js';
import type { OperatorMode } from '../approvals/approval-tier.js';
import type { JsonValue } from '../events/canonical-json.js';
import type { Projection } from '../events/projection.js';
import type { CorrexEvent } from '../event-catalog.js';
import type { InferenceResult } from '../inference/inference-result.js';
import { safeParseToolArguments } from '../inference/tool-call-arguments.js';
import type { FailureCategory } from '../sessions/failure-category.js';
import { sessionProjection, type SessionState } from '../sessions/session-projection.js';
import {
  toolSessionProjection,
  type ToolSessionState,
} from '../toolintent/tool-session-projection.js';
import type { ApprovalTier } from '../approvals/approval-tier.js';
import type { StageOutcome } from '../transitions/evaluate-transition.js';
import { artifactContentOf } from './artifact-content.js';
import { callFingerprint } from './call-fingerprint.js';
import { isInputEvent } from './input-events.js';
import { transcriptEntryOf, type TranscriptEntry } from './transcript.js';

export type CallStatus =
  'proposed' | 'awaiting_approval' | 'approved' | 'started' | 'interrupted' | 'done';

/** One proposed tool call of the current turn, as its events say it stands. */
export type CallRecord = {
  readonly callId: string;
  readonly tool: string;
  readonly argsRaw: string;
  /** The decoded arguments, or null when the text was not a JSON object. */
  readonly args: { readonly [key: string]: JsonValue } | null;
  readonly fingerprint: string;
  readonly status: CallStatus;
  /** Paths observed for this call since it was proposed (or since it was interrupted). */
  readonly observed: readonly string[];
  readonly tier: ApprovalTier | null;
  /** Resolved write targets from the assessment. */
  readonly writeTargets: readonly string[];
  /** Write targets and their pre-hashes from the latest `tool_call_started`. */
  readonly targets: readonly { readonly path: string; readonly sha256: string | null }[];
  readonly failed: boolean;
};

/** The current inference turn of the running stage attempt. */
export type TurnRecord = {
  readonly requestId: string;
  /** The sequence of `inference_requested`: the pack is built from what came before it. */
  readonly requestedSequence: number;
  readonly provider: string;
  readonly requestDigest: string;
  readonly status: 'requested' | 'answered' | 'failed' | 'acting';
  readonly result: InferenceResult | null;
  /** The `inference_completed` event, for artifact lineage. */
  readonly inferenceEventId: string | null;
  readonly failure: { readonly category: FailureCategory; readonly message: string } | null;
  readonly calls: readonly CallRecord[];
  readonly artifact: {
    readonly hash: string;
    readonly status: 'proposed' | 'rejected' | 'accepted';
  } | null;
};

/** The kernel's view of the stage attempt that is running. */
export type StageRunState = {
  readonly stageId: string;
  readonly attempt: number;
  readonly turns: number;
  readonly turn: TurnRecord | null;
  /** What the model saw and did in this attempt, for the next context pack. */
  readonly transcript: readonly TranscriptEntry[];
  /** Failures per call fingerprint in this attempt. */
  readonly failures: { readonly [fingerprint: string]: number };
};

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
  /** The timestamp of the last event: the only clock `decide` reads. */
  readonly lastTimestamp: string | null;
  /** The sequence of the last input event (a command or an effect's result). */
  readonly lastInputSequence: number;
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
    lastTimestamp: null,
    lastInputSequence: 0,
  }),
  evolve(state, event) {
    const next: KernelState = {
      ...evolveKernel(state, event as CorrexEvent),
      session: sessionProjection.evolve(state.session, event),
      tools: toolSessionProjection.evolve(state.tools, event),
      grants: approvalGrantsProjection.evolve(state.grants, event),
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
          artifact: { hash: payload.hash, status: 'accepted' },
        })),
        accepted: [...state.accepted, accepted],
      };
    }
    default:
      return state.run === null ? state : { ...state, run: evolveRun(state.run, event) };
  }
}

function evolveRun(run: StageRunState, event: CorrexEvent): StageRunState {
  const payload = event.payload;
  const entry = transcriptEntryOf(event);
  const withEntry = entry === null ? run : { ...run, transcript: [...run.transcript, entry] };
  switch (payload.type) {
    case 'inference_requested':
      return {
        ...withEntry,
        turns: run.turns + 1,
        turn: {
          requestId: payload.requestId,
          requestedSequence: event.sequence,
          provider: payload.provider,
          requestDigest: payload.requestDigest,
          status: 'requested',
          result: null,
          inferenceEventId: null,
          failure: null,
          calls: [],
          artifact: null,
        },
      };
    case 'inference_completed':
      return mapTurn(withEntry, payload.requestId, (turn) => ({
        ...turn,
        status: 'answered',
        result: payload.result,
        inferenceEventId: event.eventId,
      }));
    case 'inference_failed':
      return mapTurn(withEntry, payload.requestId, (turn) => ({
        ...turn,
        status: 'failed',
        failure: {
          category: payload.category === 'malformed_response' ? 'inference' : 'provider',
          message: payload.message,
        },
      }));
    case 'tool_call_proposed': {
      const parsed = safeParseToolArguments(payload.argsRaw);
      const args = parsed.ok ? (parsed.args as { [key: string]: JsonValue }) : null;
      const call: CallRecord = {
        callId: payload.callId,
        tool: payload.tool,
        argsRaw: payload.argsRaw,
        args,
        fingerprint: callFingerprint(payload.tool, args, payload.argsRaw),
        status: 'proposed',
        observed: [],
        tier: null,
        writeTargets: [],
        targets: [],
        failed: false,
      };
      return mapAnyTurn(withEntry, (turn) => ({
        ...turn,
        status: 'acting',
        calls: [...turn.calls, call],
      }));
    }
    case 'artifact_proposed':
      return mapAnyTurn(withEntry, (turn) => ({
        ...turn,
        status: 'acting',
        artifact: { hash: payload.hash, status: 'proposed' },
      }));
    case 'validation_failed':
      return mapAnyTurn(withEntry, (turn) =>
        turn.artifact?.hash === payload.hash
          ? { ...turn, artifact: { hash: payload.hash, status: 'rejected' } }
          : turn,
      );
    case 'tool_call_rejected':
      return finishCall(withEntry, payload.callId, true);
    case 'world_observed':
      return payload.callId === null
        ? withEntry
        : mapCall(withEntry, payload.callId, (call) => ({
            ...call,
            observed: [...call.observed, payload.observation.path],
          }));
    case 'tool_call_assessed':
      return mapCall(withEntry, payload.callId, (call) => ({
        ...call,
        tier: payload.tier,
        writeTargets: payload.targets
          .filter((target) => target.write && target.role !== 'URL')
          .map((target) => target.resolved),
      }));
    case 'approval_requested':
      return mapCall(withEntry, payload.callId, (call) => ({
        ...call,
        status: 'awaiting_approval',
      }));
    case 'approval_granted':
      return mapCall(withEntry, payload.callId, (call) => ({ ...call, status: 'approved' }));
    case 'approval_denied':
      return finishCall(withEntry, payload.callId, true);
    case 'tool_call_started':
      return mapCall(withEntry, payload.callId, (call) => ({
        ...call,
        status: 'started',
        targets: payload.targets,
      }));
    case 'tool_receipt':
      return finishCall(withEntry, payload.callId, payload.outcome !== 'succeeded');
    case 'tool_call_interrupted':
      return mapCall(withEntry, payload.callId, (call) => ({
        ...call,
        status: 'interrupted',
        observed: [],
      }));
    case 'tool_call_classified':
      if (payload.action === 'record') return finishCall(withEntry, payload.callId, false);
      if (payload.action === 'execute') {
        return mapCall(withEntry, payload.callId, (call) => ({ ...call, status: 'approved' }));
      }
      return withEntry;
    default:
      return withEntry;
  }
}

function finishCall(run: StageRunState, callId: string, failed: boolean): StageRunState {
  const call = run.turn?.calls.find((candidate) => candidate.callId === callId);
  if (call === undefined) return run;
  const mapped = mapCall(run, callId, (record) => ({ ...record, status: 'done', failed }));
  if (!failed) return mapped;
  return {
    ...mapped,
    failures: { ...run.failures, [call.fingerprint]: (run.failures[call.fingerprint] ?? 0) + 1 },
  };
}

function mapCall(
  run: StageRunState,
  callId: string,
  change: (call: CallRecord) => CallRecord,
): StageRunState {
  return mapAnyTurn(run, (turn) => ({
    ...turn,
    calls: turn.calls.map((call) => (call.callId === callId ? change(call) : call)),
  }));
}

function mapTurn(
  run: StageRunState,
  requestId: string,
  change: (turn: TurnRecord) => TurnRecord,
): StageRunState {
  return run.turn?.requestId === requestId ? { ...run, turn: change(run.turn) } : run;
}

function mapAnyTurn(run: StageRunState, change: (turn: TurnRecord) => TurnRecord): StageRunState {
  return run.turn === null ? run : { ...run, turn: change(run.turn) };
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
