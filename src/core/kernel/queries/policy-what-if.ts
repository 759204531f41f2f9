import type { ApprovalTier } from '../../approvals/approval-tier.js';
import type { PayloadOf } from '../../events/event-definition.js';
import type { PayloadShape, StoredEvent } from '../../events/event-envelope.js';
import type { WorkspacePolicy } from '../../policies/workspace-policy.js';
import type { sessionCreated } from '../../sessions/session-events.js';
import { assessToolCall, type ToolCallAssessment } from '../../toolintent/assess-tool-call.js';
import { createAssessmentPolicy, defaultToolCallRules } from '../../toolintent/default-rules.js';
import {
  toolSessionProjection,
  toolSessionView,
  type ToolSessionState,
} from '../../toolintent/tool-session-projection.js';
import type { toolCallProposed } from '../../tools/tool-events.js';
import { kernelConfigFromConfiguration } from '../config/session-configuration.js';

/** One recorded call whose verdict or tier the candidate policy would change. */
export type WhatIfChange = {
  readonly sessionId: string;
  readonly callId: string;
  readonly tool: string;
  readonly recorded: { readonly verdict: string; readonly tier: ApprovalTier };
  readonly candidate: { readonly verdict: string; readonly tier: ApprovalTier };
  /** Finding codes (`rule/code`) the candidate adds, and those it drops. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
};

export type WhatIfReport = {
  readonly sessionId: string;
  /** Recorded assessments re-assessed. */
  readonly assessed: number;
  readonly changes: readonly WhatIfChange[];
  /**
   * Calls whose recorded assessment this correx does not re-derive under the recorded policy
   * (an assessment from another release); their comparison is against the re-derivation.
   */
  readonly inexact: readonly string[];
  /** Why the session could not be re-assessed at all (no recorded configuration...), or null. */
  readonly skipped: string | null;
};

const codesOf = (assessment: ToolCallAssessment) =>
  assessment.findings.map((finding) => `${finding.ruleId}/${finding.code}`);

/**
 * Policy what-if: re-assesses every recorded call of a session under a candidate workspace
 * policy, from the recorded observations only (no disk access), with the session's recorded
 * sandbox and behaviour flags, and lists each call whose verdict or tier would change. Pure.
 */
export function whatIfPolicy(
  events: readonly StoredEvent<PayloadShape>[],
  candidate: WorkspacePolicy,
): WhatIfReport {
  const sessionId = events[0]?.sessionId ?? '';
  const created = events.find((event) => event.payload.type === 'session_created')?.payload as
    PayloadOf<typeof sessionCreated> | undefined;
  const configured = events.find((event) => event.payload.type === 'session_configured')
    ?.payload as { configuration?: unknown } | undefined;
  const empty = (skipped: string): WhatIfReport => ({
    sessionId,
    assessed: 0,
    changes: [],
    inexact: [],
    skipped,
  });
  if (created === undefined) return empty('no session_created event');
  if (configured?.configuration === undefined)
    return empty('no recorded configuration (recorded before session_configured existed)');
  let config;
  try {
    config = kernelConfigFromConfiguration(configured.configuration);
  } catch (error) {
    return empty((error as Error).message);
  }
  const options = {
    flags: config.behaviour.flags,
    ...(config.policy.sandbox === undefined ? {} : { sandbox: config.policy.sandbox }),
  };
  const recordedPolicy = createAssessmentPolicy(
    config.policy.policy,
    defaultToolCallRules,
    options,
  );
  const candidatePolicy = createAssessmentPolicy(candidate, defaultToolCallRules, options);
  const roots = { workspaceRoot: created.workspace, homeDirectory: config.homeDirectory };

  const proposals = new Map<string, PayloadOf<typeof toolCallProposed>>();
  const changes: WhatIfChange[] = [];
  const inexact: string[] = [];
  let assessed = 0;
  let state: ToolSessionState = toolSessionProjection.initial();
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === 'tool_call_proposed') {
      const proposal = payload as PayloadOf<typeof toolCallProposed>;
      proposals.set(proposal.callId, proposal);
    } else if (payload.type === 'tool_call_assessed') {
      const recorded = payload as ToolCallAssessment;
      const proposal = proposals.get(recorded.callId);
      const tool = config.tools.get(recorded.tool);
      if (proposal !== undefined && tool !== undefined) {
        let args: unknown;
        try {
          args = JSON.parse(proposal.argsRaw);
        } catch {
          args = undefined;
        }
        const view = toolSessionView(state, roots);
        const call = { callId: recorded.callId, tool, args };
        const baseline = assessToolCall(recordedPolicy, view, call);
        const next = assessToolCall(candidatePolicy, view, call);
        assessed += 1;
        if (baseline.verdict !== recorded.verdict || baseline.tier !== recorded.tier)
          inexact.push(recorded.callId);
        if (next.verdict !== baseline.verdict || next.tier !== baseline.tier) {
          const before = new Set(codesOf(baseline));
          const after = new Set(codesOf(next));
          changes.push({
            sessionId,
            callId: recorded.callId,
            tool: recorded.tool,
            recorded: { verdict: baseline.verdict, tier: baseline.tier },
            candidate: { verdict: next.verdict, tier: next.tier },
            added: [...after].filter((code) => !before.has(code)),
            removed: [...before].filter((code) => !after.has(code)),
          });
        }
      }
    }
    state = toolSessionProjection.evolve(state, event);
  }
  return { sessionId, assessed, changes, inexact, skipped: null };
}
