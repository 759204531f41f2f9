import { FOLLOW_UP_TURNS } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import { replyStep, turnStartStep } from './turn-step.js';
import { evolveTurns, INITIAL_TURNS, type TurnsState } from './turns-state.js';

/**
 * Follow-up turns (flag `follow-up-turns`): a session whose workflow ended takes another request
 * (`turn_requested`); before its workflow starts again, the workspace is compared with what the
 * log left (`turn_workspace_checked`); a conversational stage's reply is recorded with the
 * turn's checks (`turn_reply_recorded`). See docs/conversations.md.
 */
export const followUpTurnsFeature: KernelFeature<'turns', TurnsState> = {
  name: 'turns',
  flag: FOLLOW_UP_TURNS,
  events: ['turn_requested', 'turn_workspace_checked', 'turn_reply_recorded'],
  state: {
    initial: INITIAL_TURNS,
    evolve: (slice, event) => evolveTurns(slice, event, FOLLOW_UP_TURNS.name),
  },
  hooks: {
    beforeWorkflow: ({ config, slice }) => turnStartStep(config, slice),
    acceptedArtifact: ({ slice }, accepted) => replyStep(slice, accepted),
  },
};
