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
import { BRIEF_PROBE } from '../features/brief-references/brief-state.js';
import { rebasedOntoFork } from '../features/fork-paths/fork-paths.js';

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
  /** A recorded redirect command the kernel has not answered yet. */
  readonly redirect: PendingRedirect | null;
  /** How many sub-sessions each stage started (the next child's id counts on from it). */
  readonly subagents: { readonly [stageId: string]: number };
  /** The latest `stage_failed`: its message goes into the next pack and names a workflow failure. */
  readonly lastStageFailure: RecordedStageFailure | null;
  /** The timestamp of the last event: the only clock `decide` reads. */
  readonly lastTimestamp: string | null;
  /** The sequence of the last input event (a command or an effect's result). */
  readonly lastInputSequence: number;
  /** Each registered feature's own slice (features/kernel-features.ts): budgets, checkpoints, … */
  readonly features: FeatureStates;
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
  // 14: review changes, project checks, brief references, claims and retry are slices of `features`.
  // 15: forkPaths (fork-paths-onto-workspace): a fork's state is rebased onto its workspace.
  // 16: the history of manifests recorded by reference (manifest-by-reference).
  // 17: a call's approval deadline and time-out are the approval timeout's slice (`features.approvalTimeout`).
  // 18: the transient waits feature's (empty) slice (`features.transientWaits`).
  // 19: canonicalOutput, forkPaths and manifests are slices of `features` (registered features).
  version: 19,
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
    redirect: null,
    subagents: {},
    lastStageFailure: null,
    lastTimestamp: null,
    lastInputSequence: 0,
    features: initialFeatures(),
  }),
  evolve(state, event) {
    const evolved = evolveKernel(state, event as CorrexEvent);
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
      redirect: evolved.redirect,
      subagents: evolved.subagents,
      lastStageFailure: evolved.lastStageFailure,
      lastTimestamp: event.timestamp,
      lastInputSequence: isInputEvent(event.payload) ? event.sequence : state.lastInputSequence,
      features: evolveFeatures(state.features, event as CorrexEvent, runOf(state)),
    };
    // A fork's copied prefix recorded the parent's workspace paths: from here on they are read
    // as the same paths in the fork's workspace (features/fork-paths).
    // The manifests stay as recorded: they say what each model call was sent, and the next
    // one is written against exactly that (a rebased item would read back as the parent's).
    if (event.payload.type === 'session_forked' && next.features.forkPaths) {
      const rebased = rebasedOntoFork(next, event.payload.parentWorkspace, event.payload.workspace);
      return {
        ...rebased,
        features: { ...rebased.features, manifests: next.features.manifests },
      };
    }
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
    workspace: state.session.workspace,
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
          run: startedRun(payload.stageId, payload.attempt, state.features.canonicalOutput),
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
    case 'inference_failed': // also the retry feature's (features/retry)
      return withRun(state, event);
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
    case 'brief_echo_compared': // also the brief feature's (features/brief-references)
      return withRun(state, event);
    case 'world_observed':
      // The session-start probe of the brief's paths is the brief feature's alone.
      return payload.callId === BRIEF_PROBE ? state : withRun(state, event);
    case 'dod_check_ran': // also the checks feature's (features/project-checks)
      return withRun(state, event);
    case 'approval_denied': // also the claims feature's (features/claims-against-log)
      return withRun(state, event);
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
    case 'session_configured': // also the canonical output's and fork paths' (features/)
      return withRun(state, event);
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
    case 'project_checks_detected':
    case 'brief_checked':
    case 'retry_delay_started':
    case 'retry_delay_elapsed':
    case 'approval_timed_out':
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
    redirect: state.redirect,
    subagents: state.subagents,
    lastStageFailure: state.lastStageFailure,
    lastTimestamp: state.lastTimestamp,
    lastInputSequence: state.lastInputSequence,
    features: state.features,
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
