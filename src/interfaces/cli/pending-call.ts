import type { CorrexEventStore } from '../../core/event-catalog.js';

/** How far back a pending call's proposal and assessment are looked for. */
const LOOKBACK = 200;

/**
 * What a person needs to decide an approval: the tool call as proposed, the resolved targets,
 * each rule finding and the tier, and why it asks. Read from the session's recent events.
 */
export async function describePendingCall(
  store: CorrexEventStore,
  sessionId: string,
  callId: string,
): Promise<string[]> {
  const last = await store.lastSequence(sessionId);
  const recent = await store.read(sessionId, { afterSequence: Math.max(0, last - LOOKBACK) });
  const lines: string[] = [];
  for (const { payload } of recent) {
    if (!('callId' in payload) || payload.callId !== callId) continue;
    if (payload.type === 'tool_call_proposed') {
      lines.push(`  call      ${payload.tool} ${payload.argsRaw}`);
    } else if (payload.type === 'tool_call_assessed') {
      lines.push(`  verdict   ${payload.verdict}, tier ${payload.tier}, risk ${payload.risk}`);
      for (const target of payload.targets)
        lines.push(
          `  ${target.write ? 'writes' : 'reads '}    ${target.realPath ?? target.resolved}`,
        );
      for (const finding of payload.findings)
        lines.push(
          `  finding   [${finding.severity} ${finding.tier}] ${finding.ruleId}: ${finding.message}`,
        );
    } else if (payload.type === 'approval_requested') {
      lines.push(`  asks      ${payload.tier}: ${payload.reason}`);
    }
  }
  return lines;
}
