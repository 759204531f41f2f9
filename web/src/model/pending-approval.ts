import type { PendingApprovalDetailsDto } from '../../../src/interfaces/protocol/session-dto.js';
import { createTimeline, proposedChange, proposedChangeAgainst } from './session-timeline.js';
import type { FileChange, ToolCallItem } from './timeline-types.js';

/**
 * A pending approval from the API (`GET .../approvals`) as the timeline's tool-call entry, so
 * the same approval card shows it without the session's log.
 */
export function toolCallOfApproval(approval: PendingApprovalDetailsDto): ToolCallItem {
  return {
    kind: 'tool_call',
    sequence: 0,
    timestamp: '',
    callId: approval.callId,
    tool: approval.tool,
    stageId: approval.stageId,
    argsRaw: approval.arguments ?? '',
    ...(approval.verdict === null
      ? {}
      : {
          assessment: {
            verdict: approval.verdict,
            tier: approval.tier,
            risk: approval.risk ?? '?',
            findings: approval.findings.map((finding) => ({ ...finding })),
            targets: approval.targets.map((target) => ({ ...target })),
          },
        }),
    approval: { state: 'pending', tier: approval.tier, reason: approval.reason, sequence: 0 },
  };
}

/**
 * The diff preview of a write: against the file content the session's log recorded before the
 * call (`recordedContent` of the approval), else from its arguments alone (`write_file` shows the
 * new text, `edit_file` its search replaced).
 */
export function changeFromArguments(
  call: ToolCallItem,
  recordedContent: string | null = null,
): FileChange | undefined {
  return recordedContent === null
    ? proposedChange(createTimeline(), call)
    : proposedChangeAgainst(call, () => recordedContent);
}
