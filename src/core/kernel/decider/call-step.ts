import { layeredGet } from '../../base/layered-record.js';
import { decideApproval } from '../../approvals/decide-approval.js';
import type { CorrexEvent } from '../../event-catalog.js';
import { safeParseToolArguments } from '../../inference/tool-call-arguments.js';
import {
  approvalSubjectOf,
  assessToolCall,
  type AssessableToolCall,
} from '../../toolintent/assess-tool-call.js';
import { checkToolArguments } from '../../toolintent/checked-tool-arguments.js';
import { toolSessionView } from '../../toolintent/tool-session-projection.js';
import { preToolUseHooksFor } from '../../toolintent/hook-definition.js';
import { withHookFindings } from '../../toolintent/hook-findings.js';
import { PRE_TOOL_USE_HOOKS } from '../../toolintent/toolintent-flags.js';
import { activeGrants } from '../../approvals/approval-grants.js';
import type { ToolCallRejection } from '../../tools/tool-call-outcome-events.js';
import { isBuiltInReadOnly, toolArgsJsonSchema } from '../../tools/tool-contract.js';
import type { WorkflowStage } from '../../transitions/workflow.js';
import { callFingerprint } from './call-fingerprint.js';
import { classifyInterruptedCall } from '../features/interrupted-calls/classify-interrupted-call.js';
import type { KernelConfig } from '../config/kernel-config.js';
import {
  BATCHED_READ_ONLY_PROBES,
  BOUNDED_REFUSED_ARGUMENTS,
  DECISIONS_FROM_CANONICAL_OUTPUT,
  ENDED_ATTEMPT_REFUSES_THE_REST,
  EVERY_PROPOSAL_HAS_AN_OUTCOME,
  MALFORMED_ARGS_SAY_WHY,
  MALFORMED_COMMAND_REJECTED,
} from '../config/kernel-flags.js';
import {
  canonicalValue,
  inCanonicalOrder,
} from '../features/canonical-output/canonical-model-output.js';
import { requestedApproval, whileAwaitingApproval } from '../features/kernel-features.js';
import { featureCoreOf, type KernelState } from './kernel-state.js';
import { awaitEffect, emit, IDLE, type Step } from './step.js';
import type { ProbedCall } from './effect.js';
import { canCreateFiles } from './reference-strikes.js';
import { stageFailed } from './stage-failed.js';
import type { CallRecord } from './stage-run.js';
import type { StageContext } from './stage-context.js';

type Payload = CorrexEvent['payload'];

/**
 * What the current tool call does next, each check run once: validate it and probe what the
 * rules need, assess it and let the approval engine answer, record the durable intent and run
 * it, or classify a call a crash interrupted.
 */
export function nextForCall(context: StageContext, call: CallRecord): Step {
  switch (call.status) {
    case 'proposed':
      return assess(context, call);
    case 'approved':
      return emit({
        type: 'tool_call_started',
        callId: call.callId,
        tool: call.tool,
        targets: call.writeTargets.map((path) => {
          const observation = layeredGet(context.state.tools.observations, path);
          return {
            path,
            sha256:
              observation === undefined || observation.kind === 'missing'
                ? null
                : observation.sha256,
          };
        }),
      });
    case 'started':
      return awaitEffect({
        type: 'execute',
        callId: call.callId,
        tool: call.tool,
        args: call.args ?? {},
        targets: call.targets,
        ...(call.egressHosts === undefined ? {} : { egressHosts: call.egressHosts }),
      });
    case 'interrupted':
      return classify(context, call);
    case 'awaiting_approval':
      return awaitApproval(context, call);
    case 'done':
      return IDLE;
  }
}

/**
 * A call waits for a person, unless a feature decides otherwise while it waits (the approval
 * timeout's deadline and denial: features/approval-timeout).
 */
function awaitApproval(context: StageContext, call: CallRecord): Step {
  const { config, state } = context;
  return (
    whileAwaitingApproval(featureCoreOf(config, state), call) ??
    awaitEffect({ type: 'await_approval', callId: call.callId })
  );
}

/**
 * The events of a decision about a call with each `approval_requested` as the features record
 * it (the approval timeout adds its deadline): the one place a call's request for approval is
 * made.
 */
function withRequestedApprovals(context: StageContext, events: readonly Payload[]): Payload[] {
  const core = featureCoreOf(context.config, context.state);
  return events.map((event) =>
    event.type === 'approval_requested' ? requestedApproval(core, event) : event,
  );
}

/** A proposed call's validated form, or the event that refuses it. */
type CheckedCall =
  | { readonly ok: true; readonly proposed: AssessableToolCall; readonly paths: readonly string[] }
  | { readonly ok: false; readonly events: readonly Payload[] };

function assess(context: StageContext, call: CallRecord): Step {
  const { config, state, stage } = context;
  const checked = checkCall(context, call);
  if (!checked.ok) return emit(...checked.events);
  const missing = missingPaths(call, checked.paths);
  if (missing.length > 0)
    return awaitEffect({
      type: 'probe',
      callId: call.callId,
      paths: missing,
      ...probedAlongside(context, call),
    });
  const view = viewOf(config, state, stage.id);
  const judged = assessToolCall(config.policy, view, checked.proposed);
  const hooks = hooksSeeing(config, call.tool);
  // A call the rules block needs no hook; any other waits for the hooks' recorded verdicts.
  if (hooks.length > 0 && judged.verdict !== 'BLOCK' && call.hookResults === null)
    return awaitEffect({
      type: 'run_pre_tool_use_hooks',
      callId: call.callId,
      stageId: stage.id,
      tool: call.tool,
      args: checked.proposed.args as Record<string, unknown>,
      hooks: hooks.map((hook) => hook.name),
      findings: judged.findings,
      targets: judged.targets,
      tier: judged.tier,
    });
  const assessment =
    call.hookResults === null || judged.verdict === 'BLOCK'
      ? judged
      : withHookFindings(judged, checked.proposed.tool, config.policy.policy, call.hookResults);
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
  const blockedOnMissing = assessment.findings.some(
    (finding) => finding.ruleId === 'reference-exists' && finding.severity === 'block',
  );
  const events = withRequestedApprovals(context, decision.events);
  if (!blockedOnMissing || !canCreateFiles(stage, config.tools)) return emit(assessment, ...events);
  // Capability-gated: the stage holds a tool that can create the missing file, so say so.
  return emit(
    assessment,
    ...events.map((event) =>
      event.type === 'approval_denied'
        ? {
            ...event,
            reason: `${event.reason} (if the task needs it, this stage can create it first)`,
          }
        : event,
    ),
  );
}

/**
 * The later calls of the turn whose paths are probed with `call`'s (flag
 * batched-read-only-probes): the run of proposed calls after it that, like it, are built-in
 * read-only calls with no pre_tool_use hook and valid arguments. Nothing in that run changes the
 * world before each call's turn (a hook might), so what they observe now is what they would
 * observe then; the first call that is not such a call ends the run.
 */
function probedAlongside(
  context: StageContext,
  call: CallRecord,
): { alongside?: readonly ProbedCall[] } {
  const { config, run } = context;
  if (!config.behaviour.flags.has(BATCHED_READ_ONLY_PROBES.name) || !readOnlyUnhooked(config, call))
    return {};
  const calls = run.turn?.status === 'acting' ? run.turn.calls : [];
  const alongside: ProbedCall[] = [];
  for (const later of calls.slice(calls.indexOf(call) + 1)) {
    if (later.status !== 'proposed' || !readOnlyUnhooked(config, later)) break;
    const checked = checkCall(context, later);
    if (!checked.ok) break;
    const missing = missingPaths(later, checked.paths);
    if (missing.length > 0) alongside.push({ callId: later.callId, paths: missing });
  }
  return alongside.length === 0 ? {} : { alongside };
}

/** A call of a built-in read-only tool that no pre_tool_use hook sees first. */
function readOnlyUnhooked(config: KernelConfig, call: CallRecord): boolean {
  const tool = config.tools.get(call.tool);
  return (
    tool !== undefined && isBuiltInReadOnly(tool) && hooksSeeing(config, call.tool).length === 0
  );
}

/** The pre_tool_use hooks that see a call of `tool` before it is assessed (none without the flag). */
function hooksSeeing(config: KernelConfig, tool: string) {
  return config.behaviour.flags.has(PRE_TOOL_USE_HOOKS.name)
    ? preToolUseHooksFor(config.hooks, tool)
    : [];
}

/** Checks a proposed call (tool known and granted, arguments valid) and lists what to probe. */
function checkCall(context: StageContext, call: CallRecord): CheckedCall {
  const { config, state, stage, run } = context;
  const tool = config.tools.get(call.tool);
  const refuse = (reason: ToolCallRejection, message: string): CheckedCall => ({
    ok: false,
    events: [rejected(config, stage, call.callId, call.tool, reason, message)],
  });
  if (tool === undefined) {
    const known = stage.allowedTools.filter((name) => config.tools.has(name)).join(', ');
    return refuse('unknown_tool', `there is no tool named ${call.tool}; this stage has: ${known}`);
  }
  if (!stage.allowedTools.includes(tool.name)) {
    return refuse('tool_not_allowed', `stage ${stage.id} does not grant ${tool.name}`);
  }
  if (repeatedFailures(run, call) >= config.limits.maxRepeatedFailures) {
    const message = `the model proposed the same failing ${call.tool} call ${config.limits.maxRepeatedFailures + 1} times; stopping the attempt instead of running it again`;
    const failed = stageFailed(run, 'tool', message);
    // Every proposal ends with exactly one outcome: the repeat is refused, then the attempt ends.
    return config.behaviour.flags.has(EVERY_PROPOSAL_HAS_AN_OUTCOME.name)
      ? {
          ok: false,
          events: [
            rejected(config, stage, call.callId, call.tool, 'repeated_failure', message),
            ...refuseTheRest(context, call.callId, message),
            failed,
          ],
        }
      : { ok: false, events: [failed] };
  }
  if (call.args === null) {
    const parsed = safeParseToolArguments(call.argsRaw);
    if (!config.behaviour.flags.has(MALFORMED_ARGS_SAY_WHY.name) || parsed.ok)
      return refuse('malformed_args', 'the arguments are not a JSON object');
    // A kept head of refused arguments: the answer recorded why they were refused.
    const recorded =
      call.argsLength !== undefined && config.behaviour.flags.has(BOUNDED_REFUSED_ARGUMENTS.name)
        ? recordedArgsError(run, call.callId)
        : undefined;
    if (recorded !== undefined) return refuse('malformed_args', recorded);
    return refuse(
      'malformed_args',
      call.argsLength === undefined
        ? parsed.error
        : `the arguments (${call.argsLength} characters) could not be read (the answer records why); only their first ${call.argsRaw.length} characters were kept`,
    );
  }
  // The arguments as recorded: keys in canonical order, whatever order the model wrote them in.
  const checked = checkToolArguments(
    config.policy,
    { workspaceRoot: state.session.workspace ?? '/', homeDirectory: config.homeDirectory },
    { callId: call.callId, tool, args: call.args, argsRaw: call.argsRaw },
    {
      canonical: config.behaviour.flags.has(DECISIONS_FROM_CANONICAL_OUTPUT.name)
        ? canonicalValue
        : null,
      order: inCanonicalOrder,
      rejectMalformedCommand: config.behaviour.flags.has(MALFORMED_COMMAND_REJECTED.name),
    },
  );
  if (!checked.ok) return refuse('malformed_args', checked.message);
  return { ok: true, proposed: checked.prepared, paths: checked.paths };
}

/** Why the answer that proposed `callId` recorded its arguments as refused, if it did. */
function recordedArgsError(run: StageContext['run'], callId: string): string | undefined {
  const turn = run.turn;
  if (turn?.status !== 'acting') return undefined;
  // The kernel numbers a turn's calls `<requestId>.<n>`, in the answer's order.
  const index = Number(callId.slice(turn.requestId.length + 1)) - 1;
  return turn.result.toolCalls[index]?.argsError;
}

/**
 * How often this attempt already saw the same call fail. The fingerprint is hashed only once
 * something has failed: most calls never need it, and hashing every proposal cost replay ~9%.
 */
function repeatedFailures(run: StageContext['run'], call: CallRecord): number {
  for (const _ in run.failures)
    return run.failures[callFingerprint(call.tool, call.args, call.argsRaw)] ?? 0;
  return 0;
}

/** A call a crash interrupted: its targets probed afresh, then classified (and maybe asked). */
function classify(context: StageContext, call: CallRecord): Step {
  const { config, state } = context;
  const missing = missingPaths(
    call,
    call.targets.map((target) => target.path),
  );
  if (missing.length > 0)
    return awaitEffect({ type: 'probe', callId: call.callId, paths: missing });
  const classified = classifyInterruptedCall(
    call,
    config.tools.get(call.tool),
    state.tools.observations,
    config.idempotentTools,
    config.sha256,
    config.behaviour.flags,
  );
  if (classified.action !== 'ask') return emit(classified);
  return emit(
    classified,
    ...withRequestedApprovals(context, [
      {
        type: 'approval_requested',
        callId: call.callId,
        tool: call.tool,
        tier: call.tier ?? 'T2',
        reason: classified.reason,
      },
    ]),
  );
}

/** Paths among `paths` not yet observed for the call. */
function missingPaths(call: CallRecord, paths: readonly string[]): string[] {
  return paths.filter((path) => !call.observed.includes(path));
}

function viewOf(config: KernelConfig, state: KernelState, stageId?: string) {
  const view = toolSessionView(state.tools, {
    workspaceRoot: state.session.workspace ?? '/',
    homeDirectory: config.homeDirectory,
  });
  if (stageId === undefined) return view;
  // A person's "always allow" for a host: the network-host rule grants it instead of asking
  // (only under egress-asks-to-widen, which the rule reads; no host grant exists without it).
  const grantedHosts = activeGrants(state.grants, state.lastTimestamp ?? '')
    .filter((grant) => grant.lifetime === 'session' || grant.stageId === stageId)
    .flatMap((grant) => (grant.scope.kind === 'host' ? [grant.scope.host] : []));
  return grantedHosts.length === 0 ? view : { ...view, grantedHosts };
}

/**
 * Under `ended-attempt-refuses-the-rest`, the refusals of the calls of the current turn that are
 * still undecided (besides `except`, which gets its own outcome) when the attempt ends for
 * `why`: without them those proposals would never get an outcome.
 */
export function refuseTheRest(
  context: StageContext,
  except: string | null,
  why: string,
): Payload[] {
  const { config, stage, run } = context;
  const turn = run.turn;
  if (!config.behaviour.flags.has(ENDED_ATTEMPT_REFUSES_THE_REST.name) || turn?.status !== 'acting')
    return [];
  return turn.calls
    .filter((call) => call.status === 'proposed' && call.callId !== except)
    .map((call) =>
      rejected(
        config,
        stage,
        call.callId,
        call.tool,
        'attempt_ended',
        `not run: the attempt ended before this call (${why})`,
      ),
    );
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
