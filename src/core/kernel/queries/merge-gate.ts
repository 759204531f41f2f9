import { tierRank, type ApprovalTier } from '../../approvals/approval-tier.js';
import { latestBy } from './latest-by.js';
import type { ProvenanceCheck, ProvenanceFacts } from './provenance-facts.js';

export type GateOptions = {
  /** Every call at or above this tier must have been approved by a person or a person's grant. */
  readonly requireApproval?: ApprovalTier;
  /** The required checks must have run, passed, and seen the final change. */
  readonly requireChecks?: boolean;
};

export type GateVerdict = {
  readonly pass: boolean;
  readonly reasons: readonly string[];
  /** The latest run of each required check. */
  readonly checks: readonly ProvenanceCheck[];
};

/**
 * Whether a session's change may be merged, from its log's facts, whether its chain held
 * (`logProblem`), and where the tree under review differs from the log (`treeDifferences`). Pure:
 * each failing condition is one reason.
 */
export function gateSession(input: {
  readonly facts: ProvenanceFacts;
  readonly logProblem: string | null;
  readonly treeDifferences: readonly string[];
  readonly options: GateOptions;
}): GateVerdict {
  const { facts, options } = input;
  const reasons: string[] = [];
  if (input.logProblem !== null) reasons.push(`the log does not verify: ${input.logProblem}`);
  if (facts.session.status !== 'completed')
    reasons.push(`the session has not completed (it is ${facts.session.status})`);
  for (const difference of input.treeDifferences)
    reasons.push(`the tree under review is not what the log recorded: ${difference}`);

  for (const approval of facts.approvals) {
    if (approval.verdict === 'BLOCK' && (approval.decision === 'granted' || approval.ran))
      reasons.push(
        `call ${approval.callId} (${approval.tool}) was blocked by policy and still ${approval.ran ? 'ran' : 'approved'}`,
      );
  }
  if (options.requireApproval !== undefined) {
    const floor = tierRank(options.requireApproval);
    for (const approval of facts.approvals) {
      if (tierRank(approval.tier) < floor || approval.decision !== 'granted') continue;
      if (approval.how === 'person' || approval.how === 'grant') continue;
      reasons.push(
        `call ${approval.callId} (${approval.tool}, ${approval.tier}) was approved by ${approval.how === 'mode' ? `operator mode ${approval.by ?? '?'}` : (approval.by ?? 'nobody')}, not by a person or a grant`,
      );
    }
  }

  const required = latestBy(
    facts.checks.filter((check) => !check.advisory),
    (check) => check.name,
  );
  if (options.requireChecks === true) {
    if (required.length === 0) reasons.push('no required check ran');
    for (const check of required) {
      if (!check.passed)
        reasons.push(
          `check ${check.name} did not pass on its last run (event #${check.sequence}, ${check.outcome}, exit ${check.exitCode ?? 'none'})`,
        );
      else if (check.tree !== facts.changes.sha256)
        reasons.push(
          `check ${check.name} last passed at event #${check.sequence}; files changed after it (last change at event #${facts.changes.lastSequence})`,
        );
    }
  }
  return { pass: reasons.length === 0, reasons, checks: required };
}
