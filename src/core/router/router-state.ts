/**
 * What the router knows about a session, rebuilt from the event log alone (spec 003, task 1).
 * The conversation with the user is not part of it: turns are ephemeral and live in the
 * facade's memory, never in the log.
 */

/** The workflow as the router reports it. `idle`: created (or unknown), not started yet. */
export type RouterWorkflowStatus =
  'idle' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** How a stage attempt ended, as the spec's SUCCESS / FAILURE / CANCELLED. */
export type StageOutcomeKind = 'success' | 'failure' | 'cancelled';

/**
 * One line of the router's L2 memory: a stage attempt's outcome, summarized. `sequence` and
 * `eventId` locate the event it summarizes, so an answer can cite it (`#412`).
 */
export type RouterL2Entry = {
  readonly stageId: string;
  readonly attempt: number;
  readonly outcome: StageOutcomeKind;
  /** One human-readable line; never artifact content or tool output. */
  readonly summary: string;
  readonly sequence: number;
  readonly eventId: string;
  readonly timestamp: string;
};

/** One approval being waited for: the call, its tool and tier, and why it was asked. */
export type RouterPendingApproval = {
  readonly callId: string;
  readonly tool: string;
  readonly tier: string;
  readonly reason: string;
  readonly sequence: number;
};

/** Plain JSON, so it can be snapshotted like any projection state. */
export type RouterState = {
  readonly sessionId: string | null;
  readonly workflowStatus: RouterWorkflowStatus;
  /** The stage running or about to run; null before the workflow starts and after it ends. */
  readonly currentStageId: string | null;
  /** The stage attempt that started and has not ended (a cancel ends it as `cancelled`). */
  readonly activeStage: { readonly stageId: string; readonly attempt: number } | null;
  /** The task the session was created for (the user's own words). */
  readonly task: string | null;
  /**
   * The tool calls waiting for a person's approval now, oldest first, so "what is it waiting
   * for?" has an answer. `sequence` is the request's event, to cite.
   */
  readonly pendingApprovals: readonly RouterPendingApproval[];
  /** Stage outcomes, oldest first. */
  readonly l2Memory: readonly RouterL2Entry[];
  /** The last sequence folded in: "as of #N". */
  readonly lastSequence: number;
};

export type RouterTurnRole = 'user' | 'router';

/** One message of the conversation between a person and the router. Never recorded. */
export type RouterTurn = {
  readonly role: RouterTurnRole;
  readonly content: string;
  /** From the facade's Clock when the turn was taken. */
  readonly timestamp: string;
};
