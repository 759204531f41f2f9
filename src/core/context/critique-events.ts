import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

/** A review's rework notes, each with an id and the paths it names. */
export const reviewFindingsRecorded = defineEvent({
  type: 'review_findings_recorded',
  description: 'A review asked for rework; each note is recorded as a finding with an id.',
  origin: 'decision',
  fields: () => ({
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    artifactHash: z.string().min(1),
    findings: z.array(
      z.strictObject({
        id: z.string().min(1),
        note: z.string().min(1),
        paths: z.array(z.string().min(1)),
      }),
    ),
  }),
});

/**
 * Whether the rework after a review addressed its findings, from the log: the file a finding
 * names (or, naming none, any file) was written after it, and every check run after it passed.
 * Recorded when the next review's artifact is accepted.
 */
export const critiqueOutcomesCorrelated = defineEvent({
  type: 'critique_outcomes_correlated',
  description: "A review's findings correlated with what the rework changed and its checks.",
  origin: 'decision',
  fields: () => ({
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    outcomes: z.array(
      z.strictObject({
        id: z.string().min(1),
        changed: z.boolean(),
        /** null: no check ran after the finding. */
        checksPassed: z.boolean().nullable(),
      }),
    ),
  }),
});

export const critiqueEvents = [reviewFindingsRecorded, critiqueOutcomesCorrelated] as const;
