import { isFinalStatus } from '../../sessions/session-status.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { Effect } from '../decider/effect.js';
import type { KernelCommand } from '../decider/kernel-input.js';
import type { KernelState } from '../decider/kernel-state.js';
import { approvalTimeout } from './approval-timeout.js';
import { HeldCommits } from './held-commits.js';
import { changesNothing } from './held-results.js';
import { nextEffect } from './next-effect.js';
import { openSession, SessionConfigurationMismatchError } from './open-session.js';
import { performEffect } from './perform-effect.js';
import { readCommands } from './read-commands.js';
import { recordCommand } from './record-command.js';
import { recordPerformed } from './record-performed.js';
import { KernelWiringError } from './run-effect.js';
import type { RunOutcome, RunSessionOptions, SessionRun } from './run-session-types.js';
import { RunningEffect } from './running-effect.js';
import { SessionLog } from './session-log.js';

export { KernelWiringError, SessionConfigurationMismatchError };
export type { RunOutcome, RunSessionOptions, SessionRun };

/** Drives a session until it finishes or waits (approval, pause). See `startSession`. */
export function runSession(
  options: RunSessionOptions,
  command?: KernelCommand,
): Promise<RunOutcome> {
  return startSession(options, command).done;
}

/**
 * The live effect runner. Replays the session's state from the store; marks a call that was
 * started without a receipt as interrupted (crash-exact recovery); records `command` (if any);
 * then loops: let `decide` answer the last input, append its events with `expectedSequence`,
 * run the pending effect through its port with an AbortSignal, append the result as an input.
 * Commands reach the session by one route: they are recorded in the store (`command`, or by
 * anyone else), and the loop reads what was appended after each effect. It stops when nothing
 * is pending: finished, paused, or waiting for a person. A waiting session needs no process:
 * whoever appends the answer and calls `runSession` again wakes it.
 */
export function startSession(options: RunSessionOptions, command?: KernelCommand): SessionRun {
  const running = new RunningEffect();
  const stop = options.signal;
  const onStop = () => running.abort(stop?.reason);
  stop?.addEventListener('abort', onStop, { once: true });
  // A long-lived host (a worker) shares one stop signal across many runs: each run takes its
  // listener off when it ends.
  const done = drive(options, command, running).finally(() =>
    stop?.removeEventListener('abort', onStop),
  );
  const record = (recorded: KernelCommand): Promise<readonly CorrexEvent[]> => {
    const recording = recordCommand(
      options,
      options.commandStore ?? options.store,
      options.sessionId,
      recorded,
    );
    // What the command asks of the running effect happens now; the loop (and a sub-session's
    // loop, whose log the command is forwarded to) reads the record before it goes on.
    running.answer(options.config, recorded, recording);
    return recording;
  };
  return {
    done,
    command: record,
    async cancel(by, reason) {
      await record({ type: 'cancel', by, ...(reason === undefined ? {} : { reason }) });
    },
    async pause(by, reason) {
      await record({ type: 'pause', by, ...(reason === undefined ? {} : { reason }) });
    },
    async steer(content, stageId) {
      await record({ type: 'steer', content, ...(stageId === undefined ? {} : { stageId }) });
    },
    async redirect(to, by, reason) {
      await record({ type: 'redirect', to, by, ...(reason === undefined ? {} : { reason }) });
    },
    interrupt(reason, scope = 'effect', recording) {
      if (recording !== undefined) running.track(recording);
      running.interrupt(new Error(reason), scope, recording);
    },
  };
}

/**
 * The loop: take the next effect; read the commands recorded meanwhile; end a wait for a person
 * past its deadline; stop when nothing is pending, a person is awaited or the run is stopped;
 * otherwise perform the effect and record what it gave. The pieces: SessionLog (catch-up and
 * appends), openSession (before the loop), HeldCommits (commit batching of held results),
 * approvalTimeout, performEffect (sub-sessions included) and recordPerformed.
 */
async function drive(
  options: RunSessionOptions,
  command: KernelCommand | undefined,
  running: RunningEffect,
): Promise<RunOutcome> {
  const { config } = options;
  const log = new SessionLog(options);
  await log.catchUp();
  await openSession(options, log, command);
  const commits = new HeldCommits(options, log);
  for (;;) {
    const next = await nextEffect(options, log, commits);
    // The decision met a conflict: decide again on the newer state.
    if (next === undefined) continue;
    const { effect } = next;
    running.state = log.state;
    // A command issued here while deciding comes first (a pause before the next model call).
    // Before an effect that changes nothing, only this process's commands are read.
    if (await readCommands(log, running, effect === null || !changesNothing(config, effect))) {
      await commits.release();
      continue;
    }
    const timedOut = approvalTimeout(options, effect);
    if (timedOut !== undefined) {
      await log.appendInputs([timedOut], null);
      continue;
    }
    if (effect === null || effect.type === 'await_approval' || options.signal?.aborted === true) {
      await commits.release();
      return outcome(log.state, effect, options.signal?.aborted === true);
    }
    const performed = await performEffect(options, log, commits, running, effect, startSession);
    const waiting = await recordPerformed(options, log, commits, running, effect, performed);
    if (waiting !== undefined) return waiting;
  }
}

function outcome(state: KernelState, effect: Effect | null, stopped: boolean): RunOutcome {
  const status = state.session.status;
  if (status === 'paused') return { status, waiting: { kind: 'paused' }, state };
  if (effect?.type === 'await_approval')
    return {
      status,
      waiting: {
        kind: 'approval',
        callId: effect.callId,
        ...(effect.deadline === undefined ? {} : { deadline: effect.deadline }),
      },
      state,
    };
  if (stopped && !isFinalStatus(status)) return { status, waiting: { kind: 'stopped' }, state };
  const stop = state.features.budget.stop;
  if (stop !== null && status === 'running' && effect === null)
    return { status, waiting: { kind: 'budget', budget: stop.budget, limit: stop.limit }, state };
  return { status, waiting: null, state };
}
