import { CRITIQUE_OUTCOMES } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import { emit } from '../../decider/step.js';
import { critiqueEvent } from './critique-step.js';
import { evolveCritique, INITIAL_CRITIQUE, type CritiqueState } from './critique-state.js';

/**
 * Critique outcomes (flag `critique-outcomes`): a reviewer's rework notes are recorded as
 * findings, and the next review records whether each was acted on (its paths written since, the
 * checks run since).
 */
export const critiqueFeature: KernelFeature<'critique', CritiqueState> = {
  name: 'critique',
  flag: CRITIQUE_OUTCOMES,
  events: ['review_findings_recorded', 'critique_outcomes_correlated'],
  state: { initial: INITIAL_CRITIQUE, evolve: evolveCritique },
  hooks: {
    acceptedArtifact({ slice }, accepted) {
      const event = critiqueEvent(slice, accepted);
      return event === null ? null : emit(event);
    },
  },
};
