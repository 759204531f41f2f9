import type { ApprovalTier } from '../../core/approvals/approval-tier.js';
import type { Finding, RiskLevel, Verdict } from '../../core/toolintent/toolintent-events.js';
import type { InterruptedCallDriver } from '../interrupted-call-driver.js';
import type { PendingApprovalDetails } from '../pending-approval-details.js';
import type { PendingApprovalDetailsDto } from './session-dto.js';
import type { FindingSeverityDto, RiskLevelDto, VerdictDto } from './wire-values.js';

// The wire enums are copies; these fail to compile the day a domain enum grows a value.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const enumsMatch: [
  Same<Verdict, VerdictDto>,
  Same<RiskLevel, RiskLevelDto>,
  Same<Finding['severity'], FindingSeverityDto>,
] = [true, true, true];
void enumsMatch;

/**
 * A pending approval with its details. `pending` is what the session projection holds (always
 * known); the details fill in what the recent events still show.
 */
export function toPendingApprovalDetailsDto(
  pending: { readonly callId: string; readonly tool: string; readonly tier: ApprovalTier },
  details: PendingApprovalDetails | undefined,
  extras: Pick<PendingApprovalDetailsDto, 'alwaysAllow' | 'recordedContent'> = {
    alwaysAllow: null,
    recordedContent: null,
  },
  /**
   * What the driver that started an interrupted call has said since, with its sentence
   * (`describeInterruptedCallDriver`); null: not known here.
   */
  startedBy: (InterruptedCallDriver & { readonly description: string }) | null = null,
): PendingApprovalDetailsDto {
  const assessment = details?.assessment ?? null;
  return {
    callId: pending.callId,
    tool: pending.tool,
    tier: pending.tier,
    reason: details?.request?.reason ?? '',
    stageId: details?.proposal?.stageId ?? null,
    arguments: details?.proposal?.argsRaw ?? null,
    verdict: assessment?.verdict ?? null,
    risk: assessment?.risk ?? null,
    targets: (assessment?.targets ?? []).map(({ param, raw, resolved, realPath, write }) => ({
      param,
      raw,
      resolved,
      realPath,
      write,
    })),
    findings: (assessment?.findings ?? []).map(({ ruleId, severity, code, message, tier }) => ({
      ruleId,
      severity,
      code,
      message,
      tier,
    })),
    alwaysAllow: extras.alwaysAllow,
    recordedContent: extras.recordedContent,
    interrupted:
      details?.interrupted == null
        ? null
        : {
            ...details.interrupted,
            startedBy,
          },
  };
}
