import type { CorrexEventStore, EventPayload } from '../../core/event-catalog.js';
import { ConcurrencyError } from '../../core/events/concurrency-error.js';
import type { StoredEvent } from '../../core/events/event-envelope.js';
import { replay } from '../../core/events/replay.js';
import { decideCommand } from '../../core/kernel/decide-command.js';
import type { KernelCommand } from '../../core/kernel/kernel-input.js';
import { kernelProjection } from '../../core/kernel/kernel-state.js';
import { UnknownSessionError } from './append-to-session.js';
import type { CliContext } from './cli-context.js';

/**
 * Records a person's command (approve, deny, steer, pause, cancel) in a session that may be
 * running in another process, exactly as the kernel would record it: the session's state is
 * folded, `decideCommand` says which events the command becomes (an illegal lifecycle move is
 * recorded as `lifecycle_rejected`; approving a call that awaits nothing throws), and they are
 * appended after the last event seen. On a conflict the state is folded again and the command
 * decided again; event ids stay the same across attempts, so nothing is recorded twice.
 */
export async function recordCommand(
  context: Pick<CliContext, 'clock' | 'ids'>,
  events: CorrexEventStore,
  sessionId: string,
  command: KernelCommand,
): Promise<StoredEvent<EventPayload>[]> {
  const eventIds: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const { state, sequence } = await replay(events, kernelProjection, sessionId);
    if (sequence === 0) throw new UnknownSessionError(sessionId);
    const payloads = decideCommand(state, sessionId, command);
    if (payloads.length === 0) return [];
    const timestamp = context.clock.now();
    const batch = payloads.map((payload, index) => ({
      eventId: (eventIds[index] ??= context.ids.next()),
      sessionId,
      timestamp,
      payload,
    }));
    try {
      return await events.appendAll(batch, { expectedSequence: sequence });
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= 5) throw error;
    }
  }
}
