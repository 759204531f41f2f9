import type { GrantScope } from '../../core/approvals/approval-events.js';
import { visibleText } from '../../core/base/visible-text.js';
import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import { builtinFileChange, describesFileChange } from '../../core/tools/builtin-tools.js';
import { alwaysAllowScope } from '../always-allow-scope.js';
import {
  describeInterruptedCallDriver,
  interruptedCallDriver,
  type DriverTake,
} from '../interrupted-call-driver.js';
import { readApprovalDetails, type PendingApprovalDetails } from '../pending-approval-details.js';
import { recordedFileContent } from '../recorded-file-content.js';
import { contentDiff, fileChangeDiff } from './file-change-diff.js';
import { contentAfter } from '../../core/tools/file-change.js';
import { execCommandLine, execFolder } from '../exec-command-line.js';

/** What the approval prompt shows and offers for one waiting call. */
export type PendingCallView = {
  /** The lines to print, already escaped. */
  readonly lines: readonly string[];
  /** The exact grant "always allow" would record, or null when none covers just this call. */
  readonly alwaysAllow: GrantScope | null;
};

function parsedArgs(argsRaw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(argsRaw);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Tier, verdict and findings as one consistent sentence each. */
function judgementLines(assessment: NonNullable<PendingApprovalDetails['assessment']>): string[] {
  const why =
    assessment.verdict === 'ASK'
      ? `a rule asks a person to decide (tier ${assessment.tier}, risk ${assessment.risk})`
      : `no rule blocks it, but tier ${assessment.tier} calls need a person in this mode (risk ${assessment.risk})`;
  const lines = [`  why       ${why}`];
  if (assessment.findings.length > 0)
    lines.push(
      `  findings  ${assessment.findings.map((finding) => `${finding.ruleId}: ${finding.message}`).join('; ')}`,
    );
  return lines;
}

/**
 * What a person needs to decide an approval, from the session's log: what the call will do (the
 * command line and its folder for `exec`, the host for a network call, the resolved paths, and
 * for a write or edit a diff against the file as the log last saw it), then why it asks and the
 * findings. Every line is escaped: arguments, paths and messages are the model's text.
 */
export async function describePendingCall(
  store: CorrexEventStore,
  sessionId: string,
  callId: string,
  /** A shared store's driver records, to say whether an interrupted call's driver stopped. */
  driverTakes?: (sessionId: string) => Promise<readonly DriverTake[]>,
): Promise<PendingCallView> {
  const details = (await readApprovalDetails(store, sessionId, [callId])).get(callId);
  if (details === undefined || details.proposal === null) return { lines: [], alwaysAllow: null };
  const { proposal, assessment, request } = details;
  const events: CorrexEvent[] = [];
  for await (const event of store.stream(sessionId)) events.push(event);
  const workspace = sessionWorkspace(events);
  const args = parsedArgs(proposal.argsRaw);
  const lines: string[] = [];
  const targets = assessment?.targets ?? [];
  if (proposal.tool === 'exec') {
    // The same command line and folder the web page's card shows.
    lines.push(
      `  $ ${execCommandLine(proposal.argsRaw) ?? proposal.argsRaw}`,
      `    in ${execFolder(targets, workspace) ?? '(the workspace)'}`,
    );
  } else {
    lines.push(
      `  call      ${proposal.tool} ${proposal.argsRaw.length > 300 ? `${proposal.argsRaw.slice(0, 299)}…` : proposal.argsRaw}`,
    );
    for (const target of targets) {
      if (target.role === 'URL') lines.push(`  host      ${target.resolved}`);
      else
        lines.push(
          `  ${target.write ? 'writes' : 'reads '}    ${target.realPath ?? target.resolved}`,
        );
    }
    lines.push(
      ...changePreview(proposal.tool, proposal.argsRaw, args, targets, events, request?.sequence),
    );
  }
  if (assessment) lines.push(...judgementLines(assessment));
  else if (request) lines.push(`  why       ${request.reason} (tier ${request.tier})`);
  if (details.interrupted !== null) {
    const takes = await driverTakes?.(sessionId);
    const startedBy =
      takes === undefined
        ? null
        : interruptedCallDriver(takes, details.interrupted.startedSequence);
    lines.push(
      `  interrupted  ${
        startedBy === null
          ? 'whether the process that started it has stopped is not known here; check before deciding'
          : describeInterruptedCallDriver(startedBy)
      }`,
    );
  }
  return {
    lines: lines.map(visibleText),
    alwaysAllow: workspace === undefined ? null : alwaysAllowScope(details, workspace),
  };
}

function sessionWorkspace(events: readonly CorrexEvent[]): string | undefined {
  for (const event of events)
    if (event.payload.type === 'session_created') return event.payload.workspace;
  return undefined;
}

/** A write or edit as a diff against the recorded content, else the proposed text alone. */
function changePreview(
  tool: string,
  argsRaw: string,
  args: Record<string, unknown>,
  targets: NonNullable<PendingApprovalDetails['assessment']>['targets'],
  events: readonly CorrexEvent[],
  before: number | undefined,
): string[] {
  if (!describesFileChange(tool)) return [];
  const target = targets.find((candidate) => candidate.write);
  const real = target?.realPath ?? target?.resolved;
  const current =
    real === undefined ? undefined : recordedFileContent(events, real, before ?? Infinity);
  const shownPath = typeof args.path === 'string' ? args.path : (real ?? '?');
  const change = builtinFileChange(tool, args);
  // A replacement whose text the recorded content lacks would fail: the proposal is shown alone.
  if (
    current !== undefined &&
    change !== undefined &&
    (change.kind === 'whole' || current.includes(change.search))
  ) {
    return contentDiff(shownPath, current, contentAfter(change, current)).map(
      (line) => `  ${line}`,
    );
  }
  return [
    '  (the log holds no whole copy of this file; the proposed text:)',
    ...fileChangeDiff(tool, argsRaw).map((line) => `  ${line}`),
  ];
}
