import { decideApproval } from '../../src/core/approvals/decide-approval.js';
import type { ToolCallAssessment } from '../../src/core/toolintent/assess-tool-call.js';

/** The approval engine's answer in auto mode: approved without a person, or not. */
export function autoApproval(assessment: ToolCallAssessment, command: string) {
  return decideApproval({
    mode: 'auto',
    verdict: assessment.verdict,
    tier: assessment.tier,
    subject: {
      callId: assessment.callId,
      tool: 'exec',
      stageId: 'implement',
      command,
      paths: [],
      hosts: [],
    },
    grants: { grants: {} },
    at: '2026-12-01T12:00:00.000Z',
    reason: assessment.findings.map((f) => f.message).join('; '),
  }).outcome;
}
