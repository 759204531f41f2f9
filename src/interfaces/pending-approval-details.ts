import type { ApprovalTier } from '../core/approvals/approval-tier.js';
import type { CorrexEvent, CorrexEventStore } from '../core/event-catalog.js';
import type {
  AssessedTarget,
  Finding,
  RiskLevel,
  Verdict,
} from '../core/toolintent/toolintent-events.js';

/**
 * What a person needs to decide an approval, as the session's events tell it: the call as the
 * model proposed it, its assessment (resolved targets, rule findings, verdict, tier) and why it
 * asks. A part is null when its event is not among those read.
 */
export type PendingApprovalDetails = {
  readonly callId: string;
  readonly proposal: {
    readonly stageId: string;
    readonly tool: string;
    /** The arguments as the raw JSON text the model sent. */
    readonly argsRaw: string;
  } | null;
  readonly assessment: {
    readonly verdict: Verdict;
    readonly tier: ApprovalTier;
    readonly risk: RiskLevel;
    readonly targets: readonly AssessedTarget[];
    readonly findings: readonly Finding[];
  } | null;
  readonly request: {
    readonly sequence: number;
    readonly tool: string;
    readonly tier: ApprovalTier;
    readonly reason: string;
  } | null;
  /**
   * Set when the call was started and its driver went away before its receipt: the sequences
   * of its latest `tool_call_started` and of the `tool_call_interrupted` that followed.
   */
  readonly interrupted: { readonly startedSequence: number; readonly sequence: number } | null;
};

const empty = (callId: string): PendingApprovalDetails => ({
  callId,
  proposal: null,
  assessment: null,
  request: null,
  interrupted: null,
});

/**
 * Folds events (in sequence order) into the details of each call in `callIds`: its latest
 * proposal, assessment and approval request. Pure: the same events give the same details.
 */
export function collectApprovalDetails(
  events: Iterable<CorrexEvent>,
  callIds: Iterable<string>,
): Map<string, PendingApprovalDetails> {
  const details = new Map<string, PendingApprovalDetails>();
  for (const callId of callIds) details.set(callId, empty(callId));
  const started = new Map<string, number>();
  for (const event of events) {
    const payload = event.payload;
    if (!('callId' in payload) || typeof payload.callId !== 'string') continue;
    const entry = details.get(payload.callId);
    if (entry === undefined) continue;
    if (payload.type === 'tool_call_proposed') {
      details.set(payload.callId, {
        ...entry,
        proposal: { stageId: payload.stageId, tool: payload.tool, argsRaw: payload.argsRaw },
      });
    } else if (payload.type === 'tool_call_assessed') {
      const { verdict, tier, risk, targets, findings } = payload;
      details.set(payload.callId, {
        ...entry,
        assessment: { verdict, tier, risk, targets, findings },
      });
    } else if (payload.type === 'tool_call_started') {
      started.set(payload.callId, event.sequence);
    } else if (payload.type === 'tool_call_interrupted') {
      const startedSequence = started.get(payload.callId);
      if (startedSequence !== undefined)
        details.set(payload.callId, {
          ...entry,
          interrupted: { startedSequence, sequence: event.sequence },
        });
    } else if (payload.type === 'approval_requested') {
      const { tool, tier, reason } = payload;
      details.set(payload.callId, {
        ...entry,
        request: { sequence: event.sequence, tool, tier, reason },
      });
    }
  }
  return details;
}

/** Events read per step back from the end of the log. */
const WINDOW = 200;
/** At most this many of the newest events are read: a proposal further back is not shown. */
const MAX_LOOKBACK = 2_000;

/**
 * The details of the calls in `callIds` (pending approvals of one session), read from the
 * session's newest events: windows are read backwards until every call's proposal is found or
 * MAX_LOOKBACK events have been read.
 */
export async function readApprovalDetails(
  store: CorrexEventStore,
  sessionId: string,
  callIds: readonly string[],
  options: { readonly upToSequence?: number } = {},
): Promise<Map<string, PendingApprovalDetails>> {
  if (callIds.length === 0) return new Map();
  const missing = new Set(callIds);
  const windows: CorrexEvent[][] = [];
  let upTo = options.upToSequence ?? (await store.lastSequence(sessionId));
  let read = 0;
  while (upTo > 0 && read < MAX_LOOKBACK && missing.size > 0) {
    const from = Math.max(0, upTo - WINDOW);
    const page = await store.read(sessionId, { afterSequence: from, limit: upTo - from });
    windows.unshift(page);
    read += page.length;
    upTo = from;
    for (const { payload } of page) {
      if (payload.type === 'tool_call_proposed') missing.delete(payload.callId);
    }
  }
  return collectApprovalDetails(windows.flat(), callIds);
}
