import { decideApproval } from '../approvals/decide-approval.js';
import type { CorrexEvent } from '../event-catalog.js';
import {
  approvalSubjectOf,
  assessToolCall,
  pathsToObserve,
  type ProposedToolCall,
} from '../toolintent/assess-tool-call.js';
import { toolSessionView } from '../toolintent/tool-session-projection.js';
import { toolArgsJsonSchema } from '../tools/tool-contract.js';
import type { WorkflowStage } from '../transitions/workflow.js';
import { classifyInterruptedCall } from './classify-interrupted-call.js';
import type { KernelConfig } from './kernel-config.js';
import type { ToolCallRejection } from '../tools/tool-call-outcome-events.js';
import type { CallRecord, KernelState, StageRunState } from './kernel-state.js';
import { stageFailed } from './stage-failed.js';
import { canCreateFiles } from './reference-strikes.js';

type Payload = CorrexEvent['payload'];

/**
 * The events that move the current tool call one step on: checks and probes before the
 * assessment, the assessment and the approval engine, the durable intent, and the
 * classification of a call a crash interrupted. Empty while an effect or a person is awaited.
 */
export function stepCall(
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
  const refuse = (reason: ToolCallRejection, message: string): CheckedCall => ({
    ok: false,
    event: rejected(config, stage, call.callId, call.tool, reason, message),
  });
  if (tool === undefined) {
    const known = stage.allowedTools.filter((name) => config.tools.has(name)).join(', ');
    return refuse('unknown_tool', `there is no tool named ${call.tool}; this stage has: ${known}`);
  }
  if (!stage.allowedTools.includes(tool.name)) {
    return refuse('tool_not_allowed', `stage ${stage.id} does not grant ${tool.name}`);
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
    return refuse('malformed_args', 'the arguments are not a JSON object');
  }
  const parsed = tool.argsSchema.safeParse(call.args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || 'arguments'}: ${issue.message}`,
    );
    return refuse(
      'malformed_args',
      `the arguments do not match the schema: ${problems.join('; ')}`,
    );
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
  const missing = assessment.findings.some(
    (finding) => finding.ruleId === 'reference-exists' && finding.severity === 'block',
  );
  if (!missing || !canCreateFiles(stage, config.tools)) return [assessment, ...decision.events];
  // Capability-gated: the stage holds a tool that can create the missing file, so say so.
  return [
    assessment,
    ...decision.events.map((event) =>
      event.type === 'approval_denied'
        ? {
            ...event,
            reason: `${event.reason} (if the task needs it, this stage can create it first)`,
          }
        : event,
    ),
  ];
}

export function viewOf(config: KernelConfig, state: KernelState) {
  return toolSessionView(state.tools, {
    workspaceRoot: state.session.workspace ?? '/',
    homeDirectory: config.homeDirectory,
  });
}

/** A refusal of a proposed call, with the tool's argument schema when the tool exists. */
export function rejected(
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
