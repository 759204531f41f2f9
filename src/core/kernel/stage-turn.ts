import type { CorrexEvent } from '../event-catalog.js';
import { relativeInside } from '../tools/tool-path.js';
import type { WorkflowStage } from '../transitions/workflow.js';
import { validateArtifact } from '../validation/validate-artifact.js';
import { artifactContentOf } from './artifact-content.js';
import { stepCall } from './call-step.js';
import type { KernelConfig } from './kernel-config.js';
import type { KernelState, StageRunState, TurnRecord } from './kernel-state.js';
import { proposedArtifact, verdictOf } from './stage-artifact.js';
import { compactJournal } from './compact-journal.js';
import { evaluateChecks } from './dod-checks.js';
import { stageFailed } from './stage-failed.js';
import { rejected } from './call-step.js';
import { buildStageRequest } from './stage-request.js';
import { referenceStrikeFailure } from './reference-strikes.js';
import { decideArtifactApproval } from './artifact-approval.js';
import { currentCall, isTurnFinished } from './stage-turn-status.js';
import { stepSubagent } from './subagent-step.js';

export { currentCall, isTurnFinished };

type Payload = CorrexEvent['payload'];

/** The events that move a running stage attempt one step on; empty while an effect is pending. */
export function stepStage(config: KernelConfig, state: KernelState, run: StageRunState): Payload[] {
  const stage = config.workflow.stages.get(run.stageId);
  if (stage === undefined) {
    return [
      stageFailed(run, 'transition', `workflow ${config.workflow.id} has no stage ${run.stageId}`),
    ];
  }
  if (stage.subagent !== undefined) {
    const delegated = stepSubagent(state, { ...stage, subagent: stage.subagent }, run);
    if (delegated !== null) return delegated;
  }
  const strike = referenceStrikeFailure(run);
  if (strike !== null) return [strike];
  const turn = run.turn;
  if (turn === null || isTurnFinished(turn)) {
    if (run.turns >= config.limits.maxTurnsPerStage) {
      return [
        stageFailed(
          run,
          'inference',
          `stage ${run.stageId} used its ${config.limits.maxTurnsPerStage} turns without an accepted artifact`,
        ),
      ];
    }
    // A provider asked for a delay: the next model call waits for `retry_delay_elapsed`.
    if (state.retryDelay !== null) {
      const delay = state.retryDelay;
      return delay.started
        ? []
        : [
            {
              type: 'retry_delay_started',
              requestId: delay.requestId,
              provider: delay.provider,
              delayMs: delay.delayMs,
              until: delay.until,
            },
          ];
    }
    const compaction = compactJournal(config, run);
    if (compaction !== null) return [compaction];
    const built = buildStageRequest(
      config,
      state,
      stage,
      run,
      `${run.stageId}.${run.attempt}.${run.turns + 1}`,
    );
    return built.ok ? [built.requested] : [stageFailed(run, built.category, built.message)];
  }
  switch (turn.status) {
    case 'requested':
      return [];
    case 'failed':
      return [
        stageFailed(
          run,
          turn.failure?.category ?? 'provider',
          turn.failure?.message ?? 'inference failed',
        ),
      ];
    case 'answered':
      return answer(config, state, stage, run, turn);
    case 'acting':
      return act(config, state, stage, run, turn);
  }
}

function answer(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  run: StageRunState,
  turn: TurnRecord,
): Payload[] {
  const result = turn.result!;
  if (result.toolCalls.length === 0) {
    const artifact = proposedArtifact(state, stage, turn, config.sha256);
    return [
      {
        type: 'artifact_proposed',
        hash: artifact.hash,
        kind: artifact.kind,
        stageId: stage.id,
        attempt: run.attempt,
        inferenceEventId: artifact.lineage.inferenceEventId,
        parents: artifact.lineage.parents,
      },
    ];
  }
  const events: Payload[] = [];
  result.toolCalls.forEach((call, index) => {
    const callId = `${turn.requestId}.${index + 1}`;
    events.push({
      type: 'tool_call_proposed',
      callId,
      stageId: stage.id,
      tool: call.name,
      argsRaw: call.argsRaw,
    });
  });
  result.toolCalls.forEach((call, index) => {
    if (index < config.limits.maxCallsPerTurn) return;
    events.push(
      rejected(
        config,
        stage,
        `${turn.requestId}.${index + 1}`,
        call.name,
        'call_limit',
        `only ${config.limits.maxCallsPerTurn} tool calls run per turn; propose the rest next turn`,
      ),
    );
  });
  return events;
}

function act(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  run: StageRunState,
  turn: TurnRecord,
): Payload[] {
  if (turn.artifact !== null) {
    if (turn.artifact.status === 'accepted') {
      if (stage.definitionOfDone !== undefined) {
        const checks = evaluateChecks(
          stage,
          run.checks,
          state.written,
          state.session.workspace ?? '/',
        );
        if (!checks.done) return [];
        if (checks.failures.length > 0)
          return [stageFailed(run, 'validation', checks.failures.join('\n\n'))];
      }
      const content = artifactContentOf(turn.result?.text ?? '');
      const verdict = stage.verdicts.length > 0 ? verdictOf(content) : undefined;
      return [
        {
          type: 'stage_completed',
          stageId: stage.id,
          attempt: run.attempt,
          artifactHash: turn.artifact.hash,
          ...(verdict === undefined ? {} : { verdict }),
        },
      ];
    }
    const approval = turn.artifact.approval;
    if (approval?.status === 'pending') return [];
    if (approval?.status === 'denied') {
      // A person's "no" goes back to the model like any validation feedback, in this attempt.
      return [
        {
          type: 'validation_failed',
          hash: turn.artifact.hash,
          stageId: stage.id,
          phase: 'approval',
          validator: 'approval',
          message: `${approval.by} did not approve this artifact: ${approval.reason}`,
        },
      ];
    }
    const artifact = proposedArtifact(state, stage, turn, config.sha256);
    const workspace = state.session.workspace ?? '/';
    const result = validateArtifact({
      workflow: config.workflow,
      registry: config.validators,
      artifact,
      context: {
        sessionId: state.session.sessionId ?? '',
        activeStage: { stageId: run.stageId, attempt: run.attempt },
        acceptedArtifacts: state.accepted.map(({ hash, kind, stageId }) => ({
          hash,
          kind,
          stageId,
        })),
        grantedApprovals: state.session.grantedApprovals,
        observations: Object.values(state.tools.observations).flatMap((observation) => {
          const path = relativeInside(observation.path, workspace);
          return path === undefined || path === ''
            ? []
            : [{ path, exists: observation.kind !== 'missing' }];
        }),
      },
    });
    if (!result.accepted && result.phase === 'approval')
      return decideArtifactApproval(state.mode, stage, run, turn.artifact.hash);
    return [...result.events];
  }
  const call = currentCall(turn);
  return call === undefined ? [] : stepCall(config, state, stage, run, call);
}
