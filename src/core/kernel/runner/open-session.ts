import { CorrexError } from '../../base/correx-error.js';
import type { CorrexEvent, CorrexEventStore } from '../../event-catalog.js';
import { isFinalStatus } from '../../sessions/session-status.js';
import { egressAllowlistSeed } from '../../toolintent/egress-allowlist-seed.js';
import { sessionConfiguredPayload } from '../config/session-configuration.js';
import { decideCommand } from '../decider/decide-command.js';
import type { KernelCommand } from '../decider/kernel-input.js';
import { runOf } from '../decider/kernel-state.js';
import { currentCall } from '../decider/stage-run.js';
import type { RunSessionOptions } from './run-session-types.js';
import type { SessionLog } from './session-log.js';

type Payload = CorrexEvent['payload'];

/** The config a runner was given is not the one the session recorded at its start. */
export class SessionConfigurationMismatchError extends CorrexError {
  constructor(sessionId: string) {
    super(
      'session_configuration_mismatch',
      `session ${sessionId} was started with another configuration; resume it with the configuration it recorded`,
    );
  }
}

/**
 * What a run does once, before its loop, on the log it has caught up with: checks the recorded
 * configuration is the one it was given, records that a call started by a process that is gone
 * was interrupted, and records `command` (if any).
 */
export async function openSession(
  options: RunSessionOptions,
  log: SessionLog,
  command: KernelCommand | undefined,
): Promise<void> {
  const { store, sessionId, config } = options;
  const recorded = await recordedConfiguration(store, sessionId);
  if (recorded !== null && recorded !== sessionConfiguredPayload(config).digest) {
    throw new SessionConfigurationMismatchError(sessionId);
  }

  // A call started by a process that is gone: record that, so decide probes and classifies it.
  const state = log.state;
  const interrupted = currentCall(runOf(state)?.turn ?? null);
  if (interrupted?.status === 'started' && !isFinalStatus(state.session.status)) {
    await log.appendInputs(
      [{ type: 'tool_call_interrupted', callId: interrupted.callId, tool: interrupted.tool }],
      null,
    );
  }

  if (command !== undefined) {
    const payloads: Payload[] = decideCommand(log.state, sessionId, command);
    // A new session's first event records the configuration replay and resume rebuild.
    // and, behind its flag, the egress allowlist the recorded policy names.
    if (command.type === 'start' && log.state.session.lastSequence === 0 && payloads.length > 0) {
      payloads.unshift(sessionConfiguredPayload(config));
      payloads.push(...egressAllowlistSeed(config.policy.policy, config.behaviour.flags));
    }
    // A sub-session's first events are correlated to the parent's `subagent_started`.
    const correlation = command.type === 'start' ? (command.parent?.eventId ?? null) : null;
    await log.appendInputs(payloads, null, correlation);
  }
}

/** The digest of the configuration a session recorded at its start (null: none recorded). */
async function recordedConfiguration(
  store: CorrexEventStore,
  sessionId: string,
): Promise<string | null> {
  const [first] = await store.read(sessionId, { limit: 1 });
  return first?.payload.type === 'session_configured' ? first.payload.digest : null;
}
