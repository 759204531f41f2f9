import { layeredEntries } from '../../base/layered-record.js';
import { relativeInside } from '../../tools/tool-path.js';
import { artifactApprovalKey, validateArtifact } from '../../validation/validate-artifact.js';
import { decideArtifactApproval } from './artifact-approval.js';
import { answerTextOf, artifactContentOf } from './artifact-content.js';
import { answer } from './stage-answer.js';
import { canonicalValue } from '../features/canonical-output/canonical-model-output.js';
import type { InferenceResult } from '../../inference/inference-result.js';
import { nextForCall, refuseTheRest } from './call-step.js';
import { recordedInferEffect } from './recorded-infer-effect.js';
import {
  afterAcceptedArtifact,
  afterAcceptedChecks,
  afterFailedModelCall,
  beforeModelCall,
  beforeValidation,
  featureEnabled,
  waitBeforeModelCall,
} from '../features/kernel-features.js';
import { evaluateChecks } from '../features/project-checks/dod-checks.js';
import { DECISIONS_FROM_CANONICAL_OUTPUT } from '../config/kernel-flags.js';
import { checksForStage } from '../features/project-checks/stage-checks.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { featureCoreOf, type KernelState } from './kernel-state.js';
import type { StageContext } from './stage-context.js';
import { awaitEffect, emit, IDLE, type BuiltRequests, type Step } from './step.js';
import { referenceStrikeFailure } from './reference-strikes.js';
import { verdictOf } from './stage-artifact.js';
import { stageFailed } from './stage-failed.js';
import { buildStageRequest } from './stage-request.js';
import {
  currentCall,
  isTurnFinished,
  type ActingTurn,
  type StageRunState,
  type TurnRecord,
} from './stage-run.js';
import { nextForSubagent } from '../features/subagents/subagent-step.js';

/** What a running stage attempt does next. */
export function nextInStage(
  config: KernelConfig,
  state: KernelState,
  run: StageRunState,
  built: BuiltRequests,
): Step {
  const stage = config.workflow.stages.get(run.stageId);
  if (stage === undefined)
    return emit(
      stageFailed(run, 'transition', `workflow ${config.workflow.id} has no stage ${run.stageId}`),
    );
  const context: StageContext = { config, state, run, stage, built };
  if (stage.subagent !== undefined) {
    const delegated = nextForSubagent(context, stage.subagent);
    if (delegated !== null) return delegated;
  }
  const strike = referenceStrikeFailure(run);
  if (strike !== null)
    return emit(
      ...refuseTheRest(context, null, strike.type === 'stage_failed' ? strike.message : ''),
      strike,
    );
  const turn = run.turn;
  if (turn === null || isTurnFinished(turn)) return nextTurn(context);
  switch (turn.status) {
    case 'requested':
      return awaitEffect(inferEffect(context, turn));
    case 'failed':
      return afterFailedCall(context, turn);
    case 'answered':
      return answer(context, turn);
    case 'acting':
      return act(context, turn);
  }
}

/**
 * A failed model call: a feature may make it again (a transient failure within its bound:
 * features/transient-waits) or fail the attempt its own way; otherwise the attempt fails and the
 * stage's retry policy decides.
 */
function afterFailedCall(
  context: StageContext,
  turn: Extract<TurnRecord, { status: 'failed' }>,
): Step {
  const { config, state, run, stage } = context;
  const outcome = afterFailedModelCall(featureCoreOf(config, state), run, {
    stage,
    failure: turn.failure,
  });
  if (outcome === 'call_again') return nextTurn(context);
  return outcome ?? emit(stageFailed(run, turn.failure.category, turn.failure.message));
}

/** Between turns: the bounds, a provider's delay, compaction, then the next model call. */
function nextTurn(context: StageContext): Step {
  const { config, state, run, stage } = context;
  // Calls made again after a transient failure are not turns of the model.
  if (run.turns - run.providerRetries >= config.limits.maxTurnsPerStage) {
    return emit(
      stageFailed(
        run,
        'inference',
        `stage ${run.stageId} used its ${config.limits.maxTurnsPerStage} turns without an accepted artifact`,
      ),
    );
  }
  const core = featureCoreOf(config, state);
  // A provider asked for a delay (features/retry): waited out before anything else.
  const wait = waitBeforeModelCall(core);
  if (wait !== null) return wait;
  // The budget's stop, then the journal's compaction.
  const before = beforeModelCall(core, run, {
    stage,
    built: context.built,
  });
  if (before !== null) return before;
  const requestId = `${run.stageId}.${run.attempt}.${run.turns + 1}`;
  const request = buildStageRequest(config, state, stage, run, requestId);
  if (!request.ok) return emit(stageFailed(run, request.category, request.message));
  context.built.set(requestId, request.request);
  return emit(request.requested);
}

/** The model call a requested turn waits on: the request as recorded, rebuilt after a restart. */
function inferEffect(context: StageContext, turn: Extract<TurnRecord, { status: 'requested' }>) {
  const { config, state, run, stage } = context;
  return recordedInferEffect(context.built, turn, () => {
    const rebuilt = buildStageRequest(
      config,
      state,
      stage,
      run,
      turn.requestId,
      turn.requestedSequence,
    );
    return rebuilt.ok
      ? { request: rebuilt.request, requestDigest: rebuilt.requested.requestDigest }
      : null;
  });
}

/** An acting turn: its artifact through validation and the definition of done, or its next call. */
function act(context: StageContext, turn: ActingTurn): Step {
  const { config, state, run, stage } = context;
  const proposed = turn.artifact;
  if (proposed === null) {
    const call = currentCall(turn);
    return call === undefined ? IDLE : nextForCall(context, call);
  }
  if (proposed.status === 'accepted') {
    const stageChecks = checksForStage(config, state, stage);
    if (stageChecks.length > 0) {
      const checks = evaluateChecks(
        stageChecks,
        run.checks,
        Object.keys(layeredEntries(state.written)),
        state.session.workspace ?? '/',
        featureEnabled(config, 'checks'),
      );
      if (!checks.done)
        return awaitEffect({
          type: 'run_analysis',
          stageId: run.stageId,
          attempt: run.attempt,
          ...checks.next,
        });
      if (checks.failures.length > 0)
        return emit(stageFailed(run, 'validation', checks.failures.join('\n\n')));
    }
    const content = answerContent(config, turn.result);
    const core = featureCoreOf(config, state);
    const accepted = {
      stage,
      run,
      artifactHash: proposed.hash,
      content,
      workspace: state.session.workspace,
      checkRuns: state.features.checks.checkRuns,
      attempt: run,
      written: state.written,
    };
    // Language diagnostics, then the verdict from evidence, may hold or fail the stage.
    const checked = afterAcceptedChecks(core, accepted);
    if (checked !== null) return checked;
    const reviewed = afterAcceptedArtifact(core, accepted);
    if (reviewed !== null) return reviewed;
    const verdict = stage.verdicts.length > 0 ? verdictOf(content) : undefined;
    return emit({
      type: 'stage_completed',
      stageId: stage.id,
      attempt: run.attempt,
      artifactHash: proposed.hash,
      ...(verdict === undefined ? {} : { verdict }),
    });
  }
  const approval = proposed.approval;
  if (approval?.status === 'pending')
    return awaitEffect({ type: 'await_approval', callId: artifactApprovalKey(proposed.hash) });
  if (approval?.status === 'denied') {
    // A person's "no" goes back to the model like any validation feedback, in this attempt.
    return emit({
      type: 'validation_failed',
      hash: proposed.hash,
      stageId: stage.id,
      phase: 'approval',
      validator: 'approval',
      message: `${approval.by} did not approve this artifact: ${approval.reason}`,
    });
  }
  // A sub-session's writes are in its own log, where its own claim was checked.
  if (proposed.status === 'proposed' && stage.subagent === undefined) {
    const refused = beforeValidation(featureCoreOf(config, state), {
      stage,
      run,
      artifactHash: proposed.hash,
      content: answerContent(config, turn.result),
      written: state.written,
    });
    if (refused !== null) return refused;
  }
  const workspace = state.session.workspace ?? '/';
  const result = validateArtifact({
    canonical: config.behaviour.flags.has(DECISIONS_FROM_CANONICAL_OUTPUT.name),
    workflow: config.workflow,
    registry: config.validators,
    artifact: proposed.artifact,
    context: {
      sessionId: state.session.sessionId ?? '',
      activeStage: { stageId: run.stageId, attempt: run.attempt },
      acceptedArtifacts: state.accepted.map(({ hash, kind, stageId }) => ({ hash, kind, stageId })),
      grantedApprovals: state.session.grantedApprovals,
      observations: Object.values(layeredEntries(state.tools.observations)).flatMap(
        (observation) => {
          const path = relativeInside(observation.path, workspace);
          return path === undefined || path === ''
            ? []
            : [{ path, exists: observation.kind !== 'missing' }];
        },
      ),
    },
  });
  if (!result.accepted && result.phase === 'approval')
    return emit(...decideArtifactApproval(state.mode, stage, run, proposed.hash));
  return emit(...result.events);
}

/** The artifact content of an answer, its keys in canonical order under `decisions-from-canonical-output`. */
function answerContent(config: KernelConfig, result: InferenceResult) {
  const content = artifactContentOf(answerTextOf(result));
  return config.behaviour.flags.has(DECISIONS_FROM_CANONICAL_OUTPUT.name)
    ? canonicalValue(content)
    : content;
}
