import { KernelWiringError, type EffectPerformer } from './effect-performer.js';

/** Sleeps out what is left of a retry delay by this runner's clock, then records that it elapsed. */
export const performWait: EffectPerformer<'wait'> = async (options, state, effect, signal) => {
  const { ports } = options;
  if (ports.timer === undefined) {
    throw new KernelWiringError(
      `a provider asked for a ${effect.delayMs} ms retry delay but no Timer is wired`,
    );
  }
  // What is left of the delay by this runner's clock (all of it after a restart is at most delayMs).
  const left = Date.parse(effect.until) - Date.parse(options.clock.now());
  await ports.timer.sleep(Math.min(Math.max(left, 0), effect.delayMs), signal);
  // Cut short by a cancel, a pause or a stop: nothing happened; the wait is pending again on resume.
  if (signal.aborted) return [];
  return [{ type: 'retry_delay_elapsed', until: effect.until }];
};
