import type { KernelFeature } from '../../decider/kernel-feature.js';
import { journalStep } from './journal-step.js';

/**
 * The journal: a stage attempt whose transcript grows past `compactJournalAfter` entries is
 * compacted before the next model call (in lines, or by the stage's model under
 * `journal.summary: model`). Always on (the limits say when); its state is the attempt's
 * (`run.summary`, the transcript), so it keeps no slice. Its step runs after the budget's.
 */
export const journalFeature: KernelFeature<'journal', null> = {
  name: 'journal',
  flag: null,
  events: ['journal_compacted', 'journal_summary_requested'],
  state: { initial: null, evolve: (slice) => slice },
  hooks: {
    beforeModelCall: ({ config }, run, call) =>
      journalStep({ config, run, stage: call.stage, built: call.built }),
  },
};
