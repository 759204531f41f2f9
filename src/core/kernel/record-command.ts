import type { CorrexEventStore, EventPayload } from '../event-catalog.js';
import type { StoredEvent } from '../events/event-envelope.js';
import { replay } from '../events/replay.js';
import { isFinalStatus } from '../sessions/session-status.js';
import { appendDecided, type RecordingContext } from './append-decided.js';
import { decideCommand } from './decide-command.js';
import type { KernelCommand } from './kernel-input.js';
import { kernelProjection } from './kernel-state.js';

/**
 * Records a person's command (approve, deny, steer, pause, cancel) in a session that may be
 * running in another process, exactly as the kernel would record it: the session's state is
 * folded, `decideCommand` says which events the command becomes (an illegal lifecycle move is
 * recorded as `lifecycle_rejected`; approving a call that awaits nothing throws), and they are
 * appended after the last event seen, decided again after a conflict (see `appendDecided`).
 * A cancel also cancels the sub-session the running stage waits on (no runner may be left to
 * forward it: a parent waiting on its child's approval holds no process).
 */
export async function recordCommand(
  context: RecordingContext,
  events: CorrexEventStore,
  sessionId: string,
  command: KernelCommand,
): Promise<StoredEvent<EventPayload>[]> {
  let child: string | null = null;
  const recorded = await appendDecided(context, events, sessionId, async () => {
    const { state, sequence } = await replay(events, kernelProjection, sessionId);
    const subagent = state.run?.subagent;
    child = subagent?.status === 'running' ? subagent.childSessionId : null;
    return { sequence, payloads: sequence === 0 ? [] : decideCommand(state, sessionId, command) };
  });
  if (
    command.type === 'cancel' &&
    child !== null &&
    recorded.some((event) => event.payload.type === 'workflow_cancelled')
  ) {
    const { state, sequence } = await replay(events, kernelProjection, child);
    if (sequence > 0 && !isFinalStatus(state.session.status))
      await recordCommand(context, events, child, {
        ...command,
        reason: `${command.reason ?? `cancelled by ${command.by}`} (parent session ${sessionId})`,
      });
  }
  return recorded;
}
