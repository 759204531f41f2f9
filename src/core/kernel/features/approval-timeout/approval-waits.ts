import type { CorrexEvent } from '../../../event-catalog.js';
import { isArtifactApproval } from '../../decider/artifact-approval-id.js';
import type { CallStatus, StageRunState } from '../../decider/stage-run.js';

/** A tool call's approval wait that ends by the policy's timeout. */
export type ApprovalWait = {
  /** When the wait ends (from its latest `approval_requested` that carried one), or null. */
  readonly deadline: string | null;
  /** A runner recorded that the wait outlived its deadline (`approval_timed_out`). */
  readonly timedOut: boolean;
};

/**
 * The approval-timeout slice: the approval waits of the running stage attempt's calls that a
 * deadline or a time-out was recorded for, by call id. An entry lives as long as its call's record (the attempt): once set, a call keeps
 * its deadline and time-out through later statuses, as its record always kept them.
 */
export type ApprovalWaits = { readonly [callId: string]: ApprovalWait };

export const NO_APPROVAL_WAITS: ApprovalWaits = {};

/**
 * Folds the approval events of the attempt's tool calls, under the same conditions as the call
 * records (decider/stage-run.ts): a request counts for a proposed or interrupted call of the
 * acting turn, a time-out for a call awaiting approval. A new attempt starts with none.
 */
export function evolveApprovalWaits(
  waits: ApprovalWaits,
  event: CorrexEvent,
  run: StageRunState | null,
): ApprovalWaits {
  const payload = event.payload;
  switch (payload.type) {
    case 'approval_requested': {
      if (payload.deadline === undefined || isArtifactApproval(payload.callId)) return waits;
      const status = callStatusOf(run, payload.callId);
      if (status !== 'proposed' && status !== 'interrupted') return waits;
      const timedOut = waits[payload.callId]?.timedOut ?? false;
      return { ...waits, [payload.callId]: { deadline: payload.deadline, timedOut } };
    }
    case 'approval_timed_out': {
      const wait = waits[payload.callId];
      if (wait?.timedOut === true) return waits;
      if (callStatusOf(run, payload.callId) !== 'awaiting_approval') return waits;
      return { ...waits, [payload.callId]: { deadline: wait?.deadline ?? null, timedOut: true } };
    }
    case 'stage_started':
      // The new attempt has no calls yet; ids may repeat in a later turn of the session.
      return Object.keys(waits).length === 0 ? waits : NO_APPROVAL_WAITS;
    default:
      return waits;
  }
}

/** The status of the acting turn's call `callId` (undefined: no such call). */
function callStatusOf(run: StageRunState | null, callId: string): CallStatus | undefined {
  const turn = run?.turn;
  if (turn?.status !== 'acting') return undefined;
  return turn.calls.find((call) => call.callId === callId)?.status;
}
