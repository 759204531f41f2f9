import type { OperatorMode } from '../../approvals/approval-tier.js';
import type { BudgetKind } from '../../sessions/budget-events.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { SessionParent } from '../../sessions/session-lifecycle.js';
import type { RecordedWorktree } from '../../sessions/recorded-worktree.js';

/** What a person (or a program acting for one) asks of a session. */
export type KernelCommand =
  | {
      readonly type: 'start';
      readonly task: string;
      readonly workspace: string;
      readonly workflowId: string;
      readonly mode: OperatorMode;
      readonly modelProfile?: string;
      /** Set by the runner when it starts a stage's sub-session. */
      readonly parent?: SessionParent;
      /** Set when the session works in a git worktree of its own (recorded in `session_created`). */
      readonly worktree?: RecordedWorktree;
    }
  | { readonly type: 'pause'; readonly by: string; readonly reason?: string }
  | { readonly type: 'resume'; readonly by: string }
  | { readonly type: 'cancel'; readonly by: string; readonly reason?: string }
  | {
      readonly type: 'approve';
      readonly callId: string;
      readonly by: string;
      readonly reason?: string;
    }
  | { readonly type: 'deny'; readonly callId: string; readonly by: string; readonly reason: string }
  | { readonly type: 'steer'; readonly content: string; readonly stageId?: string }
  /** Raise a budget of a session (one that stopped at it goes on; see `budget_raised`). */
  | {
      readonly type: 'raise_budget';
      readonly budget: BudgetKind;
      readonly limit: number;
      readonly by: string;
    }
  /** Run a failed session again from the stage that failed (see `session_retried`). */
  | { readonly type: 'retry'; readonly by: string; readonly reason?: string }
  /**
   * Ask a session whose workflow ended for another turn (flag `follow-up-turns`, see
   * `turn_requested`): `workflowId` (default: the workflow of its last turn) starts again;
   * `workflow` is its definition when it is not the configured one.
   */
  | {
      readonly type: 'continue';
      readonly text: string;
      readonly by: string;
      readonly workflowId?: string;
      readonly workflow?: { readonly [key: string]: unknown };
      readonly mode?: OperatorMode;
    }
  /** Move the running session to `to`, along a transition its stage declares (a preempt). */
  | {
      readonly type: 'redirect';
      readonly to: string;
      readonly by: string;
      readonly reason?: string;
    };

/**
 * An input to the kernel: a command, or a recorded event that entered from outside `decide` (a
 * command's event or an effect's result). Commands become input events through `decideCommand`;
 * `decide` answers input events.
 */
export type KernelInput =
  | { readonly kind: 'command'; readonly command: KernelCommand }
  | { readonly kind: 'recorded'; readonly event: CorrexEvent };
