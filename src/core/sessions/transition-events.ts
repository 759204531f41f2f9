import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

/*
 * Transition events are emitted by core/transitions (`evaluateTransition`) but defined here,
 * below it, because the session projection folds them into cycle counts and the current stage.
 */

const stageId = z.string().min(1);

/** Why a transition could not be taken. */
export const TRANSITION_REJECTIONS = [
  'unknown_stage',
  'not_current_stage',
  'unknown_verdict',
  'no_matching_transition',
] as const;
export const TransitionRejectionSchema = z.enum(TRANSITION_REJECTIONS);
export type TransitionRejection = z.infer<typeof TransitionRejectionSchema>;

/**
 * The workflow moved: to another stage, back to the same stage for a retry, or to its end.
 * Emitted by the kernel from `evaluateTransition`; causation is the stage outcome event.
 */
export const transitionTaken = defineEvent({
  type: 'transition_taken',
  description: 'The workflow took a transition out of a stage.',
  origin: 'decision',
  fields: () => ({
    from: stageId,
    /** The next stage, or absent when the workflow ends. */
    to: stageId.optional(),
    /** How the workflow ends, when it does. */
    end: z.enum(['completed', 'failed']).optional(),
    /** The condition that matched, e.g. `verdict:rework`, `failure:tool`, `retry`. */
    condition: z.string().min(1),
    /** The counted edge, e.g. `review->implement` or `verify->end:failed`. */
    edge: z.string().min(1),
    /** How many times this edge has been taken, this time included. */
    traversal: z.number().int().min(1),
    /** The attempt number the next stage runs as (absent when the workflow ends). */
    attempt: z.number().int().min(1).optional(),
  }),
});

/**
 * An outcome could not move the workflow: the transition is refused, never taken. Emitted by
 * the kernel from `evaluateTransition`; the kernel then fails the workflow (category
 * `transition`) or waits for a corrected outcome.
 */
export const transitionRejected = defineEvent({
  type: 'transition_rejected',
  description: 'A stage outcome matched no legal transition; nothing moved.',
  origin: 'decision',
  fields: () => ({
    from: z.string().min(1),
    reason: TransitionRejectionSchema,
    /** The outcome that was refused, e.g. `verdict:maybe`, `failure:tool`. */
    outcome: z.string().min(1),
    message: z.string().min(1),
  }),
});

export const transitionEvents = [transitionTaken, transitionRejected] as const;
