import { DECISIONS_FROM_CANONICAL_OUTPUT, RETRY_FAILED_SESSION } from '../config/kernel-flags.js';
import { isSummaryRequestId } from '../features/journal/summary-request-id.js';
import {
  evolveFeatures,
  initialFeatures,
  type FeatureCore,
  type FeatureStates,
} from '../features/kernel-features.js';
import type { KernelConfig } from '../config/kernel-config.js';
import {
  approvalGrantsProjection,
  type ApprovalGrantsState,
} from '../../approvals/approval-grants.js';
import type { OperatorMode } from '../../approvals/approval-tier.js';
import { assertNever } from '../../base/assert-never.js';
import type { JsonValue } from '../../events/canonical-json.js';
import type { Projection } from '../../events/projection.js';
import type { CorrexEvent } from '../../event-catalog.js';
import { sessionProjection, type SessionState } from '../../sessions/session-projection.js';
import {
  toolSessionProjection,
  type ToolSessionState,
} from '../../toolintent/tool-session-projection.js';
import type { FailureCategory } from '../../sessions/failure-category.js';
import type { StageOutcome } from '../../transitions/evaluate-transition.js';
import { answerTextOf, artifactContentOf } from './artifact-content.js';
import { isInputEvent } from './input-events.js';
import { missingReferences } from './reference-strikes.js';
import type { ProjectCheck } from '../../validation/project-check.js';
import type { BriefReference } from '../../context/brief-references.js';
import { isFileChangeTool, type RecordedChange } from './recorded-changes.js';

/** The call id of the session-start probe of the brief's paths (no tool call has it). */
export const BRIEF_PROBE = 'brief';
import { countReferenceBlocks, evolveRun, startedRun, type StageRunState } from './stage-run.js';
import {
  layeredHas,
  layeredRecord,
  layeredSet,
  type LayeredRecord,
} from '../../base/layered-record.js';

export type { ActingTurn, CallRecord, CallStatus, StageRunState, TurnRecord } from './stage-run.js';

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

/** How the workflow ends, once a transition said so. */
export type WorkflowEnding = {
  readonly result: 'completed' | 'failed';
  readonly category: FailureCategory;
  readonly message: string;
};

/**
 * Where the workflow stands, one phase at a time: nothing started; between stages (the session
 * projection's `nextStage` names what starts next); a stage attempt running; a stage just ended,
 * its transition not yet taken; a transition that ends the workflow, or one that could not be
 * taken; and finished. The lifecycle (running, paused, cancelled) is the session projection's.
 */
export type KernelPhase =
  | { readonly kind: 'not_started' }
  | { readonly kind: 'between_stages' }
  | { readonly kind: 'in_stage'; readonly run: StageRunState }
  | { readonly kind: 'transitioning'; readonly outcome: StageOutcome }
  | { readonly kind: 'ending'; readonly ending: WorkflowEnding }
  | { readonly kind: 'stuck'; readonly message: string }
  | { readonly kind: 'final' };

/**
 * The orchestration state: the session projection (lifecycle, stages, cycles, approvals), the
 * plane-2 tool view (observations, reads, egress), the approval grants, the workflow's phase,
 * and what spans phases. Folded from the session's events only; plain JSON.
 */
export type KernelState = {
  readonly session: SessionState;
  readonly tools: ToolSessionState;
  readonly grants: ApprovalGrantsState;
  readonly mode: OperatorMode;
  readonly taskEventId: string | null;
  readonly phase: KernelPhase;
  readonly accepted: readonly AcceptedArtifact[];
  readonly steering: readonly SteeringEntry[];
  /**
   * Real paths of files the session's tool calls wrote, in the order first written (definition-
   * of-done diagnostics count only these). Layered: it grows with every distinct path written.
   */
  readonly written: LayeredRecord<true>;
  /**
   * A delay a provider asked for (`retryAfterMs`): no model call is requested before `until`
   * (the failure's recorded timestamp plus the delay), in this attempt or the next one.
   * `started` once `retry_delay_started` is recorded; cleared by `retry_delay_elapsed`.
   */
  readonly retryDelay: RetryDelay | null;
  /** A recorded redirect command the kernel has not answered yet. */
  readonly redirect: PendingRedirect | null;
  /** How many sub-sessions each stage started (the next child's id counts on from it). */
  readonly subagents: { readonly [stageId: string]: number };
  /** The project's checks as recorded at session start (`project_checks_detected`); null before. */
  readonly projectChecks: RecordedProjectChecks | null;
  /** Write targets of calls that were denied, with the denial's sequence (claims are checked against them). */
  readonly deniedWrites: readonly DeniedWrite[];
  /** How many `exec` calls started in the session (their file changes may not be itemized). */
  readonly commandsRan: number;
  /** Every recorded check run of the session, in order (what `show` and the review pack report). */
  readonly checkRuns: readonly RecordedCheckRun[];
  /** The task's references and missing paths (`brief_checked`); null before. */
  readonly brief: RecordedBrief | null;
  /** What the session-start probe of the brief's paths found, by path. */
  readonly briefObservations: { readonly [path: string]: BriefObservation };
  /** The latest plan-versus-brief comparison (`brief_echo_compared`). */
  readonly briefEcho: RecordedBriefEcho | null;
  /** Successful `write_file`/`edit_file` calls with their arguments: the diff a reviewer sees. */
  readonly changes: readonly RecordedChange[];
  /** The latest `stage_failed`: its message goes into the next pack and names a workflow failure. */
  readonly lastStageFailure: RecordedStageFailure | null;
  /** The timestamp of the last event: the only clock `decide` reads. */
  readonly lastTimestamp: string | null;
  /** The sequence of the last input event (a command or an effect's result). */
  readonly lastInputSequence: number;
  /** Each registered feature's own slice (features/kernel-features.ts): budgets, checkpoints, … */
  readonly features: FeatureStates;
  /** Whether the session was recorded with `retry-failed-session`: a failed one may be retried. */
  readonly acceptsRetry: boolean;
  /** Whether the session was recorded with `decisions-from-canonical-output` (its transcripts render canonical JSON). */
  readonly canonicalOutput: boolean;
};

export type RecordedProjectChecks = {
  readonly checks: readonly ProjectCheck[];
  readonly sequence: number;
};

export type RecordedBrief = {
  readonly references: readonly BriefReference[];
  readonly missing: readonly { readonly path: string; readonly observedSequence: number }[];
  readonly sequence: number;
};

export type BriefObservation = { readonly exists: boolean; readonly sequence: number };

export type RecordedBriefEcho = {
  readonly stageId: string;
  readonly artifactHash: string;
  readonly dropped: readonly BriefReference[];
  readonly invented: readonly BriefReference[];
  readonly sequence: number;
};

export type DeniedWrite = {
  readonly path: string;
  readonly callId: string;
  readonly sequence: number;
};

export type RecordedCheckRun = {
  readonly stageId: string;
  readonly attempt: number;
  readonly name: string;
  readonly command: string;
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly sequence: number;
};

export type RecordedStageFailure = {
  readonly stageId: string;
  readonly attempt: number;
  readonly message: string;
  readonly eventId: string;
  readonly sequence: number;
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
  // 5: checkpoints (stage-checkpoints) and acceptsRetry (retry-failed-session).
  // 6: calls no longer carry a fingerprint (it is hashed only once a call fails).
  // 7: the path maps (the tool session's observations and reads, written files) are layered records.
  // 8: a stage attempt holds its pending model-written journal summary.
  // 9: canonicalOutput (decisions-from-canonical-output), held by the state and each stage attempt.
  // 10: a stage attempt counts its calls retried after transient failures and their waits.
  // 11: the budget and the stage checkpoints are slices of `features` (registered features).
  // 12: the critique outcomes are a slice of `features`.
  // 13: the follow-up turns slice (`features.turns`, flag follow-up-turns).
  version: 13,
  initial: () => ({
    session: sessionProjection.initial(),
    tools: toolSessionProjection.initial(),
    grants: approvalGrantsProjection.initial(),
    mode: 'prompt',
    taskEventId: null,
    phase: { kind: 'not_started' },
    accepted: [],
    steering: [],
    written: layeredRecord(),
    retryDelay: null,
    redirect: null,
    subagents: {},
    projectChecks: null,
    deniedWrites: [],
    commandsRan: 0,
    checkRuns: [],
    lastStageFailure: null,
    brief: null,
    briefObservations: {},
    briefEcho: null,
    changes: [],
    lastTimestamp: null,
    lastInputSequence: 0,
    features: initialFeatures(),
    acceptsRetry: false,
    canonicalOutput: false,
  }),
  evolve(state, event) {
    const evolved = evolveKernel(state, event as CorrexEvent);
    const payload = (event as CorrexEvent).payload;
    // Every field listed, not `{ ...evolved, ... }`: V8 copies a spread of this many fields
    // with overrides on its slow path (about 5 µs against 0.1), twice for every replayed event.
    const next: KernelState = {
      session: sessionProjection.evolve(state.session, event),
      tools: toolSessionProjection.evolve(state.tools, event),
      grants: approvalGrantsProjection.evolve(state.grants, event),
      mode: evolved.mode,
      taskEventId: evolved.taskEventId,
      phase: evolved.phase,
      accepted: evolved.accepted,
      steering: evolved.steering,
      written: writtenBy(state.written, event as CorrexEvent),
      retryDelay: evolved.retryDelay,
      redirect: evolved.redirect,
      subagents: evolved.subagents,
      projectChecks: evolved.projectChecks,
      deniedWrites: evolved.deniedWrites,
      commandsRan:
        payload.type === 'tool_call_started' && payload.tool === 'exec'
          ? state.commandsRan + 1
          : state.commandsRan,
      checkRuns: evolved.checkRuns,
      brief: evolved.brief,
      briefObservations: evolved.briefObservations,
      briefEcho: evolved.briefEcho,
      changes:
        payload.type === 'tool_receipt' &&
        payload.outcome === 'succeeded' &&
        isFileChangeTool(payload.tool)
          ? [...state.changes, { tool: payload.tool, args: payload.args, sequence: event.sequence }]
          : state.changes,
      lastStageFailure: evolved.lastStageFailure,
      lastTimestamp: event.timestamp,
      lastInputSequence: isInputEvent(event.payload) ? event.sequence : state.lastInputSequence,
      features: evolveFeatures(state.features, event as CorrexEvent),
      acceptsRetry: evolved.acceptsRetry,
      canonicalOutput: evolved.canonicalOutput,
    };
    return next;
  },
};

/** What the features' hooks read of the state (see features/kernel-features.ts). */
export function featureCoreOf(config: KernelConfig, state: KernelState): FeatureCore {
  return {
    config,
    mode: state.mode,
    lastTimestamp: state.lastTimestamp,
    lastSequence: state.session.lastSequence,
    features: state.features,
  };
}

/** The running stage attempt, or null outside one. */
export function runOf(state: KernelState): StageRunState | null {
  return state.phase.kind === 'in_stage' ? state.phase.run : null;
}

/** Whether the last event is an input that `decide` has not answered yet (it may answer nothing). */
export function awaitsDecision(state: KernelState): boolean {
  return state.lastInputSequence > 0 && state.lastInputSequence === state.session.lastSequence;
}

/** The kernel's own part of the fold; every event type is named. */
function evolveKernel(state: KernelState, event: CorrexEvent): KernelState {
  const payload = event.payload;
  switch (payload.type) {
    case 'session_created':
      return { ...state, mode: payload.mode, taskEventId: event.eventId };
    case 'workflow_started':
      return { ...state, phase: { kind: 'between_stages' } };
    case 'stage_started':
      return {
        ...state,
        phase: {
          kind: 'in_stage',
          run: startedRun(payload.stageId, payload.attempt, state.canonicalOutput),
        },
      };
    case 'stage_completed':
      return {
        ...state,
        phase: {
          kind: 'transitioning',
          outcome: {
            kind: 'completed',
            ...(payload.verdict === undefined ? {} : { verdict: payload.verdict }),
          },
        },
      };
    case 'stage_failed':
      return {
        ...state,
        lastStageFailure: {
          stageId: payload.stageId,
          attempt: payload.attempt,
          message: payload.message,
          eventId: event.eventId,
          sequence: event.sequence,
        },
        phase: { kind: 'transitioning', outcome: { kind: 'failed', category: payload.category } },
      };
    case 'transition_taken': {
      if (payload.end === undefined) return { ...state, phase: { kind: 'between_stages' } };
      const previous = state.phase.kind === 'transitioning' ? state.phase.outcome : null;
      return {
        ...state,
        phase: {
          kind: 'ending',
          ending: {
            result: payload.end,
            category: previous?.kind === 'failed' ? previous.category : 'validation',
            message: `stage ${payload.from} ended the workflow (${payload.condition}, edge ${payload.edge})`,
          },
        },
      };
    }
    case 'transition_rejected':
      return { ...state, phase: { kind: 'stuck', message: payload.message } };
    case 'workflow_completed':
    case 'workflow_failed':
    case 'workflow_cancelled':
      return { ...state, phase: { kind: 'final' } };
    case 'inference_failed': {
      const next = withRun(state, event);
      const delayMs = payload.retryAfterMs ?? 0;
      // A failed summary falls back to lines at once: no delay before the next call.
      if (delayMs <= 0 || isSummaryRequestId(payload.requestId)) return next;
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
      const run = runOf(state);
      if (run === null) return state;
      const missing = missingReferences(payload, state.tools.observations);
      return inStage(state, countReferenceBlocks(evolveRun(run, event), payload.callId, missing));
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
      return { ...state, redirect: null, phase: { kind: 'between_stages' } };
    case 'subagent_started':
      return {
        ...withRun(state, event),
        subagents: {
          ...state.subagents,
          [payload.stageId]: (state.subagents[payload.stageId] ?? 0) + 1,
        },
      };
    case 'brief_checked':
      return {
        ...state,
        brief: {
          references: payload.references,
          missing: payload.missing,
          sequence: event.sequence,
        },
      };
    case 'brief_echo_compared':
      return {
        ...withRun(state, event),
        briefEcho: {
          stageId: payload.stageId,
          artifactHash: payload.artifactHash,
          dropped: payload.dropped,
          invented: payload.invented,
          sequence: event.sequence,
        },
      };
    case 'world_observed':
      return payload.callId === BRIEF_PROBE
        ? {
            ...state,
            briefObservations: {
              ...state.briefObservations,
              [payload.observation.path]: {
                exists: payload.observation.kind !== 'missing',
                sequence: event.sequence,
              },
            },
          }
        : withRun(state, event);
    case 'project_checks_detected':
      return { ...state, projectChecks: { checks: payload.checks, sequence: event.sequence } };
    case 'dod_check_ran':
      return {
        ...withRun(state, event),
        checkRuns: [
          ...state.checkRuns,
          {
            stageId: payload.stageId,
            attempt: payload.attempt,
            name: payload.name,
            command: payload.command,
            passed: payload.outcome === 'completed' && payload.exitCode === 0,
            exitCode: payload.exitCode,
            sequence: event.sequence,
          },
        ],
      };
    case 'approval_denied': {
      const run = runOf(state);
      const turn = run?.turn;
      const call =
        turn?.status === 'acting' ? turn.calls.find((c) => c.callId === payload.callId) : undefined;
      const denied = (call?.writeTargets ?? []).map((path) => ({
        path,
        callId: payload.callId,
        sequence: event.sequence,
      }));
      return denied.length === 0
        ? withRun(state, event)
        : { ...withRun(state, event), deniedWrites: [...state.deniedWrites, ...denied] };
    }
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
      const turn = runOf(state)?.turn;
      const accepted: AcceptedArtifact = {
        hash: payload.hash,
        kind: payload.kind,
        stageId: payload.stageId,
        content: turn?.status === 'acting' ? artifactContentOf(answerTextOf(turn.result)) : null,
        eventId: event.eventId,
        sequence: event.sequence,
      };
      return { ...withRun(state, event), accepted: [...state.accepted, accepted] };
    }
    case 'session_configured':
      return {
        ...withRun(state, event),
        acceptsRetry: recordsFlag(payload.configuration.flags, RETRY_FAILED_SESSION.name),
        canonicalOutput: recordsFlag(
          payload.configuration.flags,
          DECISIONS_FROM_CANONICAL_OUTPUT.name,
        ),
      };
    case 'session_retried':
      // The session runs again: the stage that failed starts its new attempt next.
      return { ...state, phase: { kind: 'between_stages' } };
    case 'turn_requested':
      // A follow-up turn: its workflow starts again (features/follow-up-turns), in its mode.
      return { ...state, mode: payload.mode ?? state.mode, phase: { kind: 'not_started' } };
    case 'turn_workspace_checked':
    case 'turn_reply_recorded':
      // Folded by the follow-up turns feature's slice.
      return state;
    // Folded into the running stage attempt only.
    case 'orchestration_paused':
    case 'orchestration_resumed':
    case 'lifecycle_rejected':
    case 'artifact_proposed':
    case 'validation_failed':
    case 'approval_requested':
    case 'approval_granted':
    case 'approval_timed_out':
    case 'approval_grant_added':
    case 'approval_grant_revoked':
    case 'approval_bypassed':
    case 'tool_call_proposed':
    case 'tool_call_started':
    case 'tool_receipt':
    case 'pre_tool_use_hooks_ran':
    case 'egress_allowlist_changed':
    case 'workspace_restored':
    case 'inference_requested':
    case 'inference_completed':
    case 'tool_call_rejected':
    case 'tool_call_interrupted':
    case 'tool_call_classified':
    case 'language_diagnostics_recorded':
    case 'journal_compacted':
    case 'journal_summary_requested':
    case 'subagent_finished':
    case 'review_findings_recorded': // also the critique feature's (features/critique-outcomes)
    case 'critique_outcomes_correlated':
      return withRun(state, event);
    case 'budget_exhausted':
    case 'budget_raised':
    case 'stage_checkpoint_recorded':
    case 'stage_start_reconciled':
      // Folded by their features' slices (see features/kernel-features.ts).
      return state;
    case 'session_forked': // the fork's own session_created already names its workspace and mode
      return state;
    default:
      return assertNever(payload, 'event folded into the kernel state');
  }
}

function withRun(state: KernelState, event: CorrexEvent): KernelState {
  const run = runOf(state);
  return run === null ? state : inStage(state, evolveRun(run, event));
}

function inStage(state: KernelState, run: StageRunState): KernelState {
  // Listed, not spread: this runs for nearly every event (see evolve).
  return {
    session: state.session,
    tools: state.tools,
    grants: state.grants,
    mode: state.mode,
    taskEventId: state.taskEventId,
    phase: { kind: 'in_stage', run },
    accepted: state.accepted,
    steering: state.steering,
    written: state.written,
    retryDelay: state.retryDelay,
    redirect: state.redirect,
    subagents: state.subagents,
    projectChecks: state.projectChecks,
    deniedWrites: state.deniedWrites,
    commandsRan: state.commandsRan,
    checkRuns: state.checkRuns,
    brief: state.brief,
    briefObservations: state.briefObservations,
    briefEcho: state.briefEcho,
    changes: state.changes,
    lastStageFailure: state.lastStageFailure,
    lastTimestamp: state.lastTimestamp,
    lastInputSequence: state.lastInputSequence,
    features: state.features,
    acceptsRetry: state.acceptsRetry,
    canonicalOutput: state.canonicalOutput,
  };
}

function writtenBy(written: LayeredRecord<true>, event: CorrexEvent): LayeredRecord<true> {
  const payload = event.payload;
  let targets: readonly string[];
  if (payload.type === 'tool_receipt' && payload.outcome === 'succeeded')
    targets = payload.files.filter((file) => file.access === 'write').map((file) => file.path);
  // An interrupted call found applied (its driver died after the write, before the receipt) is
  // recorded without a receipt: its targets were written all the same.
  else if (payload.type === 'tool_call_classified' && payload.classification === 'applied')
    targets = payload.targets.map((target) => target.path);
  else return written;
  let next = written;
  for (const path of targets) if (!layeredHas(next, path)) next = layeredSet(next, path, true);
  return next;
}

/** Whether a recorded configuration's `flags` list names `flag`. */
function recordsFlag(flags: unknown, flag: string): boolean {
  return Array.isArray(flags) && flags.includes(flag);
}
