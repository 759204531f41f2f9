import { createArtifact, type Artifact } from '../artifacts/artifact.js';
import type { Sha256 } from '../base/sha256.js';
import { decideApproval } from '../approvals/decide-approval.js';
import type { JsonValue } from '../events/canonical-json.js';
import type { CorrexEvent } from '../event-catalog.js';
import type { FailureCategory } from '../sessions/failure-category.js';
import {
  approvalSubjectOf,
  assessToolCall,
  pathsToObserve,
  type ProposedToolCall,
} from '../toolintent/assess-tool-call.js';
import { toolSessionView } from '../toolintent/tool-session-projection.js';
import { toolArgsJsonSchema } from '../tools/tool-contract.js';
import { relativeInside } from '../tools/tool-path.js';
import type { WorkflowStage } from '../transitions/workflow.js';
import { validateArtifact } from '../validation/validate-artifact.js';
import { artifactContentOf } from './artifact-content.js';
import { classifyInterruptedCall } from './classify-interrupted-call.js';
import type { KernelConfig } from './kernel-config.js';
import type { ToolCallRejection } from './kernel-events.js';
import type { CallRecord, KernelState, StageRunState, TurnRecord } from './kernel-state.js';
import { buildStageRequest } from './stage-request.js';

type Payload = CorrexEvent['payload'];

/** The events that move a running stage attempt one step on; empty while an effect is pending. */
export function stepStage(config: KernelConfig, state: KernelState, run: StageRunState): Payload[] {
  const stage = config.workflow.stages.get(run.stageId);
  if (stage === undefined) {
    return [
      stageFailed(run, 'transition', `workflow ${config.workflow.id} has no stage ${run.stageId}`),
    ];
  }
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

/** A turn is over when its artifact was rejected, or it proposed calls and every one is done. */
export function isTurnFinished(turn: TurnRecord): boolean {
  if (turn.status !== 'acting') return false;
  if (turn.artifact !== null) return turn.artifact.status === 'rejected';
  return turn.calls.every((call) => call.status === 'done');
}

/** The first call of the turn that is not done. */
export function currentCall(turn: TurnRecord): CallRecord | undefined {
  return turn.calls.find((call) => call.status !== 'done');
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
        grantedApprovals: [],
        observations: Object.values(state.tools.observations).flatMap((observation) => {
          const path = relativeInside(observation.path, workspace);
          return path === undefined || path === ''
            ? []
            : [{ path, exists: observation.kind !== 'missing' }];
        }),
      },
    });
    return [...result.events];
  }
  const call = currentCall(turn);
  return call === undefined ? [] : stepCall(config, state, stage, run, call);
}

function stepCall(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  run: StageRunState,
  call: CallRecord,
): Payload[] {
  switch (call.status) {
    case 'proposed':
      return assess(config, state, stage, run, call);
    case 'approved':
      return [
        {
          type: 'tool_call_started',
          callId: call.callId,
          tool: call.tool,
          targets: call.writeTargets.map((path) => {
            const observation = state.tools.observations[path];
            return {
              path,
              sha256:
                observation === undefined || observation.kind === 'missing'
                  ? null
                  : observation.sha256,
            };
          }),
        },
      ];
    case 'interrupted': {
      if (
        missingPaths(
          call,
          call.targets.map((target) => target.path),
        ).length > 0
      )
        return [];
      const classified = classifyInterruptedCall(
        call,
        config.tools.get(call.tool),
        state.tools.observations,
        config.idempotentTools,
        config.sha256,
      );
      if (classified.action !== 'ask') return [classified];
      return [
        classified,
        {
          type: 'approval_requested',
          callId: call.callId,
          tool: call.tool,
          tier: call.tier ?? 'T2',
          reason: classified.reason,
        },
      ];
    }
    case 'awaiting_approval':
    case 'started':
    case 'done':
      return [];
  }
}

/** A proposed call's validated form, or why it cannot be assessed. */
export type CheckedCall =
  | { readonly ok: true; readonly proposed: ProposedToolCall; readonly paths: readonly string[] }
  | { readonly ok: false; readonly event: Payload };

/** Checks a proposed call (tool known and granted, arguments valid) and lists what to probe. */
export function checkCall(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  run: StageRunState,
  call: CallRecord,
): CheckedCall {
  const tool = config.tools.get(call.tool);
  if (tool === undefined) {
    const known = stage.allowedTools.filter((name) => config.tools.has(name)).join(', ');
    return {
      ok: false,
      event: rejected(
        config,
        stage,
        call.callId,
        call.tool,
        'unknown_tool',
        `there is no tool named ${call.tool}; this stage has: ${known}`,
      ),
    };
  }
  if (!stage.allowedTools.includes(tool.name)) {
    return {
      ok: false,
      event: rejected(
        config,
        stage,
        call.callId,
        call.tool,
        'tool_not_allowed',
        `stage ${stage.id} does not grant ${tool.name}`,
      ),
    };
  }
  if ((run.failures[call.fingerprint] ?? 0) >= config.limits.maxRepeatedFailures) {
    return {
      ok: false,
      event: stageFailed(
        run,
        'tool',
        `the model proposed the same failing ${call.tool} call ${config.limits.maxRepeatedFailures + 1} times; stopping the attempt instead of running it again`,
      ),
    };
  }
  if (call.args === null) {
    return {
      ok: false,
      event: rejected(
        config,
        stage,
        call.callId,
        call.tool,
        'malformed_args',
        'the arguments are not a JSON object',
      ),
    };
  }
  const parsed = tool.argsSchema.safeParse(call.args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || 'arguments'}: ${issue.message}`,
    );
    return {
      ok: false,
      event: rejected(
        config,
        stage,
        call.callId,
        call.tool,
        'malformed_args',
        `the arguments do not match the schema: ${problems.join('; ')}`,
      ),
    };
  }
  const proposed: ProposedToolCall = { callId: call.callId, tool, args: parsed.data };
  return {
    ok: true,
    proposed,
    paths: pathsToObserve(config.policy, viewOf(config, state), proposed),
  };
}

/** Paths among `paths` not yet observed for the call. */
export function missingPaths(call: CallRecord, paths: readonly string[]): string[] {
  return paths.filter((path) => !call.observed.includes(path));
}

function assess(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  run: StageRunState,
  call: CallRecord,
): Payload[] {
  const checked = checkCall(config, state, stage, run, call);
  if (!checked.ok) return [checked.event];
  if (missingPaths(call, checked.paths).length > 0) return [];
  const view = viewOf(config, state);
  const assessment = assessToolCall(config.policy, view, checked.proposed);
  const args = checked.proposed.args as Record<string, unknown>;
  const reasons = assessment.findings.map((finding) => `${finding.ruleId}: ${finding.message}`);
  const decision = decideApproval({
    mode: state.mode,
    verdict: assessment.verdict,
    tier: assessment.tier,
    subject: approvalSubjectOf(assessment, args, stage.id, view),
    grants: state.grants,
    at: state.lastTimestamp ?? '',
    reason: reasons.length > 0 ? reasons.join('; ') : `${call.tool} at ${assessment.tier}`,
  });
  return [assessment, ...decision.events];
}

export function viewOf(config: KernelConfig, state: KernelState) {
  return toolSessionView(state.tools, {
    workspaceRoot: state.session.workspace ?? '/',
    homeDirectory: config.homeDirectory,
  });
}

function proposedArtifact(
  state: KernelState,
  stage: WorkflowStage,
  turn: TurnRecord,
  sha256: Sha256,
): Artifact {
  const text = turn.result?.text ?? '';
  // The artifact derives from the latest accepted artifact of every other stage, in order.
  const latest = new Map<string, string>();
  for (const artifact of state.accepted)
    if (artifact.stageId !== stage.id) latest.set(artifact.stageId, artifact.hash);
  const draft = (content: JsonValue) => ({
    kind: stage.artifact.kind,
    sessionId: state.session.sessionId ?? '',
    stageId: stage.id,
    content,
    lineage: { inferenceEventId: turn.inferenceEventId, parents: [...new Set(latest.values())] },
  });
  try {
    return createArtifact(draft(artifactContentOf(text)), sha256);
  } catch {
    return createArtifact(draft(text), sha256);
  }
}

function verdictOf(content: JsonValue): string | undefined {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return undefined;
  const verdict = (content as { verdict?: unknown }).verdict;
  return typeof verdict === 'string' ? verdict : undefined;
}

function rejected(
  config: KernelConfig,
  stage: WorkflowStage,
  callId: string,
  toolName: string,
  reason: ToolCallRejection,
  message: string,
): Payload {
  const tool = config.tools.get(toolName);
  return {
    type: 'tool_call_rejected',
    callId,
    stageId: stage.id,
    tool: toolName,
    reason,
    message,
    argsSchema: tool === undefined ? null : (toolArgsJsonSchema(tool) as Record<string, never>),
  };
}

function stageFailed(run: StageRunState, category: FailureCategory, message: string): Payload {
  return { type: 'stage_failed', stageId: run.stageId, attempt: run.attempt, category, message };
}
