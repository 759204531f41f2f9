import type { BudgetKind } from '../../sessions/budget-events.js';
import type { ArtifactStore } from '../../artifacts/artifact-store.js';
import type { Clock } from '../../base/clock.js';
import type { IdSource } from '../../base/id-source.js';
import type { CorrexEvent, CorrexEventStore } from '../../event-catalog.js';
import type { SessionStatus } from '../../sessions/session-status.js';
import type { KernelConfig } from '../config/kernel-config.js';
import type { KernelObserver } from './kernel-observer.js';
import type { KernelPorts } from './kernel-ports.js';
import type { KernelState } from '../decider/kernel-state.js';
import type { KernelCommand } from '../decider/kernel-input.js';

/*
 * The live runner's types, apart from `run-session.ts` so that the sub-session runner
 * (`run-subagent.ts`) can name them without an import cycle.
 */

export type RunSessionOptions = {
  readonly store: CorrexEventStore;
  /**
   * Where commands issued through this run (`SessionRun.command`, pause, steer...) are recorded
   * (default `store`). They are a person's, not the driver's: a host whose `store` fences its
   * driver appends records them through the plain store.
   */
  readonly commandStore?: CorrexEventStore;
  readonly sessionId: string;
  readonly config: KernelConfig;
  readonly ports: KernelPorts;
  /** Stamps every appended event; the only clock the kernel has. */
  readonly clock: Clock;
  /** Ids of input events (commands, effect results); decided events derive theirs. */
  readonly ids: IdSource;
  /** Stops this process's work: the running effect is aborted, its result recorded, the loop ends. */
  readonly signal?: AbortSignal;
  /** Where proposed artifacts are stored by hash (optional: the log can always rebuild them). */
  readonly artifacts?: ArtifactStore;
  /** Called with every event this runner appends, in order, a sub-session's too (tracing, UIs). */
  readonly onEvent?: (event: CorrexEvent) => void;
  /** Typed hooks over what this runner appends: stage timings, transitions, tokens, approvals, artifacts. */
  readonly observer?: KernelObserver;
};

/** Where a run left the session. */
export type RunOutcome = {
  readonly status: SessionStatus;
  /**
   * Why the loop stopped while the session is still open. `sessionId` is set when what waits is
   * a stage's sub-session (a call of the child awaits approval: approve it in that session, then
   * resume this one; or the child alone was paused): resuming this session resumes the child.
   */
  readonly waiting:
    | {
        readonly kind: 'approval';
        readonly callId: string;
        readonly sessionId?: string;
        /** When the wait ends by the policy's approval timeout: drive the session again then. */
        readonly deadline?: string;
      }
    | { readonly kind: 'paused'; readonly sessionId?: string }
    | { readonly kind: 'stopped' }
    /** Stopped at a budget (prompt mode): a person raises it (`raise_budget`) to go on. */
    | {
        readonly kind: 'budget';
        readonly budget: BudgetKind;
        readonly limit: number;
        readonly sessionId?: string;
      }
    | null;
  readonly state: KernelState;
};

/**
 * A session being driven in this process. Commands are recorded in the store like anyone
 * else's (the loop reads them after its current effect); a cancel, a legal redirect, or a pause
 * during a retry delay also aborts what runs now.
 */
export type SessionRun = {
  readonly done: Promise<RunOutcome>;
  /** Records a command (see `recordCommand`) and interrupts the running effect when it calls for it. */
  command(command: KernelCommand): Promise<readonly CorrexEvent[]>;
  /** Records `workflow_cancelled` and aborts the running inference or tool process (or the running sub-session's). */
  cancel(by: string, reason?: string): Promise<void>;
  /** Records `orchestration_paused`; the loop stops once the running effect has finished. */
  pause(by: string, reason?: string): Promise<void>;
  /** Adds a steering note; it reaches the next context pack. */
  steer(content: string, stageId?: string): Promise<void>;
  /**
   * Records a redirect to stage `to`. When the workflow allows it from the running stage, the
   * running effect is aborted like a cancel's (its result still recorded) and `to` starts next;
   * otherwise it is recorded and refused (`redirect_rejected`) and the running effect goes on.
   */
  redirect(to: string, by: string, reason?: string): Promise<void>;
  /**
   * Aborts the running effect (or only a retry delay's wait) without recording anything: for a
   * command recorded by someone else, which the loop reads from the log once the effect ended
   * (after `recording` settles, when the command is still being recorded).
   */
  interrupt(reason: string, scope?: 'effect' | 'wait', recording?: Promise<unknown>): void;
};

/** Starts driving a session (`startSession`); handed to the sub-session runner. */
export type StartSession = (options: RunSessionOptions, command?: KernelCommand) => SessionRun;
