import type { CorrexEventStore } from '../../event-catalog.js';
import type { RecordingContext } from './append-decided.js';
import { decideCommand } from '../decider/decide-command.js';
import type { KernelConfig } from '../config/kernel-config.js';
import type { KernelCommand } from '../decider/kernel-input.js';
import { kernelProjection, type KernelState } from '../decider/kernel-state.js';
import type { RunOutcome } from './run-session-types.js';
import { sessionConfiguredPayload } from '../config/session-configuration.js';

/**
 * Records a new top-level session's configuration and start exactly as a driving run's first
 * append does (see run-session.ts), and drives nothing: whoever resumes it (a worker) goes on
 * from there with the configuration it recorded. The outcome says it stopped here.
 */
export async function recordStart(
  context: RecordingContext,
  store: CorrexEventStore,
  sessionId: string,
  config: KernelConfig,
  command: Extract<KernelCommand, { type: 'start' }>,
): Promise<RunOutcome> {
  let state: KernelState = kernelProjection.initial();
  const payloads = decideCommand(state, sessionId, command);
  if (payloads.length > 0) payloads.unshift(sessionConfiguredPayload(config));
  const stored = await store.appendAll(
    payloads.map((payload) => ({
      eventId: context.ids.next(),
      sessionId,
      timestamp: context.clock.now(),
      causationId: null,
      correlationId: null,
      payload,
    })),
    { expectedSequence: 0 },
  );
  for (const event of stored) state = kernelProjection.evolve(state, event);
  return { status: state.session.status, waiting: { kind: 'stopped' }, state };
}
