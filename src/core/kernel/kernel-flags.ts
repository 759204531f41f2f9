import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

/**
 * Journal compaction folds earlier summaries line by line and keeps the newest lines within
 * `compactJournalMaxTokens`, so a compaction's size is capped and the bytes all compactions
 * write grow linearly with turns (before, each copied every earlier summary whole).
 */
export const BOUNDED_JOURNAL_SUMMARY = defineBehaviourFlag({
  name: 'bounded-journal-summary',
  description:
    'journal compaction is capped at compactJournalMaxTokens and never copies earlier summaries whole',
});

/** The behaviour flags the kernel's own decisions branch on. */
export const kernelFlags: readonly BehaviourFlag[] = [BOUNDED_JOURNAL_SUMMARY];
