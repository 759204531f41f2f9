import type { CorrexEventStore, EventPayload } from '../event-catalog.js';
import type { StoredEvent } from '../events/event-envelope.js';
import { replay } from '../events/replay.js';
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
 */
export async function recordCommand(
  context: RecordingContext,
  events: CorrexEventStore,
  sessionId: string,
  command: KernelCommand,
): Promise<StoredEvent<EventPayload>[]> {
  return appendDecided(context, events, sessionId, async () => {
    const { state, sequence } = await replay(events, kernelProjection, sessionId);
    return { sequence, payloads: sequence === 0 ? [] : decideCommand(state, sessionId, command) };
  });
}
