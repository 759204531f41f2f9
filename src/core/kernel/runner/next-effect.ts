import { decide, pendingEffect } from '../decider/decide.js';
import type { Effect } from '../decider/effect.js';
import { KernelInvariantError } from '../decider/kernel-errors.js';
import { awaitsDecision } from '../decider/kernel-state.js';
import type { HeldCommits } from './held-commits.js';
import type { RunSessionOptions } from './run-session-types.js';
import { isConflict, type SessionLog } from './session-log.js';

/**
 * The effect the session awaits next: the one the last combined append decided, else the one a
 * decision on the last input awaits (appending that decision), else the one the settled state
 * has pending. Undefined when the decision met a conflict: the loop decides again on the newer
 * state.
 */
export async function nextEffect(
  options: RunSessionOptions,
  log: SessionLog,
  commits: HeldCommits,
): Promise<{ readonly effect: Effect | null } | undefined> {
  const { config, sessionId } = options;
  const decided = commits.takeDecided();
  if (decided !== undefined) return decided;
  if (awaitsDecision(log.state)) {
    const decision = decide(config, log.state, log.last!);
    if (decision.events.length > 0) {
      try {
        await log.appendOnce(decision.events.map((event) => ({ ...event })));
      } catch (error) {
        if (!isConflict(error)) throw error;
        await log.catchUp();
        return undefined;
      }
      // Content lives in the artifact store; the log holds the hash (and the model text it came from).
      for (const artifact of decision.artifacts) await options.artifacts?.put(artifact);
    }
    return { effect: decision.effect };
  }
  const pending = pendingEffect(config, log.state);
  // The last event is a decision, so the state is settled; anything else is a kernel bug.
  if (!pending.settled)
    throw new KernelInvariantError(`session ${sessionId} is not settled after its last decision`);
  return { effect: pending.effect };
}
