import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

/**
 * Older entries of a long stage attempt's journal were folded into one recorded summary, so the
 * packs that follow stay small. Emitted by `decide` (the summary is derived from the recorded
 * entries, so replay derives the same one); the entries up to `throughSequence` leave the pack.
 */
export const journalCompacted = defineEvent({
  type: 'journal_compacted',
  description: "A stage attempt's older journal entries were replaced by a recorded summary.",
  origin: 'decision',
  fields: {
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    throughSequence: z.number().int().min(1),
    entries: z.number().int().min(1),
    summary: z.string().min(1),
  },
});

export const journalEvents = [journalCompacted] as const;
