import { TRANSIENT_PROVIDER_WAITS } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import { stageFailed } from '../../decider/stage-failed.js';
import { emit } from '../../decider/step.js';

/**
 * Waits since a stage attempt's last model answer (`transient-provider-waits`) past which a
 * transiently failing model call fails the attempt, unless the stage's `retry.providerWaitMs`
 * says otherwise: 5 minutes, time for llama-server to load a large model or a hosted API to
 * come back from a blip.
 */
export const TRANSIENT_WAIT_BOUND_MS = 300_000;

/**
 * Transient provider waits (flag `transient-provider-waits`): a model call that failed
 * transiently with a recorded wait is made again (the retry feature records and waits out the
 * delay before it), within the bound; past it the attempt fails saying how long it waited. Any
 * other failure is the ladder's: the attempt fails and the stage's retry policy decides. No
 * slice: the attempt counts its calls made again and their waits (decider/stage-run.ts), and
 * the turn limit reads the count.
 */
export const transientWaitsFeature: KernelFeature<'transientWaits', null> = {
  name: 'transientWaits',
  flag: TRANSIENT_PROVIDER_WAITS,
  events: [],
  state: { initial: null, evolve: (slice) => slice },
  hooks: {
    failedModelCall: (_view, run, { stage, failure }) => {
      const wait = failure.transientWaitMs;
      if (wait === null) return null;
      const bound = stage.retry.providerWaitMs ?? TRANSIENT_WAIT_BOUND_MS;
      if (run.providerWaitedMs + wait <= bound) return 'call_again';
      return emit(
        stageFailed(
          run,
          failure.category,
          `still failing after ${run.providerRetries} ${run.providerRetries === 1 ? 'retry' : 'retries'} over ${Math.round(run.providerWaitedMs / 1000)} s of waits: ${failure.message}`,
        ),
      );
    },
  },
};
