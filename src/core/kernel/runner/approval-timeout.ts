import type { CorrexEvent } from '../../event-catalog.js';
import type { Effect } from '../decider/effect.js';
import type { RunSessionOptions } from './run-session-types.js';

/**
 * The `approval_timed_out` to record when `effect` waits for a person past the policy's approval
 * timeout (its deadline), by this runner's clock; undefined otherwise (or when the run stops).
 */
export function approvalTimeout(
  options: RunSessionOptions,
  effect: Effect | null,
): Extract<CorrexEvent['payload'], { type: 'approval_timed_out' }> | undefined {
  if (
    effect?.type === 'await_approval' &&
    effect.deadline !== undefined &&
    options.signal?.aborted !== true &&
    Date.parse(options.clock.now()) >= Date.parse(effect.deadline)
  )
    return { type: 'approval_timed_out', callId: effect.callId, deadline: effect.deadline };
  return undefined;
}
