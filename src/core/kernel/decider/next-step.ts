import { assertNever } from '../../base/assert-never.js';
import {
  evaluateTransition,
  transitionStateOf,
  type StageOutcome,
} from '../../transitions/evaluate-transition.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { featureCoreOf, type KernelState } from './kernel-state.js';
import { canCreateFiles } from './reference-strikes.js';
import { decideRedirect } from '../features/redirect/redirect.js';
import { nextInStage } from './stage-step.js';
import { emit, IDLE, type BuiltRequests, type Step } from './step.js';
import { checkSummary } from '../features/project-checks/check-summary.js';
import {
  beforeWorkflow,
  eventsBeforeStage,
  featureEnabled,
  stepBetweenStages,
} from '../features/kernel-features.js';
import { turnConfig } from '../features/follow-up-turns/turn-step.js';

/**
 * The one ladder of the kernel: what the session does next, from its state alone (see `Step`).
 * `decide` folds what it emits until it awaits or idles; the effect a settled session waits on
 * is this same answer.
 */
export function nextStep(configured: KernelConfig, state: KernelState, built: BuiltRequests): Step {
  // A follow-up turn may run another workflow than the configured one (recorded in its request).
  const config = turnConfig(configured, state.features.turns);
  const session = state.session;
  if (session.status === 'created') {
    if (session.workflowId !== config.workflow.id) {
      return emit({
        type: 'workflow_failed',
        category: 'transition',
        message: `session asks for workflow ${session.workflowId ?? '?'} but the kernel runs ${config.workflow.id}`,
      });
    }
    return emit({
      type: 'workflow_started',
      workflowId: config.workflow.id,
      firstStageId: config.workflow.initialStage,
    });
  }
  if (session.status !== 'running') return IDLE;
  const first = beforeWorkflow(featureCoreOf(config, state));
  if (first !== null) return first;
  const phase = state.phase;
  switch (phase.kind) {
    case 'ending': {
      const finalStageId = session.lastStageId ?? config.workflow.initialStage;
      const cite = featureEnabled(config, 'claims');
      if (phase.ending.result === 'completed') {
        const summary = cite ? checkSummary(state.features.checks.checkRuns) : null;
        return emit({
          type: 'workflow_completed',
          finalStageId,
          ...(summary === null ? {} : { summary }),
        });
      }
      // The failure that ended it, named (the check, the false claim), not only the edge.
      const cause = cite ? state.lastStageFailure : null;
      return emit({
        type: 'workflow_failed',
        category: phase.ending.category,
        message:
          cause === null
            ? phase.ending.message
            : `${phase.ending.message}: stage ${cause.stageId} attempt ${cause.attempt} failed (event #${cause.sequence}): ${cause.message}`,
        stageId: finalStageId,
      });
    }
    case 'stuck':
      return emit({
        type: 'workflow_failed',
        category: 'transition',
        message: phase.message,
        ...(session.lastStageId === null ? {} : { stageId: session.lastStageId }),
      });
    case 'not_started':
    case 'final':
      return IDLE;
    case 'between_stages':
    case 'transitioning':
    case 'in_stage':
      break;
    default:
      return assertNever(phase, 'kernel phase');
  }
  // A recorded redirect is answered before anything else the phase would do.
  if (state.redirect !== null) return emit(...decideRedirect(config, state, state.redirect));
  switch (phase.kind) {
    case 'transitioning': {
      const at = transitionStateOf(session);
      if (at === null)
        return emit({
          type: 'workflow_failed',
          category: 'transition',
          message: 'a stage outcome with no stage',
        });
      return emit(
        evaluateTransition(config.workflow, at, inPlace(config, at.stageId, phase.outcome)).event,
      );
    }
    case 'in_stage':
      return nextInStage(config, state, phase.run, built);
    case 'between_stages': {
      if (session.nextStage === null) return IDLE;
      // What the features do before a stage: the project's checks are recorded once, before
      // the first stage (a recorded observation), then the task's references are checked
      // against the workspace before planning.
      const before = stepBetweenStages(
        featureCoreOf(config, state),
        session.nextStage,
        session.task ?? '',
      );
      if (before !== null) return before;
      return emit(...eventsBeforeStage(featureCoreOf(config, state), session.nextStage), {
        type: 'stage_started',
        stageId: session.nextStage.stageId,
        attempt: session.nextStage.attempt,
      });
    }
  }
}

/** Spec 001: a capability-gated failure retries in place when the stage holds the needed tool. */
function inPlace(config: KernelConfig, stageId: string, outcome: StageOutcome): StageOutcome {
  if (outcome.kind !== 'failed' || outcome.category !== 'workspace_precondition') return outcome;
  const stage = config.workflow.stages.get(stageId);
  return stage !== undefined && canCreateFiles(stage, config.tools)
    ? { ...outcome, retryInPlace: true }
    : outcome;
}
