import { visibleText } from '../../core/base/visible-text.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import { readApprovalDetails } from '../pending-approval-details.js';

/**
 * What a person needs to decide an approval: the tool call as proposed, the resolved targets,
 * each rule finding and the tier, and why it asks. Read from the session's recent events.
 */
export async function describePendingCall(
  store: CorrexEventStore,
  sessionId: string,
  callId: string,
): Promise<string[]> {
  const details = (await readApprovalDetails(store, sessionId, [callId])).get(callId);
  const lines: string[] = [];
  if (details === undefined) return lines;
  const { proposal, assessment, request } = details;
  if (proposal) lines.push(`  call      ${proposal.tool} ${proposal.argsRaw}`);
  if (assessment) {
    lines.push(
      `  verdict   ${assessment.verdict}, tier ${assessment.tier}, risk ${assessment.risk}`,
    );
    for (const target of assessment.targets)
      lines.push(
        `  ${target.write ? 'writes' : 'reads '}    ${target.realPath ?? target.resolved}`,
      );
    for (const finding of assessment.findings)
      lines.push(
        `  finding   [${finding.severity} ${finding.tier}] ${finding.ruleId}: ${finding.message}`,
      );
  }
  if (request) lines.push(`  asks      ${request.tier}: ${request.reason}`);
  // Proposed arguments, paths and messages are the model's text: shown, never obeyed.
  return lines.map(visibleText);
}
