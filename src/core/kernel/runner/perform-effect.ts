import type { CorrexEvent } from '../../event-catalog.js';
import type { Effect } from '../decider/effect.js';
import type { HeldCommits } from './held-commits.js';
import { runEffect } from './run-effect.js';
import type { RunSessionOptions, StartSession } from './run-session-types.js';
import { runSubagent, type SubagentRunResult } from './run-subagent.js';
import type { RunningEffect } from './running-effect.js';
import type { SessionLog } from './session-log.js';

/** What performing an effect gave: its results, and for a sub-session how its run ended. */
export type Performed = {
  readonly results: CorrexEvent['payload'][];
  readonly child: SubagentRunResult | null;
};

/**
 * Performs `effect` with its own abort handle: a sub-session is driven to its end (or until it
 * waits) by `start`, any other effect runs through its port on the state with what is held
 * folded in. When it throws, what is held is appended first.
 */
export async function performEffect(
  options: RunSessionOptions,
  log: SessionLog,
  commits: HeldCommits,
  running: RunningEffect,
  effect: Exclude<Effect, { type: 'await_approval' }>,
  start: StartSession,
): Promise<Performed> {
  const signal = running.begin(effect.type);
  try {
    if (effect.type === 'run_subagent') {
      const child = await runSubagent(
        options,
        log.state,
        effect,
        signal,
        (run) => (running.child = run),
        start,
      );
      return { results: child.results, child };
    }
    return {
      results: await runEffect(options, commits.stateForEffect(), effect, signal),
      child: null,
    };
  } catch (error) {
    await commits.release();
    throw error;
  } finally {
    running.end();
  }
}
