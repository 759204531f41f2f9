import type { CorrexEvent } from '../../../event-catalog.js';
import { recordedFlagsInForce } from '../../config/behaviour.js';
import { DECISIONS_FROM_CANONICAL_OUTPUT } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';

/** Whether the session was recorded with `decisions-from-canonical-output`. */
function evolveCanonicalOutput(recorded: boolean, event: CorrexEvent): boolean {
  return event.payload.type === 'session_configured'
    ? recordedFlagsInForce(event.payload.configuration).has(DECISIONS_FROM_CANONICAL_OUTPUT.name)
    : recorded;
}

/**
 * Decisions from canonical output (flag `decisions-from-canonical-output`): the slice says
 * whether the session recorded the flag, so the fold can start each stage attempt with it (its
 * transcript renders a model's JSON in canonical form: decider/stage-run.ts). What the flag
 * changes in a decision stays at its branch points (canonical-model-output.ts). No hooks.
 */
export const canonicalOutputFeature: KernelFeature<'canonicalOutput', boolean> = {
  name: 'canonicalOutput',
  flag: DECISIONS_FROM_CANONICAL_OUTPUT,
  events: [],
  state: { initial: false, evolve: evolveCanonicalOutput },
  hooks: {},
};
