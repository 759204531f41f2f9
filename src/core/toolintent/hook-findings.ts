import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import type { ToolDefinition } from '../tools/tool-contract.js';
import type { ToolCallAssessment } from './assess-tool-call.js';
import { finding } from './finding.js';
import { mapRisk } from './risk-mapping.js';
import type { PreToolUseHookResult } from './hook-events.js';
import type { Finding } from './toolintent-events.js';

/**
 * A hook's verdict as a rule finding (`hook:<name>`): `block` and every failed ending block at
 * T3 (failing closed, with the ending as the code), `raise` adds its tier, `allow` is noted.
 */
export function hookFinding(result: PreToolUseHookResult): Finding {
  const ruleId = `hook:${result.hook}`;
  if (result.outcome !== 'answered')
    return finding(
      ruleId,
      'block',
      `hook_${result.outcome}`,
      `the pre_tool_use hook ${result.hook} ${ENDINGS[result.outcome]}, so the call is blocked: ${result.reason}`,
      'T3',
    );
  switch (result.decision) {
    case 'block':
      return finding(ruleId, 'block', 'hook_blocked', result.reason || 'blocked by a hook', 'T3');
    case 'raise':
      return finding(
        ruleId,
        'info',
        'hook_raised_tier',
        result.reason || `raised to ${result.tier ?? 'T3'} by a hook`,
        result.tier ?? 'T3',
      );
    case 'allow':
      return finding(ruleId, 'info', 'hook_allowed', result.reason || 'allowed by a hook', 'T0');
  }
}

const ENDINGS: Record<Exclude<PreToolUseHookResult['outcome'], 'answered'>, string> = {
  crashed: 'crashed',
  timed_out: 'timed out',
  garbage: 'answered something that is not a verdict',
  failed_to_start: 'could not start',
};

/** The assessment with the hooks' findings added and its verdict, tier and risk mapped again. */
export function withHookFindings(
  assessment: ToolCallAssessment,
  tool: ToolDefinition,
  policy: WorkspacePolicy,
  results: readonly PreToolUseHookResult[],
): ToolCallAssessment {
  const findings = [...assessment.findings, ...results.map(hookFinding)];
  return { ...assessment, ...mapRisk(tool, policy, findings), findings };
}
