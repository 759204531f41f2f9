import { VERDICT_FROM_EVIDENCE } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import { stageFailed } from '../../decider/stage-failed.js';
import { emit } from '../../decider/step.js';
import { verdictFailure } from './verdict-from-evidence.js';

/**
 * Verdict from evidence (flag `verdict-from-evidence`): a verifier stage passes only when its
 * checks passed, the model said `passed: true`, and no command it ran was left failing. It reads
 * the attempt's recorded commands, so it keeps no slice of its own.
 */
export const verdictFeature: KernelFeature<'verdict', null> = {
  name: 'verdict',
  flag: VERDICT_FROM_EVIDENCE,
  events: [],
  state: { initial: null, evolve: (slice) => slice },
  hooks: {
    acceptedChecks(_view, { stage, attempt, content }) {
      const unproven = verdictFailure(stage, attempt, content);
      return unproven === null ? null : emit(stageFailed(attempt, 'validation', unproven));
    },
  },
};
