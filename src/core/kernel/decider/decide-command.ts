import type { CorrexEvent } from '../../event-catalog.js';
import { decideLifecycle } from '../../sessions/session-lifecycle.js';
import { isFinalStatus } from '../../sessions/session-status.js';
import { normalizeAbsolute } from '../../tools/tool-path.js';
import { KernelCommandError } from './kernel-errors.js';
import type { KernelCommand } from './kernel-input.js';
import type { KernelState } from './kernel-state.js';

type Payload = CorrexEvent['payload'];

/**
 * Turns a command into the input events that record it. Pure. A lifecycle move the status does
 * not allow is recorded as `lifecycle_rejected` (an outcome, not an exception); a command that
 * names something that does not exist (approving a call that awaits no approval) throws
 * `KernelCommandError`, because nothing about the session should record it.
 */
export function decideCommand(
  state: KernelState,
  sessionId: string,
  command: KernelCommand,
): Payload[] {
  const session = state.session;
  switch (command.type) {
    case 'start':
      if (
        !command.workspace.startsWith('/') ||
        normalizeAbsolute(command.workspace) !== command.workspace
      ) {
        throw new KernelCommandError(
          'invalid_command',
          `the workspace must be an absolute normalized path, got ${JSON.stringify(command.workspace)}`,
        );
      }
      return decideLifecycle(session, {
        type: 'create',
        task: command.task,
        workspace: command.workspace,
        workflowId: command.workflowId,
        mode: command.mode,
        ...(command.modelProfile === undefined ? {} : { modelProfile: command.modelProfile }),
        ...(command.parent === undefined ? {} : { parent: command.parent }),
        ...(command.worktree === undefined ? {} : { worktree: command.worktree }),
      });
    case 'pause':
    case 'cancel':
      return decideLifecycle(session, command);
    case 'resume':
      // Resuming a running session (after a restart, or once an approval arrived) records nothing.
      return session.status === 'running' ? [] : decideLifecycle(session, command);
    case 'approve':
    case 'deny': {
      if (!session.pendingApprovals.some((pending) => pending.callId === command.callId)) {
        const pending = session.pendingApprovals.map((p) => p.callId).join(', ') || 'none';
        throw new KernelCommandError(
          'approval_not_pending',
          `call ${command.callId} is not awaiting approval in session ${sessionId} (pending: ${pending})`,
        );
      }
      const by = { kind: 'human' as const, id: command.by };
      return command.type === 'approve'
        ? [
            {
              type: 'approval_granted',
              callId: command.callId,
              by,
              ...(command.reason === undefined ? {} : { reason: command.reason }),
            },
          ]
        : [{ type: 'approval_denied', callId: command.callId, by, reason: command.reason }];
    }
    case 'redirect':
      // Whether the workflow allows the move is decided with the workflow (redirect_rejected).
      if (session.status !== 'running') {
        throw new KernelCommandError(
          'invalid_command',
          `session ${sessionId} is ${session.status}; only a running session can be redirected`,
        );
      }
      return [
        {
          type: 'redirect_requested',
          to: command.to,
          by: command.by,
          ...(command.reason === undefined ? {} : { reason: command.reason }),
        },
      ];
    case 'raise_budget':
      if (!Number.isFinite(command.limit) || command.limit <= 0) {
        throw new KernelCommandError('invalid_command', 'a budget must be a positive number');
      }
      if (isFinalStatus(session.status)) {
        throw new KernelCommandError(
          'invalid_command',
          `session ${sessionId} is ${session.status}; its budgets no longer matter`,
        );
      }
      return [
        { type: 'budget_raised', budget: command.budget, limit: command.limit, by: command.by },
      ];
    case 'retry': {
      if (session.status !== 'failed') {
        throw new KernelCommandError(
          'invalid_command',
          `session ${sessionId} is ${session.status}; only a failed session can be retried`,
        );
      }
      // Old sessions replay as recorded: only one recorded with the flag may change its ending.
      if (!state.features.retry.acceptsRetry) {
        throw new KernelCommandError(
          'invalid_command',
          `session ${sessionId} was recorded by a correx that could not retry sessions; start it again with correx run`,
        );
      }
      const stageId = session.lastStageId;
      if (stageId === null) {
        throw new KernelCommandError(
          'invalid_command',
          `session ${sessionId} failed before any stage ran; start it again with correx run`,
        );
      }
      return [
        {
          type: 'session_retried',
          stageId,
          attempt: (session.attempts[stageId] ?? 0) + 1,
          by: command.by,
          reason: command.reason ?? 'retried by a person',
        },
      ];
    }
    case 'continue': {
      const turns = state.features.turns;
      if (!isFinalStatus(session.status)) {
        throw new KernelCommandError(
          'session_not_finished',
          `session ${sessionId} is ${session.status}; a follow-up turn waits until its workflow ended (completed, failed or cancelled)`,
        );
      }
      // Old sessions replay as recorded: only one recorded with the flag takes another turn.
      if (!turns.on) {
        throw new KernelCommandError(
          'turns_not_recorded',
          `session ${sessionId} was recorded by a correx without follow-up turns; start a new session with correx run`,
        );
      }
      if (command.text.trim() === '') {
        throw new KernelCommandError('invalid_command', 'a follow-up turn needs a request text');
      }
      const workflowId = command.workflowId ?? session.workflowId;
      if (workflowId === null) {
        throw new KernelCommandError(
          'invalid_command',
          `session ${sessionId} never started a workflow`,
        );
      }
      // The same workflow again keeps the definition its last turn ran (a turn of `chat` stays chat).
      const definition =
        command.workflow ?? (command.workflowId === undefined ? turns.definition : null);
      return [
        {
          type: 'turn_requested',
          turn: (turns.turns.at(-1)?.turn ?? 1) + 1,
          text: command.text,
          requestedBy: command.by,
          workflowId,
          ...(definition === null || definition === undefined
            ? {}
            : { workflow: definition as Extract<Payload, { type: 'turn_requested' }>['workflow'] }),
          ...(command.mode === undefined ? {} : { mode: command.mode }),
        },
      ];
    }
    case 'steer':
      if (command.content.trim() === '') {
        throw new KernelCommandError('invalid_command', 'a steering note needs some text');
      }
      // A note reaches the next context pack; a finished session has none, so it would never be read.
      if (isFinalStatus(session.status)) {
        throw new KernelCommandError(
          'session_finished',
          `session ${sessionId} is ${session.status}; a steering note could never reach its model`,
        );
      }
      return [
        {
          type: 'steering_note_added',
          sessionId,
          content: command.content,
          ...(command.stageId === undefined ? {} : { stageId: command.stageId }),
        },
      ];
  }
}
