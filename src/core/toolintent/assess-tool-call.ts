import { layeredGet } from '../base/layered-record.js';
import { z } from 'zod';
import type { ApprovalSubject } from '../approvals/approval-grants.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { ToolDefinition } from '../tools/tool-contract.js';
import { relativeInside } from '../tools/tool-path.js';
import type { AssessmentPolicy } from './default-rules.js';
import { parseUrlTarget } from './host-match.js';
import {
  isPreparedToolCall,
  prepareToolCall,
  type PreparedToolCall,
} from './prepared-tool-call.js';
import { mapRisk } from './risk-mapping.js';
import { finding } from './finding.js';
import type { ToolCallContext, ToolSessionView } from './tool-call-rule.js';
import type { AssessedTarget, Finding, toolCallAssessed } from './toolintent-events.js';

/** A proposed call, its arguments already decoded from JSON (not yet validated). */
export type ProposedToolCall = {
  readonly callId: string;
  readonly tool: ToolDefinition;
  readonly args: unknown;
};

/** The `tool_call_assessed` payload: what the kernel appends before anything runs. */
export type ToolCallAssessment = PayloadOf<typeof toolCallAssessed>;

type Prepared =
  | { readonly ok: true; readonly context: ToolCallContext }
  | { readonly ok: false; readonly findings: readonly Finding[] };

/** A call as the assessor takes it: proposed (validated here) or already prepared. */
export type AssessableToolCall = ProposedToolCall | PreparedToolCall;

function prepare(
  policy: AssessmentPolicy,
  view: ToolSessionView,
  call: AssessableToolCall,
): Prepared {
  if (isPreparedToolCall(call)) return { ok: true, context: contextOf(policy, view, call) };
  const parsed = call.tool.argsSchema.safeParse(call.args);
  if (!parsed.success || typeof parsed.data !== 'object' || parsed.data === null) {
    const message = parsed.success ? 'arguments must be an object' : z.prettifyError(parsed.error);
    return {
      ok: false,
      findings: [
        finding(
          'arguments',
          'block',
          'invalid_args',
          `arguments do not match ${call.tool.name}'s schema: ${message}`,
          'T3',
        ),
      ],
    };
  }
  const args = parsed.data as Record<string, unknown>;
  const prepared = prepareToolCall(policy, view.roots, {
    callId: call.callId,
    tool: call.tool,
    args,
  });
  return { ok: true, context: contextOf(policy, view, prepared) };
}

function contextOf(
  policy: AssessmentPolicy,
  view: ToolSessionView,
  call: PreparedToolCall,
): ToolCallContext {
  return {
    callId: call.callId,
    tool: call.tool,
    args: call.args,
    values: call.values,
    policy: policy.policy,
    view,
    flags: policy.flags,
  };
}

/**
 * The absolute paths the WorldProbe must observe (and record as `world_observed`) before this
 * call is assessed. The kernel probes all of them afresh for every call, so StaleWrite compares
 * against the disk as it is now, and replay reads the recorded observations instead.
 */
export function pathsToObserve(
  policy: AssessmentPolicy,
  view: ToolSessionView,
  call: AssessableToolCall,
): string[] {
  const prepared = prepare(policy, view, call);
  if (!prepared.ok) return [];
  return [
    ...new Set(prepared.context.values.candidatePaths.map((path) => path.path.absolute)),
  ].sort();
}

/**
 * ToolCallAssessor: runs every applicable registered rule and maps the findings to a verdict,
 * tier and risk. Pure: reads only the policy, the recorded session view and the call, so replay
 * derives the identical assessment without touching the disk.
 */
export function assessToolCall(
  policy: AssessmentPolicy,
  view: ToolSessionView,
  call: AssessableToolCall,
): ToolCallAssessment {
  const prepared = prepare(policy, view, call);
  const findings: Finding[] = [];
  const targets: AssessedTarget[] = [];
  if (!prepared.ok) {
    findings.push(...prepared.findings);
  } else {
    const { context } = prepared;
    for (const rule of policy.rules) {
      if (rule.appliesTo(context)) findings.push(...rule.evaluate(context));
    }
    for (const path of context.values.candidatePaths) {
      targets.push({
        role: path.role,
        param: path.param,
        raw: path.path.raw,
        resolved: path.path.absolute,
        realPath: layeredGet(view.observations, path.path.absolute)?.realPath ?? null,
        write: path.write,
      });
    }
    for (const url of context.values.urls) {
      const parsed = parseUrlTarget(url.raw);
      targets.push({
        role: 'URL',
        param: url.param,
        raw: url.raw,
        resolved: parsed.ok ? parsed.host : '',
        realPath: null,
        write: false,
      });
    }
  }
  const { verdict, tier, risk } = mapRisk(call.tool, policy.policy, findings);
  return {
    type: 'tool_call_assessed',
    callId: call.callId,
    tool: call.tool.name,
    verdict,
    tier,
    risk,
    findings,
    targets,
  };
}

/**
 * The facts approval grants are matched against, from an assessment: the exact command line
 * for exec, the real paths (workspace-relative inside it), and the hosts.
 */
export function approvalSubjectOf(
  assessment: ToolCallAssessment,
  args: Readonly<Record<string, unknown>>,
  stageId: string,
  view: ToolSessionView,
): ApprovalSubject {
  const command =
    typeof args.command === 'string'
      ? args.command
      : Array.isArray(args.argv)
        ? JSON.stringify(args.argv)
        : null;
  const paths = assessment.targets
    .filter((target) => target.role !== 'URL' && target.param !== 'command')
    .map((target) => {
      const real = target.realPath ?? target.resolved;
      return relativeInside(real, view.roots.workspaceRoot) ?? real;
    });
  const hosts = assessment.targets
    .filter((target) => target.role === 'URL')
    .map((target) => target.resolved);
  return {
    callId: assessment.callId,
    tool: assessment.tool,
    stageId,
    command: assessment.tool === 'exec' ? command : null,
    paths,
    hosts,
  };
}
