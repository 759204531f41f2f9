import { z } from 'zod';
import { ArtifactHashSchema } from '../artifacts/artifact.js';
import { defineEvent } from '../events/event-definition.js';

/** The pipeline's phases, in the order they run. */
export const VALIDATION_PHASES = ['routing', 'schema', 'semantic', 'approval'] as const;
export const ValidationPhaseSchema = z.enum(VALIDATION_PHASES);
export type ValidationPhase = z.infer<typeof ValidationPhaseSchema>;

/**
 * An artifact failed one validator. Emitted by the validation pipeline, once per failing
 * validator; the message is written for the model that produced the artifact to act on, and the
 * kernel puts it in that stage's next context pack.
 */
export const validationFailed = defineEvent({
  type: 'validation_failed',
  description: 'A proposed artifact failed a validation phase; it does not advance the workflow.',
  origin: 'decision',
  fields: () => ({
    hash: ArtifactHashSchema,
    stageId: z.string().min(1),
    phase: ValidationPhaseSchema,
    validator: z.string().min(1),
    message: z.string().min(1),
  }),
});

export const validationEvents = [validationFailed] as const;
