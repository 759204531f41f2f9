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
  fields: () => ({
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    throughSequence: z.number().int().min(1),
    entries: z.number().int().min(1),
    summary: z.string().min(1),
    /** The summary request the model answered, when a model wrote the summary. */
    requestId: z.string().min(1).optional(),
  }),
});

/**
 * A model is asked to write the summary of a compaction (`journal.summary: model`). Emitted by
 * `decide`; its answer comes back as the request's `inference_completed` (or
 * `inference_failed`, after which the summary is made of lines, as without a model).
 */
export const journalSummaryRequested = defineEvent({
  type: 'journal_summary_requested',
  description: "A model was asked to summarise a stage attempt's older journal entries.",
  origin: 'decision',
  fields: () => ({
    requestId: z.string().min(1),
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    throughSequence: z.number().int().min(1),
    entries: z.number().int().min(1),
    provider: z.string().min(1),
    model: z.string().min(1),
    profileId: z.string().min(1),
    /** SHA-256 of the whole request; a rebuilt request must match it. */
    requestDigest: z.string().regex(/^[0-9a-f]{64}$/),
    tokenEstimate: z.number().int().nonnegative(),
  }),
});

export const journalEvents = [journalCompacted, journalSummaryRequested] as const;
