import { sha256Hex, type Sha256 } from '../base/sha256.js';
import type { CorrexEvent } from '../event-catalog.js';
import {
  evaluateTransition,
  transitionStateOf,
  type StageOutcome,
} from '../transitions/evaluate-transition.js';
import { canCreateFiles } from './reference-strikes.js';
import { decideRedirect } from './redirect.js';
import { artifactApprovalKey } from '../validation/validate-artifact.js';
import type { Effect } from './effect.js';
import type { KernelConfig } from './kernel-config.js';
import { KernelInvariantError } from './kernel-errors.js';
import { kernelProjection, type KernelState } from './kernel-state.js';
import { buildStageRequest } from './stage-request.js';
import { checkCall, missingPaths } from './call-step.js';
import { evaluateChecks } from './dod-checks.js';
import { currentCall, isTurnFinished, stepStage } from './stage-turn.js';

type Payload = CorrexEvent['payload'];

/** An event `decide` derived: everything but the timestamp, which the runner stamps on append. */
export type DecidedEvent = {
  readonly eventId: string;
  readonly sessionId: string;
  readonly causationId: string;
  readonly correlationId: string | null;
  readonly payload: Payload;
};

export type Decision = {
  readonly events: readonly DecidedEvent[];
  /** What is pending once the events are applied: at most one effect runs at a time. */
  readonly effects: readonly Effect[];
  /** The state with the decided events folded in (provisional timestamps). */
  readonly state: KernelState;
};

// A decision is a handful of events; a loop this long is a kernel bug, not a long session.
const MAX_EVENTS_PER_DECISION = 10_000;

/**
 * The orchestrator's brain. `state` already holds `input` (a command's event or an effect's
 * result, as recorded); `decide` derives every event that follows from it until the session
 * needs the outside world again, and names that effect. Pure: no clock (the last recorded
 * timestamp is the only time it reads), no fresh ids (each event id is derived from the
 * session, the input's id and the event's index), no I/O. Replay calls it with the recorded
 * inputs and must get the recorded events back, byte for byte.
 */
export function decide(config: KernelConfig, state: KernelState, input: CorrexEvent): Decision {
  const events: DecidedEvent[] = [];
  let current = state;
  for (;;) {
    const payloads = step(config, current);
    if (payloads.length === 0) break;
    for (const payload of payloads) {
      if (events.length >= MAX_EVENTS_PER_DECISION) {
        throw new KernelInvariantError(
          `decide did not settle after ${MAX_EVENTS_PER_DECISION} events for input ${input.eventId}`,
        );
      }
      const decided: DecidedEvent = {
        eventId: derivedEventId(input.sessionId, input.eventId, events.length, config.sha256),
        sessionId: input.sessionId,
        causationId: input.eventId,
        correlationId:
          current.run === null ? null : `${current.run.stageId}.${current.run.attempt}`,
        payload,
      };
      events.push(decided);
      current = kernelProjection.evolve(current, {
        ...decided,
        sequence: current.session.lastSequence + 1,
        timestamp: input.timestamp,
        version: 1,
        position: 0,
        hash: '',
      });
    }
  }
  return { events, effects: pendingEffects(config, current), state: current };
}

/** `ev-` and 40 hex digits of SHA-256 over session, causing input and index. */
export function derivedEventId(
  sessionId: string,
  causationId: string,
  index: number,
  sha256: Sha256 = sha256Hex,
): string {
  return `ev-${sha256(`${sessionId}\n${causationId}\n${index}`).slice(0, 40)}`;
}

/** The events that move the session one step on; empty when it waits for an input. */
export function step(config: KernelConfig, state: KernelState): Payload[] {
  const session = state.session;
  if (session.status === 'created') {
    if (session.workflowId !== config.workflow.id) {
      return [
        {
          type: 'workflow_failed',
          category: 'transition',
          message: `session asks for workflow ${session.workflowId ?? '?'} but the kernel runs ${config.workflow.id}`,
        },
      ];
    }
    return [
      {
        type: 'workflow_started',
        workflowId: config.workflow.id,
        firstStageId: config.workflow.initialStage,
      },
    ];
  }
  if (session.status !== 'running') return [];
  if (state.ending !== null) {
    const finalStageId = session.lastStageId ?? config.workflow.initialStage;
    return state.ending.result === 'completed'
      ? [{ type: 'workflow_completed', finalStageId }]
      : [
          {
            type: 'workflow_failed',
            category: state.ending.category,
            message: state.ending.message,
            stageId: finalStageId,
          },
        ];
  }
  if (state.stuck !== null) {
    return [
      {
        type: 'workflow_failed',
        category: 'transition',
        message: state.stuck,
        ...(session.lastStageId === null ? {} : { stageId: session.lastStageId }),
      },
    ];
  }
  if (state.redirect !== null) return decideRedirect(config, state, state.redirect);
  if (state.outcome !== null) {
    const at = transitionStateOf(session);
    if (at === null)
      return [
        {
          type: 'workflow_failed',
          category: 'transition',
          message: 'a stage outcome with no stage',
        },
      ];
    return [
      evaluateTransition(config.workflow, at, inPlace(config, at.stageId, state.outcome)).event,
    ];
  }
  if (state.run !== null) return stepStage(config, state, state.run);
  if (session.nextStage !== null) {
    return [
      {
        type: 'stage_started',
        stageId: session.nextStage.stageId,
        attempt: session.nextStage.attempt,
      },
    ];
  }
  return [];
}

/** Spec 001: a capability-gated failure retries in place when the stage holds the needed tool. */
function inPlace(config: KernelConfig, stageId: string, outcome: StageOutcome): StageOutcome {
  if (outcome.kind !== 'failed' || outcome.category !== 'workspace_precondition') return outcome;
  const stage = config.workflow.stages.get(stageId);
  return stage !== undefined && canCreateFiles(stage, config.tools)
    ? { ...outcome, retryInPlace: true }
    : outcome;
}

/** The effect the session is waiting on, read from its state alone (also after a restart). */
export function pendingEffects(config: KernelConfig, state: KernelState): Effect[] {
  const run = state.run;
  if (state.session.status !== 'running' || run === null) return [];
  const delay = state.retryDelay;
  if (delay?.started === true && (run.turn === null || isTurnFinished(run.turn))) {
    return [{ type: 'wait', until: delay.until, delayMs: delay.delayMs }];
  }
  const subagent = run.subagent;
  if (subagent?.status === 'running') {
    return [
      {
        type: 'run_subagent',
        childSessionId: subagent.childSessionId,
        workflowId: subagent.workflowId,
        task: subagent.task,
        stageId: run.stageId,
        attempt: run.attempt,
        startedEventId: subagent.eventId,
      },
    ];
  }
  if (run.turn === null) return [];
  const turn = run.turn;
  const stage = config.workflow.stages.get(run.stageId);
  if (stage === undefined || isTurnFinished(turn)) return [];
  if (turn.status === 'requested') {
    const built = buildStageRequest(
      config,
      state,
      stage,
      run,
      turn.requestId,
      turn.requestedSequence,
    );
    if (!built.ok || built.requested.requestDigest !== turn.requestDigest) {
      throw new KernelInvariantError(
        `the pending request ${turn.requestId} cannot be rebuilt as recorded (digest ${turn.requestDigest}); was the kernel configuration changed?`,
      );
    }
    return [
      {
        type: 'infer',
        requestId: turn.requestId,
        provider: turn.provider,
        request: built.request,
        requestDigest: turn.requestDigest,
      },
    ];
  }
  if (turn.status !== 'acting') return [];
  if (turn.artifact !== null) {
    if (turn.artifact.status === 'proposed' && turn.artifact.approval?.status === 'pending')
      return [{ type: 'await_approval', callId: artifactApprovalKey(turn.artifact.hash) }];
    if (turn.artifact.status !== 'accepted' || stage.definitionOfDone === undefined) return [];
    const checks = evaluateChecks(stage, run.checks, state.written, state.session.workspace ?? '/');
    return checks.done
      ? []
      : [{ type: 'run_analysis', stageId: run.stageId, attempt: run.attempt, ...checks.next }];
  }
  const call = currentCall(turn);
  if (call === undefined) return [];
  switch (call.status) {
    case 'proposed': {
      const checked = checkCall(config, state, stage, run, call);
      const paths = checked.ok ? missingPaths(call, checked.paths) : [];
      return paths.length > 0 ? [{ type: 'probe', callId: call.callId, paths }] : [];
    }
    case 'interrupted': {
      const paths = missingPaths(
        call,
        call.targets.map((target) => target.path),
      );
      return paths.length > 0 ? [{ type: 'probe', callId: call.callId, paths }] : [];
    }
    case 'started':
      return [
        {
          type: 'execute',
          callId: call.callId,
          tool: call.tool,
          args: call.args ?? {},
          targets: call.targets,
        },
      ];
    case 'awaiting_approval':
      return [{ type: 'await_approval', callId: call.callId }];
    case 'approved':
    case 'done':
      return [];
  }
}
