import { maxTier, type ApprovalTier } from '../approvals/approval-tier.js';
import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import type { ToolDefinition } from '../tools/tool-contract.js';
import type { Finding, RiskLevel, Verdict } from './toolintent-events.js';

export type RiskAssessment = {
  readonly verdict: Verdict;
  readonly tier: ApprovalTier;
  readonly risk: RiskLevel;
};

/**
 * RiskMapping: turns findings into a verdict, an approval tier and a risk level. Any BLOCK
 * finding blocks; any ASK finding asks. The tier is the highest of the tool's default tier, the
 * policy's override for the tool (which can only raise it) and every finding's tier; an ASK is
 * never below T1, so no mode treats it as read-only.
 */
export function mapRisk(
  tool: ToolDefinition,
  policy: WorkspacePolicy,
  findings: readonly Finding[],
): RiskAssessment {
  const verdict: Verdict = findings.some((f) => f.severity === 'block')
    ? 'BLOCK'
    : findings.some((f) => f.severity === 'ask')
      ? 'ASK'
      : 'ALLOW';
  let tier = tool.defaultTier;
  const override = policy.tierOverrides[tool.name];
  if (override !== undefined) tier = maxTier(tier, override);
  for (const item of findings) tier = maxTier(tier, item.tier);
  if (verdict === 'ASK') tier = maxTier(tier, 'T1');
  const risk: RiskLevel =
    verdict === 'BLOCK' ? 'critical' : tier === 'T3' ? 'high' : tier === 'T2' ? 'medium' : 'low';
  return { verdict, tier, risk };
}
