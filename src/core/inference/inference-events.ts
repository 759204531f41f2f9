import { z } from 'zod';
import { defineEvent, type PayloadOf } from '../events/event-definition.js';
import { ContextManifestSchema } from './context-manifest.js';
import { ContextManifestReferenceSchema } from './context-manifest-reference.js';
import { InferenceFailureCategorySchema, type InferenceError } from './inference-failure.js';
import { InferenceResultSchema } from './inference-result.js';

const sha256Field = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * The kernel is about to call a model. Emitted by `decide` before the effect runs; records which
 * provider and model the router chose and the context manifest, so a user can see exactly what
 * the model was shown and what was left out: whole (`manifest`), or by reference to what the
 * session recorded before (`manifestRef`, flag `manifest-by-reference`). Exactly one is set; read
 * either with `readRequestManifest` (manifest-history.ts).
 */
export const inferenceRequested = defineEvent({
  type: 'inference_requested',
  description: 'A model call was decided: provider, model, pack digest and context manifest.',
  origin: 'decision',
  fields: () => ({
    requestId: z.string().min(1),
    stageId: z.string().min(1),
    provider: z.string().min(1),
    model: z.string().min(1),
    /** The model profile the router picked. */
    profileId: z.string().min(1),
    /** SHA-256 of the rendered pack's messages. */
    packDigest: sha256Field,
    /** SHA-256 of the whole request (messages, tools, schema, limits); replay keys on it. */
    requestDigest: sha256Field,
    tokenEstimate: z.number().int().nonnegative(),
    toolNames: z.array(z.string().min(1)),
    manifest: ContextManifestSchema.optional(),
    manifestRef: ContextManifestReferenceSchema.optional(),
  }),
});

/** A model answered. Appended by the effect runner; the full response, usage and latency. */
export const inferenceCompleted = defineEvent({
  type: 'inference_completed',
  description: 'A model call returned; the full response, token usage and latency.',
  origin: 'effect_result',
  fields: () => ({
    requestId: z.string().min(1),
    provider: z.string().min(1),
    requestDigest: sha256Field,
    result: InferenceResultSchema,
  }),
});

/** A model call failed. Appended by the effect runner; the retry policy reads `category`. */
export const inferenceFailed = defineEvent({
  type: 'inference_failed',
  description: 'A model call failed with a categorised, credential-free reason.',
  origin: 'effect_result',
  fields: () => ({
    requestId: z.string().min(1),
    provider: z.string().min(1),
    model: z.string().min(1),
    category: InferenceFailureCategorySchema,
    message: z.string(),
    retryAfterMs: z.number().int().nonnegative().optional(),
  }),
});

export const inferenceEvents = [inferenceRequested, inferenceCompleted, inferenceFailed] as const;

/**
 * The `inference_failed` payload for a provider's error. The message is the provider's
 * already-redacted one; nothing else from the error (no cause, no headers) is recorded.
 */
export function inferenceFailedPayload(
  requestId: string,
  model: string,
  error: InferenceError,
): PayloadOf<typeof inferenceFailed> {
  return {
    type: 'inference_failed',
    requestId,
    provider: error.provider,
    model,
    category: error.category,
    message: error.message,
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  };
}
