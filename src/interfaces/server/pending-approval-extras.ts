import type { CorrexEvent } from '../../core/event-catalog.js';
import { describesFileChange } from '../../core/tools/builtin-tools.js';
import { alwaysAllowScope, describeGrantScope } from '../always-allow-scope.js';
import type { PendingApprovalDetails } from '../pending-approval-details.js';
import type { PendingApprovalDetailsDto } from '../protocol/session-dto.js';
import { recordedFileContent } from '../recorded-file-content.js';

/** Whether a waiting call writes a file, so its card diffs against the recorded content. */
export function writesFile(details: PendingApprovalDetails | undefined): boolean {
  return details?.proposal !== null && describesFileChange(details?.proposal?.tool ?? '');
}

/**
 * What the inbox adds to a waiting call: the exact grant "always allow" records (the CLI
 * prompt's, `alwaysAllowScope`), and for a write the file's content as the log recorded it
 * before the call (`recordedFileContent`), to diff the proposal against.
 */
export function pendingApprovalExtras(
  details: PendingApprovalDetails | undefined,
  workspace: string | null,
  events: readonly CorrexEvent[] | null,
): Pick<PendingApprovalDetailsDto, 'alwaysAllow' | 'recordedContent'> {
  const scope =
    details === undefined || workspace === null ? null : alwaysAllowScope(details, workspace);
  const target = details?.assessment?.targets.find((candidate) => candidate.write);
  const path = target?.realPath ?? target?.resolved;
  const recorded =
    events === null || path === undefined || !writesFile(details)
      ? undefined
      : recordedFileContent(events, path, details?.request?.sequence ?? Number.MAX_SAFE_INTEGER);
  return {
    alwaysAllow: scope === null ? null : { scope, description: describeGrantScope(scope) },
    recordedContent: recorded ?? null,
  };
}
