import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import { collectApprovalDetails } from '../pending-approval-details.js';
import type { PendingApprovalDetailsDto } from '../protocol/session-dto.js';
import { toPendingApprovalDetailsDto } from '../protocol/to-pending-approval-dto.js';
import { pendingApprovalExtras } from './pending-approval-extras.js';

/** Calls whose events are kept per subscription; older ones are dropped first. */
const KEPT_CALLS = 256;
/** Events before a subscription's cursor read to find proposals its approvals refer to. */
const PRIME_WINDOW = 200;

/**
 * Remembers the recent events of each tool call of one subscribed session, so that an
 * `approval_requested` announcement carries the call's arguments, targets and findings (the
 * proposal and the assessment come just before the request) and the grant "always allow" would
 * record, without reading the store again. `recordedContent` is left null: it needs the log.
 */
export type ApprovalTracker = {
  /** Reads the events just before the cursor, for a request that follows its proposal there. */
  prime(store: CorrexEventStore, sessionId: string, afterSequence: number): Promise<void>;
  /** Every event of the session, in sequence order. */
  observe(event: CorrexEvent): void;
  /** The announcement's approval for an observed `approval_requested` event. */
  describe(event: CorrexEvent): PendingApprovalDetailsDto | null;
};

export function createApprovalTracker(): ApprovalTracker {
  const byCall = new Map<string, CorrexEvent[]>();
  let workspace: string | null = null;
  const observe = (event: CorrexEvent) => {
    const payload = event.payload;
    if (payload.type === 'session_created') workspace = payload.workspace;
    if (!('callId' in payload) || typeof payload.callId !== 'string') return;
    const events = byCall.get(payload.callId);
    if (events) {
      events.push(event);
      return;
    }
    byCall.set(payload.callId, [event]);
    if (byCall.size > KEPT_CALLS) {
      const oldest = byCall.keys().next().value;
      if (oldest !== undefined) byCall.delete(oldest);
    }
  };
  return {
    async prime(store, sessionId, afterSequence) {
      if (afterSequence === 0) return;
      // The workspace, for the grant "always allow" would record: `session_created` is among the first events.
      for (const event of await store.read(sessionId, { limit: Math.min(afterSequence, 3) }))
        if (event.payload.type === 'session_created') workspace = event.payload.workspace;
      const from = Math.max(0, afterSequence - PRIME_WINDOW);
      for (const event of await store.read(sessionId, {
        afterSequence: from,
        limit: afterSequence - from,
      }))
        observe(event);
    },
    observe,
    describe(event) {
      const payload = event.payload;
      if (payload.type !== 'approval_requested') return null;
      const { callId, tool, tier } = payload;
      const details = collectApprovalDetails(byCall.get(callId) ?? [event], [callId]).get(callId);
      // The recorded content needs the whole log: the inbox reads it over REST.
      return toPendingApprovalDetailsDto(
        { callId, tool, tier },
        details,
        pendingApprovalExtras(details, workspace, null),
      );
    },
  };
}
