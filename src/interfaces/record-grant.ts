import type { GrantScope } from '../core/approvals/approval-events.js';
import type { CorrexEvent, CorrexEventStore } from '../core/event-catalog.js';
import { appendToSession, type RecordingContext } from '../core/kernel/index.js';

export type GrantRequest = {
  readonly scope: GrantScope;
  /** Only inside this stage; null: the whole session. */
  readonly stageId: string | null;
  readonly expiresAt: string | null;
  readonly by: string;
  readonly reason: string;
};

/**
 * Records a standing approval (`approval_grant_added`) after the session's last event: what
 * `correx grant`, the approval prompt's "always allow" and the server's grant routes all record.
 */
export async function recordGrant(
  recording: RecordingContext,
  store: CorrexEventStore,
  sessionId: string,
  grant: GrantRequest,
): Promise<{ grantId: string; event: CorrexEvent }> {
  const grantId = `grant-${recording.ids.next()}`;
  const event = await appendToSession(recording, store, sessionId, {
    type: 'approval_grant_added',
    grantId,
    scope: grant.scope,
    lifetime: grant.stageId === null ? 'session' : 'stage',
    stageId: grant.stageId,
    expiresAt: grant.expiresAt,
    by: grant.by,
    reason: grant.reason,
  });
  return { grantId, event };
}

/** The reason "always allow" records, from the CLI's prompt or the web inbox. */
export const ALWAYS_ALLOW_REASON = 'always allow, answered at the approval prompt';
