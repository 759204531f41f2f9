import type { CorrexEventStore, EventPayload } from '../../event-catalog.js';
import type { StoredEvent } from '../../events/event-envelope.js';
import { replay } from '../../events/replay.js';
import { isFinalStatus } from '../../sessions/session-status.js';
import { appendDecided, type RecordingContext } from './append-decided.js';
import { decideCommand } from '../decider/decide-command.js';
import type { KernelCommand } from '../decider/kernel-input.js';
import { kernelProjection, runOf, type KernelState } from '../decider/kernel-state.js';
import { checkRedirect } from '../features/redirect/redirect.js';
import { recordedKernelConfig } from './replay-session.js';

/**
 * Records a person's command (approve, deny, steer, pause, cancel, redirect) in a session that
 * may be running in another process, exactly as the kernel would record it: the session's state
 * is folded, `decideCommand` says which events the command becomes (an illegal lifecycle move is
 * recorded as `lifecycle_rejected`; approving a call that awaits nothing throws), and they are
 * appended after the last event seen, decided again after a conflict (see `appendDecided`).
 * The one route every command takes, whoever issues it. A cancel, a pause, or a redirect the
 * workflow allows also reaches the sub-session the running stage waits on, in its own log (no
 * runner may be left to forward it: a parent waiting on its child's approval holds no process);
 * whoever drives the child reads it there.
 */
export async function recordCommand(
  context: RecordingContext,
  events: CorrexEventStore,
  sessionId: string,
  command: KernelCommand,
  /**
   * Records the command only while the session is in a state this accepts, judged on the very
   * state the command is decided on (again after a conflict): a shutdown pauses a session only
   * while it runs, and records nothing for one that completed meanwhile.
   */
  onlyWhile?: (state: KernelState) => boolean,
): Promise<StoredEvent<EventPayload>[]> {
  let before: KernelState | null = null;
  const recorded = await appendDecided(context, events, sessionId, async () => {
    const { state, sequence } = await replay(events, kernelProjection, sessionId);
    before = state;
    if (sequence > 0 && onlyWhile !== undefined && !onlyWhile(state))
      return { sequence, payloads: [] };
    return { sequence, payloads: sequence === 0 ? [] : decideCommand(state, sessionId, command) };
  });
  const subagent = before === null ? null : runOf(before)?.subagent;
  if (before === null || subagent?.status !== 'running' || recorded.length === 0) return recorded;
  const forward = await forwardedToChild(events, sessionId, before, command, recorded);
  if (forward !== null) {
    const { state, sequence } = await replay(events, kernelProjection, subagent.childSessionId);
    const open =
      forward.type === 'pause'
        ? state.session.status === 'running'
        : !isFinalStatus(state.session.status);
    if (sequence > 0 && open)
      await recordCommand(context, events, subagent.childSessionId, forward);
  }
  return recorded;
}

/** The command a sub-session gets when its parent is cancelled, paused or redirected away. */
async function forwardedToChild(
  events: CorrexEventStore,
  sessionId: string,
  parent: KernelState,
  command: KernelCommand,
  recorded: readonly StoredEvent<EventPayload>[],
): Promise<KernelCommand | null> {
  const types = recorded.map((event) => event.payload.type);
  const parentNote = `(parent session ${sessionId})`;
  switch (command.type) {
    case 'cancel':
      return types.includes('workflow_cancelled')
        ? {
            ...command,
            reason: `${command.reason ?? `cancelled by ${command.by}`} ${parentNote}`,
          }
        : null;
    case 'pause':
      return types.includes('orchestration_paused')
        ? { ...command, reason: command.reason ?? `parent session ${sessionId} paused` }
        : null;
    case 'redirect': {
      // Legal now means the parent's kernel moves away from the stage: its child is not needed.
      const config = await recordedKernelConfig(events, sessionId);
      if (!checkRedirect(config, parent, command.to).ok) return null;
      return {
        type: 'cancel',
        by: command.by,
        reason: `the parent was redirected to ${command.to} ${parentNote}`,
      };
    }
    default:
      return null;
  }
}
