import { approvalGrantsProjection } from '../../approvals/approval-grants.js';
import type { ApprovalTier, OperatorMode } from '../../approvals/approval-tier.js';
import { decideApproval } from '../../approvals/decide-approval.js';
import type { PayloadOf } from '../../events/event-definition.js';
import type { PayloadShape, StoredEvent } from '../../events/event-envelope.js';
import type { WorkspacePolicy } from '../../policies/workspace-policy.js';
import type { sessionCreated } from '../../sessions/session-events.js';
import {
  approvalSubjectOf,
  assessToolCall,
  pathsToObserve,
} from '../../toolintent/assess-tool-call.js';
import type { WorldObservation, worldObserved } from '../../toolintent/toolintent-events.js';
import { createAssessmentPolicy, defaultToolCallRules } from '../../toolintent/default-rules.js';
import {
  toolSessionProjection,
  toolSessionView,
} from '../../toolintent/tool-session-projection.js';
import { kernelConfigFromConfiguration } from '../config/session-configuration.js';

/** A call a model (or a person) is thinking of making in a session, not yet proposed. */
export type ProposedCall = {
  readonly tool: string;
  readonly args: unknown;
  /** The stage it would run in (grants may be stage-scoped); default: the session's last stage. */
  readonly stageId?: string;
};

/** How one policy would treat the call, and what the session's mode and grants would make of it. */
export type ProposedCallVerdict = {
  readonly verdict: 'ALLOW' | 'ASK' | 'BLOCK';
  readonly tier: ApprovalTier;
  /** Finding codes (`rule/code`) with their messages. */
  readonly findings: readonly { readonly code: string; readonly message: string }[];
  /** `approved`/`denied` without a person, or `needs_person`: the session would wait for one. */
  readonly approval: 'approved' | 'denied' | 'needs_person';
  readonly approvalReason: string;
};

export type ProposedCallWhatIf =
  | { readonly ok: false; readonly reason: string }
  | {
      readonly ok: true;
      readonly sessionId: string;
      readonly tool: string;
      readonly mode: OperatorMode;
      readonly stageId: string;
      /** Under the policy the session recorded. */
      readonly recorded: ProposedCallVerdict;
      /** Under the candidate policy, when one was given. */
      readonly candidate: ProposedCallVerdict | null;
    };

/**
 * The absolute paths a proposed call's assessment needs observed, as the kernel would probe
 * them before assessing it live (the observations then go to `whatIfProposedCall`). Empty when
 * the session or the tool is unknown: `whatIfProposedCall` says why.
 */
export function proposedCallPaths(
  events: readonly StoredEvent<PayloadShape>[],
  call: ProposedCall,
): string[] {
  const setup = sessionSetup(events, call);
  if (!setup.ok) return [];
  const { config, tool, options, view } = setup;
  return pathsToObserve(
    createAssessmentPolicy(config.policy.policy, defaultToolCallRules, options),
    view([]),
    { callId: 'what-if', tool, args: call.args },
  );
}

/**
 * Policy what-if for a proposed call: assesses a call that was never made against a session's
 * recorded configuration (tools, policy, sandbox, behaviour flags) and its recorded view of the
 * world at the end of its log plus `observations` of the paths the call names (made now, by the
 * caller), under the recorded policy and optionally a candidate one, and says what the session's
 * mode and grants would decide. Pure: nothing is recorded, nothing is approved.
 */
export function whatIfProposedCall(
  events: readonly StoredEvent<PayloadShape>[],
  call: ProposedCall,
  candidate?: WorkspacePolicy,
  observations: readonly WorldObservation[] = [],
): ProposedCallWhatIf {
  const setup = sessionSetup(events, call);
  if (!setup.ok) return setup;
  const { created, config, tool, options, grants, lastStageId } = setup;
  const view = setup.view(observations);
  const stageId = call.stageId ?? lastStageId ?? config.workflow.initialStage;
  const at = events.at(-1)?.timestamp ?? '';
  const proposed = { callId: 'what-if', tool, args: call.args };
  const judge = (policy: WorkspacePolicy): ProposedCallVerdict => {
    const assessment = assessToolCall(
      createAssessmentPolicy(policy, defaultToolCallRules, options),
      view,
      proposed,
    );
    const args =
      typeof call.args === 'object' && call.args !== null
        ? (call.args as Record<string, unknown>)
        : {};
    const decision = decideApproval({
      mode: created.mode,
      verdict: assessment.verdict,
      tier: assessment.tier,
      subject: approvalSubjectOf(assessment, args, stageId, view),
      grants,
      at,
      reason: assessment.findings.map((finding) => finding.message).join('; '),
    });
    const last = decision.events.at(-1) as { reason?: unknown } | undefined;
    return {
      verdict: assessment.verdict,
      tier: assessment.tier,
      findings: assessment.findings.map((finding) => ({
        code: `${finding.ruleId}/${finding.code}`,
        message: finding.message,
      })),
      approval: decision.outcome === 'pending' ? 'needs_person' : decision.outcome,
      approvalReason: typeof last?.reason === 'string' ? last.reason : '',
    };
  };
  return {
    ok: true,
    sessionId: events[0]?.sessionId ?? '',
    tool: call.tool,
    mode: created.mode,
    stageId,
    recorded: judge(config.policy.policy),
    candidate: candidate === undefined ? null : judge(candidate),
  };
}

/** The session's recorded configuration, grants and world view, with the proposed call's tool. */
function sessionSetup(events: readonly StoredEvent<PayloadShape>[], call: ProposedCall) {
  const created = events.find((event) => event.payload.type === 'session_created')?.payload as
    PayloadOf<typeof sessionCreated> | undefined;
  const configured = events.find((event) => event.payload.type === 'session_configured')
    ?.payload as { configuration?: unknown } | undefined;
  if (created === undefined) return { ok: false as const, reason: 'no session_created event' };
  if (configured?.configuration === undefined)
    return {
      ok: false as const,
      reason: 'no recorded configuration (recorded before session_configured)',
    };
  let config;
  try {
    config = kernelConfigFromConfiguration(configured.configuration);
  } catch (error) {
    return { ok: false as const, reason: (error as Error).message };
  }
  const tool = config.tools.get(call.tool);
  if (tool === undefined)
    return {
      ok: false as const,
      reason: `the session offers no tool ${call.tool} (it has: ${[...config.tools.keys()].join(', ')})`,
    };
  const options = {
    flags: config.behaviour.flags,
    ...(config.policy.sandbox === undefined ? {} : { sandbox: config.policy.sandbox }),
  };
  let state = toolSessionProjection.initial();
  let grants = approvalGrantsProjection.initial();
  let lastStageId: string | null = null;
  for (const event of events) {
    state = toolSessionProjection.evolve(state, event);
    grants = approvalGrantsProjection.evolve(grants, event);
    const stageId = (event.payload as { stageId?: unknown }).stageId;
    if (event.payload.type === 'stage_started' && typeof stageId === 'string')
      lastStageId = stageId;
  }
  const roots = { workspaceRoot: created.workspace, homeDirectory: config.homeDirectory };
  const view = (observations: readonly WorldObservation[]) => {
    let seen = state;
    for (const observation of observations) {
      const payload: PayloadOf<typeof worldObserved> = {
        type: 'world_observed',
        callId: null,
        observation,
      };
      seen = toolSessionProjection.evolve(seen, { ...events.at(-1)!, payload });
    }
    return toolSessionView(seen, roots);
  };
  return { ok: true as const, created, config, tool, options, grants, lastStageId, view };
}
