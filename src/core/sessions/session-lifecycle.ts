import type { OperatorMode } from '../approvals/approval-tier.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { FailureCategory } from './failure-category.js';
import type { RecordedWorktree } from './recorded-worktree.js';
import type {
  lifecycleRejected,
  orchestrationPaused,
  orchestrationResumed,
  sessionCreated,
  workflowCancelled,
  workflowCompleted,
  workflowFailed,
  workflowStarted,
} from './session-events.js';
import type { LifecycleCommandType, SessionStatus } from './session-status.js';

/** A request to move a session through its lifecycle. */
export type LifecycleCommand =
  | {
      readonly type: 'create';
      readonly task: string;
      readonly workspace: string;
      readonly workflowId: string;
      readonly mode: OperatorMode;
      readonly modelProfile?: string;
      /** The stage attempt of another session that started this one as its sub-session. */
      readonly parent?: SessionParent;
      readonly worktree?: RecordedWorktree;
    }
  | { readonly type: 'start'; readonly firstStageId: string }
  | { readonly type: 'pause'; readonly by: string; readonly reason?: string }
  | { readonly type: 'resume'; readonly by: string }
  | { readonly type: 'complete'; readonly finalStageId: string; readonly summary?: string }
  | {
      readonly type: 'fail';
      readonly category: FailureCategory;
      readonly message: string;
      readonly stageId?: string;
    }
  | { readonly type: 'cancel'; readonly by: string; readonly reason?: string };

/** Where a sub-session comes from: the parent session, its stage attempt, its `subagent_started`. */
export type SessionParent = {
  readonly sessionId: string;
  readonly stageId: string;
  readonly attempt: number;
  readonly eventId: string;
};

/** The payloads `decideLifecycle` can emit. */
export type LifecyclePayload =
  | PayloadOf<typeof sessionCreated>
  | PayloadOf<typeof workflowStarted>
  | PayloadOf<typeof orchestrationPaused>
  | PayloadOf<typeof orchestrationResumed>
  | PayloadOf<typeof workflowCompleted>
  | PayloadOf<typeof workflowFailed>
  | PayloadOf<typeof workflowCancelled>
  | PayloadOf<typeof lifecycleRejected>;

/** What `decideLifecycle` reads from the session state (a `SessionState` fits). */
export type LifecycleView = {
  readonly status: SessionStatus;
  readonly workflowId: string | null;
};

/** From which statuses each command is legal. Everything else is rejected with an event. */
const LEGAL_FROM: { readonly [C in LifecycleCommandType]: readonly SessionStatus[] } = {
  create: ['new'],
  start: ['created'],
  pause: ['running'],
  resume: ['paused'],
  complete: ['running'],
  fail: ['created', 'running', 'paused'],
  cancel: ['created', 'running', 'paused'],
};

/** Whether `command` is legal in `status`. */
export function canApplyLifecycle(status: SessionStatus, command: LifecycleCommandType): boolean {
  return LEGAL_FROM[command].includes(status);
}

/**
 * Decides the events for one lifecycle command. Pure: the same state and command always give
 * the same payloads. An illegal move gives exactly one `lifecycle_rejected` and changes nothing.
 */
export function decideLifecycle(
  state: LifecycleView,
  command: LifecycleCommand,
): LifecyclePayload[] {
  if (!canApplyLifecycle(state.status, command.type)) {
    return [
      {
        type: 'lifecycle_rejected',
        command: command.type,
        status: state.status,
        message: rejectionMessage(state.status, command.type),
      },
    ];
  }
  switch (command.type) {
    case 'create':
      return [
        {
          type: 'session_created',
          task: command.task,
          workspace: command.workspace,
          workflowId: command.workflowId,
          mode: command.mode,
          ...(command.modelProfile === undefined ? {} : { modelProfile: command.modelProfile }),
          ...(command.parent === undefined ? {} : { parent: { ...command.parent } }),
          ...(command.worktree === undefined ? {} : { worktree: { ...command.worktree } }),
        },
      ];
    case 'start':
      // LEGAL_FROM guarantees `created`, so the workflow id is known.
      return [
        {
          type: 'workflow_started',
          workflowId: state.workflowId ?? '',
          firstStageId: command.firstStageId,
        },
      ];
    case 'pause':
      return [
        { type: 'orchestration_paused', by: command.by, ...optional('reason', command.reason) },
      ];
    case 'resume':
      return [{ type: 'orchestration_resumed', by: command.by }];
    case 'complete':
      return [
        {
          type: 'workflow_completed',
          finalStageId: command.finalStageId,
          ...optional('summary', command.summary),
        },
      ];
    case 'fail':
      return [
        {
          type: 'workflow_failed',
          category: command.category,
          message: command.message,
          ...optional('stageId', command.stageId),
        },
      ];
    case 'cancel':
      return [
        { type: 'workflow_cancelled', by: command.by, ...optional('reason', command.reason) },
      ];
  }
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: string });
}

function rejectionMessage(status: SessionStatus, command: LifecycleCommandType): string {
  const legal = LEGAL_FROM[command].join(' or ');
  return `cannot ${command} a session that is ${status}: ${command} is legal only when it is ${legal}`;
}
