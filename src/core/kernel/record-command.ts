import type { CorrexEventStore, EventPayload } from '../../core/event-catalog.js';
import type { StoredEvent } from '../../core/events/event-envelope.js';
import { replay } from '../../core/events/replay.js';
import { decideCommand } from '../../core/kernel/decide-command.js';
import type { KernelCommand } from '../../core/kernel/kernel-input.js';
import { kernelProjection } from '../../core/kernel/kernel-state.js';
import { appendDecided } from './append-to-session.js';
import type { CliContext } from './cli-context.js';

/**
 * Records a person's command (approve, deny, steer, pause, cancel) in a session that may be
 * running in another process, exactly as the kernel would record it: the session's state is
 * folded, `decideCommand` says which events the command becomes (an illegal lifecycle move is
 * recorded as `lifecycle_rejected`; approving a call that awaits nothing throws), and they are
 * appended after the last event seen, decided again after a conflict (see `appendDecided`).
 */
export async function recordCommand(
  context: Pick<CliContext, 'clock' | 'ids'>,
  events: CorrexEventStore,
  sessionId: string,
  command: KernelCommand,
): Promise<StoredEvent<EventPayload>[]> {
  return appendDecided(context, events, sessionId, async () => {
    const { state, sequence } = await replay(events, kernelProjection, sessionId);
    return { sequence, payloads: sequence === 0 ? [] : decideCommand(state, sessionId, command) };
  });
}
