import { isFinalStatus } from '../../sessions/session-status.js';
import type { Effect } from '../decider/effect.js';
import type { HeldCommits } from './held-commits.js';
import { changesNothing } from './held-results.js';
import type { Performed } from './perform-effect.js';
import { readCommands } from './read-commands.js';
import type { RunOutcome, RunSessionOptions } from './run-session-types.js';
import type { RunningEffect } from './running-effect.js';
import type { SessionLog } from './session-log.js';

/**
 * Records what performing `effect` gave, after whatever was recorded meanwhile: its results with
 * the decision on them (commit batching), or as plain inputs. Returns how the run ends when a
 * sub-session left it waiting; undefined when the loop goes on.
 */
export async function recordPerformed(
  options: RunSessionOptions,
  log: SessionLog,
  commits: HeldCommits,
  running: RunningEffect,
  effect: Effect,
  { results, child }: Performed,
): Promise<RunOutcome | undefined> {
  // What was recorded meanwhile (a cancel, a pause, a note) is read before the result goes in.
  const before = log.state.session.lastSequence;
  // Held decisions dropped because of what was read: these results answered one of them.
  if (
    (await readCommands(log, running, !changesNothing(options.config, effect))) &&
    (await commits.release())
  )
    return undefined;
  // A sub-session's results may leave this run waiting with it, so they are not decided on here.
  if (child === null && results.length > 0 && !isFinalStatus(log.state.session.status)) {
    await commits.answer(effect, results);
    return undefined;
  }
  if (await commits.release()) return undefined;
  await log.appendInputs(results, null);
  // The sub-session waits for a person (or was paused on its own): so does this run, unless
  // something for this session was recorded meanwhile (a pause or cancel forwarded to the child).
  const waiting = child?.waiting;
  if (waiting != null && waiting.kind !== 'stopped' && log.state.session.lastSequence === before)
    return { status: log.state.session.status, waiting, state: log.state };
  return undefined;
}
