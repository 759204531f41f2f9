import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';
import { ArtifactHashSchema } from './artifact.js';

/**
 * A stage produced an artifact and it entered the validation pipeline. The content is in the
 * ArtifactStore under `hash`; the event carries the hash and the lineage. Emitted by the kernel
 * once the artifact is stored.
 */
export const artifactProposed = defineEvent({
  type: 'artifact_proposed',
  description: 'A stage proposed an artifact; validation decides whether it is accepted.',
  origin: 'decision',
  fields: () => ({
    hash: ArtifactHashSchema,
    kind: z.string().min(1),
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    inferenceEventId: z.string().min(1).nullable(),
    parents: z.array(ArtifactHashSchema),
  }),
});

/**
 * An artifact passed every validation phase (routing, schema, semantic, approval) and may now
 * advance the workflow. Emitted only by the validation pipeline.
 */
export const artifactAccepted = defineEvent({
  type: 'artifact_accepted',
  description: 'An artifact passed the whole validation pipeline.',
  origin: 'decision',
  fields: () => ({
    hash: ArtifactHashSchema,
    kind: z.string().min(1),
    stageId: z.string().min(1),
  }),
});

export const artifactEvents = [artifactProposed, artifactAccepted] as const;
